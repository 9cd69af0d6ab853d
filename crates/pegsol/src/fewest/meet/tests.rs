//! The meeting against the winning-set method, budgets and the basic games of small triangles.

use super::*;
use crate::fewest::{fewest_moves_by_winning_set, MovesOutcome};
use crate::problem::{Budget, Finish};

fn meeting(name: &str, starts: &[Bits], finish: Finish) -> MeetReport {
    let board = Board::builtin(name).unwrap();
    let problem =
        Problem::with_starts(board, starts.iter().map(|s| s.resize()).collect(), finish).unwrap();
    fewest_moves_meeting(&problem, &Limits::default()).unwrap()
}

/// The winning-set method and the meeting agree on every single problem of small boards.
#[test]
fn agrees_with_the_winning_set_method() {
    let diagonal = Board::parse("d", "lattice: diagonal\nooooo\nooooo\nooooo\n").unwrap();
    let boards =
        ["triangle4", "triangle5", "rect:3x4", "rect:4x4"].map(|n| Board::builtin(n).unwrap());
    for board in boards.iter().chain([&diagonal]) {
        let name = board.name();
        for e in board.each_hole() {
            let start = board.holes().without(e);
            for finish in [Finish::AnyOne, Finish::Holes(e.bit())] {
                let problem = Problem::new(board, start, finish).unwrap();
                let exhaustive = match fewest_moves_by_winning_set(&problem, &Limits::default())
                    .unwrap()
                    .outcome
                {
                    MovesOutcome::Optimal(s) => Some(s.moves),
                    MovesOutcome::Impossible(_) => None,
                    other => panic!("{other:?}"),
                };
                let r = fewest_moves_meeting(&problem, &Limits::default()).unwrap();
                // With no least allowance, a level that takes four times the other
                // side's expected cost is withdrawn and grown again later: the same
                // answer.
                let hurried =
                    super::meeting(&problem, &Limits::default(), None, &|_| {}, 0.0).unwrap();
                let moves = |o: &MeetOutcome| match o {
                    MeetOutcome::Optimal(s) => Some(s.moves),
                    _ => None,
                };
                assert_eq!(
                    (
                        moves(&hurried.outcome),
                        hurried.outcome == MeetOutcome::Impossible
                    ),
                    (moves(&r.outcome), r.outcome == MeetOutcome::Impossible),
                    "{name} {e:?} {finish:?}"
                );
                let got = match r.outcome {
                    MeetOutcome::Optimal(s) => {
                        assert_eq!(s.start, start.resize());
                        Some(s.moves)
                    }
                    MeetOutcome::Impossible => None,
                    MeetOutcome::Undecided(b) => panic!("{b:?}"),
                };
                assert_eq!(got, exhaustive, "{name} {e:?} {finish:?}");
            }
        }
    }
}

#[test]
fn basic_game_of_small_triangles() {
    for (name, moves) in [("triangle4", 5), ("triangle5", 9), ("triangle6", 9)] {
        let board = Board::builtin(name).unwrap();
        let r = meeting(name, &single_vacancies(&board), Finish::AnyOne);
        let MeetOutcome::Optimal(s) = r.outcome else {
            panic!("{name}: {:?}", r.outcome)
        };
        assert_eq!((s.moves, r.lower_bound), (moves, moves), "{name}");
        assert_eq!(s.start.count() + 1, board.hole_count() as u32);
        assert_eq!(s.finish.count(), 1);
        assert_eq!(r.symmetries, 6);
    }
}

/// Undoing chains of jumps from one peg on the 45-hole triangle gives billions of
/// positions from a single parent: the buffer of children honours the budget and the
/// search stops undecided (it once grew past 23 GB under a 16 GB budget).
#[test]
fn one_parent_with_too_many_children_stops_within_the_budget() {
    let board = Board::builtin("triangle:9").unwrap();
    let limits = Limits {
        max_memory: 64 << 20,
        ..Limits::default()
    };
    let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
    let r = fewest_moves_meeting(&basic, &limits).unwrap();
    assert_eq!(r.outcome, MeetOutcome::Undecided(Budget::Memory));
    assert!(r.lower_bound >= 1, "{}", r.lower_bound);
}

#[test]
fn a_budget_leaves_a_proven_lower_bound() {
    let board = Board::builtin("triangle7").unwrap();
    let limits = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
    let r = fewest_moves_meeting(&basic, &limits).unwrap();
    assert_eq!(r.outcome, MeetOutcome::Undecided(Budget::Memory));
    assert!(
        r.lower_bound >= 2 && r.lower_bound <= 12,
        "{}",
        r.lower_bound
    );
}

#[test]
fn impossible_problems_are_exhausted() {
    let board = Board::builtin("triangle4").unwrap();
    // A corner vacancy cannot finish in the opposite corner's class... check with the
    // exhaustive method's verdict rather than assume which.
    let start = board.holes().without(board.hole("a1").unwrap());
    for h in board.each_hole() {
        let finish = Finish::Holes(h.bit());
        let problem = Problem::new(&board, start, finish).unwrap();
        let impossible = matches!(
            fewest_moves_by_winning_set(&problem, &Limits::default())
                .unwrap()
                .outcome,
            MovesOutcome::Impossible(_)
        );
        let r = meeting("triangle4", &[start.resize()], finish);
        assert_eq!(r.outcome == MeetOutcome::Impossible, impossible, "{h:?}");
    }
}

#[test]
fn rejects_no_starts() {
    let board = Board::builtin("triangle5").unwrap();
    assert!(matches!(
        Problem::with_starts(board, Vec::new(), Finish::AnyOne),
        Err(Error::NoStarts)
    ));
}
