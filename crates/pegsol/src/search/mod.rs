//! The solver: a depth-first search with a bounded table of dead positions.
//!
//! Compared with the seed's memoized search it adds, in order of effect:
//! - instant refutation by position class and by pagoda functions before any search;
//! - canonical forms under the finish's stabilizer in the board's symmetry group, so one dead
//!   entry stands for every symmetric position;
//! - pagoda pruning at every node (a pagoda total never rises, so a child whose total is below
//!   the finish's is cut without being entered);
//! - a compact open-addressing table of 64-bit keys, bounded by the memory budget: when it is
//!   full the answer is "undecided within budget", never an out-of-memory kill;
//! - a race between the problem and its dual (the complement game played backwards) on two
//!   threads: whichever decides first answers for both.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bitset::{Bits, Hole};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::pagoda::Pagoda;
use crate::replay::replay;

mod beam;
mod dfs;

use beam::{Beam, BeamEnd};

pub(crate) use dfs::DeadSet;
use dfs::{Dfs, Direction, PROBE_NODES};

/// What the last pegs must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Exactly these holes hold pegs at the end.
    Holes(Bits),
    /// One peg, anywhere.
    AnyOne,
    /// This many pegs, anywhere (for "how few pegs can be left").
    Pegs(u32),
}

/// Most finishing positions a [`Finish::Pegs`] may stand for.
pub const MAX_FINISHES: u64 = 100_000;

/// A problem: a board, a starting position and a finish. Built only by [`Problem::new`].
#[derive(Clone, Copy, Debug)]
pub struct Problem<'b> {
    board: &'b Board,
    start: Bits,
    finish: Finish,
}

impl<'b> Problem<'b> {
    /// A checked problem: the start and finish use only the board's holes, and the finish has
    /// at least one and at most as many pegs as the start.
    pub fn new(board: &'b Board, start: Bits, finish: Finish) -> Result<Problem<'b>> {
        board.position(start)?;
        if let Finish::Holes(f) = finish {
            board.position(f)?;
            if f.is_empty() {
                return Err(Error::EmptyFinish);
            }
            if f.count() > start.count() {
                return Err(Error::FinishTooLarge {
                    finish: f.count(),
                    start: start.count(),
                });
            }
        } else {
            let n = match finish {
                Finish::Pegs(n) => n,
                _ => 1,
            };
            if n == 0 {
                return Err(Error::EmptyFinish);
            }
            if n > start.count() {
                return Err(Error::FinishTooLarge {
                    finish: n,
                    start: start.count(),
                });
            }
            let holes = u64::from(board.holes().count());
            // C(holes, n), stopping as soon as it passes the limit.
            let mut subsets = 1u64;
            for i in 0..u64::from(n) {
                subsets = subsets * (holes - i) / (i + 1);
                if subsets > MAX_FINISHES {
                    return Err(Error::TooManyFinishes { pegs: n, holes });
                }
            }
        }
        Ok(Problem {
            board,
            start,
            finish,
        })
    }

    /// The board's conventional problem: its usual start and [`Problem::default_finish`].
    pub fn conventional(board: &'b Board) -> Result<Problem<'b>> {
        let start = board
            .start()
            .ok_or_else(|| Error::NoStart(board.name().to_string()))?;
        Problem::new(board, start, Problem::default_finish(board, start))
    }

    /// The default finish: the single starting vacancy when there is one, otherwise any one peg.
    #[must_use]
    pub fn default_finish(board: &Board, start: Bits) -> Finish {
        let vacant = board.holes().minus(start);
        if vacant.count() == 1 {
            Finish::Holes(vacant)
        } else {
            Finish::AnyOne
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'b Board {
        self.board
    }

    /// The starting pegs.
    #[must_use]
    pub const fn start(&self) -> Bits {
        self.start
    }

    /// The finish.
    #[must_use]
    pub const fn finish(&self) -> Finish {
        self.finish
    }

    /// The final positions that would count as solved.
    #[must_use]
    pub fn targets(&self) -> Vec<Bits> {
        match self.finish {
            Finish::Holes(f) => vec![f],
            Finish::AnyOne => self.board.holes().iter().map(Hole::bit).collect(),
            Finish::Pegs(n) => {
                // Every n-subset of the holes, by choosing holes in increasing order.
                let holes: Vec<Hole> = self.board.holes().iter().collect();
                let mut out = Vec::new();
                let mut pick: Vec<usize> = (0..n as usize).collect();
                if pick.len() > holes.len() {
                    return out;
                }
                loop {
                    out.push(pick.iter().fold(Bits::EMPTY, |s, &i| s.with(holes[i])));
                    // The rightmost index that can still move right.
                    let Some(i) = (0..pick.len())
                        .rev()
                        .find(|&i| pick[i] < holes.len() - pick.len() + i)
                    else {
                        break;
                    };
                    pick[i] += 1;
                    for j in i + 1..pick.len() {
                        pick[j] = pick[j - 1] + 1;
                    }
                }
                out
            }
        }
    }
}

/// Budgets for one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most bytes the dead-position table may use.
    pub max_memory: usize,
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Which searches to run: both by default.
    pub engines: Engines,
    /// Race the dual problem on a second thread when the finish is one exact position.
    pub race_dual: bool,
    /// Prune with pagoda functions (off only to measure what they save).
    pub pagoda: bool,
    /// Canonicalise under the finish's symmetry stabilizer (off only to measure it).
    pub symmetry: bool,
    /// Set from elsewhere (a server whose client went away) to stop the search; the answer
    /// is then undecided, as if the time had run out.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Whether the search must stop now: the deadline has passed or the work was cancelled.
    pub(crate) fn spent(&self, deadline: Option<Instant>) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_memory: 4 << 30,
            timeout: None,
            engines: Engines::Portfolio,
            race_dual: true,
            pagoda: true,
            symmetry: true,
            cancel: None,
        }
    }
}

