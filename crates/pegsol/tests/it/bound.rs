//! The Merson-region bounds against brute force: the moves still needed and the moves since
//! the starts, never above the fewest moves, at every reachable position of random boards of
//! the three lattices; and the meeting they prune, given a known line, against the fewest
//! moves found by brute force.

use pegsol::fewest::{
    few_moves, fewest_moves_meeting, fewest_moves_meeting_with, move_count, single_vacancies,
    Known, MeetOutcome, MeetSolution, MoveBound, Origins,
};
use pegsol::{replay, Bits, Board, Finish, Limits, Outcome, Problem};

use crate::common::{is_finish, random_case, Oracle, Rng};

/// Small boards of each lattice whose whole games are checked; hexagon:3 has a hexagon of
/// seven holes inside its edges.
const WHOLE_GAMES: [&str; 5] = [
    "triangle5",
    "rect:4x4",
    "rect:3x4-diagonal",
    "rect:3x5",
    "hexagon:3",
];

#[test]
fn the_move_bound_never_exceeds_the_fewest_moves() {
    let mut rng = Rng(0x00B0_0D5E_EDB0_0D5E);
    let (mut checked, mut above_one, mut tight) = (0u64, 0u64, 0u64);
    let mut check = |board: &Board, oracle: &Oracle, start: u64, finish: Finish, what: &str| {
        let bound = MoveBound::<u64>::new(board);
        for (p, moves) in oracle.fewest_moves_from_each(start, |q| is_finish(finish, q)) {
            let b = bound.moves_needed(Bits(p), &finish);
            assert!(
                b <= moves,
                "{what}, finish {finish:?}: bound {b} above the fewest moves {moves} at {p:#x}"
            );
            checked += 1;
            above_one += u64::from(b >= 2);
            tight += u64::from(b == moves && b >= 2);
        }
    };
    for case_number in 0..3000 {
        let case = random_case(&mut rng);
        let oracle = Oracle::new(case.lattice, &case.cells, Some(&case.board));
        let what = format!("case {case_number}\n{}", case.picture);
        check(&case.board, &oracle, case.start.raw(), case.finish, &what);
    }
    // Whole games of small boards of each lattice, from single vacancies, to one peg anywhere
    // and to one peg on each corner.
    for name in WHOLE_GAMES {
        let board = Board::builtin(name).unwrap();
        let oracle = Oracle::of_board(&board);
        let all = board.holes::<u64>();
        for vacancy in board.each_hole() {
            let start = all.without(vacancy).raw();
            check(&board, &oracle, start, Finish::AnyOne, name);
            let single = Finish::Holes(Bits::<u64>::single(vacancy).resize());
            check(&board, &oracle, start, single, name);
        }
    }
    println!("{checked} positions, {above_one} bounds of 2 or more, {tight} of them exact");
    // The bound is tested where it says something: many positions need two moves or more by it.
    assert!(
        checked > 20_000 && above_one > 2_000,
        "{checked} positions, {above_one} bounds of 2 or more"
    );
}

#[test]
fn the_whole_games_checked_hold_a_hexagon() {
    // The two tests above would not see a wrong hexagon without a board that holds one.
    let hexagons: usize = WHOLE_GAMES
        .iter()
        .map(|name| {
            let board = Board::builtin(name).unwrap();
            let bound = MoveBound::<u64>::new(&board);
            bound.regions().iter().filter(|r| r.count() == 7).count()
        })
        .sum();
    assert!(hexagons >= 1);
}

#[test]
fn the_bound_from_the_starts_never_exceeds_the_fewest_moves() {
    let mut rng = Rng(0x5EED_0F0B_1C1E_5500);
    let (mut checked, mut above_one) = (0u64, 0u64);
    let mut check = |board: &Board, oracle: &Oracle, starts: &[u64], what: &str| {
        let bound = MoveBound::<u64>::new(board);
        let list: Vec<Bits<u64>> = starts.iter().map(|&s| Bits(s)).collect();
        let origins = Origins::of(board, &list);
        for (q, moves) in oracle.fewest_moves_to_each(starts) {
            let b = bound.moves_since(Bits(q), &origins);
            assert!(
                b <= moves,
                "{what}: bound {b} from the starts above the fewest moves {moves} to {q:#x}"
            );
            checked += 1;
            above_one += u64::from(b >= 2);
        }
    };
    for case_number in 0..1000 {
        let case = random_case(&mut rng);
        let oracle = Oracle::new(case.lattice, &case.cells, Some(&case.board));
        let what = format!("case {case_number}\n{}", case.picture);
        check(&case.board, &oracle, &[case.start.raw()], &what);
    }
    // Every single vacancy at once (a start in each region), and each alone.
    for name in WHOLE_GAMES {
        let board = Board::builtin(name).unwrap();
        let oracle = Oracle::of_board(&board);
        let all: Vec<u64> = single_vacancies::<u64>(&board)
            .iter()
            .map(|s| s.raw())
            .collect();
        check(&board, &oracle, &all, name);
        for &s in &all {
            check(&board, &oracle, &[s], name);
        }
    }
    println!("{checked} positions, {above_one} bounds of 2 or more");
    assert!(
        checked > 20_000 && above_one > 2_000,
        "{checked} positions, {above_one} bounds of 2 or more"
    );
}

