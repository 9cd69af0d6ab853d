//! Pagoda cuts for the count: positions that can no longer reach any finish.

use crate::layout::Layout;
use crate::pagoda::Pagoda;
use crate::problem::Problem;

/// Most pagoda functions a [`Cut`] evaluates per child.
pub(super) const MAX_CUTS: usize = 4;

/// Pagoda functions that cut positions which cannot reach any finish (their total is below
/// every finish's, and a pagoda total never rises), as byte tables: a total is eight lookups.
pub(crate) struct Cut {
    pub(super) tables: Vec<[[i64; 256]; 8]>,
    pub(super) floors: Vec<i64>,
}

impl Cut {
    /// The stock functions of the board plus one fitted by LP to each finish (up to eight),
    /// keeping the few with the least slack (start total over finish total): each costs
    /// eight lookups per child, and those are the ones that cut early. Its tables read keys
    /// of the board's [`Layout`], as a count keeps them.
    pub(crate) fn new(problem: &Problem, layout: &Layout) -> Cut {
        let board = problem.board();
        let targets: &[crate::Bits] = &problem.targets();
        let mut functions = Pagoda::library(board);
        if targets.len() <= 8 {
            functions.extend(
                targets
                    .iter()
                    .filter_map(|&t| Pagoda::fit(board, problem.start(), t)),
            );
        }
        let floor_of = |f: &Pagoda| targets.iter().map(|&t| f.total(t)).min().unwrap_or(0);
        let mut ranked: Vec<(f64, Pagoda)> = functions
            .into_iter()
            .filter(|f| f.can_cut(targets))
            .map(|f| (f.room(problem.start(), targets), f))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked.truncate(MAX_CUTS);
        let mut cut = Cut {
            tables: Vec::new(),
            floors: Vec::new(),
        };
        for (_, f) in ranked {
            let mut table = [[0i64; 256]; 8];
            for (byte, row) in table.iter_mut().enumerate() {
                for (value, total) in row.iter_mut().enumerate() {
                    *total = f.total(layout.bits((value as u64) << (8 * byte)));
                }
            }
            cut.floors.push(floor_of(&f));
            cut.tables.push(table);
        }
        cut
    }

    /// Whether `key` may still reach a finish as far as these functions tell.
    #[inline]
    pub(crate) fn keeps(&self, key: u64) -> bool {
        self.tables.iter().zip(&self.floors).all(|(t, &floor)| {
            let total: i64 = (0..8).map(|b| t[b][(key >> (8 * b)) as usize & 0xff]).sum();
            total >= floor
        })
    }
}
