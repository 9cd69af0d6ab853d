//! Pagoda cuts for the count: positions that can no longer reach any finish.

use crate::bitset::Bits;
use crate::key::CountKey;
use crate::layout::Layout;
use crate::pagoda::Pagoda;
use crate::problem::{Finish, Problem};

/// Most pagoda functions a [`Cut`] evaluates per child.
pub(super) const MAX_CUTS: usize = 4;

/// Pagoda functions that cut positions which cannot reach any finish (their total is below
/// every finish's, and a pagoda total never rises), as byte tables: a total is eight lookups
/// a word of the key, whose width `K` the cut is built for.
pub(crate) struct Cut<K> {
    /// Function `f`'s tables for word `w` of a key: `tables[f * K::WORDS + w]`.
    pub(super) tables: Vec<[[i64; 256]; 8]>,
    /// Each function's least total that may still reach a finish; past the last function,
    /// the least total there is, which every position keeps.
    floors: [i64; MAX_CUTS],
    /// What each jump slot of the layout adds to each function's total (the landing hole's
    /// weight less the other two's), so that a child's totals are its parent's plus one
    /// lookup each ([`Cut::keeps_child`]); functions past the last add nothing.
    steps: Vec<[i64; MAX_CUTS]>,
    key: std::marker::PhantomData<K>,
}

/// The totals of a position under each function of a [`Cut`] (0 past the last).
pub(crate) type Totals = [i64; MAX_CUTS];

impl<K: CountKey> Cut<K> {
    /// The stock functions of the board plus one fitted by LP to each finish (up to eight),
    /// keeping the few with the least slack (start total over finish total): each costs
    /// eight lookups per child, and those are the ones that cut early; where the finish is
    /// one position, its [`Pagoda::pruning`] function first. Its tables read keys of the
    /// board's [`Layout`], as a count keeps them.
    pub(crate) fn new(problem: &Problem, layout: &Layout<K>) -> Cut<K> {
        Cut::for_targets(problem, &problem.targets(), layout)
    }

    /// [`Cut::new`] for the finishes `targets` in place of the problem's own (a subset of
    /// them that the start can reach, say: its position class's).
    pub(crate) fn for_targets(
        problem: &Problem,
        targets: &[crate::Pegs],
        layout: &Layout<K>,
    ) -> Cut<K> {
        let board = problem.board();
        let mut functions = Pagoda::library(board);
        if targets.len() <= 8 {
            functions.extend(
                targets
                    .iter()
                    .filter_map(|&t| Pagoda::fit(board, problem.start(), t)),
            );
        }
        let mut ranked: Vec<(f64, Pagoda)> = functions
            .into_iter()
            .filter(|f| f.can_cut(targets))
            .map(|f| (f.room(problem.start(), targets), f))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The function fitted to cut (one finish) first: least slack is not most cut.
        let pruning = match targets {
            [finish] => Pagoda::pruning(board, *finish).filter(|f| f.can_cut(targets)),
            _ => None,
        };
        ranked.truncate(MAX_CUTS - usize::from(pruning.is_some()));
        Cut::of(
            pruning
                .into_iter()
                .chain(ranked.into_iter().map(|(_, f)| f)),
            targets,
            layout,
        )
    }

    /// The [`Pagoda::pruning`] function of the one finish of `problem` alone: one function,
    /// eight lookups per key, fitted to cut the middle levels of a meeting. `None` where the
    /// finish is not one position, or the function cuts nothing.
    pub(crate) fn pruning(problem: &Problem, layout: &Layout<K>) -> Option<Cut<K>> {
        let targets: &[crate::Pegs] = &problem.targets();
        let [finish] = targets[..] else {
            return None;
        };
        let f = Pagoda::pruning(problem.board(), finish).filter(|f| f.can_cut(targets))?;
        Some(Cut::of([f], targets, layout))
    }

    /// [`Cut::pruning`] for the dual game of `problem`, whose finish is the one position
    /// `finish`: the game from the finish's complement to the start's.
    pub(crate) fn dual_pruning(
        problem: &Problem,
        finish: Bits<K>,
        layout: &Layout<K>,
    ) -> Option<Cut<K>> {
        Cut::pruning(&dual_problem(problem, finish)?, layout)
    }

    /// [`Cut::new`] for the dual game of `problem`, whose finish is the one position
    /// `finish` (see [`Cut::dual_pruning`]).
    pub(crate) fn dual(problem: &Problem, finish: Bits<K>, layout: &Layout<K>) -> Option<Cut<K>> {
        Some(Cut::new(&dual_problem(problem, finish)?, layout))
    }