/// The searches [`solve`] runs once the quick probe has not decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engines {
    /// The exact and the guided search side by side; the first to decide answers.
    #[default]
    Portfolio,
    /// The exact depth-first search alone (with its dual).
    Exact,
    /// The guided beam search alone (no probe either): it proves impossibility only when
    /// it never has to cut a level.
    Guided,
}

/// Search effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions entered.
    pub nodes: u64,
    /// Positions proved dead and stored.
    pub dead: u64,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Why a problem is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The start and every allowed finish lie in different position classes.
    Class,
    /// A pagoda function totals less on the start than on every allowed finish.
    Pagoda,
    /// Every line of play was searched.
    Exhausted,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Class => "position class",
            Reason::Pagoda => "pagoda function",
            Reason::Exhausted => "exhausted search",
        })
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The timeout passed.
    Time,
    /// The dead-position table reached the memory budget.
    Memory,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Time => "time",
            Budget::Memory => "memory",
        })
    }
}

/// The answer to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A sequence of jumps from the start to `finish`, already replayed by [`replay`].
    Solved {
        /// The jumps in order.
        jumps: Vec<Jump>,
        /// The final position reached.
        finish: Bits,
    },
    /// No sequence exists.
    Impossible(Reason),
    /// The search stopped when a budget ran out.
    Undecided(Budget),
}

/// An outcome with the effort it took.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub outcome: Outcome,
    /// The effort.
    pub stats: Stats,
}

/// Solves `problem` within `limits`.
///
/// ```
/// use pegsol::{Board, Outcome, Problem, Limits, solve};
/// let board = Board::builtin("english").unwrap();
/// let report = solve(&Problem::conventional(&board).unwrap(), &Limits::default());
/// match report.outcome {
///     Outcome::Solved { jumps, finish } => {
///         assert_eq!(jumps.len(), 31);
///         assert_eq!(board.labels(finish), ["d4"]);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[must_use]
pub fn solve(problem: &Problem, limits: &Limits) -> Report {
    solve_with_progress(problem, limits, &|_| {})
}

