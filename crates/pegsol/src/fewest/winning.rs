//! Fewest moves by the winning set: a shortest-path pass over every position that can still
//! reach the finish (see the parent module's docs).

use std::sync::OnceLock;
use std::time::Instant;

use rayon::prelude::*;

use crate::bitset::{Bits, Hole, Pegs, Word};
use crate::board::Board;
use crate::count::{analyse, winners_meeting, CountError, Winners};
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::key::CountKey;
use crate::problem::{Budget, Limits, Problem};
use crate::replay::replay;
use crate::space::{group_of, Space};
use crate::stop::Stop;
use crate::symmetry::Canonicalizer;
use crate::table::KeyMap;
use crate::width::with_width;

use super::forced::{forced_from, Forced};
use super::moves::{first_solution, move_count, MoveSolution, MovesOutcome, MovesReport};
use super::sorted::Sorted;

/// The winning representatives of every level (canonical under `canon`, from
/// [`group_of`]): from both ends when the finish is one position, else from the forward
/// count's backward pass.
pub(crate) fn winners_of<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    max_memory: usize,
    deadline: Stop<'_>,
) -> std::result::Result<Winners<K>, CountError> {
    winners_meeting(problem, canon, max_memory, deadline).unwrap_or_else(|| {
        analyse(
            problem,
            Some(canon),
            &Space::<K>::new(problem, true),
            None,
            max_memory,
            None,
            deadline,
            &|_| {},
        )
        .map(|(_, w)| w)
    })
}

/// Every position reachable from a problem's start that can still reach its finish, kept up
/// to the symmetries fixing both: built once, it answers "does this jump keep the game
/// winnable?" for every position of the game with one lookup.
pub struct WinningSet {
    problem: Problem,
    /// The winning representatives in keys of the board's width.
    levels: Box<dyn Levels>,
    /// Per level, per representative: the chance that random play wins (made on first use).
    odds: OnceLock<Vec<Vec<f64>>>,
}

/// A winning set's levels, whatever the width of their keys.
trait Levels: Send + Sync {
    fn classes(&self) -> u64;
    /// Where `position`, `start - position.count()` jumps from a start of `start` pegs, is
    /// kept: its level and its index there; `None` when it does not win.
    fn find(&self, start: u32, position: Pegs) -> Option<(usize, usize)>;
    /// Per level, per representative in level order: the probability that uniformly random
    /// legal jumps from it reach a finish (`goal` pegs: the last level, where it is 1).
    fn random_play(&self, board: &Board, start: u32, goal: u32) -> Vec<Vec<f64>>;
    /// [`forced_from`] `position` of the set's game (`start` pegs at its start, finishes
    /// `targets` of `goal` pegs).
    fn forced(
        &self,
        game: Game<'_>,
        position: Pegs,
        stop: Stop<'_>,
        max_memory: usize,
    ) -> Option<Forced>;
}

/// What [`Levels::forced`] needs of the set's game.
struct Game<'a> {
    board: &'a Board,
    targets: &'a [Pegs],
    start: u32,
    goal: u32,
}

/// The winning representatives of every level in keys of `K`, canonical under `canon`.
struct Sets<K: CountKey> {
    canon: Canonicalizer<K>,
    /// Level `k`: the winning representatives `k` jumps from the start, in increasing order.
    levels: Vec<Sorted<K>>,
}

impl<K: CountKey> Sets<K> {
    /// The winning set of `problem` in keys of `K`; `Ok(None)` when the budget runs out.
    fn of(problem: &Problem, limits: &Limits) -> Result<Option<Sets<K>>> {
        let deadline = limits.stop(Instant::now());
        let canon = group_of::<K>(problem);
        match winners_of(problem, &canon, limits.max_memory, deadline) {
            Ok(mut levels) => {
                // Sorted for binary search, whatever order the counter kept them in.
                levels.par_iter_mut().for_each(|l| l.sort_unstable());
                let levels = levels.into_par_iter().map(Sorted::new).collect();
                Ok(Some(Sets { canon, levels }))
            }
            Err(e) => count_error(e).map(|_| None),
        }
    }
}

