//! The solver against an independent brute-force search on random small boards of every
//! lattice, random starts and random finishes.

use std::collections::HashSet;

use pegsol::{replay, Bits, Board, Finish, Lattice, Limits, Outcome, Problem, Reason};
use proptest::prelude::*;

/// Every position reachable by plain exhaustive search, with jumps generated here from the
/// coordinates (not from the board's jump table), no symmetry, no classes, no pagodas.
fn brute_force(board: &Board, start: Bits, finish: Finish) -> bool {
    let mut jumps = Vec::new();
    for h in board.holes() {
        let (r, c) = board.coords(h);
        for &(dr, dc) in board.lattice().directions() {
            let at = |k: i64| board.hole_at(r as i64 + k * dr as i64, c as i64 + k * dc as i64);
            if let (Some(b), Some(t)) = (at(1), at(2)) {
                jumps.push((h.bit().raw(), b.bit().raw(), t.bit().raw()));
            }
        }
    }
    let done = |p: u64| match finish {
        Finish::Holes(f) => p == f.raw(),
        Finish::AnyOne => p.count_ones() == 1,
    };
    let mut seen = HashSet::new();
    let mut stack = vec![start.raw()];
    while let Some(p) = stack.pop() {
        if done(p) {
            return true;
        }
        if !seen.insert(p) {
            continue;
        }
        for &(a, b, t) in &jumps {
            if p & a != 0 && p & b != 0 && p & t == 0 {
                stack.push(p ^ a ^ b ^ t);
            }
        }
    }
    false
}

fn lattice() -> impl Strategy<Value = Lattice> {
    prop_oneof![
        Just(Lattice::Orthogonal),
        Just(Lattice::Diagonal),
        Just(Lattice::Triangular)
    ]
}

/// A random shape of 4 to 20 cells inside a 5x6 box, a random start and a random finish.
fn problem() -> impl Strategy<Value = (Lattice, Vec<(usize, usize)>, u64, u64, u8)> {
    (
        lattice(),
        proptest::collection::hash_set((0usize..5, 0usize..6), 4..=20),
        any::<u64>(),
        any::<u64>(),
        0u8..3,
    )
        .prop_map(|(l, cells, s, f, kind)| (l, cells.into_iter().collect(), s, f, kind))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_brute_force((lat, cells, s, f, kind) in problem()) {
        let board = Board::new("random", lat, &cells, None).unwrap();
        let n = board.hole_count();
        // Mostly-full starts, as in real play: clear about a quarter of the holes.
        let start = Bits(!(s & (s >> 7) & (s >> 13)) & board.holes().raw() | (s & 1));
        let start = if start == board.holes() { start.without(board.holes().lowest().unwrap()) } else { start };
        let finish = match kind {
            0 => Finish::AnyOne,
            1 => Finish::Holes(pegsol::Hole::new((f % n as u64) as usize).unwrap().bit()),
            _ => {
                let a = (f % n as u64) as usize;
                let b = ((f >> 8) % n as u64) as usize;
                Finish::Holes(Bits::first(0).with(pegsol::Hole::new(a).unwrap()).with(pegsol::Hole::new(b).unwrap()))
            }
        };
        let Ok(problem) = Problem::new(&board, start, finish) else { return Ok(()); };
        let expected = brute_force(&board, start, finish);
        let report = pegsol::solve(&problem, &Limits::default());
        match report.outcome {
            Outcome::Solved { jumps, finish: end } => {
                prop_assert!(expected, "solver found a line brute force could not");
                let replayed = replay(&board, start, &jumps).unwrap();
                prop_assert_eq!(replayed, end);
                match finish {
                    Finish::Holes(f) => prop_assert_eq!(end, f),
                    Finish::AnyOne => prop_assert_eq!(end.count(), 1),
                }
            }
            Outcome::Impossible(reason) => {
                prop_assert!(!expected, "solver said impossible ({reason}) but a line exists");
            }
            Outcome::Undecided(b) => prop_assert!(false, "undecided ({b}) on a small board"),
        }
    }

    #[test]
    fn symmetric_problems_agree((lat, cells, s, _f, _k) in problem()) {
        let board = Board::new("random", lat, &cells, None).unwrap();
        let start = Bits(s & board.holes().raw());
        let Ok(problem) = Problem::new(&board, start, Finish::AnyOne) else { return Ok(()); };
        let solved = |p: &Problem| matches!(pegsol::solve(p, &Limits::default()).outcome, Outcome::Solved { .. });
        let base = solved(&problem);
        let sym = board.symmetries();
        for g in 1..sym.len() {
            let image = Problem::new(&board, sym.apply(g, start), Finish::AnyOne).unwrap();
            prop_assert_eq!(solved(&image), base);
        }
    }

    #[test]
    fn class_refutations_are_sound((lat, cells, s, f, _k) in problem()) {
        // Whenever the solver cites the class, brute force agrees, and the class is jump-invariant.
        let board = Board::new("random", lat, &cells, None).unwrap();
        let start = Bits(s & board.holes().raw());
        let n = board.hole_count();
        let target = pegsol::Hole::new((f % n as u64) as usize).unwrap().bit();
        let Ok(problem) = Problem::new(&board, start, Finish::Holes(target)) else { return Ok(()); };
        if pegsol::solve(&problem, &Limits::default()).outcome == Outcome::Impossible(Reason::Class) {
            prop_assert!(!brute_force(&board, start, Finish::Holes(target)));
        }
        for j in board.jumps() {
            if j.is_legal(start) {
                prop_assert_eq!(board.classes().class_of(j.apply(start)), board.classes().class_of(start));
            }
        }
    }
}
