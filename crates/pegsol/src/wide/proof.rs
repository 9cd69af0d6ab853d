//! Impossibility proofs on boards of up to 256 holes: the position-class and pagoda-function
//! arguments of [`crate::check`], on [`Pegs`]. (The search certificate, a closed set of
//! positions, is made by the 64-hole engines only.)

use crate::bitset::Hole;
use crate::pagoda::Pagoda;

use super::WideFinish;
use crate::bitset::Pegs;
use crate::board::Board;

/// A proof that a wide problem has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideCertificate {
    /// Parity on invariant hole sets: for each finish, a set on which the start and that
    /// finish have different parities.
    Class {
        /// The invariant sets used: each meets every jump in 0 or 2 holes.
        sets: Vec<Pegs>,
        /// Pegs of the start on each set.
        start_counts: Vec<u32>,
        /// For each finish: the finish, the index of the set that separates it, and its pegs
        /// on that set.
        finishes: Vec<(Pegs, usize, u32)>,
    },
    /// A pagoda function whose start total is below every finish's total.
    Pagoda {
        /// The weights.
        pagoda: Pagoda,
        /// Total weight of the start's pegs.
        start_total: i64,
        /// The least total over the finishes.
        finish_total: i64,
    },
}

impl WideCertificate {
    /// The name used in reports and certificate files: `class` or `pagoda`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            WideCertificate::Class { .. } => "class",
            WideCertificate::Pagoda { .. } => "pagoda",
        }
    }

    /// Rechecks the certificate from scratch: the sets meet every jump evenly and separate
    /// every finish (a class proof lists every finish, so it takes one position or any one
    /// peg), or the weights satisfy every jump and the totals are as claimed, the start's
    /// below the finishes' least.
    #[must_use]
    pub fn verify(&self, board: &Board, start: Pegs, finish: &WideFinish) -> bool {
        match self {
            WideCertificate::Class {
                sets,
                start_counts,
                finishes,
            } => {
                let Some(all) = listed(board, finish) else {
                    return false;
                };
                let even = sets.iter().all(|s| {
                    board.jumps().iter().all(|j| {
                        [j.from(), j.over(), j.to()]
                            .iter()
                            .filter(|&&h| s.contains(Hole::at(h.index())))
                            .count()
                            % 2
                            == 0
                    })
                });
                let counts = sets.len() == start_counts.len()
                    && sets
                        .iter()
                        .zip(start_counts)
                        .all(|(s, &c)| s.intersect(start).count() == c);
                let covered = all.iter().all(|f| {
                    finishes.iter().any(|&(g, k, c)| {
                        g == *f
                            && k < sets.len()
                            && f.intersect(sets[k]).count() == c
                            && (c + start_counts[k]) % 2 == 1
                    })
                });
                even && counts && covered
            }
            WideCertificate::Pagoda {
                pagoda,
                start_total,
                finish_total,
            } => {
                pagoda.weights().len() == board.hole_count()
                    && pagoda.broken_jump(board).is_none()
                    && pagoda.total(start) == *start_total
                    && pagoda.floor_wide(board, finish) == Some(*finish_total)
                    && start_total < finish_total
            }
        }
    }
}

/// The finishes one by one, when there are few enough to list: one position, or every hole
/// for any one peg.
fn listed(board: &Board, finish: &WideFinish) -> Option<Vec<Pegs>> {
    match finish {
        WideFinish::Exactly(f) => Some(vec![*f]),
        WideFinish::Pegs(1) => Some(
            (0..board.hole_count())
                .map(|h| Pegs::single(Hole::at(h)))
                .collect(),
        ),
        WideFinish::Pegs(_) => None,
    }
}

