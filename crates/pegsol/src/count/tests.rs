use super::*;
use crate::board::Board;
use crate::count::cut::Cut;
use crate::count::meeting::{levels_counted, winners_meeting};
use crate::count::packed::{rank, Spread};
use crate::count::reach::{dual_symmetry, winnable};
use crate::count::step::{expand, Kept, Step};
use crate::count::winners::{
    backward, intersect_run, intersect_sorted, self_dual_winners, Winners,
};
use crate::key::Dense;
use crate::problem::Finish;
use crate::space::group_of;
use crate::symmetry::Canonicalizer;
use crate::table::{SPREAD, UNSPREAD};

/// The game on `b` with the holes `empty` empty, ending on the holes `finish` (or on any
/// one peg).
fn problem(b: &Board, empty: &str, finish: Option<&str>) -> Problem {
    let start: crate::Bits = b.holes().minus(b.hole_set(empty).unwrap());
    let finish = finish.map_or(Finish::AnyOne, |f| Finish::Holes(b.hole_set(f).unwrap()));
    Problem::new(b, start.resize(), finish).unwrap()
}

/// A whole count in memory, with its winners as board positions under `canon`.
fn analyse_in_memory(p: &Problem, canon: &Canonicalizer, space: &Space) -> (Count, Winners) {
    analyse(
        p,
        Some(canon),
        space,
        None,
        usize::MAX,
        None,
        Stop::default(),
        &|_| {},
    )
    .unwrap()
}

#[test]
fn winners_from_both_ends_match_the_full_count() {
    let mut solvable = 0;
    // Self-dual (complement problems) and not, odd and even numbers of jumps: self-dual on
    // an odd board (folded keys, an odd number of jumps: both sides meet at one level) and on
    // an even one (plain keys, an even number: the dual side stops a level short).
    for (name, empty, finish) in [
        ("triangle5", "a1", "a1"),
        ("triangle5", "c5", "a4"),
        ("triangle6", "c3", "c3"),
        ("rect:5x5", "c1", "c5"),
        ("rect:4x5", "b2", "c2"),
        ("rect:4x5", "b2", "b2"),
        ("rect:4x6", "b2", "b2"),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, Some(finish));
        let canon = group_of(&p);
        let (_, full) = analyse_in_memory(&p, &canon, &Space::new(&p, true));
        let met = winners_meeting(&p, &canon, usize::MAX, Stop::default())
            .unwrap()
            .unwrap();
        if full.iter().all(Vec::is_empty) {
            // Impossible: the forward count may stop early, when no jump is left.
            assert!(met.iter().all(Vec::is_empty), "{name} {empty} -> {finish}");
        } else {
            assert_eq!(full, met, "{name} {empty} -> {finish}");
        }
        // The solutions and winning figures by the meeting, against the whole count.
        let whole = count(&p, usize::MAX, &|_| {}).unwrap();
        let s = count_solutions(&p, &Limits::default()).unwrap().unwrap();
        assert_eq!(s.solutions, whole.solutions, "{name} {empty} -> {finish}");
        assert_eq!(
            (s.winning(), s.winning_classes()),
            (whole.winning(), whole.winning_classes()),
            "{name} {empty} -> {finish}"
        );
        solvable += usize::from(s.solutions > 0);
    }
    assert!(solvable >= 5, "{solvable}");
    let b = Board::builtin("triangle5").unwrap();
    let any = Problem::new(&b, b.holes().without(b.hole("a1").unwrap()), Finish::AnyOne).unwrap();
    assert!(winners_meeting(&any, &group_of::<u64>(&any), usize::MAX, Stop::default()).is_none());
}

