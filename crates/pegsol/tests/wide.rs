//! The wide solver (boards of 65 to 256 holes) against an independent brute force on random
//! boards of 65 to 100 holes of every lattice, with a few pegs; and the big boards the
//! 64-hole engines cannot hold.

use std::collections::{BTreeSet, HashSet};

use pegsol::{
    replay_wide, solve_wide, Lattice, Shape, WideBoard, WideFinish, WideLimits, WideOutcome,
    WidePegs,
};
use proptest::prelude::*;

type Cell = (i64, i64);

/// Plays every line from `pegs` by coordinates alone (no jump tables, classes or tables of
/// the library), remembering positions that failed.
fn brute_force(
    cells: &HashSet<Cell>,
    dirs: &[(i32, i32)],
    pegs: &BTreeSet<Cell>,
    finish: &dyn Fn(&BTreeSet<Cell>) -> bool,
    count: usize,
    failed: &mut HashSet<Vec<Cell>>,
) -> bool {
    if pegs.len() == count {
        return finish(pegs);
    }
    let key: Vec<Cell> = pegs.iter().copied().collect();
    if failed.contains(&key) {
        return false;
    }
    for &(r, c) in pegs {
        for &(dr, dc) in dirs {
            let over = (r + i64::from(dr), c + i64::from(dc));
            let to = (r + 2 * i64::from(dr), c + 2 * i64::from(dc));
            if pegs.contains(&over) && cells.contains(&to) && !pegs.contains(&to) {
                let mut next = pegs.clone();
                next.remove(&(r, c));
                next.remove(&over);
                next.insert(to);
                if brute_force(cells, dirs, &next, finish, count, failed) {
                    return true;
                }
            }
        }
    }
    failed.insert(key);
    false
}

/// A connected shape of `n` cells grown on `lattice` from `picks`, as a board picture.
fn grow(lattice: Lattice, n: usize, picks: &[u64]) -> (String, Vec<Cell>) {
    let dirs = lattice.directions();
    let mut cells: Vec<Cell> = vec![(0, 0)];
    let mut taken: HashSet<Cell> = cells.iter().copied().collect();
    let mut k = 0usize;
    while cells.len() < n {
        let pick = picks[k % picks.len()].rotate_left(k as u32 % 64) ^ k as u64;
        k += 1;
        let (r, c) = cells[(pick % cells.len() as u64) as usize];
        let (dr, dc) = dirs[((pick >> 32) % dirs.len() as u64) as usize];
        let cell = (r + i64::from(dr), c + i64::from(dc));
        if taken.insert(cell) {
            cells.push(cell);
        }
    }
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let cells: Vec<Cell> = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
    let rows = cells.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
    let cols = cells.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
    let mut grid = vec![vec![' '; cols]; rows];
    for &(r, c) in &cells {
        grid[r as usize][c as usize] = 'o';
    }
    let mut text = format!("lattice: {}\ncolumns: exact\n", lattice.name());
    for row in grid {
        text.push_str(row.iter().collect::<String>().trim_end());
        text.push('\n');
    }
    (text, cells)
}

