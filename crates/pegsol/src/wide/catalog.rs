//! Tables of problems on wide boards: the end holes of one start, and the catalog of every
//! single vacancy, each up to the board's symmetries.

use std::time::Instant;

use super::{solve_wide, WideFinish, WideLimits, WideOutcome};
use crate::bitset::Hole;
use crate::bitset::Pegs;
use crate::board::Board;
use crate::error::Result;
use crate::problem::Reason;

/// One problem of a table, standing for `equivalent` (vacancy, finish) pairs.
#[derive(Clone, Debug)]
pub struct WideEntry {
    /// The starting vacancy (for [`ends_wide`], the lowest empty hole).
    pub empty: usize,
    /// The finish hole, or `None` for one peg anywhere.
    pub finish: Option<usize>,
    /// The finish holes this entry answers for (its orbit under the start's symmetries).
    pub finish_class: Vec<usize>,
    /// How many (vacancy, finish) pairs of the whole board it stands for.
    pub equivalent: u64,
    /// The answer.
    pub outcome: WideOutcome,
    /// Which member decided.
    pub engine: &'static str,
    /// Wall time in milliseconds.
    pub millis: u64,
}

/// A class of vacancies equivalent under the board's symmetries.
#[derive(Clone, Debug)]
pub struct WideVacancy {
    /// Its representative (the lowest hole).
    pub hole: usize,
    /// Every hole of the class.
    pub members: Vec<usize>,
}

/// Every single vacancy of a wide board, one problem per class of pairs.
#[derive(Clone, Debug)]
pub struct WideCatalog {
    /// The vacancy classes.
    pub vacancies: Vec<WideVacancy>,
    /// The problems, vacancy by vacancy.
    pub entries: Vec<WideEntry>,
}

/// The orbits of the holes under the symmetries `group` (indices into the board's list).
fn orbits(board: &Board, group: &[usize]) -> Vec<Vec<usize>> {
    let mut seen = Pegs::EMPTY;
    let mut out = Vec::new();
    for h in 0..board.hole_count() {
        if seen.contains(Hole::at(h)) {
            continue;
        }
        let mut orbit: Vec<usize> = group
            .iter()
            .map(|&g| {
                board
                    .symmetries()
                    .apply(g, Pegs::single(Hole::at(h)))
                    .iter()
                    .next()
                    .map_or(h, Hole::index)
            })
            .collect();
        orbit.sort_unstable();
        orbit.dedup();
        for &o in &orbit {
            seen = seen.with(Hole::at(o));
        }
        out.push(orbit);
    }
    out
}

/// The symmetries that map `set` onto itself.
fn stabilizer(board: &Board, set: Pegs) -> Vec<usize> {
    (0..board.symmetries().len())
        .filter(|&g| board.symmetries().apply(g, set) == set)
        .collect()
}

/// For a start, every hole the last peg could end on: one problem per orbit of finish holes
/// under the symmetries that keep the start (holes of another position class are refuted by
/// the class test at no cost). `each` is called after every problem with (done, total).
pub fn ends_wide(
    board: &Board,
    start: Pegs,
    limits: &WideLimits,
    each: &dyn Fn(usize, usize),
) -> Result<Vec<WideEntry>> {
    let empty = board
        .holes()
        .minus(start)
        .iter()
        .next()
        .map_or(0, Hole::index);
    let classes = orbits(board, &stabilizer(board, start));
    let mut entries = Vec::with_capacity(classes.len());
    for (k, class) in classes.iter().enumerate() {
        let finish = class[0];
        let began = Instant::now();
        let report = solve_wide(
            board,
            start,
            &WideFinish::Exactly(Pegs::single(Hole::at(finish))),
            limits,
        )?;
        entries.push(WideEntry {
            empty,
            finish: Some(finish),
            finish_class: class.clone(),
            equivalent: class.len() as u64,
            outcome: report.outcome,
            engine: report.engine,
            millis: began.elapsed().as_millis() as u64,
        });
        each(k + 1, classes.len());
    }
    Ok(entries)
}

/// The catalog of a wide board: for every class of single vacancies, either every finish
/// hole (`single`) or one peg anywhere. `each` is called after every problem with (done,
/// total so far known).
pub fn catalog_wide(
    board: &Board,
    single: bool,
    limits: &WideLimits,
    each: &dyn Fn(usize, usize),
) -> Result<WideCatalog> {
    let all: Vec<usize> = (0..board.symmetries().len()).collect();
    let vacancies: Vec<WideVacancy> = orbits(board, &all)
        .into_iter()
        .map(|members| WideVacancy {
            hole: members[0],
            members,
        })
        .collect();
    let mut entries = Vec::new();
    for (k, v) in vacancies.iter().enumerate() {
        let start = board.holes().without(Hole::at(v.hole));
        let weight = v.members.len() as u64;
        if single {
            let ends = ends_wide(board, start, limits, &|_, _| {})?;
            entries.extend(ends.into_iter().map(|mut e| {
                e.equivalent *= weight;
                e
            }));
        } else {
            let began = Instant::now();
            let report = solve_wide(board, start, &WideFinish::Pegs(1), limits)?;
            entries.push(WideEntry {
                empty: v.hole,
                finish: None,
                finish_class: Vec::new(),
                equivalent: weight,
                outcome: report.outcome,
                engine: report.engine,
                millis: began.elapsed().as_millis() as u64,
            });
        }
        each(k + 1, vacancies.len());
    }
    Ok(WideCatalog { vacancies, entries })
}

impl WideCatalog {
    /// (pairs, solvable, impossible, impossible by class, undecided), in pairs.
    #[must_use]
    pub fn summary(&self) -> (u64, u64, u64, u64, u64) {
        let mut s = (0, 0, 0, 0, 0);
        for e in &self.entries {
            s.0 += e.equivalent;
            match e.outcome {
                WideOutcome::Solved { .. } => s.1 += e.equivalent,
                WideOutcome::Impossible(r) => {
                    s.2 += e.equivalent;
                    if r == Reason::Class {
                        s.3 += e.equivalent;
                    }
                }
                WideOutcome::Undecided(_) => s.4 += e.equivalent,
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_catalog_of_the_15_hole_triangle_matches_the_narrow_one() {
        // 15 holes fit one word: both catalogs run, and must agree pair for pair.
        let wide = Board::builtin("triangle:5").unwrap();
        let c = catalog_wide(&wide, true, &WideLimits::default(), &|_, _| {}).unwrap();
        let narrow = std::sync::Arc::new(crate::Board::builtin("triangle:5").unwrap());
        let n = crate::catalog::catalog(
            &narrow,
            crate::catalog::Finishes::Single,
            &crate::Limits::default(),
            &|_, _| {},
        )
        .unwrap();
        let ns = n.summary();
        let (pairs, solvable, impossible, _, undecided) = c.summary();
        assert_eq!(pairs, 15 * 15);
        assert_eq!(
            (pairs, solvable, impossible),
            (ns.pairs, ns.solvable, ns.impossible)
        );
        assert_eq!(undecided, 0);
        assert_eq!(c.vacancies.len(), n.vacancies.len());
        for e in &c.entries {
            if let WideOutcome::Solved { jumps, finish } = &e.outcome {
                let start = wide.holes().without(Hole::at(e.empty));
                assert_eq!(crate::replay::replay(&wide, start, jumps).unwrap(), *finish);
                assert_eq!(finish.iter().next().map(Hole::index), e.finish);
            }
        }
    }
}
