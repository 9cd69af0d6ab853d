//! Fewest moves by meeting in the middle: breadth first by moves from the starts, and by moves
//! of the reverse game from the finishes, until the two searches meet.
//!
//! # Method
//!
//! A move is a chain of jumps by one peg, so the positions one move away are the ends of every
//! chain (every prefix counts: a peg may stop anywhere). `F(a)` is the set of positions first
//! reached in `a` moves from any start; `B(b)` the set of positions from which some finish is
//! first reachable in `b` moves, found by undoing chains from the finishes (an undone jump puts
//! the jumped peg back). Both are kept up to the symmetries that map the starts onto themselves
//! and the finishes onto themselves.
//!
//! The invariant is that no position lies in both `F(<= a)` and `B(<= b)`: a solution of `m`
//! moves passes, after `min(a, m)` moves, through a position of `F(<= a)` that is at most
//! `m - a` moves from a finish, so `m > a + b`. Each step grows the side that is cheaper to grow
//! (frontier size times the time per position measured on that side) and checks every new
//! position against the other side; the first contact gives a solution of exactly `a + b + 1`
//! moves, and it is the fewest. When a frontier runs dry first, the finishes cannot be reached.
//!
//! Unlike [`fewest_moves_by_winning_set`](crate::fewest::fewest_moves_by_winning_set), which
//! searches the whole winning set of one problem, this never looks further than half a solution from either end, and many
//! starts and finishes make one search: the *basic game* of a board (every start with one hole
//! empty, every finish with one peg) is a single run. When a budget runs out, `a + b + 1` is
//! still a proven lower bound.
//!
//! The solution is rebuilt from the level tables (walking back to a start through `F`, forward
//! to a finish through `B`), replayed by the independent checker and its moves recounted.

mod report;
mod search;
#[cfg(test)]
mod tests;

use std::time::Instant;

