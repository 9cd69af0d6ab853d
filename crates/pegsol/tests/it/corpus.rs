//! One corpus of problems (`tests/data/corpus.json`) that every engine is run against: the
//! portfolio and each of its members, the certificate search, the counter (plain and
//! pagoda-pruned), both fewest-moves methods and the end-hole search. Each entry's figures
//! come from the brute-force oracle of `common` (which knows nothing of the library but the
//! hole numbering) and are recomputed here, so neither the file nor the oracle is trusted
//! alone; where a figure is published, the entry names its source and the figure is checked
//! too.
//!
//! To rewrite the file after adding a problem to [`PROBLEMS`]:
//! `PEGSOL_WRITE_CORPUS=1 cargo test --release -p pegsol --test it corpus::`.

use crate::common::{is_finish, Oracle};
use pegsol::check::{prove, Unproved};
use pegsol::count::{
    count, count_pruned, count_solutions, count_solutions_with, CountOptions, SolutionsMethod,
};
use pegsol::fewest::{fewest_moves, fewest_moves_by_winning_set, MovesOutcome, WinningSet};
use pegsol::{replay, Bits, Board, Engines, Finish, Limits, Outcome, Problem, SolveOptions};
use serde_json::{json, Value};

/// The problems: a board (a built-in name, or a picture), the empty holes, the finish, and
/// the published figures with their sources.
const PROBLEMS: &[(&str, &str, &str)] = &[
    ("triangle4", "a1", "any"),
    ("triangle4", "b2", "any"),
    ("triangle4", "a2", "any"),
    ("triangle5", "a1", "any"),
    ("triangle5", "a1", "a1"),
    ("triangle5", "b2", "any"),
    ("triangle5", "a3", "any"),
    ("triangle5", "b3", "any"),
    ("triangle5", "c3", "any"),
    ("triangle5", "a1", "c5"),
    ("triangle5", "b3", "any:2"),
    ("rect:3x4", "a1", "any"),
    ("rect:3x4", "b2", "any"),
    ("rect:3x4", "a1", "a1"),
    ("rect:4x4", "b1", "any"),
    ("rect:4x4", "b2", "any"),
    ("rect:4x4", "a1", "d4"),
    ("rect:3x5", "c2", "any"),
    ("rect:3x5", "a1", "any:2"),
    ("plus", "c3", "c3"),
    ("plus", "c3", "any"),
    ("diagonal", "b2", "any"),
    ("diagonal", "a1", "c3"),
];

/// Boards of the corpus that are not built in, as pictures.
fn board(name: &str) -> Board {
    match name {
        // A plus of 13 holes with arms of two.
        "plus" => Board::parse("plus", "  o\n  o\nooooo\n  o\n  o\n").unwrap(),
        // Three rows of four on the lattice with diagonal jumps.
        "diagonal" => Board::parse("diagonal", "lattice: diagonal\noooo\noooo\noooo\n").unwrap(),
        _ => Board::builtin(name).unwrap(),
    }
}

/// Published figures: (board, empty, finish, field, value, source).
const PUBLISHED: &[(&str, &str, &str, &str, u64, &str)] = &[
    (
        "triangle5",
        "a1",
        "any",
        "solutions",
        29_760,
        "George I. Bell, Notes on solving and playing peg solitaire on a computer (arXiv:0903.3696)",
    ),
    (
        "triangle5",
        "a1",
        "any",
        "positions",
        3016,
        "Jaap Scherphuis, Triangular peg solitaire (jaapsch.net/puzzles/trisolit.htm)",
    ),
];

fn finish_of(board: &Board, text: &str) -> Finish {
    match text {
        "any" => Finish::AnyOne,
        t if t.starts_with("any:") => Finish::Pegs(t[4..].parse().unwrap()),
        t => Finish::Holes(board.hole_set(t).unwrap()),
    }
}

/// An entry's figures, from the oracle.
fn figures(name: &str, empty: &str, finish: &str) -> Value {
    let b = board(name);
    let oracle = Oracle::of_board(&b);
    assert_eq!(oracle.jump_count(), b.jumps().len(), "{name}: jumps");
    let start = b.holes().minus(b.hole_set(empty).unwrap()).raw();
    let f = finish_of(&b, finish);
    let done = move |p: u64| is_finish(f, p);
    let truth = oracle.truth(start, done);
    let mut entry = json!({
        "board": name,
        "empty": empty,
        "finish": finish,
        "solvable": truth.solvable,
        "fewest_moves": oracle.fewest_moves(start, done),
        "positions": truth.positions,
        "winning": truth.winning,
        "solutions": truth.solutions.to_string(),
        "games": truth.games.to_string(),
    });
    for &(pb, pe, pf, field, value, source) in PUBLISHED {
        if (pb, pe, pf) == (name, empty, finish) {
            entry["published"][field] = json!({"value": value, "source": source});
        }
    }
    entry
}

