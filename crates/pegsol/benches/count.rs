//! Benchmark: the whole English game (centre start, centre finish), asserting the published
//! totals it times. Run with `cargo bench -p pegsol --bench count`.

use std::time::Instant;

use pegsol::{count::count, Board, Problem};

fn main() {
    let board = Board::builtin("english").unwrap();
    let problem = Problem::conventional(&board).unwrap();
    let threads = rayon::current_num_threads();
    let began = Instant::now();
    let c = count(&problem, usize::MAX, &|_| {}).unwrap();
    let took = began.elapsed();
    assert_eq!(c.positions(), 187_636_299);
    assert_eq!(c.classes(), 23_475_688);
    assert_eq!(c.winning(), 13_428_122);
    assert_eq!(c.winning_classes(), 1_679_072);
    assert_eq!(c.solutions, 40_861_647_040_079_968);
    assert_eq!(c.games, 577_116_156_815_309_849_672);
    assert_eq!(c.shortest_dead_end(), Some(6));
    println!(
        "english count: {:.2} s on {threads} threads, peak RSS {} MB, all published totals match",
        took.as_secs_f64(),
        pegsol::count::peak_memory_mb()
    );
}
