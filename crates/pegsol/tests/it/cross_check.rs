//! The solver against an independent brute-force search on random small boards of every
//! lattice, random starts and random finishes.

use crate::common::{is_finish, Oracle};
use pegsol::{
    replay, Bits, Board, Engines, Finish, Lattice, Limits, Outcome, Problem, Reason, SolveOptions,
};
use proptest::prelude::*;

/// The shared oracle's answer (jumps made from coordinates, no symmetry, classes or pagodas).
fn brute_force(board: &Board, start: Bits, finish: Finish) -> bool {
    Oracle::of_board(board).solvable(start.raw(), |p| is_finish(finish, p))
}

fn lattice() -> impl Strategy<Value = Lattice> {
    prop_oneof![
        Just(Lattice::Orthogonal),
        Just(Lattice::Diagonal),
        Just(Lattice::Triangular)
    ]
}

/// A connected shape of `n` cells grown from one cell on `lattice` (each new cell a lattice
/// neighbour of the shape, chosen by `choices`), a start and a finish, from raw random words.
fn build(lat: Lattice, n: usize, choices: &[u64], kind: u8) -> (Board, Bits, Finish) {
    let mut cells: Vec<(i64, i64)> = vec![(0, 0)];
    let dirs = lat.directions();
    let mut k = 0;
    while cells.len() < n {
        // The picks cycle through `choices`, so they may keep landing on cells already taken:
        // after a bounded number of tries, take the first free neighbour instead (without this
        // the loop can run forever).
        let next = if k < 64 * choices.len() {
            let pick = choices[k % choices.len()].rotate_left(k as u32);
            let (r, c) = cells[(pick % cells.len() as u64) as usize];
            let (dr, dc) = dirs[((pick >> 20) % dirs.len() as u64) as usize];
            Some((r + dr as i64, c + dc as i64)).filter(|p| !cells.contains(p))
        } else {
            cells
                .iter()
                .flat_map(|&(r, c)| {
                    dirs.iter()
                        .map(move |&(dr, dc)| (r + dr as i64, c + dc as i64))
                })
                .find(|p| !cells.contains(p))
        };
        k += 1;
        if let Some(cell) = next {
            cells.push(cell);
        }
    }
    let r0 = cells.iter().map(|c| c.0).min().unwrap();
    let c0 = cells.iter().map(|c| c.1).min().unwrap();
    let cells: Vec<(usize, usize)> = cells
        .iter()
        .map(|&(r, c)| ((r - r0) as usize, (c - c0) as usize))
        .collect();
    let board = Board::new("random", lat, &cells, None).unwrap();
    let x = choices[0] ^ choices[choices.len() - 1].rotate_left(17);
    let hole = |i: u64| pegsol::Hole::new((i % board.hole_count() as u64) as usize).unwrap();
    let start = match kind % 3 {
        // The classic start: full but for one hole.
        0 => board.holes().without(hole(x)),
        // Full but for two holes.
        1 => board.holes().without(hole(x)).without(hole(x >> 16)),
        // A sparse position: about a third of the holes.
        _ => Bits(x & (x >> 21) | x & (x >> 40))
            .intersect(board.holes())
            .with(hole(x >> 8)),
    };
    let finish = match kind / 3 % 3 {
        0 if x >> 60 & 1 == 1 => Finish::Pegs(2),
        0 => Finish::AnyOne,
        1 => Finish::Holes(hole(x >> 5).bit()),
        _ => Finish::Holes(
            board
                .holes()
                .minus(start)
                .lowest()
                .map_or(hole(x).bit(), |h| h.bit()),
        ),
    };
    (board, start, finish)
}

fn problem() -> impl Strategy<Value = (Lattice, usize, Vec<u64>, u8)> {
    (
        lattice(),
        4usize..=20,
        proptest::collection::vec(any::<u64>(), 4..40),
        0u8..9,
    )
}

/// Solves with the library and checks against brute force; returns the brute-force answer.
fn check(board: &Board, start: Bits, finish: Finish) -> Option<bool> {
    let problem = Problem::new(board, start.resize(), finish).ok()?;
    let expected = brute_force(board, start, finish);
    let report = pegsol::solve(&problem, &Limits::default()).unwrap();
    match report.outcome {
        Outcome::Solved { jumps, finish: end } => {
            assert!(expected, "solver found a line brute force could not");
            assert_eq!(replay(board, start, &jumps).unwrap(), end.resize());
            match finish {
                Finish::Holes(f) => assert_eq!(end, f),
                Finish::AnyOne => assert_eq!(end.count(), 1),
                Finish::Pegs(n) => assert_eq!(end.count(), n),
            }
        }
        Outcome::Impossible(reason) => {
            assert!(
                !expected,
                "solver said impossible ({reason}) but a line exists:\n{board:?}"
            );
        }
        Outcome::Undecided(b) => panic!("undecided ({b}) on a small board"),
    }
    Some(expected)
}