fn corpus() -> Vec<Value> {
    serde_json::from_str(include_str!("../data/corpus.json")).unwrap()
}

/// The file and the oracle agree, entry by entry, and every published figure holds.
#[test]
fn the_corpus_is_the_oracles_and_the_published_figures() {
    let fresh: Vec<Value> = PROBLEMS.iter().map(|&(b, e, f)| figures(b, e, f)).collect();
    if std::env::var_os("PEGSOL_WRITE_CORPUS").is_some() {
        let text = serde_json::to_string_pretty(&fresh).unwrap();
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus.json"),
            text + "\n",
        )
        .unwrap();
        return;
    }
    assert_eq!(
        corpus(),
        fresh,
        "tests/data/corpus.json is stale: rewrite it"
    );
    for e in &fresh {
        if let Some(published) = e.get("published").and_then(Value::as_object) {
            for (field, p) in published {
                let ours = match &e[field] {
                    Value::String(s) => s.parse::<u64>().unwrap(),
                    v => v.as_u64().unwrap(),
                };
                assert_eq!(ours, p["value"].as_u64().unwrap(), "{e}: {field}");
            }
        }
    }
    assert!(fresh.iter().any(|e| e["solvable"] == true));
    assert!(fresh.iter().any(|e| e["solvable"] == false));
}

/// The problem of an entry, and its expected figures.
struct Case {
    label: String,
    board: Board,
    problem: Problem,
    solvable: bool,
    fewest: Option<u32>,
    entry: Value,
}

fn cases() -> Vec<Case> {
    corpus()
        .into_iter()
        .map(|e| {
            let name = e["board"].as_str().unwrap();
            let b = board(name);
            let start: Bits = b
                .holes()
                .minus(b.hole_set(e["empty"].as_str().unwrap()).unwrap());
            let finish = finish_of(&b, e["finish"].as_str().unwrap());
            let problem = Problem::new(&b, start.resize(), finish).unwrap();
            Case {
                label: format!("{name} {} -> {}", e["empty"], e["finish"]),
                board: b,
                problem,
                solvable: e["solvable"].as_bool().unwrap(),
                fewest: e["fewest_moves"].as_u64().map(|m| m as u32),
                entry: e,
            }
        })
        .collect()
}

/// A solved outcome replays to a finish; every decided outcome agrees with the corpus.
fn agrees(c: &Case, outcome: &Outcome, engine: &str) -> bool {
    match outcome {
        Outcome::Solved { jumps, finish } => {
            let end = replay(&c.board, c.problem.start(), jumps).unwrap();
            assert_eq!(end, *finish, "{}: {engine}", c.label);
            assert!(c.problem.targets().contains(&end), "{}: {engine}", c.label);
            assert!(
                c.solvable,
                "{}: {engine} solved an impossible problem",
                c.label
            );
            true
        }
        Outcome::Impossible(r) => {
            assert!(
                !c.solvable,
                "{}: {engine} called it impossible ({r})",
                c.label
            );
            true
        }
        Outcome::Undecided(_) => false,
    }
}

#[test]
fn solve_and_each_of_its_engines() {
    for c in cases() {
        let limits = Limits::default();
        let portfolio = pegsol::solve(&c.problem, &limits).unwrap();
        assert!(agrees(&c, &portfolio.outcome, "portfolio"), "{}", c.label);
        for engines in [Engines::Exact, Engines::Guided] {
            let options = SolveOptions {
                engines,
                ..SolveOptions::default()
            };
            let r = pegsol::solve_with(&c.problem, &limits, &options, &|_| {}).unwrap();
            // The guided search alone may give up; the exact search never does here.
            let decided = agrees(&c, &r.outcome, &format!("{engines:?}"));
            assert!(decided || engines == Engines::Guided, "{}", c.label);
        }
        let plain = SolveOptions {
            pagoda: false,
            symmetry: false,
            race_dual: false,
            engines: Engines::Exact,
        };
        let r = pegsol::solve_with(&c.problem, &limits, &plain, &|_| {}).unwrap();
        assert!(agrees(&c, &r.outcome, "exact, no pruning"), "{}", c.label);
    }
}

#[test]
fn certificates() {
    for c in cases() {
        match prove(&c.problem, &Limits::default()) {
            Ok(cert) => {
                assert!(
                    !c.solvable,
                    "{}: a certificate for a solvable problem",
                    c.label
                );
                assert!(cert.verify(&c.problem), "{}: certificate fails", c.label);
            }
            Err(Unproved::Solvable) => assert!(c.solvable, "{}", c.label),
            Err(e) => panic!("{}: {e:?}", c.label),
        }
    }
}

