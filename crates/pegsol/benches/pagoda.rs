//! Benchmark: what pagoda functions save. Each problem is solved twice on one thread (no dual
//! race, so node counts are deterministic), with pagoda refutation and pruning and without;
//! both must give the same answer. Run with `cargo bench -p pegsol --bench pagoda`.

use std::time::{Duration, Instant};

use pegsol::{Board, Finish, Limits, Outcome, Problem, SolveOptions};

fn run(problem: &Problem, pagoda: bool) -> (Outcome, u64, Duration) {
    let limits = Limits {
        timeout: Some(Duration::from_secs(120)),
        ..Limits::default()
    };
    let options = SolveOptions {
        race_dual: false,
        pagoda,
        ..SolveOptions::default()
    };
    let began = Instant::now();
    let r = pegsol::solve_with(problem, &limits, &options, &|_| {}).unwrap();
    (r.outcome, r.stats.nodes, began.elapsed())
}

fn main() {
    let english = Board::builtin("english").unwrap();
    let french = Board::builtin("french").unwrap();
    let bottom: pegsol::Bits = english
        .each_hole()
        .filter(|&h| english.coords(h).0 >= 4)
        .collect();
    let cases: Vec<(&str, Problem)> = vec![
        (
            "english rows 5-7 -> d2 (impossible)",
            Problem::new(
                &english,
                bottom.resize(),
                Finish::Holes(english.hole("d2").unwrap().bit()),
            )
            .unwrap(),
        ),
        (
            "english rows 5-7 -> any (impossible)",
            Problem::new(&english, bottom.resize(), Finish::AnyOne).unwrap(),
        ),
        (
            "french d2 -> d3 (solvable)",
            Problem::new(
                &french,
                french.holes().without(french.hole("d2").unwrap()),
                Finish::Holes(french.hole("d3").unwrap().bit()),
            )
            .unwrap(),
        ),
    ];
    println!(
        "{:<40} {:>14} {:>12} {:>14} {:>12} {:>9}",
        "problem", "nodes (pagoda)", "time", "nodes (none)", "time", "ratio"
    );
    for (name, problem) in &cases {
        let (a, na, ta) = run(problem, true);
        let (b, nb, tb) = run(problem, false);
        let kind = |o: &Outcome| match o {
            Outcome::Solved { .. } => "solved",
            Outcome::Impossible(_) => "impossible",
            Outcome::Undecided(_) => "undecided",
        };
        assert_eq!(kind(&a), kind(&b), "{name}: the answers differ");
        println!(
            "{:<40} {:>14} {:>10.1}ms {:>14} {:>10.1}ms {:>8.1}x",
            name,
            na,
            ta.as_secs_f64() * 1e3,
            nb,
            tb.as_secs_f64() * 1e3,
            tb.as_secs_f64() / ta.as_secs_f64().max(1e-9)
        );
    }
}
