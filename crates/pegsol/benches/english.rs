//! Benchmark: the five English finishes, pegsol against the seed's reference search.
//!
//! Run with `cargo bench -p pegsol --bench english`. The seed's algorithm (benches/
//! seed_reference.cpp) is compiled with `g++ -O2` and run as a child process on the same
//! machine in the same run; pegsol runs in-process. Ratios are seed time / pegsol time.
//! pegsol's runs are asserted: 31 jumps, replayed to the finish, and within the node counts
//! recorded below (single-threaded, so the counts are deterministic).

use std::process::Command;
use std::time::{Duration, Instant};

use pegsol::{replay, Board, Finish, Limits, Outcome, Problem, SolveOptions};

const FINISHES: [(&str, usize, usize); 5] = [
    ("d4", 3, 3),
    ("d1", 0, 3),
    ("a4", 3, 0),
    ("g4", 3, 6),
    ("d7", 6, 3),
];

/// Upper bounds on the nodes pegsol's single-threaded search visits (the measured counts,
/// rounded up): a change that makes the search work harder fails the benchmark.
const MAX_NODES: [u64; 5] = [2_500, 2_500, 40_000, 60_000, 2_500];

fn pegsol_run(board: &Board, finish: &str, options: &SolveOptions) -> (Duration, u64) {
    let hole = board.hole(finish).unwrap();
    let start = board.start().unwrap();
    let problem = Problem::new(board, start, Finish::Holes(hole.bit())).unwrap();
    let began = Instant::now();
    let report = pegsol::solve_with(&problem, &Limits::default(), options, &|_| {}).unwrap();
    let took = began.elapsed();
    let Outcome::Solved { jumps, .. } = report.outcome else {
        panic!("{finish}: {:?}", report.outcome)
    };
    assert_eq!(jumps.len(), 31);
    assert_eq!(replay(board, start, &jumps).unwrap(), hole.bit());
    (took, report.stats.nodes)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let board = Board::builtin("english").unwrap();
    // One thread and the exact search alone, so that the node counts are deterministic.
    let single = SolveOptions {
        race_dual: false,
        engines: pegsol::Engines::Exact,
        ..SolveOptions::default()
    };
    let raced = SolveOptions::default();
    let seed = compile_seed();
    println!(
        "{:<6} {:>12} {:>10} {:>12} {:>10} {:>12} {:>12} {:>9}",
        "finish",
        "seed ms",
        "seed dead",
        "seed MB",
        "nodes(1T)",
        "pegsol 1T",
        "pegsol race",
        "ratio"
    );
    for (k, &(label, r, c)) in FINISHES.iter().enumerate() {
        let (_, nodes) = pegsol_run(&board, label, &single);
        assert!(
            nodes <= MAX_NODES[k],
            "{label}: {nodes} nodes, expected at most {}",
            MAX_NODES[k]
        );
        let one: Vec<Duration> = (0..21)
            .map(|_| pegsol_run(&board, label, &single).0)
            .collect();
        let two: Vec<Duration> = (0..21)
            .map(|_| pegsol_run(&board, label, &raced).0)
            .collect();
        let (one, two) = (median(one), median(two));
        let best = one.min(two);
        let seed_result = seed.as_ref().map(|exe| run_seed(exe, r, c));
        match seed_result {
            Some((ms, dead, kb)) => println!(
                "{:<6} {:>12.1} {:>10} {:>12.1} {:>10} {:>10.3}ms {:>10.3}ms {:>8.0}x",
                label,
                ms,
                dead,
                kb as f64 / 1024.0,
                nodes,
                one.as_secs_f64() * 1e3,
                two.as_secs_f64() * 1e3,
                ms / (best.as_secs_f64() * 1e3)
            ),
            None => println!(
                "{:<6} {:>12} {:>10} {:>12} {:>10} {:>10.3}ms {:>10.3}ms {:>9}",
                label,
                "-",
                "-",
                "-",
                nodes,
                one.as_secs_f64() * 1e3,
                two.as_secs_f64() * 1e3,
                "-"
            ),
        }
    }
    println!(
        "pegsol peak RSS over all runs: {} MB",
        pegsol::count::peak_memory_mb()
    );
    if seed.is_none() {
        println!("(g++ not found: the seed's reference search was not run)");
    }
}

fn compile_seed() -> Option<std::path::PathBuf> {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/seed_reference.cpp");
    let out = std::env::temp_dir().join("pegsol_seed_reference");
    let status = Command::new("g++")
        .args(["-O2", "-std=c++17", "-o"])
        .arg(&out)
        .arg(src)
        .status()
        .ok()?;
    status.success().then_some(out)
}

fn run_seed(exe: &std::path::Path, r: usize, c: usize) -> (f64, u64, u64) {
    let out = Command::new(exe)
        .args([r.to_string(), c.to_string()])
        .output()
        .expect("the seed program runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| -> f64 {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    };
    assert_eq!(field("ok"), 1.0, "the seed search failed: {text}");
    (field("ms"), field("dead") as u64, field("hwm_kb") as u64)
}