#[test]
fn counts() {
    for c in cases() {
        let n = count(&c.problem, usize::MAX, &|_| {}).unwrap();
        let e = &c.entry;
        assert_eq!(
            n.positions(),
            e["positions"].as_u64().unwrap(),
            "{}",
            c.label
        );
        assert_eq!(n.winning(), e["winning"].as_u64().unwrap(), "{}", c.label);
        assert_eq!(n.solutions.to_string(), e["solutions"], "{}", c.label);
        assert_eq!(n.games.to_string(), e["games"], "{}", c.label);
        // Pagoda cuts drop positions that cannot win, never a solution.
        let pruned = count_pruned(&c.problem, usize::MAX, &|_| {}).unwrap();
        assert_eq!(pruned.solutions, n.solutions, "{}: pruned", c.label);
    }
}

#[test]
fn fewest_moves_by_both_methods() {
    for c in cases() {
        for (method, name) in [
            (fewest_moves as fn(&Problem, &Limits) -> _, "meeting"),
            (fewest_moves_by_winning_set, "winning set"),
        ] {
            let r = method(&c.problem, &Limits::default()).unwrap();
            match r.outcome {
                MovesOutcome::Optimal(s) => {
                    assert_eq!(Some(s.moves), c.fewest, "{}: {name}", c.label);
                    assert_eq!(pegsol::fewest::move_count(&s.jumps), s.moves);
                    let end: Bits = replay(&c.board, c.problem.start(), &s.jumps).unwrap();
                    assert!(c.problem.targets().contains(&end), "{}: {name}", c.label);
                }
                MovesOutcome::Impossible(_) => assert_eq!(c.fewest, None, "{}: {name}", c.label),
                other => panic!("{}: {name}: {other:?}", c.label),
            }
        }
    }
}

#[test]
fn end_holes() {
    for c in cases().iter().filter(|c| c.entry["finish"] == "any") {
        let oracle = Oracle::of_board(&c.board);
        let ends = pegsol::ends(&c.problem, &Limits::default()).unwrap();
        for e in &ends.holes {
            let target: Bits = e.hole.bit();
            let expected = oracle
                .truth(c.problem.start().raw(), |p| p == target.raw())
                .solvable;
            let decided = match &e.outcome {
                Outcome::Solved { .. } => true,
                Outcome::Impossible(_) => false,
                Outcome::Undecided(b) => panic!("{}: {b:?}", c.label),
            };
            assert_eq!(
                decided,
                expected,
                "{}: end on {}",
                c.label,
                c.board.label(e.hole)
            );
        }
        assert_eq!(ends.reachable().next().is_some(), c.solvable, "{}", c.label);
    }
}

/// The winning set answers every reachable position as the oracle does: as many winners as
/// the corpus counts, and each position's answer the oracle's.
#[test]
fn winning_sets() {
    for c in cases() {
        let set = WinningSet::of(&c.problem, &Limits::default())
            .unwrap()
            .unwrap();
        let oracle = Oracle::of_board(&c.board);
        let finish = c.problem.finish();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![c.problem.start()];
        let mut winning = 0u64;
        while let Some(p) = stack.pop() {
            if !seen.insert(p) {
                continue;
            }
            let wins = set.wins(p);
            winning += u64::from(wins);
            assert_eq!(
                wins,
                oracle.solvable(p.raw(), |q| is_finish(finish, q)),
                "{}: {p:?}",
                c.label
            );
            for j in c.board.jumps() {
                if j.is_legal(p) {
                    stack.push(j.apply(p));
                }
            }
        }
        assert_eq!(winning, c.entry["winning"].as_u64().unwrap(), "{}", c.label);
    }
}