impl<K: CountKey> Sets<K> {
    /// [`Levels::find`] for a position in keys of `K`.
    fn find_key(&self, start: u32, position: Bits<K>) -> Option<(usize, usize)> {
        let depth = start.checked_sub(position.count())? as usize;
        let key = self.canon.canonical(position).0;
        let index = self.levels.get(depth)?.find(&key)?;
        Some((depth, index))
    }
}

impl<K: CountKey> Levels for Sets<K> {
    fn classes(&self) -> u64 {
        self.levels.iter().map(|l| l.keys().len() as u64).sum()
    }

    fn find(&self, start: u32, position: Pegs) -> Option<(usize, usize)> {
        self.find_key(start, position.resize())
    }

    fn forced(
        &self,
        game: Game<'_>,
        position: Pegs,
        stop: Stop<'_>,
        max_memory: usize,
    ) -> Option<Forced> {
        forced_from(
            game.board,
            game.targets,
            position.resize::<K>(),
            game.goal,
            |p| self.find_key(game.start, p).is_some(),
            stop,
            max_memory,
        )
    }

    fn random_play(&self, board: &Board, start: u32, goal: u32) -> Vec<Vec<f64>> {
        let jumps = board.jumps();
        let jump_images: Option<Vec<_>> = jumps
            .iter()
            .map(|j| self.canon.images(j.holes::<K>()))
            .collect();
        let mut table: Vec<Vec<f64>> = vec![Vec::new(); self.levels.len()];
        for depth in (0..self.levels.len()).rev() {
            if start - depth as u32 <= goal {
                // A finish: the game is won on reaching it.
                table[depth] = vec![1.0; self.levels[depth].keys().len()];
                continue;
            }
            let (next, odds) = match (self.levels.get(depth + 1), table.get(depth + 1)) {
                (Some(n), Some(o)) => (Some(n), o.as_slice()),
                _ => (None, &[][..]),
            };
            // P(p) = the mean of P over p's legal jumps, a losing child counting 0; the
            // symmetries kept map legal jumps onto legal jumps, so P is one per class.
            table[depth] = self.levels[depth]
                .keys()
                .par_iter()
                .map(|&k| {
                    let p = Bits::<K>(k);
                    // A child's images are its parent's xor its jump's (a symmetry permutes
                    // holes), where the group has image tables.
                    let images = jump_images
                        .as_ref()
                        .and_then(|each| Some((self.canon.images(p)?, each)));
                    let (mut legal, mut sum) = (0u32, 0.0f64);
                    for (n, j) in jumps.iter().enumerate() {
                        if j.is_legal(p) {
                            legal += 1;
                            let child = match &images {
                                Some((own, each)) => {
                                    K::from_low(Canonicalizer::<K>::least_of(own, &each[n]))
                                }
                                None => self.canon.canonical(j.apply(p)).0,
                            };
                            if let Some(i) = next.and_then(|n| n.find(&child)) {
                                sum += odds[i];
                            }
                        }
                    }
                    if legal == 0 {
                        0.0
                    } else {
                        sum / f64::from(legal)
                    }
                })
                .collect();
        }
        table
    }
}

/// A count's error as the library's: `Ok` with the budget that ran out (an undecided answer).
fn count_error(e: CountError) -> Result<Budget> {
    match e {
        CountError::Timeout => Ok(Budget::Time),
        CountError::Memory { .. } => Ok(Budget::Memory),
        CountError::Overflow => Err(Error::CountOverflow),
        CountError::Io(e) | CountError::Cluster(e) => Err(Error::Io(e)),
        CountError::Internal(what) => Err(Error::Internal(what)),
    }
}

