//! The solver: a portfolio of an exact depth-first search and a guided beam search.
//!
//! The exact search ([`dfs`]) adds to the seed's memoized search, in order of effect:
//! - instant refutation by position class and by pagoda functions before any search;
//! - canonical forms under the finish's stabilizer in the board's symmetry group, so one dead
//!   entry stands for every symmetric position;
//! - pagoda pruning at every node (a pagoda total never rises, so a child whose total is below
//!   the finish's is cut without being entered);
//! - a compact open-addressing table of 64-bit keys, bounded by the memory budget: when it is
//!   full the answer is "undecided within budget", never an out-of-memory kill;
//! - a race between the problem and its dual (the complement game played backwards) on two
//!   threads: whichever decides first answers for both.
//!
//! The guided search ([`beam`]) runs beside it on the big boards: see its docs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::bitset::{Bits, Word};
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::pagoda::Pagoda;
use crate::problem::{
    Budget, Engines, Limits, Outcome, Problem, Reason, Report, SolveOptions, Stats,
};
use crate::replay::replay;
#[cfg(test)]
use crate::{board::Board, problem::Finish};

mod beam;
mod dfs;

use beam::{Beam, BeamEnd};

use dfs::{Dfs, Direction, PROBE_NODES};

/// Solves `problem` within `limits`.
///
/// ```
/// use pegsol::{Board, Outcome, Problem, Limits, solve};
/// let board = Board::builtin("english").unwrap();
/// let report = solve(&Problem::conventional(&board).unwrap(), &Limits::default()).unwrap();
/// match report.outcome {
///     Outcome::Solved { jumps, finish } => {
///         assert_eq!(jumps.len(), 31);
///         assert_eq!(board.labels(finish), ["d4"]);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
///
/// # Errors
///
/// [`Error::Internal`] if a line found fails its independent replay: a bug, never an answer.
pub fn solve(problem: &Problem, limits: &Limits) -> Result<Report> {
    solve_with_progress(problem, limits, &|_| {})
}

