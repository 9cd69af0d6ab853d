//! Impossibility certificates a person can check by hand.
//!
//! Two arguments, tried in order:
//! - **position class**: a set of holes meeting every jump in 0 or 2 holes (a [`Classes`]
//!   functional). A jump changes the number of pegs on it by 0 or 2, so its parity never
//!   changes; if the start and a finish differ in parity on some such set, no line of play joins
//!   them;
//! - **pagoda function** (Conway): weights with `w(from) + w(over) >= w(to)` for every jump, so
//!   the total weight of the pegs never rises; if the start totals less than every finish, no
//!   line of play joins them. The weights are found by linear programming
//!   ([`Pagoda::fit_any`]) and are exact integers, rechecked jump by jump.
//!
//! [`Classes`]: crate::Classes

use crate::bitset::Bits;
use crate::pagoda::Pagoda;
use crate::search::Problem;

/// A proof that a problem has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// Parity on invariant hole sets: for each finish, a set on which the start and that finish
    /// have different parities.
    Class {
        /// The invariant sets used.
        sets: Vec<Bits>,
        /// Pegs of the start on each set.
        start_counts: Vec<u32>,
        /// For each finish: the finish, the index of the set that separates it, and its pegs
        /// on that set.
        finishes: Vec<(Bits, usize, u32)>,
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

impl Certificate {
    /// The name used in reports: `class` or `pagoda`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Certificate::Class { .. } => "class",
            Certificate::Pagoda { .. } => "pagoda",
        }
    }

    /// Rechecks the certificate from scratch for `problem`: the sets meet every jump evenly
    /// and separate each finish, or the weights satisfy every jump and the totals are as
    /// claimed and in the wrong order for the problem to be solvable.
    #[must_use]
    pub fn verify(&self, problem: &Problem) -> bool {
        let board = problem.board();
        let start = problem.start();
        let finishes = problem.targets();
        match self {
            Certificate::Class {
                sets,
                start_counts,
                finishes: separated,
            } => {
                let even = sets.iter().all(|s| {
                    board
                        .jumps()
                        .iter()
                        .all(|j| j.holes().intersect(*s).count() % 2 == 0)
                });
                let counts = sets
                    .iter()
                    .zip(start_counts)
                    .all(|(s, &c)| start.intersect(*s).count() == c);
                let covered = finishes.iter().all(|f| {
                    separated.iter().any(|&(g, k, c)| {
                        g == *f
                            && k < sets.len()
                            && f.intersect(sets[k]).count() == c
                            && (c + start_counts[k]) % 2 == 1
                    })
                });
                even && counts && covered
            }
            Certificate::Pagoda {
                pagoda,
                start_total,
                finish_total,
            } => {
                pagoda.broken_jump(board).is_none()
                    && pagoda.weights().iter().all(|&w| w >= 0)
                    && pagoda.total(start) == *start_total
                    && finishes.iter().map(|&f| pagoda.total(f)).min() == Some(*finish_total)
                    && start_total < finish_total
            }
        }
    }
}

/// Looks for a certificate that `problem` is impossible: position classes first, then a
/// pagoda function fitted by linear programming. `None` when neither refutes it (which does
/// not mean it is solvable).
///
/// ```
/// use pegsol::{Board, Finish, Problem, check::refute};
/// let french = Board::builtin("french").unwrap();
/// let p = Problem::new(&french, french.start().unwrap(), Finish::AnyOne).unwrap();
/// let proof = refute(&p).unwrap();
/// assert_eq!(proof.kind(), "class");
/// assert!(proof.verify(&p));
/// ```
#[must_use]
pub fn refute(problem: &Problem) -> Option<Certificate> {
    let board = problem.board();
    let start = problem.start();
    let finishes = problem.targets();
    let sets = board.classes().functionals().to_vec();
    let parity = |p: Bits, s: Bits| p.intersect(s).count() % 2;
    let separating: Option<Vec<(Bits, usize)>> = finishes
        .iter()
        .map(|&f| {
            sets.iter()
                .position(|&s| parity(start, s) != parity(f, s))
                .map(|k| (f, k))
        })
        .collect();
    if let Some(separating) = separating {
        // Keep only the sets used, renumbered.
        let mut used: Vec<usize> = separating.iter().map(|&(_, k)| k).collect();
        used.sort_unstable();
        used.dedup();
        let kept: Vec<Bits> = used.iter().map(|&k| sets[k]).collect();
        return Some(Certificate::Class {
            start_counts: kept.iter().map(|&s| start.intersect(s).count()).collect(),
            finishes: separating
                .iter()
                .map(|&(f, k)| {
                    let at = used.iter().position(|&u| u == k).unwrap_or(0);
                    (f, at, f.intersect(sets[k]).count())
                })
                .collect(),
            sets: kept,
        });
    }
    let pagoda = Pagoda::fit_any(board, start, &finishes)?;
    let start_total = pagoda.total(start);
    let finish_total = finishes.iter().map(|&f| pagoda.total(f)).min()?;
    (start_total < finish_total).then_some(Certificate::Pagoda {
        pagoda,
        start_total,
        finish_total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Finish};

    #[test]
    fn certificates_verify_and_tampering_is_caught() {
        let b = Board::builtin("english").unwrap();
        let start = b.start().unwrap();
        let p = Problem::new(&b, start, Finish::Holes(b.hole("c4").unwrap().bit())).unwrap();
        let c = refute(&p).unwrap();
        assert_eq!(c.kind(), "class");
        assert!(c.verify(&p));
        // A class certificate does not prove a solvable problem impossible.
        let solvable = Problem::conventional(&b).unwrap();
        assert!(refute(&solvable).is_none());
        assert!(!c.verify(&solvable));
    }

    #[test]
    fn pagodas_refute_finishes_that_classes_allow() {
        // Pegs only in the bottom rows of the English board cannot reduce to one peg far up
        // the board; where the class test allows such a finish, a pagoda function refutes it
        // (the Solitaire Army in miniature). Every certificate rechecks.
        let b = Board::builtin("english").unwrap();
        let mut found = 0;
        for first_row in 3..6 {
            let start: Bits = b
                .holes()
                .iter()
                .filter(|&h| b.coords(h).0 >= first_row)
                .collect();
            for h in b.holes().iter().filter(|&h| b.coords(h).0 + 2 < first_row) {
                let p = Problem::new(&b, start, Finish::Holes(h.bit())).unwrap();
                let c = refute(&p).expect("far finishes are refuted");
                assert!(c.verify(&p));
                found += usize::from(c.kind() == "pagoda");
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn fibonacci_row_pagoda() {
        // Two pegs at the end of a row of five cannot put one peg on the far end.
        let b = Board::builtin("rect:1x5").unwrap();
        let start = b.hole_set("a1,b1").unwrap();
        let p = Problem::new(&b, start, Finish::Holes(b.hole("e1").unwrap().bit())).unwrap();
        let c = refute(&p).unwrap();
        assert!(c.verify(&p));
    }
}
