use super::*;
use crate::board::Board;
use crate::problem::{Limits, Problem};

// Fewest moves on small boards are checked against the brute-force oracle by the corpus
// test (`tests/it/corpus.rs`), which runs both methods on every problem.

#[test]
fn counts_moves_by_chains() {
    let board = Board::builtin("english").unwrap();
    let jumps = crate::notation::parse_jumps(&board, "f4-d4 d5-d3 d2-d4").unwrap();
    // f4-d4, then a new peg: d5-d3, then d2-d4 starts on another peg again.
    assert_eq!(move_count(&jumps), 3);
    let chain = crate::notation::parse_jumps(&board, "d2-d4 d4-f4").unwrap();
    assert_eq!(move_count(&chain), 1);
}

/// The basic game of the triangle of side `n`: every single vacancy, one peg anywhere.
fn basic_game(n: usize) -> Problem {
    let board = Board::builtin(&format!("triangle:{n}")).unwrap();
    let starts: Vec<crate::Pegs> = single_vacancies(&board);
    Problem::with_starts(board, starts, crate::Finish::AnyOne).unwrap()
}

/// Past 64 holes, a meeting in a small memory budget stops with a proven lower bound and
/// keeps its tables within the budget (one side grows alone once the other does not fit).
#[test]
fn a_budget_past_64_holes_leaves_a_proven_lower_bound() {
    let board = Board::builtin("triangle:11").unwrap();
    let start = board.holes().without(board.hole("a1").unwrap());
    let problem = Problem::new(&board, start, crate::Finish::AnyOne).unwrap();
    let limits = Limits {
        max_memory: 4 << 20,
        ..Limits::default()
    };
    let r = fewest_moves_meeting(&problem, &limits).unwrap();
    assert_eq!(r.outcome, MeetOutcome::Undecided(crate::Budget::Memory));
    assert!(r.lower_bound >= 2, "{}", r.lower_bound);
    assert!(r.peak_bytes <= 4 << 20, "{}", r.peak_bytes);
}

/// The meeting on two words gives the one-word figures: the 4x4 square beside a block of
/// 60 holes too far away for any jump to reach (76 holes in all) is the 4x4 game, vacancy
/// by vacancy and finish by finish.
#[test]
fn the_meeting_agrees_across_widths() {
    let narrow = Board::builtin("rect:4x4").unwrap();
    let rows: String = (0..6)
        .map(|r| {
            let near = if r < 4 { "oooo" } else { "    " };
            format!("{near}      oooooooooo\n")
        })
        .collect();
    let wide = Board::parse("far", &rows).unwrap();
    assert_eq!((wide.hole_count(), wide.words()), (76, 2));
    let at = |board: &Board, label: &str| board.hole(label).unwrap();
    for e in narrow.each_hole() {
        let label = narrow.label(e);
        for f in narrow.each_hole() {
            let finish_label = narrow.label(f);
            let moves = |board: &Board| {
                let block = board
                    .each_hole()
                    .filter(|&h| board.coords(h).1 < 4)
                    .fold(crate::Pegs::EMPTY, |s, h| s.with(h));
                let start = block.without(at(board, &label));
                let finish = crate::Finish::Holes(crate::Pegs::single(at(board, &finish_label)));
                let problem = Problem::new(board, start, finish).unwrap();
                match fewest_moves_meeting(&problem, &Limits::default())
                    .unwrap()
                    .outcome
                {
                    MeetOutcome::Optimal(s) => Some(s.moves),
                    MeetOutcome::Impossible => None,
                    MeetOutcome::Undecided(b) => panic!("{b:?}"),
                }
            };
            assert_eq!(moves(&wide), moves(&narrow), "{label} to {finish_label}");
        }
    }
}