/// [`solve`], calling `progress` now and then with the effort so far.
#[must_use]
pub fn solve_with_progress(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Report {
    let began = Instant::now();
    let stop = AtomicBool::new(false);
    let deadline = limits.timeout.map(|t| began + t);
    let board = problem.board();
    let classes = board.classes();
    let class = classes.class_of(problem.start);
    let mut targets: Vec<Bits> = problem
        .targets()
        .into_iter()
        .filter(|&t| classes.class_of(t) == class)
        .collect();
    let finish = |outcome, nodes, dead| Report {
        outcome,
        stats: Stats {
            nodes,
            dead,
            millis: began.elapsed().as_millis() as u64,
        },
    };
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Class), 0, 0);
    }
    if targets.contains(&problem.start) {
        return finish(
            Outcome::Solved {
                jumps: Vec::new(),
                finish: problem.start,
            },
            0,
            0,
        );
    }
    // The budget holds from the first step: set-up (pagoda stock, LP fits) is checked too.
    let spent = |nodes, dead| finish(Outcome::Undecided(Budget::Time), nodes, dead);
    if limits.spent(deadline) {
        return spent(0, 0);
    }
    let stock = if limits.pagoda {
        Pagoda::library(board)
    } else {
        Vec::new()
    };
    // The stock of pagoda functions refutes some finishes for free.
    targets.retain(|&t| stock.iter().all(|p| p.total(problem.start) >= p.total(t)));
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Pagoda), 0, 0);
    }
    // A quick probe first: most solvable problems fall within a few thousand nodes of the
    // goal sweep, before fitting LPs or starting a second thread is worth its fixed cost.
    let quick = Direction {
        start: problem.start,
        targets: targets.clone(),
        reversed: false,
        start_halfway: false,
        functions: stock.clone(),
    };
    let mut probe = Dfs::new(
        board,
        &quick,
        1,
        limits,
        limits.max_memory,
        deadline,
        &stop,
        progress,
    );
    probe.node_limit = PROBE_NODES;
    // The guided search alone skips the probe, so that tests see its own answers.
    let probed = if limits.engines == Engines::Guided {
        Err(Budget::Time)
    } else {
        probe.run(problem.start, false)
    };
    let (probe_nodes, probe_dead) = (probe.nodes, probe.dead.len() as u64);
    if probed == Ok(false) {
        // The probe searched everything within its limit.
        return finish(
            Outcome::Impossible(Reason::Exhausted),
            probe_nodes,
            probe_dead,
        );
    }
    if probed == Ok(true) {
        let outcome = verified(problem, &targets, probe.path_jumps(false));
        return finish(outcome, probe_nodes, probe_dead);
    }
    drop(probe);
    stop.store(false, Ordering::Relaxed);
    if probed == Err(Budget::Time) && limits.spent(deadline) {
        return spent(probe_nodes, probe_dead);
    }
    // A pagoda function fitted to each finish (by LP) refutes it outright or prunes for it.
    let mut fitted: Vec<(Bits, Pagoda)> = Vec::new();
    if limits.pagoda && targets.len() <= 8 {
        for &t in &targets {
            if limits.spent(deadline) {
                return spent(probe_nodes, probe_dead);
            }
            if let Some(p) = Pagoda::fit(board, problem.start, t) {
                fitted.push((t, p));
            }
        }
    }
    let refuted = |t: Bits| {
        fitted
            .iter()
            .any(|(f, p)| *f == t && p.total(problem.start) < p.total(t))
    };
    targets.retain(|&t| !refuted(t));
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Pagoda), 0, 0);
    }
    let mut forward_functions = stock.clone();
    if targets.len() == 1 {
        forward_functions.extend(
            fitted
                .iter()
                .filter(|f| f.0 == targets[0])
                .map(|f| f.1.clone()),
        );
    }
    let forward = Direction {
        start: problem.start,
        targets: targets.clone(),
        reversed: false,
        start_halfway: false,
        functions: forward_functions,
    };
    let exact_on = limits.engines != Engines::Guided;
    let guided_on = limits.engines != Engines::Exact;
    let dfs_memory = if guided_on {
        limits.max_memory / 2
    } else {
        limits.max_memory
    };
    let run = |dir: &Direction, budget: usize| {
        let mut dfs = Dfs::new(
            board,
            dir,
            usize::MAX,
            limits,
            budget,
            deadline,
            &stop,
            progress,
        );
        let result = dfs.run(dir.start, dir.start_halfway);
        let stats = (dfs.nodes, dfs.dead.len() as u64);
        (result, dfs.path_jumps(dir.reversed), stats)
    };
    let exact = || {
        if !exact_on {
            return (Err(Budget::Time), Vec::new(), (0, 0));
        }
        if limits.race_dual && targets.len() == 1 {
            // The dual: jumps in the complement game are the original's jumps played backwards.
            let (dual_start, dual_target) = (
                board.holes().minus(targets[0]),
                board.holes().minus(problem.start),
            );
            let mut functions = stock.clone();
            if limits.pagoda && !limits.spent(deadline) {
                functions.extend(Pagoda::fit(board, dual_start, dual_target));
            }
            // When the dual is the problem itself (a central game), the second thread would
            // repeat the first one's search; it starts halfway round the orders instead.
            let same = dual_start == problem.start && dual_target == targets[0];
            let dual = Direction {
                start: dual_start,
                targets: vec![dual_target],
                reversed: true,
                start_halfway: same,
                functions,
            };
            let half = dfs_memory / 2;
            let (a, b) = rayon::join(|| run(&forward, half), || run(&dual, half));
            let total = (a.2 .0 + b.2 .0, a.2 .1 + b.2 .1);
            let decided = |r: &Result<bool, Budget>| r.is_ok();
            let pick = if decided(&a.0) || !decided(&b.0) {
                a
            } else {
                b
            };
            (pick.0, pick.1, total)
        } else {
            run(&forward, dfs_memory)
        }
    };
    // The guided search runs on a thread of its own beside the exact one (whose two
    // directions take the pool's threads); the first to decide stops the others.
    let guided = || {
        if !guided_on {
            return (BeamEnd::Stopped(Budget::Time), 0);
        }
        let memory = limits.max_memory - dfs_memory;
        let spent = || stop.load(Ordering::Relaxed) || limits.spent(deadline);
        let mut beam = Beam::new(
            board,
            problem.start,
            &targets,
            &forward.functions,
            memory / 2,
            &spent,
        );
        let end = beam.run(
            problem.start,
            FIRST_WIDTH,
            memory / 2,
            limits,
            deadline,
            &stop,
        );
        if matches!(end, BeamEnd::Found(_) | BeamEnd::Exhausted) {
            stop.store(true, Ordering::Relaxed);
        }
        (end, beam.nodes)
    };
    let ((result, jumps, (nodes, dead)), (guided, guided_nodes)) = std::thread::scope(|scope| {
        let beam = scope.spawn(guided);
        let exact = exact();
        (
            exact,
            beam.join().unwrap_or((BeamEnd::Stopped(Budget::Time), 0)),
        )
    });
    let nodes = nodes + guided_nodes;
    let outcome = match (guided, result) {
        (BeamEnd::Found(jumps), _) => verified(problem, &targets, jumps),
        (_, Ok(true)) => verified(problem, &targets, jumps),
        (BeamEnd::Exhausted, _) | (_, Ok(false)) => Outcome::Impossible(Reason::Exhausted),
        // Alone, the guided search's own budget is the one that ran out.
        (BeamEnd::Stopped(budget), _) if !exact_on => Outcome::Undecided(budget),
        (_, Err(budget)) => Outcome::Undecided(budget),
    };
    finish(outcome, nodes + probe_nodes, dead + probe_dead)
}

