//! Benchmark: one-dimensional solitaire is linear. Times the CLI's path on random strings of
//! 10^6 and 10^7 cells: the partition (`LinePlan::new`), then every jump made into the
//! independent replay (`LinePlan::jumps` into a `LineReplay`), and reports the time ratio (10
//! for linear). Run with `cargo bench -p pegsol --bench line`. The answers are checked: the
//! jumps replay to exactly the minimum.

use std::time::{Duration, Instant};

use pegsol::one_dimensional::{LinePlan, LineReplay};

fn random_cells(n: usize, mut state: u64) -> Vec<bool> {
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state & 1 == 1
        })
        .collect()
}

fn time(cells: &[bool], runs: usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut min = 0;
    for _ in 0..runs {
        let began = Instant::now();
        let plan = LinePlan::new(cells);
        let mut replay = LineReplay::new(cells);
        plan.jumps(cells, |f, t| replay.play(f, t).expect("a legal jump"));
        times.push(began.elapsed());
        assert_eq!(replay.pegs(), plan.min_pegs());
        min = plan.min_pegs();
    }
    times.sort();
    (times[runs / 2], min)
}

fn main() {
    let small = random_cells(1_000_000, 0x9E37_79B9_7F4A_7C15);
    let large = random_cells(10_000_000, 0x9E37_79B9_7F4A_7C15);
    let (t6, m6) = time(&small, 7);
    let (t7, m7) = time(&large, 3);
    println!(
        "10^6 cells: {:>8.1} ms, min pegs {m6}",
        t6.as_secs_f64() * 1e3
    );
    println!(
        "10^7 cells: {:>8.1} ms, min pegs {m7}",
        t7.as_secs_f64() * 1e3
    );
    println!(
        "ratio 10^7 / 10^6: {:.2} (10 is linear)",
        t7.as_secs_f64() / t6.as_secs_f64()
    );
}
