//! Impossibility certificates a person, or a short program, can check.
//!
//! Three arguments, tried in order:
//! - **position class**: a set of holes meeting every jump in 0 or 2 holes (a [`Classes`]
//!   functional). A jump changes the number of pegs on it by 0 or 2, so its parity never
//!   changes; if the start and a finish differ in parity on some such set, no line of play joins
//!   them;
//! - **pagoda function** (Conway): weights with `w(from) + w(over) >= w(to)` for every jump, so
//!   the total weight of the pegs never rises; if the start totals less than every finish, no
//!   line of play joins them. The weights, of either sign, are found by linear programming
//!   ([`Pagoda::refuting`], complete for single functions) and are exact integers, rechecked
//!   jump by jump;
//! - **search**: a set of positions that holds the start and no finish and is closed under
//!   jumps: every child of a member is a member up to a symmetry that keeps the finishes, or
//!   has as few pegs as a finish, or is cut by one of the certificate's pagoda functions
//!   (several, each fitted to an early branch). Checking it takes no search: one pass over
//!   the members and their jumps. It is made by an exhaustive search, in the problem's own
//!   direction or in its dual (the complement game backwards), whichever is smaller.
//!
//! [`Classes`]: crate::Classes

mod positions;
mod search;

use crate::bitset::{Bits, Hole, Pegs, Word};
use crate::error::{Error, Result as LibResult};
use crate::pagoda::Pagoda;
use crate::problem::{Budget, Limits, Outcome, Problem, Reason, Stats};
use crate::search::solve;
use crate::width::with_width;

pub use positions::Positions;
use search::{closed_set, NoSet};

/// A proof that a problem has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// Parity on invariant hole sets: for each finish, a set on which the start and that finish
    /// have different parities.
    Class {
        /// The invariant sets used.
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
    /// A set of positions closed under jumps that holds the start and no finish.
    Search(SearchProof),
}

/// The search certificate: see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchProof {
    /// Whether the set is for the dual problem: from the complement of the (single) finish
    /// to the complement of the start, which is solvable exactly when the problem is.
    pub dual: bool,
    /// Symmetries (hole permutations by index) that map the set of finishes onto itself;
    /// a child counts as a member when one of them maps it to a member.
    pub symmetries: Vec<Vec<Hole>>,
    /// The pagoda functions that cut.
    pub pagodas: Vec<Pagoda>,
    /// The members; the first is the start.
    pub positions: Positions,
}

impl SearchProof {
    /// The start and the finishes the set is about: the problem's, or its dual's.
    #[must_use]
    pub fn game(&self, problem: &Problem) -> (Pegs, Vec<Pegs>) {
        self.game_at(problem)
    }

    fn game_at<W: Word>(&self, problem: &Problem) -> (Bits<W>, Vec<Bits<W>>) {
        let holes: Bits<W> = problem.board().holes();
        let targets: &[Bits<W>] = &problem.targets();
        match (self.dual, targets) {
            (true, [f]) => (holes.minus(*f), vec![holes.minus(problem.start())]),
            _ => (problem.start(), targets.to_vec()),
        }
    }

    /// Rechecks the set with the library's own jumps (the CLI's `verify` checks files with
    /// code of its own), at the board's width.
    #[must_use]
    pub fn verify(&self, problem: &Problem) -> bool {
        with_width!(problem.board(), W => self.verify_at::<W>(problem))
    }

    fn verify_at<W: Word>(&self, problem: &Problem) -> bool {
        let board = problem.board();
        // Members stored at another width are another board's (read at this one they would
        // lose or gain holes).
        if self.positions.words() != W::WORDS || self.dual && problem.target_count() != 1 {
            return false;
        }
        let (start, finishes) = self.game_at::<W>(problem);
        let Some(goal) = finishes.first().map(|f| f.count()) else {
            return false;
        };
        let n = board.hole_count();
        let image =
            |perm: &[Hole], p: Bits<W>| p.iter().map(|h| perm[h.index()]).collect::<Bits<W>>();
        let automorphisms = self.symmetries.iter().all(|perm| {
            perm.len() == n
                && perm.iter().all(|h| h.index() < n)
                && board.jumps().iter().all(|j| {
                    let (f, o, t) = (
                        perm[j.from().index()],
                        perm[j.over().index()],
                        perm[j.to().index()],
                    );
                    board
                        .jumps()
                        .iter()
                        .any(|k| (k.from(), k.over(), k.to()) == (f, o, t))
                })
                && finishes.iter().all(|&f| finishes.contains(&image(perm, f)))
        });
        let floors: Option<Vec<i64>> = self.pagodas.iter().map(|p| p.floor(&finishes)).collect();
        let Some(floors) = floors else { return false };
        let valid = self.pagodas.iter().all(|p| p.broken_jump(board).is_none());
        let cut = |p: Bits<W>| {
            self.pagodas
                .iter()
                .zip(&floors)
                .any(|(f, &fl)| f.total(p) < fl)
        };
        let holes: Bits<W> = board.holes();
        let members: std::collections::HashSet<Bits<W>> = self.positions.iter().collect();
        let member = |p: Bits<W>| {
            members.contains(&p)
                || self
                    .symmetries
                    .iter()
                    .any(|g| members.contains(&image(g, p)))
        };
        let closed = self.positions.iter::<W>().all(|p| {
            p.is_subset(holes)
                && !finishes.contains(&p)
                && board.jumps().iter().filter(|j| j.is_legal(p)).all(|j| {
                    let c = j.apply(p);
                    (c.count() <= goal && !finishes.contains(&c)) || cut(c) || member(c)
                })
        });
        let starts = self.positions.iter::<W>().next() == Some(start) || cut(start);
        automorphisms && valid && closed && starts
    }
}