/// A proof that `finish` cannot be reached from `start` without searching: position classes
/// first, then a pagoda function of either sign fitted by linear programming. `None` when
/// neither refutes it (which does not mean it is solvable).
///
/// ```
/// use pegsol::{refute_wide, Hole, Board, WideFinish, Pegs};
/// let board = Board::builtin("rect:9x9")?;
/// // Two pegs in a corner make one peg on c1, never one on i7 (the same class, far away).
/// let start = board.hole_set("a1,b1")?;
/// let far = WideFinish::Exactly(Pegs::single(board.hole("i7")?));
/// let proof = refute_wide(&board, start, &far).unwrap();
/// assert_eq!(proof.kind(), "pagoda");
/// assert!(proof.verify(&board, start, &far));
/// # Ok::<(), pegsol::Error>(())
/// ```
#[must_use]
pub fn refute_wide(board: &Board, start: Pegs, finish: &WideFinish) -> Option<WideCertificate> {
    if let Some(c) = class_refutation(board, start, finish) {
        return Some(c);
    }
    let pagoda = Pagoda::refuting_wide(board, start, finish)?;
    let start_total = pagoda.total(start);
    let finish_total = pagoda.floor_wide(board, finish)?;
    (start_total < finish_total).then_some(WideCertificate::Pagoda {
        pagoda,
        start_total,
        finish_total,
    })
}