impl WinningSet {
    /// The winning set of `problem` within `limits`; `Ok(None)` when the budget runs out.
    ///
    /// # Errors
    ///
    /// [`Error::CountOverflow`] or [`Error::Io`] as the counter gives them.
    pub fn of(problem: &Problem, limits: &Limits) -> Result<Option<WinningSet>> {
        let levels = with_width!(problem.board(), W => {
            Sets::<W>::of(problem, limits)?.map(|s| Box::new(s) as Box<dyn Levels>)
        });
        Ok(levels.map(|levels| WinningSet {
            problem: problem.clone(),
            levels,
            odds: OnceLock::new(),
        }))
    }

    /// The problem the set belongs to.
    #[must_use]
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Winning positions up to symmetry.
    #[must_use]
    pub fn classes(&self) -> u64 {
        self.levels.classes()
    }

    /// Whether `position` can still reach the finish. Exact for every position reached from
    /// the problem's start by legal jumps (the set holds all of those that win); a position not
    /// reachable from the start is never in it.
    #[must_use]
    pub fn wins<W: Word>(&self, position: Bits<W>) -> bool {
        let start = self.problem.start::<W>().count();
        self.levels.find(start, position.resize()).is_some()
    }

    /// The probability that a player who picks each jump uniformly at random among the legal
    /// ones, from `position` on, reaches a finish (the game is won on reaching one, so with
    /// a finish of N pegs anywhere play stops at N pegs). 0 for a position that cannot win.
    /// Exact for the positions reached from the problem's start, as [`WinningSet::wins`].
    ///
    /// It is `P(p) = (1/J(p)) * sum of P(j(p))` over the `J(p)` legal jumps `j`, `P` of a
    /// finish 1 and of a losing position 0, filled once from the finish back to the start
    /// over the winning representatives (a symmetry keeping start and finish maps legal jumps
    /// onto legal jumps, so `P` is one per class). In `f64`: each level is a mean of at most
    /// J non-negative terms, so the relative error is below `L * (J + 1) * 2^-53` for `L`
    /// levels and `J` jumps on the board (3e-13 on the English board).
    #[must_use]
    pub fn random_win<W: Word>(&self, position: Bits<W>) -> f64 {
        let start = self.problem.start::<W>().count();
        let Some((depth, index)) = self.levels.find(start, position.resize()) else {
            return 0.0;
        };
        let goal = self
            .problem
            .targets::<[u64; 4]>()
            .first()
            .map_or(1, |t| t.count());
        let odds = self
            .odds
            .get_or_init(|| self.levels.random_play(self.problem.board(), start, goal));
        odds[depth][index]
    }
}

impl WinningSet {
    /// A winning line from the problem's start: at every position the first legal jump (in
    /// the board's jump order) whose child still wins, so that every position on it is in the
    /// set. `None` when the start cannot win. The caller replays it: a set that held a
    /// position it should not would show there, not in a printed line.
    #[must_use]
    pub fn line(&self) -> Option<Vec<Jump>> {
        let mut position: Pegs = self.problem.start();
        if !self.wins(position) {
            return None;
        }
        let goal = self
            .problem
            .targets::<[u64; 4]>()
            .first()
            .map_or(1, |t| t.count());
        let jumps = self.problem.board().jumps();
        let mut line = Vec::with_capacity(position.count().saturating_sub(goal) as usize);
        while position.count() > goal {
            let &next = jumps
                .iter()
                .find(|j| j.is_legal(position) && self.wins(j.apply(position)))?;
            position = next.apply(position);
            line.push(next);
        }
        Some(line)
    }