/// Why [`prove`] gives no certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unproved {
    /// The search reached a finish: the problem is solvable.
    Solvable,
    /// No proof was found within the budget.
    Budget(Budget),
    /// A certificate that failed its own recheck: a bug, never an answer.
    Internal(&'static str),
}

impl Certificate {
    /// The name used in reports: `class`, `pagoda` or `search`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Certificate::Class { .. } => "class",
            Certificate::Pagoda { .. } => "pagoda",
            Certificate::Search(_) => "search",
        }
    }

    /// Rechecks the certificate from scratch for `problem`: the sets meet every jump evenly
    /// and separate each finish, or the weights satisfy every jump and the totals are as
    /// claimed and in the wrong order for the problem to be solvable.
    #[must_use]
    pub fn verify(&self, problem: &Problem) -> bool {
        let board = problem.board();
        let start: Pegs = problem.start();
        let finishes: &[Pegs] = &problem.targets();
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
                    && pagoda.total(start) == *start_total
                    && finishes.iter().map(|&f| pagoda.total(f)).min() == Some(*finish_total)
                    && start_total < finish_total
            }
            Certificate::Search(proof) => proof.verify(problem),
        }
    }
}

/// Looks for a certificate that `problem` is impossible without searching: position classes
/// first, then a signed pagoda function fitted by linear programming. `None` when neither
/// refutes it (which does not mean it is solvable; [`prove`] searches).
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
    // Two set operations a finish and an LP: done at the widest width, whatever the board.
    let board = problem.board();
    let start: Pegs = problem.start();
    let finishes: &[Pegs] = &problem.targets();
    let sets: &[Pegs] = board.classes().functionals();
    let parity = |p: Pegs, s: Pegs| p.intersect(s).count() % 2;
    let separating: Option<Vec<(Pegs, usize)>> = finishes
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
        let kept: Vec<Pegs> = used.iter().map(|&k| sets[k]).collect();
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
    let pagoda = Pagoda::refuting(board, start, finishes)?;
    let start_total = pagoda.total(start);
    let finish_total = pagoda.floor(finishes)?;
    (start_total < finish_total).then_some(Certificate::Pagoda {
        pagoda,
        start_total,
        finish_total,
    })
}

/// Most positions a search certificate may hold (about 40 bytes a word of position while it
/// is made).
pub const MAX_POSITIONS: usize = 20_000_000;

/// A certificate for every impossible problem, within `limits`: [`refute`]'s, or else a
/// search certificate (see the module docs), from the problem's own direction and, for a
/// single finish, from its dual, the smaller of the two. Rechecked before it is returned.
pub fn prove(problem: &Problem, limits: &Limits) -> Result<Certificate, Unproved> {
    let began = std::time::Instant::now();
    if let Some(c) = refute(problem) {
        return Ok(c);
    }
    let proof = with_width!(problem.board(), W => search_proof::<W>(problem, limits, began))?;
    let certificate = Certificate::Search(proof);
    if certificate.verify(problem) {
        Ok(certificate)
    } else {
        Err(Unproved::Internal(
            "a search certificate failed its recheck",
        ))
    }
}