/// [`solve`], calling `progress` now and then with the effort so far.
///
/// # Errors
///
/// As [`solve`].
pub fn solve_with_progress(
    problem: &Problem,
    limits: &Limits,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Result<Report> {
    solve_with(problem, limits, &SolveOptions::default(), progress)
}

/// [`solve_with_progress`] with the search's own options.
///
/// # Errors
///
/// As [`solve`].
pub fn solve_with(
    problem: &Problem,
    limits: &Limits,
    options: &SolveOptions,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Result<Report> {
    crate::width::with_width!(problem.board(), W => {
        solve_in::<W>(problem, limits, options, progress)
    })
}

/// [`solve_with`] in positions of `W` words, which hold the problem's board.
fn solve_in<W: Word>(
    problem: &Problem,
    limits: &Limits,
    options: &SolveOptions,
    progress: &(dyn Fn(&Stats) + Sync),
) -> Result<Report> {
    let began = Instant::now();
    let stop = AtomicBool::new(false);
    let deadline = limits.timeout.map(|t| began + t);
    let board = problem.board();
    let start: Bits<W> = problem.start();
    let mut targets: Vec<Bits<W>> = problem.reachable_targets();
    let finish = |outcome, nodes, dead| {
        Ok(Report {
            outcome,
            stats: Stats {
                nodes,
                dead,
                millis: began.elapsed().as_millis() as u64,
            },
        })
    };
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Class), 0, 0);
    }
    if targets.contains(&start) {
        return finish(
            Outcome::Solved {
                jumps: Vec::new(),
                finish: start.resize(),
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
    let stock = if options.pagoda {
        Pagoda::library(board)
    } else {
        Vec::new()
    };
    // The stock of pagoda functions refutes some finishes for free.
    targets.retain(|&t| stock.iter().all(|p| p.total(start) >= p.total(t)));
    if targets.is_empty() {
        return finish(Outcome::Impossible(Reason::Pagoda), 0, 0);
    }
    // A quick probe first: most solvable problems fall within a few thousand nodes of the
    // goal sweep, before fitting LPs or starting a second thread is worth its fixed cost.
    let quick = Direction {
        start,
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
        options.symmetry,
        limits.max_memory,
        deadline,
        &stop,
        progress,
    );
    probe.node_limit = PROBE_NODES;
    // The guided search alone skips the probe, so that tests see its own answers.
    let probed = if options.engines == Engines::Guided {
        Err(Budget::Time)
    } else {
        probe.run(start, false)
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
        let outcome = verified(problem, &targets, probe.path_jumps(false))?;
        return finish(outcome, probe_nodes, probe_dead);
    }
    drop(probe);
    stop.store(false, Ordering::Relaxed);
    if probed == Err(Budget::Time) && limits.spent(deadline) {
        return spent(probe_nodes, probe_dead);
    }
    // A pagoda function fitted to each finish (by LP) refutes it outright or prunes for it.
    let mut fitted: Vec<(Bits<W>, Pagoda)> = Vec::new();
    if options.pagoda && targets.len() <= 8 {
        for &t in &targets {
            if limits.spent(deadline) {
                return spent(probe_nodes, probe_dead);
            }
            if let Some(p) = Pagoda::fit(board, start, t) {
                fitted.push((t, p));
            }
        }
    }
    let refuted = |t: Bits<W>| {
        fitted
            .iter()
            .any(|(f, p)| *f == t && p.total(start) < p.total(t))
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
        start,
        targets: targets.clone(),
        reversed: false,
        start_halfway: false,
        functions: forward_functions,
    };
    let exact_on = options.engines != Engines::Guided;
    let guided_on = options.engines != Engines::Exact;
    let dfs_memory = if guided_on {
        limits.max_memory / 2
    } else {
        limits.max_memory
    };
    let run = |dir: &Direction<W>, budget: usize| {
        let mut dfs = Dfs::new(
            board,
            dir,
            usize::MAX,
            limits,
            options.symmetry,
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
        // Past one word the exact search seldom decides before the guided one (rect:9x9 from
        // e5 to e5: 0.49 s with the dual's thread, 0.24 s without, on two cores), so the
        // dual's thread is left to the guided search there.
        if options.race_dual && targets.len() == 1 && W::WORDS == 1 {
            // The dual: jumps in the complement game are the original's jumps played backwards.
            let (dual_start, dual_target) =
                (board.holes().minus(targets[0]), board.holes().minus(start));
            let mut functions = stock.clone();
            if options.pagoda && !limits.spent(deadline) {
                functions.extend(Pagoda::fit(board, dual_start, dual_target));
            }
            // When the dual is the problem itself (a central game), the second thread would
            // repeat the first one's search; it starts halfway round the orders instead.
            let same = dual_start == start && dual_target == targets[0];
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
            start,
            &targets,
            &forward.functions,
            memory / 2,
            &spent,
        );
        let end = beam.run(start, FIRST_WIDTH, memory / 2, limits, deadline, &stop);
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
            // A panic in the guided search is a bug: passed on, never read as a budget.
            beam.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    let nodes = nodes + guided_nodes;
    let outcome = match (guided, result) {
        (BeamEnd::Found(jumps), _) => verified(problem, &targets, jumps)?,
        (_, Ok(true)) => verified(problem, &targets, jumps)?,
        (BeamEnd::Exhausted, _) | (_, Ok(false)) => Outcome::Impossible(Reason::Exhausted),
        // Alone, the guided search's own budget is the one that ran out.
        (BeamEnd::Stopped(budget), _) if !exact_on => Outcome::Undecided(budget),
        (_, Err(budget)) => Outcome::Undecided(budget),
    };
    finish(outcome, nodes + probe_nodes, dead + probe_dead)
}

/// The guided search's first width; it grows fourfold per run. 64 rather than 256: on the
/// boards past 64 holes the narrow first run already finishes (rect:12x12 from e5 to any one
/// peg: 0.7 s from width 64, 6 s from 256), and on the 45-hole board it costs no more.
const FIRST_WIDTH: usize = 64;

/// A found line, replayed by the independent checker before anyone sees it.
pub(crate) fn verified<W: Word>(
    problem: &Problem,
    targets: &[Bits<W>],
    jumps: Vec<Jump>,
) -> Result<Outcome> {
    match replay(problem.board(), problem.start::<W>(), &jumps) {
        Ok(end) if targets.contains(&end) => Ok(Outcome::Solved {
            jumps,
            finish: end.resize(),
        }),
        _ => Err(Error::Internal("a solution found failed its replay")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_centre() {
        let b = Board::builtin("english").unwrap();
        let r = solve(
            &Problem::conventional(b.clone()).unwrap(),
            &Limits::default(),
        )
        .unwrap();
        let Outcome::Solved { jumps, finish } = r.outcome else {
            panic!("{:?}", r.outcome)
        };
        assert_eq!(jumps.len(), 31);
        assert_eq!(finish, b.hole("d4").unwrap().bit());
    }

    #[test]
    fn french_is_refuted_by_class() {
        let b = Board::builtin("french").unwrap();
        let p = Problem::new(b.clone(), b.start().unwrap(), Finish::AnyOne).unwrap();
        let r = solve(&p, &Limits::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Impossible(Reason::Class));
    }
}