    /// What every winning line from `position` passes through: the winning positions
    /// reachable from it counted by jumps from it, and the levels where there is only one
    /// (see [`Forced`]). Exact for the positions reached from the problem's start, as
    /// [`WinningSet::wins`]; for a position that cannot win, no counts. `None` when `limits`
    /// run out (a level that would pass `max_memory`, or the timeout).
    #[must_use]
    pub fn forced<W: Word>(&self, position: Bits<W>, limits: &Limits) -> Option<Forced> {
        let targets: Vec<Pegs> = self.problem.targets();
        let game = Game {
            board: self.problem.board(),
            targets: &targets,
            start: self.problem.start::<W>().count(),
            goal: targets.first().map_or(1, |t| t.count()),
        };
        let stop = limits.stop(Instant::now());
        self.levels
            .forced(game, position.resize(), stop, limits.max_memory)
    }
}

/// [`fewest_moves`](super::fewest_moves) by the other method: the shortest-path pass over the whole winning set
/// (see the module docs). Slower and larger than the meeting, but it also reports how many
/// winning positions there are, which the golden tests check against published counts.
///
/// # Errors
///
/// [`Error::Internal`] when an answer fails its own check (a bug), [`Error::CountOverflow`]
/// when a path count passes `u128`, [`Error::Io`] when scratch files fail.
pub fn fewest_moves_by_winning_set(problem: &Problem, limits: &Limits) -> Result<MovesReport> {
    with_width!(problem.board(), W => fewest_in::<W>(problem, limits))
}

/// [`fewest_moves_by_winning_set`] in keys of `K`.
fn fewest_in<K: CountKey>(problem: &Problem, limits: &Limits) -> Result<MovesReport> {
    let started = Instant::now();
    let deadline = limits.stop(started);
    let (best, lower) = match first_solution(problem, limits, started)? {
        Ok(found) => found,
        Err(done) => return Ok(done),
    };
    let report = |outcome, lower_bound, winning_classes| MovesReport {
        winning_classes,
        ..MovesReport::new(outcome, lower_bound, started)
    };
    let undecided = |budget| MovesOutcome::Undecided {
        budget,
        best: Some(best.clone()),
    };
    let canon = group_of::<K>(problem);
    let found = winners_of(problem, &canon, limits.max_memory, deadline);
    let winners = match found {
        Ok(w) => w,
        Err(e) => return Ok(report(undecided(count_error(e)?), lower, 0)),
    };
    let classes = winners.iter().map(|l| l.len() as u64).sum();
    let Some(tables) = Tables::new(problem, &canon, winners, deadline) else {
        return Ok(report(undecided(Budget::Time), lower, classes));
    };
    match tables.solution(problem) {
        Some(found) => {
            let moves = found.moves;
            Ok(report(MovesOutcome::Optimal(found), moves, classes))
        }
        // The first search found a solution, so the winning set holds the start.
        None => Err(Error::Internal("the winning set lost a solvable start")),
    }
}

/// "No way to the finish" in the move tables.
const NONE: u8 = u8::MAX;

/// The winning set with `M` for each representative.
struct Tables<'c, K: CountKey> {
    canon: &'c Canonicalizer<K>,
    /// Jumps grouped by starting hole.
    by_from: Vec<Vec<Jump>>,
    all: Vec<Jump>,
    winners: Winners<K>,
    /// `M` per winner, parallel to `winners`.
    rest: Vec<Vec<u8>>,
    /// Per level, winner key to index: a hash lookup is one cache miss where a binary search
    /// of a level is a dozen.
    index: Vec<KeyMap<u32, Bits<K>>>,
    start_pegs: u32,
    goal: u32,
}

