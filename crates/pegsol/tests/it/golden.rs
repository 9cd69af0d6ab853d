//! Published facts the engine must reproduce.
//!
//! Sources: the seed text (English board: the last peg can end only at the centre or the four
//! arm ends, all five attainable; French board from the centre: no single-peg finish, by the
//! rule of three), and the standard counts of holes and jumps of each board.

use pegsol::{ends, Board, Finish, Limits, Outcome, Problem, Reason};

#[test]
fn english_ends_are_exactly_the_five_published_holes() {
    let b = Board::builtin("english").unwrap();
    let e = ends(
        &Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap(),
        &Limits::default(),
    )
    .unwrap();
    let reachable: Vec<String> = e.reachable().map(|h| b.label(h.hole)).collect();
    assert_eq!(reachable, ["d1", "a4", "d4", "g4", "d7"]);
    for h in &e.holes {
        match &h.outcome {
            Outcome::Solved { jumps, finish } => {
                assert_eq!(jumps.len(), 31);
                assert_eq!(
                    pegsol::replay(&b, b.start().unwrap(), jumps).unwrap(),
                    *finish
                );
            }
            Outcome::Impossible(r) => assert_eq!(*r, Reason::Class, "{}", b.label(h.hole)),
            Outcome::Undecided(_) => panic!("undecided"),
        }
    }
}