/// The smaller closed set of the two directions, positions in `W`'s words.
fn search_proof<W: Word>(
    problem: &Problem,
    limits: &Limits,
    began: std::time::Instant,
) -> Result<SearchProof, Unproved> {
    let board = problem.board();
    let holes: Bits<W> = board.holes();
    let targets: &[Bits<W>] = &problem.targets();
    let cap = (limits.max_memory / (40 * W::WORDS)).clamp(1, MAX_POSITIONS);
    let sym = board.symmetries();
    let attempt = |dual: bool, cap: usize, limits: &Limits| {
        let (start, finishes) = match (dual, targets) {
            (true, [f]) => (holes.minus(*f), vec![holes.minus(problem.start())]),
            _ => (problem.start(), targets.to_vec()),
        };
        let group = sym.stabilizer(&finishes);
        // Start from the stock and a function fitted to the finishes, the tightest first.
        let mut functions: Vec<Pagoda> = Pagoda::library(board);
        functions.extend(Pagoda::fit_any(board, start, &finishes));
        functions.retain(|f| f.can_cut(&finishes));
        functions.sort_by(|a, b| {
            a.room(start, &finishes)
                .total_cmp(&b.room(start, &finishes))
        });
        functions.truncate(8);
        // The search drops the functions that cut nothing.
        let positions = closed_set(board, start, &finishes, &group, &mut functions, limits, cap)?;
        Ok(SearchProof {
            dual,
            symmetries: group
                .iter()
                .filter(|&&g| g != 0)
                .map(|&g| holes.iter().map(|h| sym.map_hole(g, h)).collect())
                .collect(),
            pagodas: functions,
            positions,
        })
    };
    // Small sets first in both directions (a problem whose every first jump a fitted
    // function refutes has a set of one position), then larger ones; when one direction
    // gives a set, the other is tried with that size as its cap, and the smaller kept.
    let directions: &[bool] = if targets.len() == 1 {
        &[false, true]
    } else {
        &[false]
    };
    let mut proof: Option<SearchProof> = None;
    for size in [64, 4096, cap] {
        for &dual in directions {
            let limit = proof
                .as_ref()
                .map_or(size.min(cap), |p| p.positions.len() - 1);
            if limit == 0 {
                continue;
            }
            // Every attempt shares the one budget.
            let mut rest = limits.clone();
            rest.timeout = limits.timeout.map(|t| t.saturating_sub(began.elapsed()));
            if rest.timeout == Some(std::time::Duration::ZERO) {
                if proof.is_some() {
                    break;
                }
                return Err(Unproved::Budget(Budget::Time));
            }
            match attempt(dual, limit, &rest) {
                Ok(p) => proof = Some(p),
                Err(NoSet::Reached) => return Err(Unproved::Solvable),
                Err(NoSet::Budget(Budget::Time)) if proof.is_none() => {
                    return Err(Unproved::Budget(Budget::Time));
                }
                Err(NoSet::Budget(_)) => {}
            }
        }
        if proof.is_some() {
            break;
        }
    }
    proof.ok_or(Unproved::Budget(Budget::Memory))
}

/// A problem decided, with the proof an impossible answer carries.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The answer: a solution replayed by the solver's checker, impossible, or undecided.
    pub outcome: Outcome,
    /// The certificate of an impossible answer. `None` on an impossible answer only when the
    /// solver exhausted the search but no certificate was made within what was left of the
    /// budget, or when an exhaustive count decided it ([`Reason::Counted`], in a catalog).
    pub certificate: Option<Certificate>,
    /// The solver's effort.
    pub stats: Stats,
}