/// The meeting's pagoda cut (`Cut::pruning`, the dual game's by `Cut::dual_pruning`) keeps
/// every winning position of every level, forward and dual, with its exact path count, and
/// drops positions on some of these games (else the test would prove nothing): checked
/// against the uncut levels and the full count's winners.
#[test]
fn the_meetings_cut_keeps_every_winner_and_its_paths() {
    let mut dropped = 0;
    for (name, empty, finish) in [
        ("rect:5x5", "c3", "c3"),
        ("rect:5x5", "c1", "c5"),
        ("triangle6", "c3", "c3"),
        ("rect:4x6", "b2", "b2"),
        ("rect:4x5", "b2", "c2"),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, Some(finish));
        let (start, target) = (p.start::<u64>(), b.hole_set::<u64>(finish).unwrap());
        let canon = group_of(&p);
        let space = Space::<u64>::new(&p, true);
        let holes = b.holes::<u64>();
        // The game and its dual: a winner of the dual game is the complement of a winner of
        // the game, as many jumps from the other end.
        let dual = Problem::new(
            &b,
            holes.minus(target).resize(),
            Finish::holes(holes.minus(start)),
        )
        .unwrap();
        let cuts = [
            Cut::pruning(&p, &space.layout),
            Cut::dual_pruning(&p, target, &space.layout),
        ];
        for (game, cut) in [&p, &dual].into_iter().zip(&cuts) {
            let pegs = game.start::<u64>().count();
            let jumps = (pegs - game.targets::<u64>()[0].count()) as usize;
            let levels = |cut: Option<&Cut<u64>>| {
                levels_counted(
                    &space,
                    space.key(game.start()),
                    pegs,
                    jumps,
                    usize::MAX,
                    Stop::default(),
                    Some(&(0..=jumps).collect::<Vec<_>>()),
                    cut,
                )
                .unwrap()
            };
            let (plain, plain_counts) = levels(None);
            let (kept, kept_counts) = levels(cut.as_ref());
            let (_, winners) = analyse_in_memory(game, &canon, &Space::new(game, true));
            for d in 0..=jumps {
                let pegs = pegs - d as u32;
                // The count stops where no jump is left.
                let winners = winners.get(d).map_or(&[][..], |w| &w[..]);
                let counted: std::collections::HashMap<u64, u128> = plain[d]
                    .iter()
                    .copied()
                    .zip(plain_counts[d].iter().copied())
                    .collect();
                for (k, c) in kept[d].iter().zip(&kept_counts[d]) {
                    // Only positions of the uncut level, and the winners with their counts.
                    let all = counted[k];
                    assert!(*c <= all, "{name} {empty} -> {finish} level {d}");
                    let board = space.to_board(&[*k], pegs, &canon)[0];
                    if winners.binary_search(&board).is_ok() {
                        assert_eq!(*c, all, "{name} {empty} -> {finish} level {d}");
                    }
                }
                let kept_boards = space.to_board(&kept[d], pegs, &canon);
                for w in winners {
                    assert!(
                        kept_boards.binary_search(w).is_ok(),
                        "{name} {empty} -> {finish}"
                    );
                }
                dropped += plain[d].len() - kept[d].len();
            }
        }
    }
    assert!(dropped > 100, "{dropped}");
}

#[test]
fn self_dual_winners_match_the_backward_pass() {
    let mut solvable = 0;
    for (name, empty, finish, dual) in [
        ("triangle5", "a1", "a1", true),
        ("triangle6", "c3", "c3", true),
        ("rect:5x5", "c3", "c3", true),
        ("rect:4x5", "b2", "b2", true),
        ("triangle6", "a1", "a1", true),
        ("rect:4x6", "b2", "b2", true),
        ("triangle5", "c5", "a4", false),
        ("rect:5x5", "c1", "c5", false),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, Some(finish));
        let (start, target) = (p.start(), b.hole_set(finish).unwrap());
        let canon = group_of(&p);
        // Levels and winners as board positions, from plain keys and from folded ones.
        let mut seen = Vec::new();
        for fold in [false, true] {
            let space = if fold {
                Space::folded(&p, true)
            } else {
                Space::new(&p, true)
            };
            let odd = b.holes::<u64>().count() % 2 == 1;
            assert_eq!(space.fold != 0, fold && dual && odd, "{name} {empty}");
            let jumps = (start.count() - target.count()) as usize;
            let (levels, _) = levels_counted(
                &space,
                space.key(start),
                start.count(),
                jumps,
                usize::MAX,
                Stop::default(),
                None,
                None,
            )
            .unwrap();
            let boards = |sets: &[Vec<u64>]| -> Vec<Vec<u64>> {
                sets.iter()
                    .enumerate()
                    .map(|(d, s)| space.to_board(s, start.count() - d as u32, &canon))
                    .collect()
            };
            let all = boards(&levels);
            let stored: Vec<Kept<u64>> = levels.into_iter().map(Kept::Mem).collect();
            let is_target = vec![space.key(target)];
            let slow = backward(
                &p,
                &space,
                &stored,
                &is_target,
                target.count(),
                usize::MAX,
                Stop::default(),
            )
            .unwrap();
            // Slices of a hundred or so winners (128 KB of parents) find the same winners.
            let sliced = backward(
                &p,
                &space,
                &stored,
                &is_target,
                target.count(),
                1 << 17,
                Stop::default(),
            )
            .unwrap();
            assert_eq!(sliced, slow, "{name} {empty} -> {finish}");
            match self_dual_winners(&p, &space, &stored, Stop::default()).unwrap() {
                Some(fast) => {
                    assert!(dual, "{name} {empty} -> {finish}");
                    assert_eq!(fast, slow, "{name} {empty} -> {finish}");
                    solvable += usize::from(fast.iter().all(|w| !w.is_empty()));
                }
                None => assert!(!dual, "{name} {empty} -> {finish}"),
            }
            seen.push((all, boards(&slow)));
        }
        assert_eq!(seen[0], seen[1], "{name} {empty} -> {finish}");
    }
    // Not only empty sets compared: both spaces, solvable games.
    assert!(solvable >= 6, "{solvable}");
}