/// The fewest moves of a problem given a known line: the meeting pruned by the bounds must
/// find what brute force finds, whether the line is the solver's first or already the fewest.
fn pruned_agrees(problem: &Problem, known: &MeetSolution, expected: u32, what: &str) {
    // In one search below the line, and by steps from the regions' bound up.
    for by_steps in [false, true] {
        let line = Known {
            line: known,
            by_steps,
        };
        let r =
            fewest_moves_meeting_with(problem, &Limits::default(), Some(line), &|_| {}).unwrap();
        let MeetOutcome::Optimal(s) = &r.outcome else {
            panic!("{what}: {:?}", r.outcome)
        };
        let moves = (s.moves, r.lower_bound);
        assert_eq!(moves, (expected, expected), "{what}, known {}", known.moves);
        assert_eq!(move_count(&s.jumps), s.moves, "{what}");
        let end = replay(problem.board(), s.start, &s.jumps).unwrap();
        assert_eq!(end, s.finish, "{what}");
    }
}

#[test]
fn the_meeting_pruned_by_a_known_line_agrees_with_brute_force() {
    let mut rng = Rng(0x0B0D_1E50_F5EE_D000);
    let (mut cases, mut shorter) = (0u32, 0u32);
    for case_number in 0..6000 {
        if cases >= 200 {
            break;
        }
        let case = random_case(&mut rng);
        let oracle = Oracle::new(case.lattice, &case.cells, Some(&case.board));
        let finish = case.finish;
        let Some(expected) = oracle.fewest_moves(case.start.raw(), |q| is_finish(finish, q)) else {
            continue;
        };
        let what = format!("case {case_number}\n{}", case.picture);
        let problem = Problem::new(&case.board, case.start.resize(), finish).unwrap();
        let Outcome::Solved { jumps, finish: end } =
            pegsol::solve(&problem, &Limits::default()).unwrap().outcome
        else {
            panic!("{what}: the solver did not solve a solvable problem")
        };
        let first = MeetSolution {
            start: case.start.resize(),
            moves: move_count(&jumps),
            jumps,
            finish: end,
        };
        shorter += u32::from(first.moves > expected);
        pruned_agrees(&problem, &first, expected, &what);
        let MeetOutcome::Optimal(best) = fewest_moves_meeting(&problem, &Limits::default())
            .unwrap()
            .outcome
        else {
            panic!("{what}: the meeting did not solve a solvable problem")
        };
        pruned_agrees(&problem, &best, expected, &what);
        cases += 1;
    }
    // The basic games of small boards: every single vacancy to one peg anywhere, from the
    // beam's line.
    for name in [
        "triangle4",
        "triangle5",
        "triangle6",
        "rect:4x4",
        "rect:3x5",
        "rect:4x5",
    ] {
        let board = Board::builtin(name).unwrap();
        let oracle = Oracle::of_board(&board);
        let expected = single_vacancies::<u64>(&board)
            .iter()
            .filter_map(|s| oracle.fewest_moves(s.raw(), |q| q.count_ones() == 1))
            .min()
            .unwrap();
        let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne).unwrap();
        let line = few_moves(&basic, &Limits::default()).unwrap().unwrap();
        shorter += u32::from(line.moves > expected);
        pruned_agrees(&basic, &line, expected, name);
        cases += 1;
    }
    // The tests say something: many problems, many of them with a line longer than the fewest.
    println!("{cases} problems, {shorter} with a longer first line");
    assert!(
        cases > 150 && shorter > 40,
        "{cases} problems, {shorter} with a longer first line"
    );
}
