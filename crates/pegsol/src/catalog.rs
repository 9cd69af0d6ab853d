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
//! certificate, so that every impossible answer carries a proof. What neither decides is
//! counted exhaustively ([`count_solutions_with`]: the meeting in the middle, or the whole
//! count on disk where a spill directory is given): no solution is an impossible answer whose
//! reason is that count ([`Reason::Counted`]; no certificate is left to check), and a
//! solvable one gets a line through its winning set ([`WinningSet::line`]), replayed.

use std::time::Instant;

use crate::bitset::{Hole, Pegs};
use crate::board::Board;
use crate::check::{decide, Certificate, Decision};
use crate::count::{count_solutions_with, count_with, winnable, CountError, CountOptions};
use crate::error::{Error, Result};
use crate::fewest::WinningSet;
use crate::problem::{Finish, Limits, Outcome, Problem, Reason, Stats};
use crate::search::verified;

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
    /// The representative pair `(vacancy, finish)` of the dual problem this one was decided
    /// from (its solution reversed, or its impossibility), where it was.
    pub dual: Option<(Hole, Hole)>,
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

/// The catalog of `board`, each problem under `limits`, and each that search and proof
/// leave undecided counted exhaustively under the same memory budget for as long again
/// ([`catalog_with`]); `progress` is called after each problem with the number done and the
/// number in all.
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
    let count = CountOptions {
        max_memory: limits.max_memory,
        timeout: limits.timeout,
        cancel: limits.cancel.clone(),
        ..CountOptions::default()
    };
    catalog_with(board, finishes, limits, Some(&count), progress)
}