fn lattice() -> impl Strategy<Value = Lattice> {
    prop_oneof![
        Just(Lattice::Orthogonal),
        Just(Lattice::Diagonal),
        Just(Lattice::Triangular)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_wide_solver_agrees_with_brute_force(
        lat in lattice(),
        n in 65usize..=100,
        picks in prop::collection::vec(any::<u64>(), 8),
        pegs in 2usize..=8,
        seed in any::<u64>(),
        kind in 0u8..3,
    ) {
        let (text, cells) = grow(lat, n, &picks);
        let board = WideBoard::from_shape(&Shape::parse("random", &text).unwrap()).unwrap();
        prop_assert_eq!(board.hole_count(), n);
        // A few pegs close together (the first cells of a walk from a random cell), so that
        // jumps are possible.
        let centre = cells[(seed % n as u64) as usize];
        let mut near: Vec<Cell> = cells.clone();
        near.sort_by_key(|&(r, c)| ((r - centre.0).abs() + (c - centre.1).abs(), (r * 7 + c * 13 + seed as i64) % 5));
        let start_cells: BTreeSet<Cell> = near.iter().take(pegs).copied().collect();
        let hole = |&(r, c): &Cell| board.hole_at(r, c).unwrap();
        let start = start_cells.iter().fold(WidePegs::EMPTY, |s, c| s.with(hole(c)));
        let target_cell = near[((seed >> 16) % (pegs as u64 + 4)) as usize];
        let (finish, count) = match kind {
            0 => (WideFinish::Pegs(1), 1),
            1 => (WideFinish::Pegs(2), 2),
            _ => (WideFinish::Exactly(WidePegs::EMPTY.with(hole(&target_cell))), 1),
        };
        let taken: HashSet<Cell> = cells.iter().copied().collect();
        let wanted = |p: &BTreeSet<Cell>| match &finish {
            WideFinish::Pegs(k) => p.len() == *k,
            WideFinish::Exactly(_) => p.len() == 1 && p.contains(&target_cell),
        };
        let expected = brute_force(&taken, lat.directions(), &start_cells, &wanted, count, &mut HashSet::new());
        let report = solve_wide(&board, start, &finish, &WideLimits::default()).unwrap();
        match report.outcome {
            WideOutcome::Solved { jumps, finish: end } => {
                prop_assert!(expected, "solved what brute force refutes");
                let replayed = replay_wide(&board, start, &jumps).unwrap();
                prop_assert_eq!(replayed, end);
                prop_assert_eq!(end.count() as usize, count);
                if let WideFinish::Exactly(f) = finish {
                    prop_assert_eq!(end, f);
                }
            }
            WideOutcome::Impossible(_) => prop_assert!(!expected, "refuted what brute force solves"),
            WideOutcome::Undecided(_) => prop_assert!(false, "undecided on {} pegs", pegs),
        }
    }
}

#[test]
fn a_66_hole_triangle_and_the_9x9_square_come_down_to_one_peg() {
    for (name, empty, finish) in [
        ("triangle:11", "a1", WideFinish::Pegs(1)),
        ("rect:9x9", "e5", WideFinish::Exactly(WidePegs::EMPTY)),
    ] {
        let board = WideBoard::builtin(name).unwrap();
        let vacancy = board.hole(empty).unwrap();
        let start = board.holes().without(vacancy);
        let finish = match finish {
            WideFinish::Exactly(_) => WideFinish::Exactly(WidePegs::EMPTY.with(vacancy)),
            f => f,
        };
        let report = solve_wide(&board, start, &finish, &WideLimits::default()).unwrap();
        let WideOutcome::Solved { jumps, finish: end } = report.outcome else {
            panic!("{name}: {:?}", report.outcome)
        };
        assert_eq!(jumps.len(), board.hole_count() - 2, "{name}");
        assert_eq!(replay_wide(&board, start, &jumps).unwrap(), end, "{name}");
        assert_eq!(end.count(), 1, "{name}");
    }
}

#[test]
fn the_class_test_refutes_at_once_on_256_holes() {
    // On the 16x16 square the corner vacancy's class holds no single peg at the corner's
    // neighbour b1 (a jump keeps the class; b1 and a1 differ in it).
    let board = WideBoard::builtin("rect:16x16").unwrap();
    assert_eq!(board.words(), 4);
    let start = board.holes().without(board.hole("a1").unwrap());
    let finish = WideFinish::Exactly(WidePegs::EMPTY.with(board.hole("b1").unwrap()));
    let report = solve_wide(&board, start, &finish, &WideLimits::default()).unwrap();
    assert_eq!(
        report.outcome,
        WideOutcome::Impossible(pegsol::Reason::Class)
    );
    assert_eq!(report.engine, "class");
}