#[test]
fn french_centre_is_impossible_by_class_everywhere() {
    let b = Board::builtin("french").unwrap();
    let p = Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap();
    assert_eq!(
        pegsol::solve(&p, &Limits::default()).unwrap().outcome,
        Outcome::Impossible(Reason::Class)
    );
    let e = ends(
        &Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(e.reachable().count(), 0);
}

#[test]
fn board_sizes_jumps_and_classes() {
    // (board, holes, jumps, symmetries, classes). Jumps: each line of k holes has k-2
    // triples, played both ways; e.g. Wiegleb has 27 triples per axis: 2 * 2 * 27 = 108.
    for (name, holes, jumps, syms, classes) in [
        ("english", 33, 76, 8, 16),
        ("french", 37, 92, 8, 16),
        ("wiegleb", 45, 108, 8, 16),
        ("diamond", 41, 100, 8, 16),
    ] {
        let b = Board::builtin(name).unwrap();
        assert_eq!(b.hole_count(), holes, "{name}");
        assert_eq!(b.jumps().len(), jumps, "{name}");
        assert_eq!(b.symmetries().len(), syms, "{name}");
        assert_eq!(b.classes().count(), classes, "{name}");
    }
}

#[test]
fn small_memory_budget_gives_undecided_not_a_crash() {
    let b = Board::builtin("french").unwrap();
    let start: pegsol::Bits = b.holes().without(b.hole("c1").unwrap());
    let p = Problem::new(
        &b,
        start.resize(),
        Finish::Holes(b.hole("e4").unwrap().bit()),
    )
    .unwrap();
    let limits = Limits {
        // 16 KB: less than the guided search's first width needs (with 1 MB it solves this).
        max_memory: 1 << 14,
        ..Limits::default()
    };
    let r = pegsol::solve(&p, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Undecided(pegsol::Budget::Memory));
}

#[test]
fn triangle5_inner_holes_each_have_one_end() {
    // George Bell's catalogue of the 15-hole triangle: from each of the three inner holes
    // exactly one end hole is reachable.
    let b = Board::builtin("triangle:5").unwrap();
    assert_eq!(b.symmetries().len(), 6);
    for (vacancy, end) in [("b3", "c5"), ("b4", "c3"), ("c4", "a3")] {
        let start: pegsol::Bits = b.holes().without(b.hole(vacancy).unwrap());
        let e = ends(
            &Problem::new(&b, start.resize(), Finish::AnyOne).unwrap(),
            &Limits::default(),
        )
        .unwrap();
        let reachable: Vec<String> = e.reachable().map(|h| b.label(h.hole)).collect();
        assert_eq!(reachable, [end], "vacancy {vacancy}");
        assert!(e
            .holes
            .iter()
            .all(|h| !matches!(h.outcome, Outcome::Undecided(_))));
    }
}

/// Every game the playground offers can be won (solved and replayed), and where a board's
/// classic game is set aside, the classic one cannot.
#[test]
fn every_offered_game_is_winnable_and_every_classic_set_aside_is_not() {
    use pegsol::menu::GAMES;
    for g in GAMES {
        let p = g.problem().unwrap();
        let limits = Limits {
            timeout: Some(std::time::Duration::from_secs(60)),
            ..Limits::default()
        };
        match pegsol::solve(&p, &limits).unwrap().outcome {
            Outcome::Solved { jumps, finish } => {
                assert_eq!(
                    pegsol::replay(p.board(), p.start(), &jumps).unwrap(),
                    finish
                );
            }
            other => panic!("{}: {other:?}", g.board),
        }
        if let Some(c) = g.classic_problem().unwrap() {
            let o = pegsol::solve(&c, &limits).unwrap().outcome;
            assert!(
                matches!(o, Outcome::Impossible(_)),
                "{}: classic {o:?}",
                g.board
            );
        }
    }
}

/// George Bell's hexagonal boards (recmath.org, "Peg Solitaire on Hexagonal Boards"):
/// Hexagon(n) has 3n(n - 1) + 1 holes and the hexagon's twelve symmetries; on the 19-hole
/// Hexagon(3) several single-vacancy to single-survivor problems pass the position class
/// test, "in fact none are solvable" (Merchant, 1976): here every one of the 361 pairs is
/// refuted, each by a proof that rechecks (a class, a pagoda function or a search
/// certificate).
#[test]
fn hexagon_three_has_no_solvable_single_vacancy_problem() {
    for (n, holes) in [(1, 1), (2, 7), (3, 19), (4, 37), (5, 61)] {
        let b = Board::builtin(&format!("hexagon:{n}")).unwrap();
        assert_eq!(b.hole_count(), holes);
        assert_eq!(b.symmetries().len(), 12, "hexagon:{n}");
    }
    // Hexagon(6), 91 holes, is a board like the others; its positions take two words.
    let six = Board::builtin("hexagon:6").unwrap();
    assert_eq!(
        (six.hole_count(), six.symmetries().len(), six.words()),
        (91, 12, 2)
    );
    let b = std::sync::Arc::new(Board::builtin("hexagon3").unwrap());
    let catalog = pegsol::catalog::catalog(
        &b,
        pegsol::catalog::Finishes::Single,
        &Limits::default(),
        &|_, _| {},
    )
    .unwrap();
    let s = catalog.summary();
    assert_eq!((s.pairs, s.solvable, s.impossible), (361, 0, 361));
    let mut past_class = 0;
    for e in &catalog.entries {
        let Some(certificate) = &e.certificate else {
            continue;
        };
        past_class += e.equivalent;
        let problem = Problem::new(
            b.clone(),
            b.holes().without(e.empty),
            Finish::Holes(e.finish.unwrap().bit()),
        )
        .unwrap();
        assert!(certificate.verify(&problem), "{:?}", e.finish);
    }
    // The problems the class test lets through, each refuted otherwise.
    assert_eq!(past_class, 72);
}

/// Bell again: the 37-hole Hexagon(4) is the smallest hexagon on which a single-vacancy to
/// single-survivor problem is solvable (every pair the position class allows is, none
/// starting or ending at the centre); on the null-class 61-hole Hexagon(5) every complement
/// problem (vacate a hole, finish there) is solvable.
#[test]
fn hexagons_four_and_five() {
    let b = std::sync::Arc::new(Board::builtin("hexagon:4").unwrap());
    let catalog = pegsol::catalog::catalog(
        &b,
        pegsol::catalog::Finishes::Single,
        &Limits::default(),
        &|_, _| {},
    )
    .unwrap();
    let s = catalog.summary();
    assert_eq!((s.pairs, s.solvable, s.impossible), (1369, 288, 1081));
    let centre = b.hole("d4").unwrap();
    let classes = b.classes();
    for e in &catalog.entries {
        let f = e.finish.unwrap();
        let compatible =
            classes.class_of_hole(f) == classes.class_of(b.holes::<u64>().without(e.empty));
        assert_eq!(
            matches!(e.outcome, Outcome::Solved { .. }),
            compatible,
            "{} to {}",
            b.label(e.empty),
            b.label(f)
        );
        if e.empty == centre || f == centre {
            assert!(!compatible);
        }
    }
    let b = Board::builtin("hexagon:5").unwrap();
    let (vacancies, _) = pegsol::catalog::problems(&b, pegsol::catalog::Finishes::Any);
    assert_eq!(vacancies.len(), 9);
    for v in vacancies {
        let start: pegsol::Bits = b.holes().without(v.hole);
        let p = Problem::new(&b, start.resize(), Finish::Holes(v.hole.bit())).unwrap();
        match pegsol::solve(&p, &Limits::default()).unwrap().outcome {
            Outcome::Solved { jumps, .. } => {
                assert_eq!(jumps.len(), 59);
                assert_eq!(pegsol::replay(&b, start, &jumps).unwrap(), v.hole.bit());
            }
            other => panic!("{}: {other:?}", b.label(v.hole)),
        }
    }
}