/// The beam's lines are lines: never fewer moves than the proven optimum, and on small
/// triangles it finds the optimum of the basic game or one more.
#[test]
fn the_beam_over_moves_finds_real_lines() {
    for (n, optimum) in [(5, 9), (6, 9), (7, 12)] {
        let limits = Limits {
            timeout: Some(std::time::Duration::from_secs(5)),
            max_memory: 1 << 30,
            ..Limits::default()
        };
        let problem = basic_game(n);
        let s = few_moves(&problem, &limits).unwrap().expect("a line");
        assert!(s.moves >= optimum, "side {n}: {} moves", s.moves);
        assert!(s.moves <= optimum + 1, "side {n}: {} moves", s.moves);
        let end = crate::replay(problem.board(), s.start, &s.jumps).unwrap();
        assert_eq!((end, end.count()), (s.finish, 1));
        assert_eq!(move_count(&s.jumps), s.moves);
    }
}

/// Bell's published minima for the triangles of side 9 and 10 (16 and 18 moves): the beam
/// must not beat them (a line shorter than a proven minimum would be a bug).
#[test]
#[ignore = "a minute a side; run with --ignored"]
fn the_beam_does_not_beat_the_published_minima() {
    for (n, minimum) in [(9, 16), (10, 18)] {
        let limits = Limits {
            timeout: Some(std::time::Duration::from_secs(60)),
            max_memory: 4 << 30,
            ..Limits::default()
        };
        let s = few_moves(&basic_game(n), &limits).unwrap().expect("a line");
        println!("side {n}: {} moves (published minimum {minimum})", s.moves);
        assert!(s.moves >= minimum, "side {n}: {} moves", s.moves);
    }
}

/// A set cancel flag stops the meeting, the beam and `shortest` at once, as a spent
/// timeout would: undecided, with the bounds proved so far.
#[test]
fn a_cancelled_search_stops_at_once() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let problem = basic_game(9);
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    // Set while the meeting runs, from its progress report.
    let began = std::time::Instant::now();
    let report = shortest(&problem, &limits, &|_| {
        cancel.store(true, Ordering::Relaxed)
    })
    .unwrap();
    assert!(matches!(report.meeting.outcome, MeetOutcome::Undecided(_)));
    assert!(report.meeting.lower_bound <= 16);
    assert!(began.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(few_moves(&problem, &limits).unwrap(), None);
}

/// The chance that uniformly random legal jumps from `p` reach `goal` pegs (on `finish` when
/// given), by a recursion over whole positions (no symmetry, no winning set), memoised in
/// `memo` for every position reachable from `p`: the brute-force oracle of the winning set.
fn brute_odds(
    board: &Board,
    p: crate::Pegs,
    goal: u32,
    finish: Option<crate::Pegs>,
    memo: &mut std::collections::HashMap<crate::Pegs, f64>,
) -> f64 {
    if let Some(&v) = memo.get(&p) {
        return v;
    }
    let v = if p.count() == goal {
        f64::from(u8::from(finish.is_none_or(|f| f == p)))
    } else {
        let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(p)).collect();
        if legal.is_empty() {
            0.0
        } else {
            let sum: f64 = legal
                .iter()
                .map(|j| brute_odds(board, j.apply(p), goal, finish, memo))
                .sum();
            sum / legal.len() as f64
        }
    };
    memo.insert(p, v);
    v
}

/// Each small board's games (every vacancy, to one peg anywhere and to one peg on the
/// vacancy) with their winning sets and the brute-force odds of every reachable position.
fn small_games(
    mut each: impl FnMut(&str, &Problem, &WinningSet, &std::collections::HashMap<crate::Pegs, f64>),
) {
    for name in ["triangle5", "rect:3x4", "rect:4x4"] {
        let board = Board::builtin(name).unwrap();
        for vacancy in board.each_hole() {
            let start = board.holes().without(vacancy);
            for finish in [crate::Finish::AnyOne, crate::Finish::Holes(vacancy.bit())] {
                let Ok(problem) = Problem::new(&board, start, finish) else {
                    continue;
                };
                let set = WinningSet::of(&problem, &Limits::default())
                    .unwrap()
                    .unwrap();
                let only = match finish {
                    crate::Finish::Holes(f) => Some(f),
                    _ => None,
                };
                let mut memo = std::collections::HashMap::new();
                brute_odds(&board, start, 1, only, &mut memo);
                each(name, &problem, &set, &memo);
            }
        }
    }
}