#[test]
fn folded_and_plain_keys_count_alike() {
    let mut solvable = 0;
    // Odd boards whose game is its own dual (one unsolvable), and one whose game is not.
    for (name, empty, finish) in [
        ("triangle6", "c3", "c3"),
        ("triangle5", "a1", "a1"),
        ("rect:3x5", "c1", "c1"),
        ("rect:5x5", "c3", "c3"),
        ("triangle5", "c5", "a4"),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, Some(finish));
        let canon = group_of(&p);
        let run = |space: &Space| analyse_in_memory(&p, &canon, space);
        let (plain, plain_winners) = run(&Space::new(&p, true));
        // Folded on the grid, and on the board's own numbering (per-hole jump lists).
        for grid in [true, false] {
            let space = Space::folded(&p, grid);
            assert_eq!(space.fold != 0, empty == finish, "{name} {empty} {grid}");
            let (folded, folded_winners) = run(&space);
            assert_eq!(
                format!("{plain:?}"),
                format!("{folded:?}"),
                "{name} {empty} {grid}"
            );
            assert_eq!(plain_winners, folded_winners, "{name} {empty} {grid}");
        }
        solvable += usize::from(plain.solutions > 0);
    }
    assert!(solvable >= 4, "{solvable}");
}

#[test]
fn spilling_to_disk_gives_the_same_count() {
    // The last is its own dual, so its keys are folded: spilled, its winners come from
    // mirror levels read from files, in memory from levels intersected in memory.
    for (name, empty, finish) in [
        ("triangle6", "c3", None),
        ("rect:5x5", "c1", None),
        ("triangle6", "c3", Some("c3")),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, finish);
        let dual = finish.is_some();
        assert_eq!(Space::<u64>::folded(&p, true).fold != 0, dual, "{name}");
        let full = count(&p, usize::MAX, &|_| {}).unwrap();
        // Without a spill directory a small budget ends the count; with one it goes on
        // through files (64 KB: many slices and runs per level).
        assert!(matches!(
            count(&p, 1 << 16, &|_| {}),
            Err(CountError::Memory { .. })
        ));
        let spilled = count_with(
            &p,
            &CountOptions {
                max_memory: 1 << 16,
                spill: Some(std::env::temp_dir()),
                ..CountOptions::default()
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(full.levels, spilled.levels, "{name}");
        assert_eq!(full.solutions, spilled.solutions);
        assert_eq!(full.games, spilled.games);
        assert!(full.solutions > 0);
    }
}

// Positions, games, winning positions and solutions on small boards are checked against the
// brute-force oracle by the corpus test (`tests/it/corpus.rs`).

/// Path counts past 64 bits take the wide children; both packings sum the same way.
#[test]
fn wide_and_narrow_children_sum_alike() {
    let board = Board::builtin("english").unwrap();
    let problem = Problem::conventional(&board).unwrap();
    let space = Space::<u64>::new(&problem, true);
    // The four first jumps of the English board are one class: one child with 4 paths.
    let start = [space.key(problem.start())];
    // 3 fits 64 bits throughout; half of `u64::MAX` fits, but not four of it, so that
    // level is redone wide; 3 << 70 is wide from the start.
    for count in [3u128, u128::from(u64::MAX / 2), 3 << 70] {
        let step = Step {
            pegs: 32,
            space: &space,
            cut: None,
            branching: 1.0,
            duplication: 1.0,
            stop: Stop::default(),
        };
        let out = expand(&start, &[count], step, Spread).unwrap();
        assert_eq!((out.keys.len(), out.children), (1, 4));
        assert_eq!(out.counts, vec![4 * count]);
        assert_eq!(out.positions, 1);
    }
}

#[test]
fn grid_and_dense_layouts_count_alike() {
    // Square, triangular and diagonal lattices; with a finish and without.
    for (name, empty, finish) in [
        ("triangle6", "c3", None),
        ("rect:5x5", "c1", Some("c5")),
        ("rect:4x6", "b2", None),
        ("diagonal 4x4", "b2", None),
        // A box of 17 by 4 (past 64 bits): laid out at `r * a + c * b`, not `r * 4 + c`.
        ("tailed 4x4", "b2", None),
    ] {
        let b = if name.starts_with("diagonal ") {
            Board::parse(name, "lattice: diagonal\noooo\noooo\noooo\noooo\n").unwrap()
        } else if name.starts_with("tailed ") {
            let tail = "o\n".repeat(13);
            Board::parse(name, &format!("oooo\noooo\noooo\noooo\n{tail}")).unwrap()
        } else {
            Board::builtin(name).unwrap()
        };
        let p = problem(&b, empty, finish);
        assert!(Space::<u64>::new(&p, true).layout.is_grid(), "{name}");
        let options = |grid| CountOptions {
            grid,
            timeout: Some(std::time::Duration::from_secs(60)),
            ..CountOptions::default()
        };
        let grid = count_with(&p, &options(true), &|_| {}).unwrap();
        let dense = count_with(&p, &options(false), &|_| {}).unwrap();
        assert_eq!(grid.levels, dense.levels, "{name}");
        assert_eq!((grid.solutions, grid.games), (dense.solutions, dense.games));
    }
}

#[test]
fn dense_order_is_a_bijection_on_the_keys_of_its_width() {
    assert_eq!(SPREAD.wrapping_mul(UNSPREAD), 1);
    let mut next = crate::testing::xorshift();
    for holes in [1u64, 0x1F, (1 << 33) - 1, 0x1_C71C_71C7_1C71, u64::MAX] {
        let dense = Dense::new(holes);
        let width = 64 - holes.leading_zeros();
        assert_eq!(dense.last(), u64::MAX >> (64 - width));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let k = next() & dense.last();
            let i = dense.index(k);
            assert!(i <= dense.last());
            assert_eq!(dense.key(i), k);
            seen.insert(i);
        }
        if width == 5 {
            // Every 5-bit key, every index once.
            assert_eq!(seen.len(), 32);
        }
    }
}

