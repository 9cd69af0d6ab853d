//! Benchmark: the whole English game (centre start, centre finish), asserting the published
//! totals it times, with jumps found by shifts in the grid layout against the same count with
//! jumps tested from per-hole lists (same run, same machine), and with the allocator keeping
//! freed memory (the allocator setting the `pegsol` binary makes for batch commands) against without it, and
//! with keys shared by a position and its complement against without (`CountOptions::fold`);
//! then what pagoda pruning saves in a count, on problems whose winning figures must come out
//! identical with and without it.
//! Run with `cargo bench -p pegsol --bench count`.

use std::time::Instant;

use pegsol::count::{count, count_pruned, count_with, Count, CountOptions};
use pegsol::{Board, Finish, Problem};

/// The allocator setting of the `pegsol` binary for batch commands (its `memory` module):
/// blocks under 32 MB from the heap, which is never trimmed and grows 256 MB at a time.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets parameters of the allocator, under its own lock.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 256 << 20);
    }
}

fn main() {
    let board = Board::builtin("english").unwrap();
    let problem = Problem::conventional(&board).unwrap();
    let threads = rayon::current_num_threads();
    let run = |grid: bool, fold: bool| {
        let options = CountOptions {
            grid,
            fold,
            ..CountOptions::default()
        };
        let began = Instant::now();
        let c = count_with(&problem, &options, &|_| {}).unwrap();
        (began.elapsed(), c)
    };
    let check = |c: &Count| {
        assert_eq!(c.positions(), 187_636_299);
        assert_eq!(c.classes(), 23_475_688);
        assert_eq!(c.winning(), 13_428_122);
        assert_eq!(c.winning_classes(), 1_679_072);
        assert_eq!(c.solutions, 40_861_647_040_079_968);
        assert_eq!(c.games, 577_116_156_815_309_849_672);
        assert_eq!(c.shortest_dead_end(), Some(6));
    };
    // The grid first, so that its peak memory is its own.
    let (grid, c) = run(true, true);
    check(&c);
    let peak = pegsol::count::peak_memory_mb();
    let (dense, c) = run(false, true);
    check(&c);
    // From here on, as in the `pegsol` binary.
    keep_freed_memory();
    let (kept, c) = run(true, true);
    check(&c);
    let (plain, c) = run(true, false);
    check(&c);
    println!(
        "english count: {:.2} s on {threads} threads, peak RSS {peak} MB, all published totals match",
        grid.as_secs_f64(),
    );
    println!(
        "  with the allocator keeping freed memory (as the pegsol binary runs): {:.2} s (x{:.2})",
        kept.as_secs_f64(),
        grid.as_secs_f64() / kept.as_secs_f64()
    );
    println!(
        "  jumps tested from per-hole lists instead of by shifts: {:.2} s (grid layout x{:.2})",
        dense.as_secs_f64(),
        dense.as_secs_f64() / grid.as_secs_f64()
    );
    println!(
        "  keys not shared with complements (winners from canonicalised complements): {:.2} s (shared keys x{:.2})",
        plain.as_secs_f64(),
        plain.as_secs_f64() / kept.as_secs_f64()
    );

    println!("pagoda pruning in the counter (classes kept, time; winning figures identical):");
    // English c1 -> d4 also fits (207,684,279 classes, 94.4% kept, 113 s vs 93 s) but takes
    // minutes; the French board does not fit in memory without spilling.
    let cases: [(&str, &str, Option<&str>); 2] =
        [("english", "d4", Some("d4")), ("english", "d1", Some("d1"))];
    for (name, empty, fin) in cases {
        let board = Board::builtin(name).unwrap();
        let start = board.holes().minus(board.hole_set(empty).unwrap());
        let finish = fin.map_or(Finish::AnyOne, |f| {
            Finish::Holes(board.hole_set(f).unwrap())
        });
        let problem = Problem::new(&board, start, finish).unwrap();
        let began = Instant::now();
        let full = count(&problem, usize::MAX, &|_| {}).unwrap();
        let t_full = began.elapsed();
        let began = Instant::now();
        let pruned = count_pruned(&problem, usize::MAX, &|_| {}).unwrap();
        let t_pruned = began.elapsed();
        assert_eq!(full.solutions, pruned.solutions, "{name} {empty}");
        assert_eq!(full.winning(), pruned.winning(), "{name} {empty}");
        assert_eq!(full.winning_classes(), pruned.winning_classes());
        println!(
            "  {name} {empty} -> {}: full {} classes in {:.2} s; pruned {} classes ({:.1}%) in {:.2} s (x{:.2})",
            fin.unwrap_or("any"),
            full.classes(),
            t_full.as_secs_f64(),
            pruned.classes(),
            100.0 * pruned.classes() as f64 / full.classes() as f64,
            t_pruned.as_secs_f64(),
            t_full.as_secs_f64() / t_pruned.as_secs_f64()
        );
    }
}