impl<'c, K: CountKey> Tables<'c, K> {
    /// Fills `M` from the finish back to the start; `None` when the deadline passes.
    fn new(
        problem: &Problem,
        canon: &'c Canonicalizer<K>,
        winners: Winners<K>,
        deadline: Stop<'_>,
    ) -> Option<Tables<'c, K>> {
        let board = problem.board();
        let mut by_from = vec![Vec::new(); board.hole_count()];
        for &j in board.jumps() {
            by_from[j.from().index()].push(j);
        }
        let goal = problem.targets().first().map_or(1, |t: &Bits<K>| t.count());
        let mut t = Tables {
            canon,
            by_from,
            all: board.jumps().to_vec(),
            rest: winners.iter().map(|l| vec![NONE; l.len()]).collect(),
            index: winners.iter().map(|l| index_of(l)).collect(),
            winners,
            start_pegs: problem.start::<K>().count(),
            goal,
        };
        for depth in (0..t.winners.len()).rev() {
            if deadline.passed() {
                return None;
            }
            if t.start_pegs - depth as u32 == goal {
                t.rest[depth].fill(0);
                continue;
            }
            let level: Vec<u8> = t.winners[depth]
                .par_iter()
                .map(|&k| t.after_move(Bits(k)).0)
                .collect();
            t.rest[depth] = level;
        }
        Some(t)
    }

    /// `M(p)` for a winning `p` whose deeper levels are filled, with a jump achieving it.
    fn after_move(&self, p: Bits<K>) -> (u8, Option<Jump>) {
        let mut best = (NONE, None);
        for &j in &self.all {
            if j.is_legal(p) {
                let g = self.continuing(j.apply(p), j.to());
                if g < best.0 {
                    best = (g, Some(j));
                }
            }
        }
        best
    }

    /// `M(p)` looked up; [`NONE`] when `p` cannot win.
    fn lookup(&self, p: Bits<K>) -> u8 {
        let depth = (self.start_pegs - p.count()) as usize;
        let key = self.canon.canonical(p);
        self.index
            .get(depth)
            .and_then(|level| level.get(key))
            .map_or(NONE, |i| self.rest[depth][i as usize])
    }

    /// `G(p, h)`: the fewest moves from `p` when the peg on `h` may continue for free.
    fn continuing(&self, p: Bits<K>, h: Hole) -> u8 {
        let m = self.lookup(p);
        if m == NONE {
            return NONE;
        }
        if p.count() == self.goal {
            return 0;
        }
        let mut best = m.saturating_add(1);
        for &j in &self.by_from[h.index()] {
            if best == 0 {
                break;
            }
            if j.is_legal(p) {
                best = best.min(self.continuing(j.apply(p), j.to()));
            }
        }
        best
    }

    /// Rebuilds an optimal solution forward, replays it and recounts its moves.
    fn solution(&self, problem: &Problem) -> Option<MoveSolution> {
        let mut p: Bits<K> = problem.start();
        let mut jumps = Vec::new();
        let total = if p.count() == self.goal {
            0
        } else {
            self.lookup(p).checked_add(1)?
        };
        let (mut left, mut last): (u8, Option<Hole>) = (total, None);
        while p.count() > self.goal {
            // Continue the same peg when that keeps the count, else start a move.
            let cont = last.and_then(|h| {
                self.by_from[h.index()]
                    .iter()
                    .copied()
                    .find(|&j| j.is_legal(p) && self.continuing(j.apply(p), j.to()) == left)
            });
            let j = match cont {
                Some(j) => j,
                None => {
                    let (m, j) = self.after_move(p);
                    if m == NONE || m + 1 != left {
                        return None;
                    }
                    left = m;
                    j?
                }
            };
            jumps.push(j);
            p = j.apply(p);
            last = Some(j.to());
        }
        let end = replay(problem.board(), problem.start(), &jumps).ok()?;
        let moves = move_count(&jumps);
        (problem.targets::<K>().contains(&end) && moves == u32::from(total)).then_some(
            MoveSolution {
                jumps,
                moves,
                finish: end.resize(),
            },
        )
    }
}

/// A level's keys mapped to their positions in it.
fn index_of<K: CountKey>(level: &[K]) -> KeyMap<u32, Bits<K>> {
    let mut index = KeyMap::with_capacity(level.len());
    for (i, &k) in level.iter().enumerate() {
        // Sized for the level: every insert fits.
        let _ = index.insert(Bits(k), i as u32);
    }
    index
}
