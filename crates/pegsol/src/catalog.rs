//! The single-vacancy catalog of a board, as George Bell publishes them: for every starting
//! vacancy (one per symmetry class) and every single-peg finish (one per class under the
//! symmetries that keep the vacancy), whether one peg can end there.
//!
//! A pair (vacancy, finish) stands for its whole orbit under the board's group: the image of a
//! solution under a symmetry solves the image problem. So each representative pair is solved
//! once, and counted `equivalent` times in the summary, which is over all `holes^2` pairs.
//! Pairs in different position classes are impossible without a search. The others get a
//! signed pagoda function if one refutes them, else go to [`crate::solve`] (the portfolio)
//! under the given limits; what it cannot solve goes to [`crate::check::prove`] for a search
//! certificate, so that every impossible answer carries a proof.

use crate::bitset::{Hole, Pegs};
use crate::board::Board;
use crate::check::{decide, Certificate, Decision};
use crate::error::Result;
use crate::problem::{Finish, Limits, Outcome, Problem, Reason, Stats};

/// Which finishes a catalog takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finishes {
    /// Every single hole, one problem each.
    Single,
    /// One peg anywhere, one problem per vacancy.
    Any,
}

/// One representative problem of a catalog.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The starting vacancy.
    pub empty: Hole,
    /// The finish hole, or `None` for one peg anywhere.
    pub finish: Option<Hole>,
    /// Every finish hole the symmetries keeping the vacancy map `finish` to (it first).
    pub finish_class: Vec<Hole>,
    /// How many (vacancy, finish) pairs this one stands for, its own included.
    pub equivalent: u64,
    /// The answer (a solution is replayed by the solver's checker).
    pub outcome: Outcome,
    /// The proof of an impossible answer, other than a difference of position class.
    pub certificate: Option<Certificate>,
    /// The search effort.
    pub stats: Stats,
}

/// A class of vacancies under the board's symmetries.
#[derive(Clone, Debug)]
pub struct Vacancy {
    /// The representative: the first member in hole order.
    pub hole: Hole,
    /// Every vacancy of the class, the representative first.
    pub members: Vec<Hole>,
}

/// The whole catalog.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The vacancy classes, in hole order of their representatives.
    pub vacancies: Vec<Vacancy>,
    /// The representative problems, vacancy by vacancy, finishes in hole order.
    pub entries: Vec<Entry>,
}

/// Counts over all pairs, symmetry expanded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Every (vacancy, finish) pair: holes squared for single finishes, holes for any.
    pub pairs: u64,
    /// Pairs with a solution.
    pub solvable: u64,
    /// Pairs proved impossible.
    pub impossible: u64,
    /// Pairs not decided within the budget.
    pub undecided: u64,
}

impl Catalog {
    /// The counts over all pairs.
    #[must_use]
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for e in &self.entries {
            s.pairs += e.equivalent;
            match e.outcome {
                Outcome::Solved { .. } => s.solvable += e.equivalent,
                Outcome::Impossible(_) => s.impossible += e.equivalent,
                Outcome::Undecided(_) => s.undecided += e.equivalent,
            }
        }
        s
    }

    /// The entries of one vacancy class.
    pub fn of(&self, vacancy: Hole) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.empty == vacancy)
    }
}

/// The orbits of `items` under the group elements `group` acting by `act`, each orbit in
/// item order (its first member the representative).
fn orbits(items: &[Hole], group: &[usize], act: impl Fn(usize, Hole) -> Hole) -> Vec<Vec<Hole>> {
    let mut done: Pegs = Pegs::EMPTY;
    let mut out = Vec::new();
    for &h in items {
        if done.contains(h) {
            continue;
        }
        let mut orbit: Vec<Hole> = group.iter().map(|&g| act(g, h)).collect();
        orbit.sort_unstable();
        orbit.dedup();
        done = orbit.iter().fold(done, |d, &x| d.with(x));
        out.push(orbit);
    }
    out
}

/// A representative problem before it is solved.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The vacancy.
    pub empty: Hole,
    /// The finish hole, or `None` for any.
    pub finish: Option<Hole>,
    /// The finish holes it stands for under the vacancy's symmetries.
    pub finish_class: Vec<Hole>,
    /// The pairs it stands for.
    pub equivalent: u64,
}