use super::bound::{MoveBound, Origins};
use super::chains::Chains;
use super::moves::move_count;
use crate::bitset::{Bits, Pegs, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::problem::{Limits, Problem};
use crate::replay::replay;
use crate::width::with_width;
use search::{Meet, Prune, LEAST_ALLOWANCE};

pub use report::{MeetOutcome, MeetProgress, MeetReport, MeetSolution};

/// Every position of `board` with exactly one hole empty: the starts of its basic game.
#[must_use]
pub fn single_vacancies<W: Word>(board: &Board) -> Vec<Bits<W>> {
    board
        .each_hole()
        .map(|h| board.holes().without(h))
        .collect()
}

/// The starts and finishes a meeting searches between: the finishes of a start's own
/// position class (a jump keeps the class, so no other can be reached), and the starts that
/// have one; sorted, without repeats.
pub(super) fn ends_of(problem: &Problem) -> (Vec<Pegs>, Vec<Pegs>) {
    let classes = problem.board().classes();
    let mut starts: Vec<Pegs> = problem.starts();
    let mut targets: Vec<Pegs> = problem.targets();
    let start_classes: Vec<_> = starts.iter().map(|&s| classes.class_of(s)).collect();
    targets.retain(|&t| start_classes.contains(&classes.class_of(t)));
    starts.retain(|&s| {
        targets
            .iter()
            .any(|&t| classes.class_of(t) == classes.class_of(s))
    });
    for list in [&mut starts, &mut targets] {
        list.sort_unstable();
        list.dedup();
    }
    (starts, targets)
}

/// The symmetries of `board` that map the starts onto themselves and the finishes onto
/// themselves: the group both ends of a search by moves are kept up to.
pub(super) fn group_of_ends(board: &Board, starts: &[Pegs], targets: &[Pegs]) -> Vec<usize> {
    let sym = board.symmetries();
    let keeps_targets = sym.stabilizer(targets);
    let mut group = sym.stabilizer(starts);
    group.retain(|g| keeps_targets.contains(g));
    group
}

/// The fewest moves from any of the problem's starts to its finish, proved by meeting in the
/// middle, on a board of any size (positions of the fewest words that hold it).
/// With every single vacancy as the starts and `Finish::AnyOne` this is the shortest
/// solution of the board's basic game (OEIS A127500 on triangles).
///
/// `F(a)` holds the positions first reached in `a` moves from a start (a move ends wherever its
/// peg may stop), `B(b)` those first able to reach a finish in `b` moves (found by undoing
/// chains from the finishes), both up to the symmetries that keep the starts and the finishes.
/// The invariant is that no position is in both `F(<= a)` and `B(<= b)`, which proves every
/// solution longer than `a + b` moves. Each step grows the side that is cheaper to grow and
/// checks its new positions against the other side; the first contact is a solution of
/// exactly `a + b + 1` moves. When one side's next level does not fit the memory budget, the
/// other side goes on alone (raising the bound) until it does not fit either. A start can
/// only reach finishes of its own position class, so the others are dropped first. The
/// solution is rebuilt from the level tables, replayed by the independent checker and its
/// moves recounted.
///
/// ```
/// use pegsol::{Board, Finish, Limits, Problem};
/// use pegsol::fewest::{fewest_moves_meeting, single_vacancies, MeetOutcome};
/// let board = Board::builtin("triangle5").unwrap();
/// let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
/// let report = fewest_moves_meeting(&basic, &Limits::default()).unwrap();
/// let MeetOutcome::Optimal(s) = report.outcome else { panic!() };
/// assert_eq!((s.moves, report.lower_bound), (9, 9));
/// ```
///
/// # Errors
///
/// A solution that fails its independent check (a bug, [`Error::Internal`]).
pub fn fewest_moves_meeting(problem: &Problem, limits: &Limits) -> Result<MeetReport> {
    fewest_moves_meeting_with(problem, limits, None, &|_| {})
}

/// [`fewest_moves_meeting`], calling `progress` after every chunk of every level, and given
/// a line already known (`known`, from one of the starts to a finish): then only shorter
/// solutions are sought, and the Merson-region bounds ([`MoveBound`]) prune both sides: a
/// position `d` moves from one end whose bound to the other end passes `known.moves - 1 - d`
/// is not kept. When the sides meet, the solution is the fewest; when they reach `a + b =
/// known.moves - 1` (or run dry) without meeting, none is shorter and the known line is the
/// answer.
///
/// # Errors
///
/// As for [`fewest_moves_meeting`]; a known line that does not replay from one of the starts
/// to a finish with its moves is [`Error::Internal`] too.
pub fn fewest_moves_meeting_with(
    problem: &Problem,
    limits: &Limits,
    known: Option<Known<'_>>,
    progress: &(dyn Fn(&MeetProgress) + Sync),
) -> Result<MeetReport> {
    meeting(problem, limits, known, progress, LEAST_ALLOWANCE)
}

/// A line already known, given to [`fewest_moves_meeting_with`]: only shorter solutions are
/// sought.
#[derive(Clone, Copy, Debug)]
pub struct Known<'a> {
    /// The line, from one of the starts to a finish.
    pub line: &'a MeetSolution,
    /// Whether to deepen by steps: searches for at most `c` moves from the regions' bound
    /// up, each cheap while the bound leaves little slack (the basic game of a triangle);
    /// else one search for fewer moves than the line has (where the bound is far below the
    /// fewest, as on the English board, the searches by steps would repeat most of it).
    pub by_steps: bool,
}