#[test]
fn intersections_in_pieces_match_one_pass() {
    // Large enough to be cut into pieces, with keys near the cuts' ranks.
    let mut random = crate::testing::xorshift();
    let mut next = || random() % (1 << 20);
    let mut a: Vec<u64> = (0..200_000).map(|_| next()).collect();
    let mut b: Vec<u64> = (0..300_000).map(|_| next()).collect();
    for list in [&mut a, &mut b] {
        list.sort_unstable_by_key(|&k| rank(k));
        list.dedup();
    }
    let both = intersect_sorted(&a, &b);
    assert_eq!(both, intersect_run(&a, &b));
    let set: std::collections::HashSet<u64> = b.iter().copied().collect();
    let expected: Vec<u64> = a.iter().copied().filter(|k| set.contains(k)).collect();
    assert_eq!(both, expected);
    assert!(both.len() > 10_000);
}

#[test]
fn triangle_corner_has_29760_solutions() {
    // George Bell: the 15-hole triangle, vacate a corner, finish anywhere: 29,760 solutions.
    let b = Board::builtin("triangle:5").unwrap();
    let p = Problem::new(&b, b.holes().without(b.hole("a1").unwrap()), Finish::AnyOne).unwrap();
    let c = count(&p, usize::MAX, &|_| {}).unwrap();
    assert_eq!(c.solutions, 29_760);
}

