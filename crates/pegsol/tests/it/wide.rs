//! The engines on boards of 65 to 256 holes (positions of two or four words) against an
//! independent brute force on random boards of 65 to 100 holes of every lattice, with a few
//! pegs; and the big built-in boards.

use std::collections::{BTreeSet, HashSet};

use pegsol::check::{decide, prove, refute, Certificate};
use pegsol::fewest::MeetOutcome;
use pegsol::{replay, solve, Board, Finish, Hole, Lattice, Limits, Outcome, Pegs, Problem, Shape};
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

/// The invariant behind a proof, checked by coordinates alone: every set meets every jump in
/// 0 or 2 holes, or the weights satisfy `w(from) + w(over) >= w(to)` for every jump (each of
/// a search certificate's functions too).
fn sound_by_coordinates(
    board: &Board,
    cells: &HashSet<Cell>,
    lat: Lattice,
    proof: &Certificate,
) -> bool {
    let index = |c: &Cell| board.hole_at(c.0, c.1).unwrap().index();
    let jumps = cells.iter().flat_map(|&(r, c)| {
        lat.directions().iter().filter_map(move |&(dr, dc)| {
            let over = (r + i64::from(dr), c + i64::from(dc));
            let to = (r + 2 * i64::from(dr), c + 2 * i64::from(dc));
            (cells.contains(&over) && cells.contains(&to)).then_some([(r, c), over, to])
        })
    });
    let jumps: Vec<[usize; 3]> = jumps.map(|j| j.map(|c| index(&c))).collect();
    let valid = |p: &pegsol::Pagoda| {
        let w = p.weights();
        jumps.iter().all(|&[a, b, t]| w[a] + w[b] >= w[t])
    };
    match proof {
        Certificate::Class { sets, .. } => sets.iter().all(|s| {
            jumps
                .iter()
                .all(|j| j.iter().filter(|&&h| s.contains(Hole::at(h))).count() % 2 == 0)
        }),
        Certificate::Pagoda { pagoda, .. } => valid(pagoda),
        Certificate::Search(s) => s.pagodas.iter().all(valid),
    }
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
    fn the_solver_agrees_with_brute_force_past_64_holes(
        lat in lattice(),
        n in 65usize..=100,
        picks in prop::collection::vec(any::<u64>(), 8),
        pegs in 2usize..=8,
        seed in any::<u64>(),
        kind in 0u8..3,
    ) {
        let (text, cells) = grow(lat, n, &picks);
        let board = Board::from_shape(&Shape::parse("random", &text).unwrap()).unwrap();
        prop_assert_eq!(board.hole_count(), n);
        // A few pegs close together (the first cells of a walk from a random cell), so that
        // jumps are possible.
        let centre = cells[(seed % n as u64) as usize];
        let mut near: Vec<Cell> = cells.clone();
        near.sort_by_key(|&(r, c)| ((r - centre.0).abs() + (c - centre.1).abs(), (r * 7 + c * 13 + seed as i64) % 5));
        let start_cells: BTreeSet<Cell> = near.iter().take(pegs).copied().collect();
        let hole = |&(r, c): &Cell| board.hole_at(r, c).unwrap();
        let start = start_cells.iter().fold(Pegs::EMPTY, |s, c| s.with(Hole::at(hole(c).index())));
        let target_cell = near[((seed >> 16) % (pegs as u64 + 4)) as usize];
        let (finish, count) = match kind {
            0 => (Finish::AnyOne, 1),
            1 => (Finish::Pegs(2), 2),
            _ => (Finish::Holes(Pegs::single(hole(&target_cell))), 1),
        };
        let taken: HashSet<Cell> = cells.iter().copied().collect();
        let wanted = |p: &BTreeSet<Cell>| match finish {
            Finish::Holes(_) => p.len() == 1 && p.contains(&target_cell),
            _ => p.len() == count,
        };
        let expected = brute_force(&taken, lat.directions(), &start_cells, &wanted, count, &mut HashSet::new());
        let problem = pegsol::Problem::new(&board, start, finish).unwrap();
        match solve(&problem, &Limits::default()).unwrap().outcome {
            Outcome::Solved { jumps, finish: end } => {
                prop_assert!(expected, "the solver solved what brute force refutes");
                prop_assert_eq!(replay(&board, start, &jumps).unwrap(), end);
                prop_assert_eq!(end.count() as usize, count);
                if let Finish::Holes(f) = finish {
                    prop_assert_eq!(end, f);
                }
            }
            Outcome::Impossible(_) => {
                prop_assert!(!expected, "the solver refuted what brute force solves");
            }
            Outcome::Undecided(_) => prop_assert!(false, "undecided on {} pegs", pegs),
        }
        // The decision with its proof: an impossible answer carries a certificate (class,
        // pagoda or search, positions of the board's width) that rechecks, and is sound by
        // coordinates.
        let decided = decide(&problem, &pegsol::Limits::default()).unwrap();
        match (&decided.outcome, &decided.certificate) {
            (pegsol::Outcome::Solved { .. }, None) => prop_assert!(expected),
            (pegsol::Outcome::Impossible(_), Some(c)) => {
                prop_assert!(!expected, "{} proves impossible what brute force solves", c.kind());
                prop_assert!(c.verify(&problem));
                prop_assert!(sound_by_coordinates(&board, &taken, lat, c));
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }
}

/// Class and pagoda refutations on random boards of 65 to 100 holes, against brute force:
/// a few pegs close together, to end as one peg on a hole anywhere (mostly far away, where
/// a pagoda function refutes what the class allows). Every refutation must be of a problem
/// brute force cannot solve, its invariant must hold by coordinates, and every kind occurs:
/// what neither argument refutes gets a search certificate.
#[test]
fn refutations_agree_with_brute_force() {
    let mut kinds = std::collections::BTreeMap::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for case in 0..90 {
        let lat = [Lattice::Orthogonal, Lattice::Diagonal, Lattice::Triangular][case % 3];
        let n = 65 + (next() % 36) as usize;
        let picks: Vec<u64> = (0..8).map(|_| next()).collect();
        let (text, cells) = grow(lat, n, &picks);
        let board = Board::from_shape(&Shape::parse("random", &text).unwrap()).unwrap();
        let centre = cells[(next() % n as u64) as usize];
        let mut near = cells.clone();
        near.sort_by_key(|&(r, c)| (r - centre.0).abs() + (c - centre.1).abs());
        let pegs = 2 + (next() % 5) as usize;
        let start_cells: BTreeSet<Cell> = near.iter().take(pegs).copied().collect();
        let hole = |&(r, c): &Cell| board.hole_at(r, c).unwrap();
        let start = start_cells
            .iter()
            .fold(Pegs::EMPTY, |s, c| s.with(Hole::at(hole(c).index())));
        let target = cells[(next() % n as u64) as usize];
        let problem = pegsol::Problem::new(
            &board,
            start,
            pegsol::Finish::Holes(Pegs::single(hole(&target))),
        )
        .unwrap();
        let taken: HashSet<Cell> = cells.iter().copied().collect();
        let wanted = |p: &BTreeSet<Cell>| p.len() == 1 && p.contains(&target);
        let solvable = brute_force(
            &taken,
            lat.directions(),
            &start_cells,
            &wanted,
            1,
            &mut HashSet::new(),
        );
        let kind = match refute(&problem) {
            Some(proof) => {
                assert!(
                    !solvable,
                    "case {case}: {} refutes a solvable problem",
                    proof.kind()
                );
                assert!(proof.verify(&problem), "case {case}");
                assert!(
                    sound_by_coordinates(&board, &taken, lat, &proof),
                    "case {case}"
                );
                proof.kind()
            }
            None if solvable => "solvable",
            // Neither argument refutes it: a search certificate must, in positions of the
            // board's width, rechecked and sound by coordinates.
            None => {
                let proof = prove(&problem, &pegsol::Limits::default())
                    .unwrap_or_else(|e| panic!("case {case}: no certificate: {e:?}"));
                assert_eq!(proof.kind(), "search", "case {case}");
                assert!(proof.verify(&problem), "case {case}");
                assert!(
                    sound_by_coordinates(&board, &taken, lat, &proof),
                    "case {case}"
                );
                "search"
            }
        };
        *kinds.entry(kind).or_insert(0) += 1;
    }
    println!("{kinds:?}");
    assert!(kinds.get("class").copied().unwrap_or(0) >= 10, "{kinds:?}");
    assert!(kinds.get("pagoda").copied().unwrap_or(0) >= 10, "{kinds:?}");
    assert!(kinds.get("search").copied().unwrap_or(0) >= 1, "{kinds:?}");
}

#[test]
fn a_66_hole_triangle_and_the_9x9_square_come_down_to_one_peg() {
    for (name, empty, to_vacancy) in [("triangle:11", "a1", false), ("rect:9x9", "e5", true)] {
        let board = Board::builtin(name).unwrap();
        let vacancy = board.hole(empty).unwrap();
        let start = board.holes().without(vacancy);
        let finish = if to_vacancy {
            Finish::Holes(Pegs::single(vacancy))
        } else {
            Finish::AnyOne
        };
        let problem = Problem::new(&board, start, finish).unwrap();
        let report = solve(&problem, &Limits::default()).unwrap();
        let Outcome::Solved { jumps, finish: end } = report.outcome else {
            panic!("{name}: {:?}", report.outcome)
        };
        assert_eq!(jumps.len(), board.hole_count() - 2, "{name}");
        assert_eq!(replay(&board, start, &jumps).unwrap(), end, "{name}");
        assert_eq!(end.count(), 1, "{name}");
    }
}

#[test]
fn the_class_test_refutes_at_once_on_256_holes() {
    // On the 16x16 square the corner vacancy's class holds no single peg at the corner's
    // neighbour b1 (a jump keeps the class; b1 and a1 differ in it).
    let board = Board::builtin("rect:16x16").unwrap();
    assert_eq!(board.words(), 4);
    let start: Pegs = board.holes().without(board.hole("a1").unwrap());
    let finish = Finish::Holes(Pegs::single(board.hole("b1").unwrap()));
    let problem = Problem::new(&board, start, finish).unwrap();
    let began = std::time::Instant::now();
    let report = solve(&problem, &Limits::default()).unwrap();
    assert_eq!(report.outcome, Outcome::Impossible(pegsol::Reason::Class));
    assert!(began.elapsed().as_secs_f64() < 1.0, "{:?}", began.elapsed());
}

/// What an independent count by coordinates finds: per level, the positions, the dead ends,
/// the jump sequences and the positions that can still finish; and the games and solutions.
#[derive(Debug, PartialEq)]
struct Counted {
    levels: Vec<(u64, u64, u128, u64)>,
    games: u128,
    solutions: u128,
}

/// Every jump from `pegs`, by coordinates: `(from, over, to)`.
fn jumps_of(cells: &HashSet<Cell>, dirs: &[(i32, i32)], pegs: &BTreeSet<Cell>) -> Vec<[Cell; 3]> {
    let mut out = Vec::new();
    for &(r, c) in pegs {
        for &(dr, dc) in dirs {
            let over = (r + i64::from(dr), c + i64::from(dc));
            let to = (r + 2 * i64::from(dr), c + 2 * i64::from(dc));
            if pegs.contains(&over) && cells.contains(&to) && !pegs.contains(&to) {
                out.push([(r, c), over, to]);
            }
        }
    }
    out
}

fn play(pegs: &BTreeSet<Cell>, [from, over, to]: [Cell; 3]) -> BTreeSet<Cell> {
    let mut next = pegs.clone();
    next.remove(&from);
    next.remove(&over);
    next.insert(to);
    next
}

/// The whole game from `start`, level by level, with no symmetry and no library code.
fn count_by_coordinates(
    cells: &HashSet<Cell>,
    dirs: &[(i32, i32)],
    start: &BTreeSet<Cell>,
    finish: &dyn Fn(&BTreeSet<Cell>) -> bool,
) -> Counted {
    let mut levels: Vec<std::collections::HashMap<BTreeSet<Cell>, u128>> =
        vec![[(start.clone(), 1)].into_iter().collect()];
    let (mut games, mut solutions) = (0u128, 0u128);
    loop {
        let mut next = std::collections::HashMap::new();
        for (p, &t) in levels.last().unwrap() {
            if finish(p) {
                solutions += t;
            }
            let js = jumps_of(cells, dirs, p);
            if js.is_empty() {
                games += t;
            }
            for j in js {
                *next.entry(play(p, j)).or_insert(0) += t;
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    let mut wins: HashSet<BTreeSet<Cell>> = HashSet::new();
    let mut out = Vec::new();
    for level in levels.iter().rev() {
        let won: HashSet<BTreeSet<Cell>> = level
            .keys()
            .filter(|p| {
                finish(p)
                    || jumps_of(cells, dirs, p)
                        .into_iter()
                        .any(|j| wins.contains(&play(p, j)))
            })
            .cloned()
            .collect();
        let dead = level
            .keys()
            .filter(|p| jumps_of(cells, dirs, p).is_empty())
            .count() as u64;
        out.push((
            level.len() as u64,
            dead,
            level.values().sum(),
            won.len() as u64,
        ));
        wins = won;
    }
    out.reverse();
    Counted {
        levels: out,
        games,
        solutions,
    }
}

/// The fewest moves from `start` to a finish, breadth first over every position, with the
/// moves of a peg found by following its chains of jumps; `None` when none is reachable.
fn fewest_by_coordinates(
    cells: &HashSet<Cell>,
    dirs: &[(i32, i32)],
    start: &BTreeSet<Cell>,
    finish: &dyn Fn(&BTreeSet<Cell>) -> bool,
) -> Option<u32> {
    let mut seen: HashSet<BTreeSet<Cell>> = [start.clone()].into_iter().collect();
    let mut level = vec![start.clone()];
    let mut moves = 0;
    while !level.is_empty() {
        if level.iter().any(finish) {
            return Some(moves);
        }
        let mut next = Vec::new();
        for p in &level {
            for &peg in p {
                // Every chain of the peg on `peg`: (position, where the peg stands).
                let mut stack = vec![(p.clone(), peg)];
                let mut chained: HashSet<(BTreeSet<Cell>, Cell)> = HashSet::new();
                while let Some((q, at)) = stack.pop() {
                    for j in jumps_of(cells, dirs, &q).into_iter().filter(|j| j[0] == at) {
                        let r = play(&q, j);
                        if chained.insert((r.clone(), j[2])) {
                            if seen.insert(r.clone()) {
                                next.push(r.clone());
                            }
                            stack.push((r, j[2]));
                        }
                    }
                }
            }
        }
        level = next;
        moves += 1;
    }
    None
}

/// Checks the count (in memory and spilled) and the fewest moves of one problem past 64 holes
/// against the coordinate versions.
fn check_count_and_moves(
    board: &Board,
    dirs: &[(i32, i32)],
    start_cells: &BTreeSet<Cell>,
    finish: Finish,
) -> Result<(), TestCaseError> {
    let cells: HashSet<Cell> = (0..board.hole_count())
        .map(|h| {
            let (r, c) = board.coords(Hole::at(h));
            (r as i64, c as i64)
        })
        .collect();
    let cell = |h: usize| {
        let (r, c) = board.coords(Hole::at(h));
        (r as i64, c as i64)
    };
    let hole = |&(r, c): &Cell| board.hole_at(r, c).unwrap();
    let start = start_cells
        .iter()
        .fold(Pegs::EMPTY, |s, c| s.with(Hole::at(hole(c).index())));
    let wanted = |p: &BTreeSet<Cell>| match finish {
        Finish::AnyOne => p.len() == 1,
        Finish::Pegs(k) => p.len() == k as usize,
        Finish::Holes(f) => {
            p.len() == f.count() as usize && f.iter().all(|h| p.contains(&cell(h.index())))
        }
    };
    let expected = count_by_coordinates(&cells, dirs, start_cells, &wanted);
    let problem = Problem::new(board, start, finish).unwrap();
    let c = pegsol::count::count(&problem, usize::MAX, &|_| {}).unwrap();
    let got = Counted {
        levels: c
            .levels
            .iter()
            .map(|l| (l.positions, l.dead_ends, l.paths, l.winning))
            .collect(),
        games: c.games,
        solutions: c.solutions,
    };
    prop_assert_eq!(&got, &expected);
    // Spilled to disk under a budget small enough that levels go to sorted runs (at 16 KB,
    // about four runs a case): the same. One parent's children must still fit, so a case
    // whose parents have many children gets four times the budget until they do.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pegsol-wide-count-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut budget = 16 << 10;
    let spilled = loop {
        let options = pegsol::count::CountOptions {
            max_memory: budget,
            spill: Some(dir.clone()),
            ..Default::default()
        };
        match pegsol::count::count_with(&problem, &options, &|_| {}) {
            Err(pegsol::count::CountError::Memory { .. }) if budget < 1 << 20 => budget *= 4,
            other => break other.unwrap(),
        }
    };
    prop_assert_eq!(&spilled.levels, &c.levels);
    prop_assert_eq!(spilled.games, c.games);
    prop_assert_eq!(&spilled.finishes, &c.finishes);
    prop_assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "scratch left behind"
    );
    // The case's own directory goes too (the count removes only what it wrote).
    std::fs::remove_dir(&dir).unwrap();
    let reached: u128 = c.finishes.iter().map(|f| f.1).sum();
    prop_assert_eq!(reached, expected.solutions);
    for (p, _) in &c.finishes {
        prop_assert!(wanted(&p.iter().map(|h| cell(h.index())).collect()));
    }
    // From both ends, where the finish is one position: the same solutions and winners.
    if let Some(s) = pegsol::count::count_solutions(&problem, &pegsol::Limits::default()).unwrap() {
        prop_assert_eq!(s.solutions, c.solutions);
        // The meeting has a level per jump to the finish, the count one per level reached.
        let winning = |k: usize| c.levels.get(k).map_or(0, |l| l.winning);
        let met = |k: usize| s.winning.get(k).map_or(0, |w| w.0);
        for k in 0..c.levels.len().max(s.winning.len()) {
            prop_assert_eq!(met(k), winning(k), "level {}", k);
        }
    }
    let best = fewest_by_coordinates(&cells, dirs, start_cells, &wanted);
    let r = pegsol::fewest::fewest_moves_meeting(&problem, &Limits::default()).unwrap();
    match r.outcome {
        MeetOutcome::Optimal(s) => {
            prop_assert_eq!(Some(s.moves), best);
            let end = replay(board, start, &s.jumps).unwrap();
            prop_assert!(wanted(&end.iter().map(|h| cell(h.index())).collect()));
        }
        MeetOutcome::Impossible => prop_assert_eq!(best, None),
        MeetOutcome::Undecided(b) => prop_assert!(false, "undecided: {:?}", b),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Counts and fewest moves on random boards of 65 to 100 holes (no symmetry to speak of).
    #[test]
    fn wide_counts_and_fewest_moves_agree_with_brute_force(
        lat in lattice(),
        n in 65usize..=100,
        picks in prop::collection::vec(any::<u64>(), 8),
        pegs in 2usize..=8,
        seed in any::<u64>(),
        any_two in any::<bool>(),
    ) {
        let (text, cells) = grow(lat, n, &picks);
        let board = Board::from_shape(&Shape::parse("random", &text).unwrap()).unwrap();
        let centre = cells[(seed % n as u64) as usize];
        let mut near = cells.clone();
        near.sort_by_key(|&(r, c)| ((r - centre.0).abs() + (c - centre.1).abs(), (r * 7 + c * 13 + seed as i64) % 5));
        let start: BTreeSet<Cell> = near.iter().take(pegs).copied().collect();
        let finish = if any_two { Finish::Pegs(2) } else { Finish::AnyOne };
        check_count_and_moves(&board, lat.directions(), &start, finish)?;
    }

    /// The same on the symmetric built-in boards, from starts that their whole group keeps,
    /// so that positions are merged by symmetry (up to 12 at a time).
    #[test]
    fn wide_counts_and_fewest_moves_agree_with_brute_force_under_symmetry(
        name in prop_oneof![Just("rect:9x9"), Just("rect:8x10"), Just("triangle:11"), Just("hexagon:6"), Just("rect:12x12")],
        seed in any::<u64>(),
        picks in 1usize..=2,
        exact in any::<bool>(),
    ) {
        let board = Board::builtin(name).unwrap();
        let n = board.hole_count();
        let (rows, cols) = (0..n).fold((0, 0), |(r, c), h| {
            let (a, b) = board.coords(Hole::at(h));
            (r.max(a), c.max(b))
        });
        // Holes near the middle, and their images under every symmetry.
        let mut middle: Vec<usize> = (0..n).collect();
        middle.sort_by_key(|&h| {
            let (r, c) = board.coords(Hole::at(h));
            ((2 * r).abs_diff(rows) + (2 * c).abs_diff(cols), (h as u64 ^ seed) % 7)
        });
        let mut start = Pegs::EMPTY;
        for k in 0..picks {
            let h = middle[((seed >> (8 * k)) % 10) as usize];
            for g in 0..board.symmetries().len() {
                start = start.union(board.symmetries().apply(g, Pegs::EMPTY.with(Hole::at(h))));
            }
        }
        let start_cells: BTreeSet<Cell> = start
            .iter()
            .map(|h| {
                let (r, c) = board.coords(Hole::at(h.index()));
                (r as i64, c as i64)
            })
            .collect();
        // An exact finish kept by the group: the middle hole where there is one.
        let centre = middle[0];
        let finish = if exact && start.count() > 1 {
            Finish::Holes(Pegs::single(Hole::at(centre)))
        } else {
            Finish::AnyOne
        };
        check_count_and_moves(&board, board.lattice().directions(), &start_cells, finish)?;
    }
}

/// The lines in docs/solutions/triangle{11,12}-basic-game.txt: each replays, by the library's
/// checker and by coordinates here, from one vacancy to one peg in the moves it states, fewer
/// than the published upper bounds (Bell 2008: a(11) <= 28, a(12) <= 29).
#[test]
fn the_basic_game_lines_of_triangles_11_and_12_replay_in_their_moves() {
    for (n, published) in [(11, 28), (12, 29)] {
        let path = format!(
            "{}/../../docs/solutions/triangle{n}-basic-game.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .unwrap()
                .to_string()
        };
        let board = Board::builtin(&field("board")).unwrap();
        let stated: usize = field("moves").parse().unwrap();
        let moves: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "line:")
            .skip(1)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(moves.len(), stated, "side {n}");
        assert!(stated < published, "side {n}");
        // By coordinates: (row, column) from the label; a move's holes two steps apart on a
        // line of the triangular lattice, over a peg, into a hole.
        let cell = |l: &str| {
            let col = i64::from(l.as_bytes()[0] - b'a');
            let row: i64 = l[1..].parse::<i64>().unwrap() - 1;
            assert!(col <= row && row < n, "{l}");
            (row, col)
        };
        let empty = cell(&field("empty"));
        let mut pegs: HashSet<Cell> = (0..n)
            .flat_map(|r| (0..=r).map(move |c| (r, c)))
            .filter(|&c| c != empty)
            .collect();
        let mut jumps = Vec::new();
        for m in &moves {
            let holes: Vec<Cell> = m.split('-').map(cell).collect();
            for w in holes.windows(2) {
                let (d_r, d_c) = (w[1].0 - w[0].0, w[1].1 - w[0].1);
                assert!(
                    [(0, 2), (0, -2), (2, 0), (-2, 0), (2, 2), (-2, -2)].contains(&(d_r, d_c)),
                    "{m}"
                );
                let over = (w[0].0 + d_r / 2, w[0].1 + d_c / 2);
                assert!(pegs.remove(&w[0]) && pegs.remove(&over), "{m}");
                assert!(pegs.insert(w[1]), "{m}");
                let hole = |c: Cell| board.hole_at(c.0, c.1).unwrap();
                jumps.push(board.jump_between(hole(w[0]), hole(w[1])).unwrap());
            }
        }
        assert_eq!(pegs.len(), 1, "side {n}");
        assert_eq!(*pegs.iter().next().unwrap(), cell(&field("final")));
        // And by the library's checker, from the same start.
        let start = board
            .holes::<[u64; 4]>()
            .without(board.hole(&field("empty")).unwrap());
        assert_eq!(replay(&board, start, &jumps).unwrap().count(), 1);
        assert_eq!(pegsol::fewest::move_count(&jumps) as usize, stated);
    }
}