#[test]
fn many_random_boards_with_a_mix_of_answers() {
    // A fixed pseudo-random sweep, so the mix of answers is known to be healthy.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut yes, mut no) = (0, 0);
    for case in 0..1500u64 {
        let lat = Lattice::ALL[(case % 3) as usize];
        let n = 4 + (next() % 17) as usize;
        let choices: Vec<u64> = (0..24).map(|_| next()).collect();
        let (board, start, finish) = build(lat, n, &choices, (next() % 9) as u8);
        match check(&board, start, finish) {
            Some(true) => yes += 1,
            Some(false) => no += 1,
            None => {}
        }
    }
    assert!(yes >= 100 && no >= 200, "solvable {yes}, impossible {no}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_brute_force((lat, n, choices, kind) in problem()) {
        let (board, start, finish) = build(lat, n, &choices, kind);
        check(&board, start, finish);
    }

    #[test]
    fn guided_search_alone_agrees_with_brute_force((lat, n, choices, kind) in problem()) {
        // Boards of up to 20 holes: levels wider than the first beam widths, so that the beam
        // cuts, retries wider, and claims impossibility only once no level was cut.
        let (board, start, finish) = build(lat, n, &choices, kind);
        let Ok(problem) = Problem::new(&board, start.resize(), finish) else { return Ok(()); };
        let options = SolveOptions { engines: Engines::Guided, ..SolveOptions::default() };
        let expected = brute_force(&board, start, finish);
        match pegsol::solve_with(&problem, &Limits::default(), &options, &|_| {}).unwrap().outcome {
            Outcome::Solved { jumps, finish: end } => {
                prop_assert!(expected);
                prop_assert_eq!(replay(&board, start, &jumps).unwrap(), end.resize());
            }
            Outcome::Impossible(_) => prop_assert!(!expected, "guided search refuted a solvable problem"),
            Outcome::Undecided(b) => prop_assert!(false, "undecided ({}) on a small board", b),
        }
    }

    #[test]
    fn symmetric_problems_agree((lat, n, choices, kind) in problem()) {
        let (board, start, _) = build(lat, n, &choices, kind);
        let Ok(problem) = Problem::new(&board, start.resize(), Finish::AnyOne) else { return Ok(()); };
        let solved = |p: &Problem| matches!(pegsol::solve(p, &Limits::default()).unwrap().outcome, Outcome::Solved { .. });
        let base = solved(&problem);
        let sym = board.symmetries();
        for g in 1..sym.len() {
            let image = Problem::new(&board, sym.apply(g, start.resize()), Finish::AnyOne).unwrap();
            prop_assert_eq!(solved(&image), base);
        }
    }

    #[test]
    fn class_refutations_are_sound((lat, n, choices, kind) in problem()) {
        // Whenever the solver cites the class, brute force agrees, and the class is jump-invariant.
        let (board, start, _) = build(lat, n, &choices, kind);
        let target = pegsol::Hole::new((choices[1] % board.hole_count() as u64) as usize).unwrap().bit();
        let Ok(problem) = Problem::new(&board, start.resize(), Finish::Holes(target)) else { return Ok(()); };
        if pegsol::solve(&problem, &Limits::default()).unwrap().outcome == Outcome::Impossible(Reason::Class) {
            prop_assert!(!brute_force(&board, start, Finish::Holes(target)));
        }
        for j in board.jumps() {
            if j.is_legal(start) {
                prop_assert_eq!(board.classes().class_of(j.apply(start)), board.classes().class_of(start));
            }
        }
    }
}

/// The catalog's last resort, the exhaustive count ([`pegsol::catalog::decide_by_count`]),
/// against brute force on the same fixed sweep of random boards, starts and finishes (one
/// hole, one peg anywhere, two pegs): impossible by count exactly where brute force finds no
/// line, and elsewhere a line through the winning set that replays to an allowed finish.
#[test]
fn the_exhaustive_count_agrees_with_brute_force() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let options = pegsol::count::CountOptions::default();
    let (mut yes, mut no) = (0, 0);
    for case in 0..600u64 {
        let lat = Lattice::ALL[(case % 3) as usize];
        let n = 4 + (next() % 15) as usize;
        let choices: Vec<u64> = (0..24).map(|_| next()).collect();
        let (board, start, finish) = build(lat, n, &choices, (next() % 9) as u8);
        let Ok(problem) = Problem::new(&board, start.resize(), finish) else {
            continue;
        };
        let expected = brute_force(&board, start, finish);
        let decided = pegsol::catalog::decide_by_count(&problem, &options)
            .unwrap()
            .expect("no budget to run out");
        match decided.outcome {
            Outcome::Solved { jumps, finish: end } => {
                assert!(
                    expected,
                    "the count found a line brute force could not:\n{board:?}"
                );
                assert_eq!(replay(&board, start, &jumps).unwrap(), end.resize());
                assert!(is_finish(finish, end.resize::<u64>().raw()), "{board:?}");
                yes += 1;
            }
            Outcome::Impossible(reason) => {
                assert_eq!(reason, Reason::Counted);
                assert!(decided.certificate.is_none());
                assert!(
                    !expected,
                    "the count refuted a solvable problem:\n{board:?}"
                );
                no += 1;
            }
            Outcome::Undecided(b) => panic!("undecided ({b}) without a budget"),
        }
    }
    assert!(yes >= 50 && no >= 100, "solvable {yes}, impossible {no}");
}