/// The guided search's first width; it grows fourfold per run.
const FIRST_WIDTH: usize = 256;

/// A found line, replayed by the independent checker before anyone sees it.
fn verified(problem: &Problem, targets: &[Bits], jumps: Vec<Jump>) -> Outcome {
    match replay(problem.board(), problem.start(), &jumps) {
        Ok(end) if targets.contains(&end) => Outcome::Solved { jumps, finish: end },
        _ => unreachable!("the solver produced a line that does not replay"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_pegs_anywhere_stands_for_every_subset() {
        let b = Board::builtin("rect:3x3").unwrap();
        let p = Problem::new(&b, b.holes(), Finish::Pegs(2)).unwrap();
        let mut t = p.targets();
        assert_eq!(t.len(), 36);
        assert!(t.iter().all(|s| s.count() == 2 && s.is_subset(b.holes())));
        t.sort_unstable_by_key(|s| s.raw());
        t.dedup();
        assert_eq!(t.len(), 36);
        assert_eq!(
            Problem::new(&b, b.holes(), Finish::Pegs(9))
                .unwrap()
                .targets(),
            [b.holes()]
        );
        assert!(Problem::new(&b, b.holes(), Finish::Pegs(10)).is_err());
    }

    #[test]
    fn english_centre() {
        let b = Board::builtin("english").unwrap();
        let r = solve(&Problem::conventional(&b).unwrap(), &Limits::default());
        let Outcome::Solved { jumps, finish } = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(jumps.len(), 31);
        assert_eq!(finish, b.hole("d4").unwrap().bit());
    }

    #[test]
    fn french_is_refuted_by_class() {
        let b = Board::builtin("french").unwrap();
        let p = Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap();
        let r = solve(&p, &Limits::default());
        assert_eq!(r.outcome, Outcome::Impossible(Reason::Class));
    }
}
