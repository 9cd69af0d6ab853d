//! Every answer against brute force, on thousands of random boards of all three lattices,
//! half of them sparse boards in bounding boxes of side 40 to 130 (where pagoda weights
//! built from the box once overflowed and refuted solvable problems): `solve` (the portfolio,
//! and each of its engines alone), the
//! certificates of `check`, the whole-game `count` with and without pagoda pruning, and
//! `ends`. No wrong answer is allowed.

use crate::common::{is_finish, random_case, Case, Oracle, Rng};
use pegsol::check::{prove, Certificate, Unproved};
use pegsol::count::{count, count_pruned};
use pegsol::{Engines, Finish, Limits, Outcome, Problem, SolveOptions};

#[test]
fn every_answer_agrees_with_brute_force() {
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let cases: Vec<Case> = (0..8000).map(|_| random_case(&mut rng)).collect();
    // The cases are independent: split over the cores (the engines run on one thread each).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let cases = &cases;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for (case_number, case) in cases.iter().enumerate().skip(t).step_by(threads) {
                        check_case(case_number, case, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let (mut solvable, mut impossible, mut sparse, mut refuted) = (0, 0, 0, 0);
    let mut proofs = [0usize; 3];
    for t in tallies {
        solvable += t.solvable;
        impossible += t.impossible;
        sparse += t.sparse;
        refuted += t.refuted;
        for (a, b) in proofs.iter_mut().zip(t.proofs) {
            *a += b;
        }
    }
    println!(
        "{solvable} solvable, {impossible} impossible ({refuted} refuted without search; proofs: {} by class, {} by one signed pagoda function, {} by search), {sparse} sparse",
        proofs[0], proofs[1], proofs[2]
    );
    assert_eq!(proofs.iter().sum::<usize>(), impossible);
    assert!(solvable > 800 && impossible > 2000 && sparse > 3000 && refuted > 1000);
}

/// What the cases of one thread came to.
#[derive(Default)]
struct Tally {
    solvable: usize,
    impossible: usize,
    sparse: usize,
    refuted: usize,
    proofs: [usize; 3],
}

/// Every answer on one case against brute force.
fn check_case(case_number: usize, case: &Case, tally: &mut Tally) {
    let Tally {
        solvable,
        impossible,
        sparse,
        refuted,
        proofs,
    } = tally;
    let (board, start, finish) = (&case.board, case.start, case.finish);
    let Ok(problem) = Problem::new(board, start.resize(), finish) else {
        return;
    };
    let oracle = Oracle::new(case.lattice, &case.cells, Some(board));
    let truth = oracle.truth(start.raw(), |p| is_finish(finish, p));
    let context = || format!("case {case_number}, finish {finish:?}:\n{}", case.picture);
    *sparse += usize::from(case.sparse);
    if truth.solvable {
        *solvable += 1;
    } else {
        *impossible += 1;
    }
    // solve: the right verdict; a solution replays (the library replays it too).
    match pegsol::solve(&problem, &Limits::default()).unwrap().outcome {
        Outcome::Solved { jumps, finish: end } => {
            assert!(
                truth.solvable,
                "solved an impossible problem: {}",
                context()
            );
            assert_eq!(pegsol::replay(board, start, &jumps).unwrap(), end.resize());
            assert!(
                is_finish(finish, end.resize::<u64>().raw()),
                "{}",
                context()
            );
        }
        Outcome::Impossible(reason) => {
            assert!(
                !truth.solvable,
                "called impossible ({reason}): {}",
                context()
            );
        }
        Outcome::Undecided(b) => panic!("undecided ({b}) on a small board: {}", context()),
    }
    // Each engine of the portfolio alone: the guided search must never call a solvable
    // problem impossible (it may only when it never cut a level), nor the exact one.
    for engines in [Engines::Guided, Engines::Exact] {
        let options = SolveOptions {
            engines,
            ..SolveOptions::default()
        };
        match pegsol::solve_with(&problem, &Limits::default(), &options, &|_| {})
            .unwrap()
            .outcome
        {
            Outcome::Solved { .. } => assert!(truth.solvable, "{engines:?}: {}", context()),
            Outcome::Impossible(r) => {
                assert!(!truth.solvable, "{engines:?} said {r}: {}", context());
            }
            Outcome::Undecided(b) => panic!("{engines:?} undecided ({b}): {}", context()),
        }
    }
    // check: a certificate only for an impossible problem, and it rechecks.
    if let Some(certificate) = pegsol::check::refute(&problem) {
        assert!(
            !truth.solvable,
            "refuted a solvable problem ({}): {}",
            certificate.kind(),
            context()
        );
        assert!(certificate.verify(&problem), "{}", context());
        *refuted += 1;
    }
    // prove: a certificate for every impossible problem, and it rechecks; a solvable one
    // is never refuted (the search reaches a finish, or the quick arguments pass).
    match prove(&problem, &Limits::default()) {
        Ok(c) => {
            assert!(
                !truth.solvable,
                "proved a solvable problem impossible: {}",
                context()
            );
            assert!(c.verify(&problem), "{}", context());
            proofs[match c {
                Certificate::Class { .. } => 0,
                Certificate::Pagoda { .. } => 1,
                Certificate::Search(_) => 2,
            }] += 1;
        }
        Err(Unproved::Solvable) => assert!(truth.solvable, "{}", context()),
        Err(Unproved::Budget(b)) => panic!("no proof within the {b} budget: {}", context()),
        Err(Unproved::Internal(what)) => panic!("internal error {what}: {}", context()),
    }
    // count: every total, and the pruned count's exact parts.
    let c = count(&problem, 1 << 30, &|_| {}).unwrap();
    assert_eq!(c.positions(), truth.positions, "positions: {}", context());
    assert_eq!(c.solutions, truth.solutions, "solutions: {}", context());
    assert_eq!(c.games, truth.games, "games: {}", context());
    assert_eq!(c.winning(), truth.winning, "winning: {}", context());
    let pruned = count_pruned(&problem, 1 << 30, &|_| {}).unwrap();
    assert_eq!(
        pruned.solutions,
        truth.solutions,
        "pruned solutions: {}",
        context()
    );
    assert_eq!(
        pruned.winning(),
        truth.winning,
        "pruned winning: {}",
        context()
    );
    // ends: each single hole's verdict.
    if case_number.is_multiple_of(10) {
        let ends = pegsol::ends(&problem, &Limits::default()).unwrap();
        for e in &ends.holes {
            let hole = e.hole.bit().raw();
            let reachable = oracle.truth(start.raw(), |p| p == hole).solvable;
            let solved = matches!(e.outcome, Outcome::Solved { .. });
            assert_eq!(
                solved,
                reachable,
                "ends at {}: {}",
                board.label(e.hole),
                context()
            );
        }
    }
}

#[test]
fn the_reported_boards_are_answered_rightly() {
    // The board: nine holes at the top of a tall box; `a1-c1 c3-a3 a3-a1` leaves two.
    let mut text = "oo.\no.\n.oo\n".to_string();
    text.push_str(&"\n".repeat(88));
    text.push_str(".\n");
    let board = pegsol::Board::parse("tall", &text).unwrap();
    let problem = Problem::new(&board, board.start().unwrap(), Finish::Pegs(2)).unwrap();
    assert!(matches!(
        pegsol::solve(&problem, &Limits::default()).unwrap().outcome,
        Outcome::Solved { .. }
    ));
    assert!(pegsol::check::refute(&problem).is_none());
    let line = pegsol::notation::parse_jumps(&board, "a1-c1 c3-a3 a3-a1").unwrap();
    assert_eq!(
        pegsol::replay(&board, board.start::<u64>().unwrap(), &line)
            .unwrap()
            .count(),
        2
    );
    let pruned = count_pruned(&problem, 1 << 30, &|_| {}).unwrap();
    assert_eq!(
        pruned.solutions,
        count(&problem, 1 << 30, &|_| {}).unwrap().solutions
    );
    // The same shape in a wide box: every stock function is still a pagoda function.
    let wide = format!("oo.{}.\no.\n.oo\n", " ".repeat(4000));
    let board = pegsol::Board::parse("wide", &wide).unwrap();
    for p in pegsol::Pagoda::stock(&board) {
        assert!(p.broken_jump(&board).is_none());
        assert!(p
            .weights()
            .iter()
            .all(|&w| (0..=pegsol::MAX_WEIGHT).contains(&w)));
    }
}
