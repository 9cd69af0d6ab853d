//! Benchmark: the two fewest-moves methods side by side (same run, same machine), asserting
//! the optima they time: the meeting in the middle (`fewest_moves`) against the shortest-path
//! pass over the winning set (`fewest_moves_by_winning_set`), then the basic game of the
//! triangles of side 4 to 7 as one meeting each.
//! Run with `cargo bench -p pegsol --bench fewest`.

use std::time::Instant;

use pegsol::fewest::{
    fewest_moves, fewest_moves_by_winning_set, fewest_moves_meeting, single_vacancies, MeetOutcome,
    MovesOutcome,
};
use pegsol::{Board, Finish, Limits, Problem};

fn main() {
    let limits = Limits::default();
    println!("one problem, both methods (seconds; ratio = winning set / meeting):");
    let cases = [
        ("english", "d4", Some("d4"), 18),
        ("triangle6", "a1", None, 10),
        ("triangle7", "a3", Some("c6"), 12),
    ];
    for (name, empty, fin, moves) in cases {
        let board = Board::builtin(name).unwrap();
        let start = board.holes().minus(board.hole_set(empty).unwrap());
        let finish = fin.map_or(Finish::AnyOne, |f| {
            Finish::Holes(board.hole_set(f).unwrap())
        });
        let problem = Problem::new(&board, start, finish).unwrap();
        let mut took = Vec::new();
        for method in [fewest_moves, fewest_moves_by_winning_set] {
            let began = Instant::now();
            let report = method(&problem, &limits).unwrap();
            took.push(began.elapsed().as_secs_f64());
            let MovesOutcome::Optimal(s) = report.outcome else {
                panic!("{name}: {:?}", report.outcome)
            };
            assert_eq!(s.moves, moves, "{name} {empty}");
        }
        println!(
            "  {name} {empty} -> {}: {moves} moves; meeting {:.2} s, winning set {:.2} s (x{:.1})",
            fin.unwrap_or("any"),
            took[0],
            took[1],
            took[1] / took[0]
        );
    }
    println!("basic game (every vacancy to one peg anywhere) as one meeting:");
    for (side, moves) in [(4, 5), (5, 9), (6, 9), (7, 12)] {
        let board = Board::builtin(&format!("triangle:{side}")).unwrap();
        let began = Instant::now();
        let basic =
            pegsol::Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
        let r = fewest_moves_meeting(&basic, &limits).unwrap();
        let MeetOutcome::Optimal(s) = r.outcome else {
            panic!("side {side}")
        };
        assert_eq!(s.moves, moves);
        println!(
            "  triangle {side}: {moves} moves in {:.3} s, levels {:?} + {:?}",
            began.elapsed().as_secs_f64(),
            r.forward,
            r.backward
        );
    }
}