/// Decides `problem` within `limits`, one budget for the whole: a class or pagoda proof
/// ([`refute`]) at once; else the solver, for at most half the timeout, which gives a line
/// when there is one; else, with what is left of the budget, a search certificate
/// ([`prove`]). The same on every board of
/// up to 256 holes (each width its own monomorphised engines).
///
/// ```
/// use pegsol::{Board, Finish, Limits, Outcome, Problem, check::decide};
/// let b = Board::builtin("english").unwrap();
/// let p = Problem::new(&b, b.start().unwrap(), Finish::holes(b.hole_set::<u64>("c4").unwrap())).unwrap();
/// let d = decide(&p, &Limits::default()).unwrap();
/// assert!(matches!(d.outcome, Outcome::Impossible(_)));
/// assert!(d.certificate.unwrap().verify(&p));
/// ```
///
/// # Errors
///
/// [`Error::Internal`] if a solution fails its replay or a certificate its recheck (a bug).
pub fn decide(problem: &Problem, limits: &Limits) -> LibResult<Decision> {
    let began = std::time::Instant::now();
    if let Some(c) = refute(problem) {
        let reason = match c {
            Certificate::Class { .. } => Reason::Class,
            _ => Reason::Pagoda,
        };
        return Ok(Decision {
            outcome: Outcome::Impossible(reason),
            certificate: Some(c),
            stats: Stats::default(),
        });
    }
    // The solver runs until its budget ends when it decides nothing, so it gets half: the
    // certificate search, which settles what the solver cannot, gets the rest.
    let search = Limits {
        timeout: limits.timeout.map(|t| t / 2),
        ..limits.clone()
    };
    let report = solve(problem, &search)?;
    if let Outcome::Solved { .. } = report.outcome {
        return Ok(Decision {
            outcome: report.outcome,
            certificate: None,
            stats: report.stats,
        });
    }
    let mut rest = limits.clone();
    rest.timeout = limits.timeout.map(|t| t.saturating_sub(began.elapsed()));
    let proved = if rest.timeout == Some(std::time::Duration::ZERO) {
        Err(Unproved::Budget(Budget::Time))
    } else {
        prove(problem, &rest)
    };
    match proved {
        Ok(c) => Ok(Decision {
            outcome: Outcome::Impossible(Reason::Exhausted),
            certificate: Some(c),
            stats: report.stats,
        }),
        Err(Unproved::Internal(what)) => Err(Error::Internal(what)),
        Err(Unproved::Solvable) if matches!(report.outcome, Outcome::Impossible(_)) => Err(
            Error::Internal("the solver and the certificate search disagree"),
        ),
        // Undecided by the solver (a finish reached by the certificate search has no line to
        // show), or impossible by its exhausted search without a certificate in the budget.
        Err(_) => Ok(Decision {
            outcome: report.outcome,
            certificate: None,
            stats: report.stats,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Finish};

    #[test]
    fn certificates_verify_and_tampering_is_caught() {
        let b = Board::builtin("english").unwrap();
        let start: Bits = b.start().unwrap();
        let p = Problem::new(
            &b,
            start.resize(),
            Finish::Holes(b.hole("c4").unwrap().bit()),
        )
        .unwrap();
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
                .each_hole()
                .filter(|&h| b.coords(h).0 >= first_row)
                .collect();
            for h in b.each_hole().filter(|&h| b.coords(h).0 + 2 < first_row) {
                let p = Problem::new(&b, start.resize(), Finish::Holes(h.bit())).unwrap();
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
        let start: Bits = b.hole_set("a1,b1").unwrap();
        let p = Problem::new(
            &b,
            start.resize(),
            Finish::Holes(b.hole("e1").unwrap().bit()),
        )
        .unwrap();
        let c = refute(&p).unwrap();
        assert!(c.verify(&p));
    }

    #[test]
    fn search_certificates_past_one_word_verify_and_forgeries_are_caught() {
        // Seven pegs on the 9x9 square (81 holes, two words) cannot come down to one: neither
        // classes nor one pagoda function show it, a closed set of 63 positions does.
        let pegs = [(2, 5), (3, 2), (3, 4), (4, 2), (4, 4), (4, 5), (4, 6)];
        let mut text = String::from("lattice: orthogonal\ncolumns: exact\n");
        for r in 0..9 {
            let row: String = (0..9)
                .map(|c| if pegs.contains(&(r, c)) { 'o' } else { '.' })
                .collect();
            text.push_str(&row);
            text.push('\n');
        }
        let b = Board::from_shape(&crate::Shape::parse("seven", &text).unwrap()).unwrap();
        assert_eq!(b.words(), 2);
        let p = Problem::new(&b, b.start().unwrap(), Finish::AnyOne).unwrap();
        assert!(refute(&p).is_none());
        let Ok(Certificate::Search(proof)) = prove(&p, &Limits::default()) else {
            panic!("a search certificate")
        };
        assert!(proof.positions.len() > 10 && proof.positions.words() == 2);
        assert!(Certificate::Search(proof.clone()).verify(&p));
        let forged = |f: &dyn Fn(&mut SearchProof)| {
            let mut c = proof.clone();
            f(&mut c);
            Certificate::Search(c).verify(&p)
        };
        // The last member dropped: its parent's child is no longer in the set.
        assert!(!forged(&|c| {
            let mut kept = Positions::new::<[u64; 2]>();
            let n = c.positions.len();
            for q in c.positions.iter::<[u64; 2]>().take(n - 1) {
                kept.push(q);
            }
            c.positions = kept;
        }));
        // The same members stored in one word (holes past 64 lost) or four.
        for words in [1, 4] {
            assert!(!forged(&|c| {
                let mut other = if words == 1 {
                    Positions::new::<u64>()
                } else {
                    Positions::new::<[u64; 4]>()
                };
                for q in c.positions.iter::<[u64; 4]>() {
                    if words == 1 {
                        other.push(q.resize::<u64>());
                    } else {
                        other.push(q);
                    }
                }
                c.positions = other;
            }));
        }
        // A "symmetry" that swaps two holes is no automorphism of the board.
        assert!(!forged(&|c| {
            let mut perm: Vec<Hole> = b.each_hole().collect();
            perm.swap(0, 1);
            c.symmetries.push(perm);
        }));
        // A dual set for a problem of many finishes.
        assert!(!forged(&|c| c.dual = !c.dual));
        // Another start: the set does not hold it.
        let other = p
            .from_start(
                b.start::<[u64; 4]>()
                    .unwrap()
                    .without(b.hole("f3").unwrap()),
            )
            .unwrap();
        assert!(!Certificate::Search(proof.clone()).verify(&other));
    }
}