fn class_refutation(board: &Board, start: Pegs, finish: &WideFinish) -> Option<WideCertificate> {
    let sets = board.classes().functionals();
    let odd = |s: Pegs, p: Pegs| s.intersect(p).count() % 2 == 1;
    let mut used: Vec<usize> = Vec::new();
    let mut separated = Vec::new();
    for f in listed(board, finish)? {
        let k = sets.iter().position(|&s| odd(s, start) != odd(s, f))?;
        let at = used.iter().position(|&u| u == k).unwrap_or_else(|| {
            used.push(k);
            used.len() - 1
        });
        separated.push((f, at, sets[k].intersect(f).count()));
    }
    let kept: Vec<Pegs> = used.iter().map(|&k| sets[k]).collect();
    Some(WideCertificate::Class {
        start_counts: kept.iter().map(|s| s.intersect(start).count()).collect(),
        finishes: separated,
        sets: kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Pagoda, Shape};

    /// On boards of up to 64 holes the wide refutation agrees with the 64-hole one: a class
    /// proof exactly when the narrow one gives one, and a pagoda function exactly when the
    /// narrow program finds one (both programs are complete, so they agree on existence).
    #[test]
    fn wide_refutations_agree_with_the_narrow_ones() {
        for name in ["rect:4x4", "triangle:5", "rect:1x7", "hexagon:3"] {
            let narrow = Board::builtin(name).unwrap();
            let wide = Board::from_shape(&Shape::builtin(name).unwrap()).unwrap();
            let n = wide.hole_count();
            for a in 0..n {
                for b in (a + 1)..n {
                    let start = Pegs::single(Hole::at(a)).with(Hole::at(b));
                    let nstart: crate::Bits = narrow
                        .each_hole()
                        .nth(a)
                        .unwrap()
                        .bit()
                        .union(narrow.each_hole().nth(b).unwrap().bit());
                    for t in 0..n {
                        let finish = WideFinish::Exactly(Pegs::single(Hole::at(t)));
                        let nfinish: crate::Bits = narrow.each_hole().nth(t).unwrap().bit();
                        let w = refute_wide(&wide, start, &finish);
                        if let Some(c) = &w {
                            assert!(c.verify(&wide, start, &finish), "{name} {a} {b} {t}");
                        }
                        let class_n =
                            narrow.classes().class_of(nstart) != narrow.classes().class_of(nfinish);
                        let pagoda_n = Pagoda::refuting(&narrow, nstart, &[nfinish]).is_some();
                        let kind = w.as_ref().map(WideCertificate::kind);
                        let expected = if class_n {
                            Some("class")
                        } else if pagoda_n {
                            Some("pagoda")
                        } else {
                            None
                        };
                        assert_eq!(kind, expected, "{name}: {a},{b} to {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_tampered_certificate_fails_its_recheck() {
        let board = Board::builtin("rect:9x9").unwrap();
        let start = board.hole_set("a1,b1").unwrap();
        let far = WideFinish::Exactly(Pegs::single(Hole::at((board.hole("i7").unwrap()).index())));
        let Some(WideCertificate::Pagoda {
            pagoda,
            start_total,
            finish_total,
        }) = refute_wide(&board, start, &far)
        else {
            panic!("a pagoda proof")
        };
        let claim = |start_total, finish_total| WideCertificate::Pagoda {
            pagoda: pagoda.clone(),
            start_total,
            finish_total,
        };
        assert!(claim(start_total, finish_total).verify(&board, start, &far));
        assert!(!claim(start_total + 1, finish_total).verify(&board, start, &far));
        // The solvable finish c1 is neither refuted nor refutable by these weights.
        let near = WideFinish::Exactly(Pegs::single(Hole::at((board.hole("c1").unwrap()).index())));
        assert!(refute_wide(&board, start, &near).is_none());
        assert!(!claim(
            start_total,
            pagoda.total(Pegs::single(Hole::at((board.hole("c1").unwrap()).index())))
        )
        .verify(&board, start, &near));
    }

    /// Any `k` pegs is one constraint in the wide program and every `k`-peg position in the
    /// narrow one; both programs are complete, so they agree on whether a function exists.
    #[test]
    fn any_k_pegs_agrees_with_every_k_peg_position_listed() {
        let mut seen = [0usize; 2];
        for name in ["rect:4x4", "triangle:5", "rect:2x6"] {
            let narrow = Board::builtin(name).unwrap();
            let wide = Board::from_shape(&Shape::builtin(name).unwrap()).unwrap();
            let holes: Vec<_> = narrow.each_hole().collect();
            let n = holes.len();
            // Starts of four to six pegs, picked by a fixed stride.
            for seed in 0..40usize {
                let picks: Vec<usize> = (0..4 + seed % 3).map(|i| (seed * 7 + i * 5) % n).collect();
                let start = picks.iter().fold(Pegs::EMPTY, |s, &i| s.with(Hole::at(i)));
                let nstart = picks
                    .iter()
                    .fold(crate::Bits::EMPTY, |s, &i| s.with(holes[i]));
                for k in 1..=3usize.min(start.count() as usize) {
                    let mut all = Vec::new();
                    for a in 0..n {
                        for b in a..n {
                            for c in b..n {
                                let set: std::collections::BTreeSet<_> =
                                    [a, b, c].into_iter().take(k).collect();
                                if set.len() == k && (k < 2 || a < b) && (k < 3 || b < c) {
                                    all.push(
                                        set.iter()
                                            .fold(crate::Bits::EMPTY, |s, &i| s.with(holes[i])),
                                    );
                                }
                            }
                        }
                    }
                    all.sort_unstable_by_key(|b| b.raw());
                    all.dedup();
                    let finish = WideFinish::Pegs(k);
                    let w = Pagoda::refuting_wide(&wide, start, &finish);
                    if let Some(p) = &w {
                        assert!(p.total(start) < p.floor_wide(&wide, &finish).unwrap());
                    }
                    let listed = Pagoda::refuting(&narrow, nstart, &all);
                    assert_eq!(w.is_some(), listed.is_some(), "{name} {picks:?} k={k}");
                    seen[usize::from(w.is_some())] += 1;
                }
            }
        }
        // Both answers occur, so the comparison means something.
        assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
    }

    /// A refuting vertex whose weights have denominators (902) outside the usual list: the
    /// continued fractions still make it exact.
    #[test]
    fn odd_denominators_are_made_exact() {
        let picture = "lattice: diagonal\ncolumns: exact\n...... ..\n.........\n... .....\n....... .\n ........\n..oo ....\n........\n. .......\n..... ...\n";
        let board = Board::parse("irregular", picture).unwrap();
        let start = board.start().unwrap();
        let finish =
            WideFinish::Exactly(Pegs::single(Hole::at((board.hole("i9").unwrap()).index())));
        let proof = refute_wide(&board, start, &finish).expect("a pagoda function exists");
        assert_eq!(proof.kind(), "pagoda");
        assert!(proof.verify(&board, start, &finish));
    }
}
