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
    pub(super) floors: Vec<i64>,
    key: std::marker::PhantomData<K>,
}

impl<K: CountKey> Cut<K> {
    /// The stock functions of the board plus one fitted by LP to each finish (up to eight),
    /// keeping the few with the least slack (start total over finish total): each costs
    /// eight lookups per child, and those are the ones that cut early; where the finish is
    /// one position, its [`Pagoda::pruning`] function first. Its tables read keys of the
    /// board's [`Layout`], as a count keeps them.
    pub(crate) fn new(problem: &Problem, layout: &Layout<K>) -> Cut<K> {
        let board = problem.board();
        let targets: &[crate::Pegs] = &problem.targets();
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
            floors: Vec::new(),
            key: std::marker::PhantomData,
        };
        for f in functions {
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
            cut.floors.push(floor_of(&f));
        }
        cut
    }

    /// Whether `key` may still reach a finish as far as these functions tell.
    #[inline]
    pub(crate) fn keeps(&self, key: K) -> bool {
        self.tables
            .chunks_exact(K::WORDS)
            .zip(&self.floors)
            .all(|(t, &floor)| {
                let mut total = 0i64;
                for (w, t) in t.iter().enumerate() {
                    let word = key.word(w);
                    total += (0..8)
                        .map(|b| t[b][(word >> (8 * b)) as usize & 0xff])
                        .sum::<i64>();
                }
                total >= floor
            })
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