/// [`catalog`] with the exhaustive count's budget given apart: `count` bounds the count of
/// each problem that search and proof leave undecided (its `timeout` is its own, on top of
/// the problem's; a `spill` directory lets the count go to disk), and `None` skips it.
///
/// # Errors
///
/// [`crate::Error::Internal`] if a solution found fails its replay (a bug);
/// [`crate::Error::Io`] if the count's spill directory fails.
pub fn catalog_with(
    board: &std::sync::Arc<Board>,
    finishes: Finishes,
    limits: &Limits,
    count: Option<&CountOptions>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Catalog> {
    let (vacancies, list) = problems(board, finishes);
    let pairs = list.len();
    let classes = board.classes();
    let mut entries = Vec::with_capacity(list.len());
    let mut problems = Vec::with_capacity(list.len());
    // Search and proof first, for every pair: what they decide may settle a dual below.
    for (k, p) in list.into_iter().enumerate() {
        let (empty, finish) = (p.empty, p.finish);
        let start: Pegs = board.holes().without(empty);
        let goal = finish.map_or(Finish::AnyOne, |f| Finish::Holes(Pegs::single(f)));
        let problem = Problem::new(board.clone(), start, goal).ok();
        let Decision {
            outcome,
            certificate,
            stats,
        } = match (finish, &problem) {
            // Different position classes: no search needed.
            (Some(f), _) if classes.class_of_hole(f) != classes.class_of(start) => Decision {
                outcome: Outcome::Impossible(Reason::Class),
                certificate: None,
                stats: Stats::default(),
            },
            (_, Some(problem)) => decide(problem, limits)?,
            // A one-hole board: its start has no peg.
            (_, None) => Decision {
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
            dual: None,
        });
        problems.push(problem);
        progress(k + 1, pairs);
    }
    // Then what is left: by its dual where that is decided, else by an exhaustive count.
    let open: Vec<usize> = (0..entries.len())
        .filter(|&i| matches!(entries[i].outcome, Outcome::Undecided(_)))
        .collect();
    let total = entries.len() + open.len();
    for (k, &i) in open.iter().enumerate() {
        if matches!(entries[i].outcome, Outcome::Undecided(_)) {
            if let Some(decided) = by_dual(board, &entries, i)? {
                entries[i] = decided;
            } else if let (Some(options), Some(problem)) = (count, &problems[i]) {
                if let Some(d) = decide_by_count(problem, options)? {
                    let e = &mut entries[i];
                    (e.outcome, e.certificate, e.stats) = (d.outcome, d.certificate, d.stats);
                }
            }
        }
        progress(entries.len() + k + 1, total);
    }
    Ok(Catalog { vacancies, entries })
}

/// Entry `i` decided from its dual problem, where that one is decided: the problem from
/// vacancy `f` to one peg on `v` is the dual of the one from vacancy `v` to one peg on `f`
/// (a position's complement played backwards: a jump taking `P` to `Q` also takes the
/// complement of `Q` to that of `P`), so a solution of either, its jumps in reverse order,
/// solves the other, and either is impossible exactly when the other is. The dual's
/// representative entry is reached by a symmetry `g` taking it onto `(f, v)`; a line is
/// mapped by `g`, reversed and replayed. `None` where the entry is not one finish hole, is
/// its own dual, or its dual is undecided too.
fn by_dual(board: &std::sync::Arc<Board>, entries: &[Entry], i: usize) -> Result<Option<Entry>> {
    let e = &entries[i];
    let Some(f) = e.finish else {
        return Ok(None);
    };
    let sym = board.symmetries();
    // The representative (r, s) and the symmetry taking it onto the dual (f, e.empty).
    let found = entries.iter().enumerate().find_map(|(j, d)| {
        let s = d.finish?;
        (0..sym.len())
            .find(|&g| sym.map_hole(g, d.empty) == f && sym.map_hole(g, s) == e.empty)
            .map(|g| (j, g))
    });
    let Some((j, g)) = found else {
        return Err(Error::Internal("a catalog pair without its dual"));
    };
    let d = &entries[j];
    if j == i {
        return Ok(None);
    }
    let outcome = match &d.outcome {
        Outcome::Undecided(_) => return Ok(None),
        Outcome::Impossible(reason) => Outcome::Impossible(*reason),
        Outcome::Solved { jumps, .. } => {
            let mut line = Vec::with_capacity(jumps.len());
            for j in jumps.iter().rev() {
                let (from, to) = (sym.map_hole(g, j.from()), sym.map_hole(g, j.to()));
                line.push(
                    board
                        .jump_between(from, to)
                        .ok_or(Error::Internal("a symmetry that maps a jump off the board"))?,
                );
            }
            let problem = Problem::new(
                board.clone(),
                board.holes().without(e.empty),
                Finish::Holes(Pegs::single(f)),
            )?;
            verified::<[u64; 4]>(&problem, &problem.targets(), line)?
        }
    };
    Ok(Some(Entry {
        outcome,
        certificate: None,
        stats: Stats::default(),
        dual: Some((d.empty, d.finish.unwrap_or(f))),
        ..e.clone()
    }))
}

/// Decides `problem` by counting what can be won within `options`, as a catalog does where
/// search and proof leave a problem undecided: no solution makes it impossible
/// ([`Reason::Counted`]); solutions make it solved by a line through the winning set,
/// replayed. `None` when the count, or the winning set a line is read from, does not fit
/// the budget. For one finish position, whether it can be won at all is asked first
/// ([`winnable`]: the meeting in the middle on keys alone, the leanest of the counts, so
/// the one that settles the largest problems); where it can, the line comes from
/// [`count_solutions_with`] and the winning set. For several finish positions, the whole
/// count cut by pagoda functions ([`count_with`]). None of them drops a winning position.
///
/// ```
/// use pegsol::{catalog::decide_by_count, count::CountOptions, Board, Finish, Outcome, Problem, Reason};
/// let b = Board::builtin("triangle5").unwrap();
/// let start = b.holes().without(b.hole("a1").unwrap());
/// let at = |h| Finish::Holes(b.hole(h).unwrap().bit());
/// let options = CountOptions::default();
/// let solved = decide_by_count(&Problem::new(&b, start, at("a1")).unwrap(), &options).unwrap();
/// assert!(matches!(solved.unwrap().outcome, Outcome::Solved { .. }));
/// let refuted = decide_by_count(&Problem::new(&b, start, at("b2")).unwrap(), &options).unwrap();
/// assert_eq!(refuted.unwrap().outcome, Outcome::Impossible(Reason::Counted));
/// ```
///
/// # Errors
///
/// [`Error::Internal`] when a line fails its replay (a bug), [`Error::CountOverflow`] or
/// [`Error::Io`] as the count gives them.
pub fn decide_by_count(problem: &Problem, options: &CountOptions) -> Result<Option<Decision>> {
    let began = Instant::now();
    let stats = || Stats {
        millis: began.elapsed().as_millis() as u64,
        ..Stats::default()
    };
    let failed = |e: CountError| match e {
        CountError::Memory { .. } | CountError::Timeout => Ok(None),
        CountError::Overflow => Err(Error::CountOverflow),
        CountError::Io(e) | CountError::Cluster(e) => Err(Error::Io(e)),
        CountError::Internal(what) => Err(Error::Internal(what)),
    };
    let limits = || Limits {
        max_memory: options.max_memory,
        timeout: options.timeout.map(|t| t.saturating_sub(began.elapsed())),
        cancel: options.cancel.clone(),
    };
    let impossible = |stats| {
        Ok(Some(Decision {
            outcome: Outcome::Impossible(Reason::Counted),
            certificate: None,
            stats,
        }))
    };
    match winnable(problem, &limits()) {
        Ok(Some(false)) => return impossible(stats()),
        // Won: a line from the full methods. Too large for memory here: the full methods
        // may still spill to disk.
        Ok(Some(true) | None) | Err(CountError::Memory { .. }) => {}
        Err(e) => return failed(e),
    }
    let options = &CountOptions {
        timeout: limits().timeout,
        ..options.clone()
    };
    if options.timeout.is_some_and(|t| t.is_zero()) {
        return Ok(None);
    }
    let solutions = match count_solutions_with(problem, options, &|_| {}) {
        Ok(Some(s)) => Ok(s.solutions),
        // More than one finish position (one peg anywhere): the whole count, cut.
        Ok(None) => count_with(
            problem,
            &CountOptions {
                pagoda: true,
                ..options.clone()
            },
            &|_| {},
        )
        .map(|c| c.solutions),
        Err(e) => Err(e),
    };
    let solutions = match solutions {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    if solutions == 0 {
        return impossible(stats());
    }
    let Some(set) = WinningSet::of(problem, &limits())? else {
        return Ok(None);
    };
    let jumps = set.line().ok_or(Error::Internal(
        "a count with solutions found no winning line",
    ))?;
    Ok(Some(Decision {
        outcome: verified::<[u64; 4]>(problem, &problem.targets(), jumps)?,
        certificate: None,
        stats: stats(),
    }))
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
    fn a_pair_decided_by_its_dual_agrees_with_its_own_answer() {
        // Every decided pair of whole catalogs, set undecided and decided again from its dual
        // alone: the same status, and a line (mapped, reversed) that replays to the finish.
        let (mut solved, mut impossible) = (0, 0);
        for name in [
            "triangle:5",
            "triangle:6",
            "hexagon:3",
            "hexagon:4",
            "english",
        ] {
            let b = std::sync::Arc::new(Board::builtin(name).unwrap());
            let c =
                catalog_with(&b, Finishes::Single, &Limits::default(), None, &|_, _| {}).unwrap();
            for i in 0..c.entries.len() {
                let mut entries = c.entries.clone();
                let own = std::mem::replace(
                    &mut entries[i].outcome,
                    Outcome::Undecided(crate::problem::Budget::Time),
                );
                let Some(d) = by_dual(&b, &entries, i).unwrap() else {
                    continue;
                };
                let e = &c.entries[i];
                match (&own, &d.outcome) {
                    (Outcome::Solved { .. }, Outcome::Solved { jumps, finish }) => {
                        let end =
                            crate::replay(&b, b.holes::<u64>().without(e.empty), jumps).unwrap();
                        assert_eq!(end.resize(), *finish);
                        assert_eq!(Some(*finish), e.finish.map(Pegs::single));
                        solved += 1;
                    }
                    (Outcome::Impossible(r), Outcome::Impossible(_)) => {
                        impossible += usize::from(*r != Reason::Class);
                    }
                    (own, dual) => {
                        panic!("{name} {:?}: {own:?} but its dual gives {dual:?}", e.empty)
                    }
                }
                assert!(d.dual.is_some() && d.certificate.is_none());
            }
        }
        // Impossible past the class test: triangle:5's and hexagon:3's certificates.
        assert!(solved >= 50 && impossible >= 8, "{solved} {impossible}");
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
