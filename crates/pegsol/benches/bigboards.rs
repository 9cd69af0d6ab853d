//! Benchmark: the 37- to 45-hole boards, the exact search alone against the portfolio (the
//! exact search and the guided beam side by side), on the same problems in the same run.
//!
//! Run with `cargo bench -p pegsol --bench bigboards`. Each problem is solvable; the
//! portfolio must solve every one (asserted, with the line replayed to the finish), and the
//! exact search alone gets the same time budget. The ratio is exact time / portfolio time,
//! where an exact run that is undecided counts as its whole budget (so the ratio is a lower
//! bound there, marked `>`).

use std::time::{Duration, Instant};

use pegsol::{replay, Board, Engines, Finish, Limits, Outcome, Problem, SolveOptions};

/// (board, vacancy, finish).
const PROBLEMS: [(&str, &str, &str); 10] = [
    ("wiegleb", "e5", "e5"),
    ("wiegleb", "d1", "d7"),
    ("wiegleb", "e2", "b5"),
    ("wiegleb", "e3", "e9"),
    ("french", "c1", "e4"),
    ("french", "d2", "d6"),
    ("french", "d3", "a5"),
    ("diamond", "d2", "f2"),
    ("diamond", "e3", "b4"),
    ("english-diagonal", "d4", "d4"),
];

/// The exact search's budget per problem.
const BUDGET: Duration = Duration::from_secs(10);

fn run(board: &Board, empty: &str, finish: &str, engines: Engines) -> (Duration, bool, u64) {
    let start = board.holes().without(board.hole(empty).unwrap());
    let target = board.hole(finish).unwrap().bit();
    let problem = Problem::new(board, start, Finish::Holes(target)).unwrap();
    let limits = Limits {
        timeout: Some(BUDGET),
        ..Limits::default()
    };
    let options = SolveOptions {
        engines,
        ..SolveOptions::default()
    };
    let began = Instant::now();
    let report = pegsol::solve_with(&problem, &limits, &options, &|_| {}).unwrap();
    let took = began.elapsed();
    match report.outcome {
        Outcome::Solved { jumps, finish } => {
            assert_eq!(finish, target);
            assert_eq!(replay(board, start, &jumps).unwrap(), target);
            (took, true, report.stats.nodes)
        }
        Outcome::Impossible(r) => panic!("{empty} -> {finish} is solvable, not {r}"),
        Outcome::Undecided(_) => (took, false, report.stats.nodes),
    }
}

fn main() {
    println!(
        "{:<18} {:>6} {:>6} {:>12} {:>12} {:>12} {:>9}",
        "board", "empty", "finish", "exact ms", "portfolio ms", "nodes", "ratio"
    );
    let mut ratios = Vec::new();
    for (name, empty, finish) in PROBLEMS {
        let board = Board::builtin(name).unwrap();
        let (exact, exact_solved, _) = run(&board, empty, finish, Engines::Exact);
        let (portfolio, solved, nodes) = run(&board, empty, finish, Engines::Portfolio);
        assert!(
            solved,
            "{name} {empty} -> {finish}: the portfolio did not solve it"
        );
        let ratio = exact.as_secs_f64() / portfolio.as_secs_f64();
        ratios.push(ratio);
        println!(
            "{:<18} {:>6} {:>6} {:>12} {:>12.1} {:>12} {:>8}{:.1}",
            name,
            empty,
            finish,
            if exact_solved {
                format!("{:.1}", exact.as_secs_f64() * 1e3)
            } else {
                format!("> {:.0}", exact.as_secs_f64() * 1e3)
            },
            portfolio.as_secs_f64() * 1e3,
            nodes,
            if exact_solved { "x" } else { ">x" },
            ratio
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "median ratio exact / portfolio: {:.1} (undecided exact runs counted as their budget)",
        ratios[ratios.len() / 2]
    );
}
