//! Fewest-move solutions against published figures (golden data in
//! `tests/data/fewest_moves.json`, with sources), each solution replayed and its moves recounted.

use pegsol::fewest::{
    fewest_moves, fewest_moves_by_winning_set, fewest_moves_meeting, move_count, single_vacancies,
    MeetOutcome, MovesOutcome,
};
use pegsol::{replay, Board, Finish, Limits, Problem};
use serde_json::Value;

fn golden() -> Value {
    serde_json::from_str(include_str!("../data/fewest_moves.json")).unwrap()
}

/// The proven optimum of one problem (by meeting in the middle), after replaying the solution
/// independently.
fn optimum(board: &Board, start: pegsol::Bits, finish: Finish) -> Option<u32> {
    checked_optimum(board, start, finish, fewest_moves).0
}

/// The optimum by the winning-set method, and the number of winning classes its proof searched.
fn optimum_and_searched(board: &Board, start: pegsol::Bits, finish: Finish) -> (Option<u32>, u64) {
    checked_optimum(board, start, finish, fewest_moves_by_winning_set)
}

fn checked_optimum(
    board: &Board,
    start: pegsol::Bits,
    finish: Finish,
    method: fn(&Problem, &Limits) -> pegsol::Result<pegsol::fewest::MovesReport>,
) -> (Option<u32>, u64) {
    let problem = Problem::new(board, start.resize(), finish).unwrap();
    let report = method(&problem, &Limits::default()).unwrap();
    let searched = report.winning_classes;
    let moves = match report.outcome {
        MovesOutcome::Optimal(s) => {
            let end = replay(board, start, &s.jumps).unwrap();
            assert!(problem.targets().contains(&end));
            assert_eq!(move_count(&s.jumps), s.moves);
            assert_eq!(report.lower_bound, s.moves);
            assert!(s.moves >= pegsol::fewest::move_bound(&problem));
            Some(s.moves)
        }
        MovesOutcome::Impossible(_) => None,
        other => panic!("{other:?}"),
    };
    (moves, searched)
}

#[test]
fn triangles_of_side_4_to_6_match_a127500() {
    let g = golden();
    let mut checked = 0;
    for t in g["triangles"].as_array().unwrap() {
        let side = t["side"].as_u64().unwrap();
        if side > 6 {
            continue;
        }
        let board = Board::builtin(&format!("triangle:{side}")).unwrap();
        // The minimum over every single vacancy, ending with one peg anywhere.
        let best = board
            .each_hole()
            .filter_map(|h| optimum(&board, board.holes().without(h), Finish::AnyOne))
            .min();
        assert_eq!(
            best,
            Some(t["moves"].as_u64().unwrap() as u32),
            "side {side}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}

/// The same sequence by meeting in the middle, the basic game as one search (every single
/// vacancy to one peg anywhere): sides 4 to 7 here, side 8 by `shortest` below.
fn basic_game(side: u64, max_memory: usize) -> u32 {
    let board = Board::builtin(&format!("triangle:{side}")).unwrap();
    let starts = single_vacancies(&board);
    let limits = Limits {
        max_memory,
        ..Limits::default()
    };
    let basic = Problem::with_starts(&board, starts, Finish::AnyOne).unwrap();
    let report = fewest_moves_meeting(&basic, &limits).unwrap();
    let MeetOutcome::Optimal(s) = report.outcome else {
        panic!("side {side}: {:?}", report.outcome)
    };
    // Replayed here too, independently of the library's own check.
    let end = replay(&board, s.start, &s.jumps).unwrap();
    assert_eq!((end.count(), s.finish), (1, end));
    assert_eq!(s.start.count() as usize, board.hole_count() - 1);
    assert_eq!(move_count(&s.jumps), s.moves);
    assert_eq!(report.lower_bound, s.moves);
    assert_eq!(report.depths.0 + report.depths.1 + 1, s.moves);
    s.moves
}

fn a127500(side: u64) -> u32 {
    let g = golden();
    let t = g["triangles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["side"].as_u64() == Some(side))
        .unwrap();
    t["moves"].as_u64().unwrap() as u32
}

#[test]
fn basic_game_of_triangles_of_side_4_to_7_matches_a127500() {
    for side in 4..=7 {
        assert_eq!(basic_game(side, 4 << 30), a127500(side), "side {side}");
    }
}

/// Side 8 by `shortest`: a first line, then searches deepening from the regions' bound and
/// pruned by it (seconds and a few hundred MB; the plain meeting took 16 minutes and 8.6 GB).
#[test]
fn basic_game_of_triangle_8_matches_a127500() {
    let board = Board::builtin("triangle:8").unwrap();
    let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
    let report = pegsol::fewest::shortest(&basic, &Limits::default(), &|_| {}).unwrap();
    let MeetOutcome::Optimal(s) = report.meeting.outcome else {
        panic!("{:?}", report.meeting.outcome)
    };
    let end = replay(&board, s.start, &s.jumps).unwrap();
    assert_eq!((end.count(), s.finish), (1, end));
    assert_eq!(move_count(&s.jumps), s.moves);
    assert_eq!(
        (s.moves, report.meeting.lower_bound),
        (a127500(8), a127500(8))
    );
    assert_eq!(report.meeting.pruned_to, Some(a127500(8) - 1));
}

#[test]
fn published_problems() {
    let g = golden();
    for p in g["problems"].as_array().unwrap() {
        let text = |k: &str| p[k].as_str().unwrap().to_string();
        let board = Board::builtin(&text("board")).unwrap();
        let start = board.holes().minus(board.hole_set(&text("empty")).unwrap());
        let finish = Finish::Holes(board.hole_set(&text("finish")).unwrap());
        let (moves, searched) = optimum_and_searched(&board, start, finish);
        let published = Some(p["moves"].as_u64().unwrap() as u32);
        assert_eq!(moves, published, "{}", text("board"));
        // Both methods agree with the published figure.
        assert_eq!(
            optimum(&board, start, finish),
            published,
            "{}",
            text("board")
        );
        if let Some(w) = p["winning_positions_up_to_symmetry"].as_u64() {
            // The proof searched exactly the published winning set (found from both ends).
            assert_eq!(searched, w);
        }
    }
}

/// Bell's catalog of the 15-hole triangle: the fewest moves of every single-vacancy to
/// single-survivor problem up to symmetry, and which are impossible.
#[test]
fn triangle5_catalog() {
    let g = golden();
    let board = Board::builtin("triangle5").unwrap();
    let problems = g["triangle5_catalog"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 17);
    for p in problems {
        let (e, f) = (p["empty"].as_str().unwrap(), p["finish"].as_str().unwrap());
        let start = board.holes().minus(board.hole_set(e).unwrap());
        let finish = Finish::Holes(board.hole_set(f).unwrap());
        let expected = p["moves"].as_u64().map(|m| m as u32);
        assert_eq!(optimum(&board, start, finish), expected, "{e} to {f}");
    }
}
