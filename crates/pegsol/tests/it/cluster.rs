//! The distributed count (timely dataflow, several workers) against the single-process
//! count, field for field, on the English board and small boards of every lattice.

use std::sync::Arc;

use pegsol::count::{count, count_cluster, Cluster};
use pegsol::{Board, Finish, Problem};

fn agree(problem: &Problem, workers: usize) {
    let single = count(problem, usize::MAX, &|_| {}).unwrap();
    let shared = count_cluster(problem, &Cluster::Threads(workers), Arc::new(|_| {})).unwrap();
    assert_eq!(shared.workers, workers);
    let c = shared.count.expect("worker 0 is in this process");
    assert_eq!(c.levels, single.levels, "{workers} workers");
    assert_eq!(c.symmetries, single.symmetries);
    assert_eq!(c.solutions, single.solutions);
    assert_eq!(c.games, single.games);
    assert_eq!(c.finishes, single.finishes);
}

#[test]
fn one_two_and_three_workers_count_as_one_process_does() {
    for (name, empty, finish) in [
        ("triangle:5", "a1", "any"),
        ("rect:4x4", "b2", "c3"),
        ("rect:3x4-diagonal", "a1", "any"),
        ("hexagon:3", "c3", "any"),
        ("rect:3x5", "a1", "any:2"),
        // Several levels of thousands of keys each: records cross between workers mid-round.
        ("triangle:6", "c3", "any"),
    ] {
        let board = Board::builtin(name).unwrap();
        let start = board.holes().minus(board.hole_set(empty).unwrap());
        let finish = match finish {
            "any" => Finish::AnyOne,
            "any:2" => Finish::Pegs(2),
            f => Finish::Holes(board.hole_set(f).unwrap()),
        };
        let problem = Problem::new(&board, start, finish).unwrap();
        for workers in 1..=3 {
            agree(&problem, workers);
        }
    }
}

#[test]
#[ignore = "soak test: CI runs these with `-- --ignored soak_`"]
fn soak_the_english_game_on_three_workers() {
    let board = Board::builtin("english").unwrap();
    let problem = Problem::conventional(&board).unwrap();
    agree(&problem, 3);
}