/// The problems of a catalog, before solving: each vacancy class with its representative
/// finishes and how many pairs each stands for.
#[must_use]
pub fn problems(board: &Board, finishes: Finishes) -> (Vec<Vacancy>, Vec<Pair>) {
    let sym = board.symmetries();
    let all: Vec<usize> = (0..sym.len()).collect();
    let holes: Vec<Hole> = board.each_hole().collect();
    let mut vacancies = Vec::new();
    let mut list = Vec::new();
    for members in orbits(&holes, &all, |g, h| sym.map_hole(g, h)) {
        let v = members[0];
        match finishes {
            Finishes::Any => list.push(Pair {
                empty: v,
                finish: None,
                finish_class: Vec::new(),
                equivalent: members.len() as u64,
            }),
            Finishes::Single => {
                let stabilizer: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|&g| sym.map_hole(g, v) == v)
                    .collect();
                for finish_class in orbits(&holes, &stabilizer, |g, h| sym.map_hole(g, h)) {
                    list.push(Pair {
                        empty: v,
                        finish: Some(finish_class[0]),
                        equivalent: (members.len() * finish_class.len()) as u64,
                        finish_class,
                    });
                }
            }
        }
        vacancies.push(Vacancy { hole: v, members });
    }
    (vacancies, list)
}

/// The catalog of `board`, each problem under `limits`; `progress` is called after each
/// problem with the number done and the number in all.
///
/// # Errors
///
/// [`crate::Error::Internal`] if a solution found fails its replay (a bug).
pub fn catalog(
    board: &std::sync::Arc<Board>,
    finishes: Finishes,
    limits: &Limits,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Catalog> {
    let (vacancies, list) = problems(board, finishes);
    let total = list.len();
    let classes = board.classes();
    let mut entries = Vec::with_capacity(list.len());
    for (k, p) in list.into_iter().enumerate() {
        let (empty, finish) = (p.empty, p.finish);
        let start: Pegs = board.holes().without(empty);
        let goal = finish.map_or(Finish::AnyOne, |f| Finish::Holes(Pegs::single(f)));
        let Decision {
            outcome,
            certificate,
            stats,
        } = match (finish, Problem::new(board.clone(), start, goal)) {
            // Different position classes: no search needed.
            (Some(f), _) if classes.class_of_hole(f) != classes.class_of(start) => Decision {
                outcome: Outcome::Impossible(Reason::Class),
                certificate: None,
                stats: Stats::default(),
            },
            (_, Ok(problem)) => decide(&problem, limits)?,
            // A one-hole board: its start has no peg.
            (_, Err(_)) => Decision {
                outcome: Outcome::Impossible(Reason::Class),
                certificate: None,
                stats: Stats::default(),
            },
        };
        entries.push(Entry {
            empty,
            finish,
            finish_class: p.finish_class,
            equivalent: p.equivalent,
            outcome,
            certificate,
            stats,
        });
        progress(k + 1, total);
    }
    Ok(Catalog { vacancies, entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_cover_every_vacancy_and_finish_once() {
        for name in [
            "english",
            "french",
            "triangle:5",
            "rect:3x4",
            "wiegleb",
            "triangle:11",
            "hexagon:9",
            "rect:16x16",
        ] {
            let b = Board::builtin(name).unwrap();
            let n = b.hole_count() as u64;
            let (vacancies, list) = problems(&b, Finishes::Single);
            assert_eq!(
                list.iter().map(|p| p.equivalent).sum::<u64>(),
                n * n,
                "{name}"
            );
            let members: usize = vacancies.iter().map(|v| v.members.len()).sum();
            assert_eq!(members as u64, n, "{name}");
            let (_, any) = problems(&b, Finishes::Any);
            assert_eq!(any.iter().map(|p| p.equivalent).sum::<u64>(), n, "{name}");
        }
    }

    #[test]
    fn the_english_catalog_is_known() {
        // Of the 1,089 pairs, the 125 that pass the class test are all solvable.
        let b = std::sync::Arc::new(Board::builtin("english").unwrap());
        let c = catalog(&b, Finishes::Single, &Limits::default(), &|_, _| {}).unwrap();
        let s = c.summary();
        assert_eq!(
            s,
            Summary {
                pairs: 1089,
                solvable: 125,
                impossible: 964,
                undecided: 0
            }
        );
        assert_eq!(c.vacancies.len(), 7);
    }
}