/// Solutions by meeting in the middle against the corpus and the full count, on every problem
/// with one finish position, and on random small boards of every lattice.
#[test]
fn solutions_by_meeting() {
    // Problems whose meeting did not fit a tiny budget, so that the whole count on disk
    // answered (checked against the meeting's figures, which the corpus checks).
    let mut spilled = 0;
    let mut checked = 0;
    for c in cases() {
        let Some(s) = count_solutions(&c.problem, &pegsol::Limits::default()).unwrap() else {
            assert!(c.problem.target_count() > 1, "{}", c.label);
            continue;
        };
        assert_eq!(s.solutions.to_string(), c.entry["solutions"], "{}", c.label);
        assert_eq!(
            s.winning(),
            c.entry["winning"].as_u64().unwrap(),
            "{}",
            c.label
        );
        spilled += usize::from(spilled_count_agrees(&c.problem, &s));
        checked += 1;
    }
    assert!(checked >= 5, "{checked} corpus problems with one finish");
    let mut rng = crate::common::Rng(0x005E_ED0F_5017);
    let (mut random, mut solvable) = (0, 0);
    while random < 300 {
        let case = crate::common::random_case(&mut rng);
        // One finish position that is reachable: where a random playout gets stuck, or, one
        // time in three, where it stands a few jumps in (a finish of several pegs).
        let mut end = case.start;
        let stop_early = rng.next().is_multiple_of(3);
        let mut played = 0;
        loop {
            let legal: Vec<_> = case
                .board
                .jumps()
                .iter()
                .filter(|j| j.is_legal(end))
                .collect();
            if legal.is_empty() || (stop_early && played == 3) {
                break;
            }
            end = legal[(rng.next() % legal.len() as u64) as usize].apply(end);
            played += 1;
        }
        let p = Problem::new(
            &case.board,
            case.start.resize(),
            Finish::Holes(end.resize()),
        )
        .unwrap();
        let full = count(&p, usize::MAX, &|_| {}).unwrap();
        let s = count_solutions(&p, &pegsol::Limits::default())
            .unwrap()
            .unwrap();
        assert_eq!(s.solutions, full.solutions, "{}", case.picture);
        assert_eq!(s.winning(), full.winning(), "{}", case.picture);
        assert_eq!(
            s.winning_classes(),
            full.winning_classes(),
            "{}",
            case.picture
        );
        if random % 10 == 0 {
            spilled += usize::from(spilled_count_agrees(&p, &s));
        }
        random += 1;
        solvable += usize::from(s.solutions > 0);
    }
    // Every finish was reached by a playout, so every problem has a solution.
    assert_eq!(solvable, random);
    assert!(
        spilled >= 5,
        "{spilled} problems answered by the spilled count"
    );
}

/// [`count_solutions_with`] on a budget too small for most meetings, with a spill directory:
/// the same solutions and winning positions per level, up to symmetry too, as `meeting`
/// (the meeting's answer); true when the whole count on disk gave them.
fn spilled_count_agrees(problem: &Problem, meeting: &pegsol::count::Solutions) -> bool {
    let dir = std::env::temp_dir().join(format!(
        "pegsol-solutions-spill-{}-{}",
        std::process::id(),
        meeting.solutions
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let options = CountOptions {
        max_memory: 1 << 11,
        spill: Some(dir.clone()),
        ..CountOptions::default()
    };
    let s = count_solutions_with(problem, &options, &|_| {})
        .unwrap()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(s.solutions, meeting.solutions, "{problem:?}");
    assert_eq!(s.winning, meeting.winning, "{problem:?}");
    assert_eq!(s.symmetries, meeting.symmetries, "{problem:?}");
    s.method == SolutionsMethod::SpilledCount
}

/// One count with the finish "one peg anywhere" lists every end hole with its solutions
/// (`Count::finishes`, what `count --every-vacancy` prints): each against the brute force of
/// `common`, hole by hole, from every vacancy of small built-in boards and from one vacancy
/// of random boards of every lattice; and the list sums to the solutions.
#[test]
fn every_end_hole_from_one_count() {
    let check = |board: &Board, oracle: &Oracle, start: Bits, what: &str| -> usize {
        let Ok(p) = Problem::new(board, start.resize(), Finish::AnyOne) else {
            return 0;
        };
        let c = count(&p, usize::MAX, &|_| {}).unwrap();
        assert_eq!(
            c.finishes.iter().map(|f| f.1).sum::<u128>(),
            c.solutions,
            "{what}"
        );
        let mut reached = 0;
        for h in board.each_hole() {
            let truth = oracle.truth(start.raw(), |q| q == h.bit().raw());
            let listed = c
                .finishes
                .iter()
                .find(|f| f.0 == h.bit())
                .map_or(0, |f| f.1);
            assert_eq!(listed, truth.solutions, "end hole {h:?}: {what}");
            reached += usize::from(listed > 0);
        }
        reached
    };
    let mut reached = 0;
    for name in [
        "triangle4",
        "triangle5",
        "rect:4x4",
        "rect:3x5",
        "english-diagonal",
    ] {
        let board = Board::builtin(name).unwrap();
        if board.hole_count() > 20 {
            continue;
        }
        let oracle = Oracle::of_board(&board);
        for v in board.each_hole() {
            reached += check(&board, &oracle, board.holes().without(v), name);
        }
    }
    assert!(
        reached >= 78,
        "{reached} end holes reached on the built-in boards"
    );
    let mut rng = crate::common::Rng(0x0000_E0D5_01E5);
    for _ in 0..150 {
        let case = crate::common::random_case(&mut rng);
        let oracle = Oracle::new(case.lattice, &case.cells, Some(&case.board));
        let holes: Vec<_> = case.board.each_hole().collect();
        let vacancy = holes[(rng.next() % holes.len() as u64) as usize];
        check(
            &case.board,
            &oracle,
            case.board.holes().without(vacancy),
            &case.picture,
        );
    }
}