    /// The cut by `functions`, each below its least total over `targets`.
    fn of(
        functions: impl IntoIterator<Item = Pagoda>,
        targets: &[crate::Pegs],
        layout: &Layout<K>,
    ) -> Cut<K> {
        let floor_of = |f: &Pagoda| targets.iter().map(|&t| f.total(t)).min().unwrap_or(0);
        let mut cut = Cut {
            tables: Vec::new(),
            floors: [i64::MIN; MAX_CUTS],
            steps: Vec::new(),
            key: std::marker::PhantomData,
        };
        for (n, f) in functions.into_iter().enumerate() {
            assert!(n < MAX_CUTS, "at most {MAX_CUTS} pagoda functions");
            for word in 0..K::WORDS {
                let mut table = [[0i64; 256]; 8];
                for (byte, row) in table.iter_mut().enumerate() {
                    for (value, total) in row.iter_mut().enumerate() {
                        let mut key = K::ZERO;
                        *key.word_mut(word) = (value as u64) << (8 * byte);
                        *total = f.total(layout.bits(key));
                    }
                }
                cut.tables.push(table);
            }
            cut.floors[n] = floor_of(&f);
        }
        cut.steps = (0..layout.slots())
            .map(|i| {
                let to = layout.slot_landing(i);
                let others = layout.slot_holes(i).and_not(to);
                let (up, down) = (cut.totals(to), cut.totals(others));
                std::array::from_fn(|f| up[f] - down[f])
            })
            .collect();
        cut
    }

    /// Each function's total of `key` (0 past the last function).
    #[inline]
    pub(crate) fn totals(&self, key: K) -> Totals {
        let mut out = [0; MAX_CUTS];
        for (total, t) in out.iter_mut().zip(self.tables.chunks_exact(K::WORDS)) {
            for (w, t) in t.iter().enumerate() {
                let word = key.word(w);
                *total += (0..8)
                    .map(|b| t[b][(word >> (8 * b)) as usize & 0xff])
                    .sum::<i64>();
            }
        }
        out
    }

    /// [`Cut::keeps`] of the child that jump slot `slot` (of the layout the cut was built
    /// for) makes of a position whose [`totals`](Cut::totals) are `parent`: a jump takes
    /// its two pegs' weights off a total and adds its landing hole's.
    #[inline]
    pub(crate) fn keeps_child(&self, parent: &Totals, slot: usize) -> bool {
        let step = &self.steps[slot];
        let mut keeps = true;
        for f in 0..MAX_CUTS {
            keeps &= parent[f] + step[f] >= self.floors[f];
        }
        keeps
    }

    /// Whether `key` may still reach a finish as far as these functions tell.
    #[inline]
    pub(crate) fn keeps(&self, key: K) -> bool {
        let totals = self.totals(key);
        (0..MAX_CUTS).all(|f| totals[f] >= self.floors[f])
    }
}

/// The dual game of `problem`, whose finish is the one position `finish`: from the finish's
/// complement to the start's.
fn dual_problem<K: CountKey>(problem: &Problem, finish: Bits<K>) -> Option<Problem> {
    let board = problem.shared_board().clone();
    let holes = board.holes::<K>();
    let start = holes.xor(finish).resize();
    let end = Finish::holes(holes.xor(problem.start::<K>()));
    Problem::new(board, start, end).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Pegs};

    /// A child's totals from its parent's and its jump's slot are the child's own, and so is
    /// the verdict, on grid, skewed-grid and dense layouts, for problems with a finish (the
    /// fitted function first) and without.
    #[test]
    fn a_childs_totals_come_from_its_parents() {
        let mut next = crate::testing::xorshift();
        let mut cut_some = 0;
        for (name, empty, finish) in [
            ("english", "d4", Some("d4")),
            ("diamond", "d2", Some("f8")),
            ("french", "c1", None),
            ("wiegleb", "e1", Some("e9")),
        ] {
            let b = Board::builtin(name).unwrap();
            let start: Pegs = b.holes().minus(b.hole_set(empty).unwrap());
            let finish = finish.map_or(Finish::AnyOne, |f| Finish::Holes(b.hole_set(f).unwrap()));
            let p = Problem::new(&b, start.resize(), finish).unwrap();
            for layout in [Layout::<u64>::of(&b), Layout::dense(&b)] {
                let cut = Cut::new(&p, &layout);
                assert!(!cut.tables.is_empty(), "{name}");
                for _ in 0..400 {
                    let pegs = next() & next() & layout.holes();
                    let totals = cut.totals(pegs);
                    layout.for_each_jump(pegs, |holes, slot| {
                        let child = pegs ^ holes;
                        let own = cut.totals(child);
                        let step = cut.steps[slot];
                        assert_eq!(own, std::array::from_fn(|f| totals[f] + step[f]), "{name}");
                        assert_eq!(cut.keeps_child(&totals, slot), cut.keeps(child), "{name}");
                        cut_some += usize::from(!cut.keeps(child));
                    });
                }
            }
        }
        assert!(cut_some > 100, "{cut_some} children cut");
    }
}