/// The chance that random play wins, from every position reachable from the start, against
/// the brute-force recursion, on small boards, every vacancy, to one peg anywhere and to one
/// peg on the vacancy.
#[test]
fn random_play_odds_agree_with_brute_force() {
    let mut checked = 0usize;
    let mut winning = 0usize;
    small_games(|name, _, set, memo| {
        for (&p, &want) in memo {
            let got = set.random_win(p);
            assert!(
                (got - want).abs() <= 1e-12 * want.max(1e-300),
                "{name} {p:?}: {got} != {want}"
            );
            assert_eq!(got > 0.0, set.wins(p), "{name}");
            checked += 1;
            winning += usize::from(want > 0.0);
        }
    });
    assert!(checked > 100_000 && winning > 10_000, "{checked} {winning}");
}

/// The forced positions and jumps from every position reachable from the start (every third
/// on the 4x4 square), against a breadth-first search over whole positions that keeps those
/// the brute-force oracle says can win: the counts per level, the levels of one position,
/// and the jumps between two of them.
#[test]
fn forced_positions_agree_with_brute_force() {
    let (mut checked, mut forced, mut opening, mut symmetric) = (0usize, 0usize, 0usize, 0usize);
    small_games(|name, problem, set, memo| {
        let board = problem.board();
        let wins = |p: &crate::Pegs| memo.get(p).is_some_and(|&v| v > 0.0);
        let mut all: Vec<_> = memo.keys().copied().collect();
        all.sort_unstable();
        let step = if name == "rect:4x4" { 3 } else { 1 };
        for &p in all.iter().step_by(step) {
            let got = set.forced(p, &Limits::default()).unwrap();
            let mut counts = Vec::new();
            let mut positions = Vec::new();
            let mut level = vec![p];
            while !level.is_empty() && wins(&level[0]) {
                let depth = counts.len() as u32;
                counts.push(level.len() as u64);
                if level.len() == 1 && depth > 0 {
                    positions.push((depth, level[0]));
                }
                if level[0].count() == 1 {
                    break;
                }
                let mut next: Vec<crate::Pegs> = level
                    .iter()
                    .flat_map(|&q| {
                        board
                            .jumps()
                            .iter()
                            .filter(move |j| j.is_legal(q))
                            .map(move |j| j.apply(q))
                    })
                    .filter(|c| wins(c))
                    .collect();
                next.sort_unstable();
                next.dedup();
                level = next;
            }
            assert_eq!(got.counts, counts, "{name} {p:?}");
            assert_eq!(got.positions, positions, "{name} {p:?}");
            for &(k, j) in &got.jumps {
                let before = if k == 0 {
                    p
                } else {
                    positions.iter().find(|q| q.0 == k).unwrap().1
                };
                let after = positions.iter().find(|q| q.0 == k + 1).unwrap().1;
                assert!(
                    j.is_legal(before) && j.apply(before) == after,
                    "{name} {p:?}"
                );
            }
            let pairs = positions
                .iter()
                .filter(|q| q.0 == 1 || positions.iter().any(|r| r.0 + 1 == q.0))
                .count();
            assert_eq!(got.jumps.len(), pairs, "{name} {p:?}");
            checked += 1;
            forced += usize::from(!positions.is_empty());
            opening += usize::from(!got.opening().is_empty());
            symmetric += usize::from(
                board.symmetries().len() > 1 && board.symmetries().stabilizer(&[p]).len() > 1,
            );
        }
    });
    assert!(
        checked > 20_000 && forced > 5_000 && opening > 1_000 && symmetric > 100,
        "{checked} {forced} {opening} {symmetric}"
    );
}