/// The count in keys of one word and in keys of two and four (the engine every board past 64
/// holes runs on) on the same problems: the same figures, in memory, spilled to files, with
/// pagoda cuts, and from both ends. One-word keys fold, lay out on the grid and canonicalise
/// from images; wider ones do none of that, so this also checks those tricks.
#[test]
fn every_width_of_keys_counts_alike() {
    for (name, empty, finish) in [
        ("triangle6", "c3", None),
        ("rect:4x5", "b2", None),
        ("triangle6", "c3", Some("c3")),
        ("rect:5x5", "c3", Some("c3")),
    ] {
        let b = Board::builtin(name).unwrap();
        let p = problem(&b, empty, finish);
        for options in [
            CountOptions::default(),
            CountOptions {
                pagoda: true,
                ..CountOptions::default()
            },
            CountOptions {
                max_memory: 1 << 16,
                spill: Some(std::env::temp_dir()),
                ..CountOptions::default()
            },
        ] {
            let one = count_in::<u64>(&p, &options, &|_| {}).unwrap();
            for wide in [
                count_in::<[u64; 2]>(&p, &options, &|_| {}).unwrap(),
                count_in::<[u64; 4]>(&p, &options, &|_| {}).unwrap(),
            ] {
                assert_eq!(one.finishes, wide.finishes, "{name}");
                assert_eq!(one.solutions, wide.solutions, "{name}");
                if options.pagoda {
                    // A cut tests a child as its parent's representative holds it, and the
                    // representatives differ with the layout: only what concerns winning
                    // play is the same.
                    let winning = |c: &Count| -> Vec<(u64, u64)> {
                        c.levels
                            .iter()
                            .map(|l| (l.winning, l.winning_classes))
                            .collect()
                    };
                    assert_eq!(winning(&one), winning(&wide), "{name}");
                    continue;
                }
                assert_eq!(one.levels, wide.levels, "{name} {options:?}");
                assert_eq!((one.games, one.symmetries), (wide.games, wide.symmetries));
            }
            assert!(one.solutions > 0 || name.starts_with("rect"), "{name}");
            assert!(one.levels.len() > 5, "{name}");
        }
        let one = solutions_in::<u64>(&p, &Limits::default()).unwrap();
        let two = solutions_in::<[u64; 2]>(&p, &Limits::default()).unwrap();
        assert_eq!(
            one.as_ref().map(|s| (s.solutions, &s.winning)),
            two.as_ref().map(|s| (s.solutions, &s.winning)),
            "{name}"
        );
        assert_eq!(one.is_some(), finish.is_some());
    }
}

/// A set cancel flag stops both counts as their timeout does, and a clear one changes
/// nothing.
#[test]
fn a_cancelled_count_stops_as_a_timeout() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let board = Board::builtin("english").unwrap();
    let start = board.holes().without(board.hole("d4").unwrap());
    let finish = Finish::Holes(board.hole("d4").unwrap().bit());
    let p = Problem::new(&board, start, finish).unwrap();
    let set = Some(Arc::new(AtomicBool::new(true)));
    let options = CountOptions {
        cancel: set.clone(),
        ..CountOptions::default()
    };
    assert!(matches!(
        count_with(&p, &options, &|_| {}),
        Err(CountError::Timeout)
    ));
    let limits = Limits {
        cancel: set,
        ..Limits::default()
    };
    assert!(matches!(
        count_solutions(&p, &limits),
        Err(CountError::Timeout)
    ));
    let small = Board::builtin("triangle5").unwrap();
    let start = small.holes().without(small.hole("a1").unwrap());
    let finish = Finish::Holes(small.hole("a1").unwrap().bit());
    let p = Problem::new(&small, start, finish).unwrap();
    let clear = Limits {
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..Limits::default()
    };
    let s = count_solutions(&p, &clear).unwrap().unwrap();
    assert_eq!((s.solutions, s.winning()), (6816, 370));
}

/// Whether a problem can be won, by the meeting on keys alone (`reach`), agrees with the
/// meeting's solution count (itself checked against the full count and brute force) on every
/// single vacancy and single-peg finish of boards with and without symmetry, their levels
/// gathered in one pass and in several; the games that are their own dual, those a board
/// symmetry maps onto their dual, and the others are all met (else the test would not reach
/// each path).
#[test]
fn winnable_agrees_with_the_solution_count() {
    let (mut yes, mut no, mut own, mut mirrored) = (0, 0, 0, 0);
    for name in ["triangle5", "rect:4x4", "rect:4x5", "hexagon3", "rect:3x6"] {
        let b = Board::builtin(name).unwrap();
        for v in b.each_hole() {
            for f in b.each_hole() {
                let (v, f) = (b.label(v), b.label(f));
                let p = problem(&b, &v, Some(&f));
                let [finish] = p.targets::<u64>()[..] else {
                    unreachable!()
                };
                let s = count_solutions(&p, &Limits::default()).unwrap().unwrap();
                for passes in [1, 3] {
                    let won = winnable(&p, finish, usize::MAX, passes, Stop::default()).unwrap();
                    assert_eq!(won, s.solutions > 0, "{name} {v} -> {f}, {passes} passes");
                }
                if s.solutions > 0 {
                    yes += 1;
                } else {
                    no += 1;
                }
                let space = Space::<u64>::new(&p, true);
                if space.self_dual_finish(&p).is_some() {
                    own += 1;
                } else if dual_symmetry(&p).is_some() {
                    mirrored += 1;
                }
            }
        }
    }
    assert!(
        yes >= 100 && no >= 100 && own >= 10 && mirrored >= 10,
        "solvable {yes}, impossible {no}, self-dual {own}, mirrored {mirrored}"
    );
}