/// [`fewest_moves_meeting_with`] with the least allowance of a level given (the tests make
/// it zero, so that levels are withdrawn and regrown often).
fn meeting(
    problem: &Problem,
    limits: &Limits,
    known: Option<Known<'_>>,
    progress: &(dyn Fn(&MeetProgress) + Sync),
    least_allowance: f64,
) -> Result<MeetReport> {
    let began = Instant::now();
    let board = problem.board();
    let (starts, targets) = ends_of(problem);
    let group = group_of_ends(board, &starts, &targets);
    let sym = board.symmetries();
    let finish = problem.finish();
    let checked = |s: &MeetSolution| -> Result<bool> {
        let end = replay(board, s.start, &s.jumps)?;
        Ok(end == s.finish
            && targets.contains(&end)
            && starts.contains(&s.start)
            && move_count(&s.jumps) == s.moves)
    };
    let by_steps = known.is_some_and(|k| k.by_steps);
    let known = known.map(|k| k.line);
    if let Some(k) = known {
        if !checked(k)? {
            return Err(Error::Internal("a known line failed its replay"));
        }
    }
    // The starts' Merson regions: a proven lower bound before any search.
    let least = MoveBound::<[u64; 4]>::new(board).least(&starts, &finish);
    let mut report = match known {
        // The regions alone prove the known line shortest.
        Some(k) if k.moves <= least => MeetReport {
            outcome: MeetOutcome::Optimal(k.clone()),
            lower_bound: k.moves,
            forward: Vec::new(),
            backward: Vec::new(),
            depths: (0, 0),
            pruned_to: None,
            symmetries: 0,
            peak_bytes: 0,
            millis: 0,
        },
        _ => with_width!(board, W => {
            let narrow = |list: &[Pegs]| list.iter().map(|s| s.resize()).collect::<Vec<Bits<W>>>();
            let (starts, targets) = (narrow(&starts), narrow(&targets));
            let chains = Chains::new(board, &starts, &targets);
            let canon = sym.canonicalizer(&group);
            // Built once for every search of the deepening.
            let (bound, origins) = (MoveBound::new(board), Origins::of(board, &starts));
            let search = |prune: Option<Prune<'_, W>>, proven: u32| {
                let mut meet = Meet::new(&chains, &canon, limits, began, progress);
                meet.least_allowance = least_allowance;
                meet.prune = prune;
                meet.proven = proven;
                let report = meet.run(&starts, &targets);
                report.map(|r| (r, meet.kept, meet.pruned))
            };
            match known {
                None => search(None, least)?.0,
                Some(k) => deepen(k, least, by_steps, &|cap, seek, proven| {
                    let prune = Prune {
                        bound: &bound,
                        origins: &origins,
                        finish,
                        cap,
                        seek,
                    };
                    search(Some(prune), proven)
                })?,
            }
        }),
    };
    report.symmetries = group.len();
    if matches!(report.outcome, MeetOutcome::Undecided(_)) {
        report.lower_bound = report.lower_bound.max(least);
    }
    report.millis = began.elapsed().as_millis() as u64;
    if let MeetOutcome::Optimal(s) = &report.outcome {
        // The independent check: replay, land on a finish, recount the moves.
        if !checked(s)? || s.moves != report.lower_bound {
            return Err(Error::Internal("a shortest solution failed its replay"));
        }
    }
    Ok(report)
}

/// The meeting pruned by the bounds, given a known line of `known.moves`: searches that
/// each rule out every solution of at most `cap` moves and seek one of `cap + 1`, `cap` from
/// the regions' bound up (cheap while the bound leaves little slack), until one meets (the
/// fewest) or `cap` reaches `known.moves - 1` (then the known line is the fewest). Where a
/// search pruned fewer than three new positions for each it kept, the bound is not worth
/// deepening by steps and the last search (`cap = known.moves - 1`) comes next; without
/// `by_steps` it comes first. `search(cap, seek, proven)` runs one search and says how many
/// new positions it kept and pruned.
fn deepen(
    known: &MeetSolution,
    least: u32,
    by_steps: bool,
    search: &dyn Fn(u32, u32, u32) -> Result<(MeetReport, u64, u64)>,
) -> Result<MeetReport> {
    let last = known.moves - 1;
    let mut cap = if by_steps { least.min(last) } else { last };
    let mut proven = least;
    loop {
        let seek = if cap < last { cap + 1 } else { cap };
        let (mut report, kept, pruned) = search(cap, seek, proven)?;
        match report.outcome {
            MeetOutcome::Impossible => {
                // None of at most `cap` moves.
                proven = cap + 1;
                if cap == last {
                    report.outcome = MeetOutcome::Optimal(known.clone());
                    report.lower_bound = known.moves;
                    return Ok(report);
                }
                cap = if pruned < 3 * kept { last } else { cap + 1 };
            }
            _ => return Ok(report),
        }
    }
}
