//! The whole game of a start on a wide board, counted level by level: the figures of
//! [`crate::count`] (positions, classes, dead ends, paths, winning positions, solutions and
//! games) on positions of 1, 2 or 4 words.
//!
//! Every jump removes one peg, so the positions after `k` jumps form level `k`. Positions are
//! kept up to the symmetries that fix both the start and the finish, with the number of jump
//! sequences into each orbit: `T(R) = sum over parents P and jumps j from P's representative
//! with j(P) in R of T(P)`, since the members of an orbit have equally many continuations
//! into each other orbit. Counts are `u128` with checked additions. A backward pass over the
//! stored levels marks the representatives that can still reach the finish (a finish
//! position, or one with a child that can). Every level is kept in memory, sorted; a level
//! that would pass the memory budget ends the count with [`CountError::Memory`] (the 64-hole
//! count can spill to disk; this one cannot yet).

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use super::solve::{finish_targets, WideFinish};
use super::tables::{stabilizer, Build, Canon, Tables};
use super::{WideBoard, WidePegs, WideSet};
use crate::count::{Count, CountError, CountOptions, Level};
use crate::error::Result;

/// A count on a wide board: the figures of [`Count`] (whose own `finishes` stays empty), and
/// every finish position reached with its jump sequences.
#[derive(Clone, Debug, Default)]
pub struct WideCount {
    /// Levels, solutions, games and the group's order, as for 64 holes.
    pub count: Count,
    /// Every finish position reached, in increasing order, with the jump sequences from the
    /// start to it (they sum to `count.solutions`).
    pub finishes: Vec<(WidePegs, u128)>,
}

/// Counts the whole game from `start` on a wide board, with `finish` for the solutions and
/// the winning positions, within `options.max_memory` and `options.timeout` (`spill`,
/// `pagoda`, `grid` and `fold` are for 64 holes and ignored here). `progress` is called with
/// each level's forward figures as it is finished.
///
/// ```
/// use pegsol::{count_wide, WideBoard, WideFinish};
/// use pegsol::count::CountOptions;
/// let board = WideBoard::builtin("triangle:5")?;
/// let start = board.holes().without(board.hole("a1")?);
/// let c = count_wide(&board, start, &WideFinish::Pegs(1), &CountOptions::default(), &|_| {})?
///     .expect("it fits");
/// // The 15-hole triangle from its apex: 29,760 solutions (Bell).
/// assert_eq!(c.count.solutions, 29_760);
/// # Ok::<(), pegsol::Error>(())
/// ```
///
/// # Errors
///
/// The outer `Result`: a start or finish off the board, or not reachable by peg count. The
/// inner one: a budget ran out ([`CountError::Memory`], [`CountError::Timeout`]) or a count
/// passed `u128` ([`CountError::Overflow`]).
pub fn count_wide(
    board: &WideBoard,
    start: WidePegs,
    finish: &WideFinish,
    options: &CountOptions,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<std::result::Result<WideCount, CountError>> {
    let targets = finish_targets(board, start, finish, false)?;
    // Any k pegs is kept by every symmetry; an exact finish only by its own stabilizer.
    let group = stabilizer(board, &[&[start], &targets]);
    Ok(match board.words() {
        1 => Counter::<1>::new(board, &group, finish, options).run(start, progress),
        2 => Counter::<2>::new(board, &group, finish, options).run(start, progress),
        _ => Counter::<4>::new(board, &group, finish, options).run(start, progress),
    })
}

/// Parents per parallel chunk.
const CHUNK: usize = 1 << 14;

/// A thread's share of a chunk: the children with their paths, and the dead ends' positions
/// and paths.
type Part<const W: usize> = (Vec<(WideSet<W>, u128)>, u64, u128);

struct Counter<'o, const W: usize> {
    tables: Tables<W>,
    canon: Canon<W>,
    /// The exact finish, or the pegs of any finish.
    finish: Result<WideSet<W>, u32>,
    options: &'o CountOptions,
    began: Instant,
}

impl<'o, const W: usize> Counter<'o, W> {
    fn new(
        board: &WideBoard,
        group: &[usize],
        finish: &WideFinish,
        options: &'o CountOptions,
    ) -> Self {
        Counter {
            tables: Tables::new(board),
            canon: Canon::new(board, group),
            finish: match finish {
                WideFinish::Exactly(f) => Ok(f.resize()),
                WideFinish::Pegs(k) => Err(*k as u32),
            },
            options,
            began: Instant::now(),
        }
    }

    /// Whether `p` is a finish position (the same for every member of its orbit).
    fn is_finish(&self, p: &WideSet<W>) -> bool {
        match &self.finish {
            Ok(f) => p == f,
            Err(k) => p.count() == *k,
        }
    }

    fn run(
        &self,
        start: WidePegs,
        progress: &(dyn Fn(&Level) + Sync),
    ) -> std::result::Result<WideCount, CountError> {
        let entry = std::mem::size_of::<(WideSet<W>, u128)>();
        let start: WideSet<W> = start.resize();
        let mut stored: Vec<Vec<(WideSet<W>, u128)>> = vec![vec![(self.canon.canonical(start), 1)]];
        let mut held = entry;
        let mut levels: Vec<Level> = Vec::new();
        let mut c = Count {
            symmetries: self.canon.order(),
            ..Count::default()
        };
        let mut finishes: Vec<(WidePegs, u128)> = Vec::new();
        loop {
            let jumps = levels.len() as u32;
            let level = stored.last().expect("level 0 is stored");
            let mut figures = Level {
                jumps,
                pegs: level[0].0.count(),
                classes: level.len() as u64,
                ..Level::default()
            };
            for &(p, t) in level {
                figures.positions += self.canon.orbit_size(p);
                figures.paths = figures.paths.checked_add(t).ok_or(CountError::Overflow)?;
                if self.is_finish(&p) {
                    c.solutions = c.solutions.checked_add(t).ok_or(CountError::Overflow)?;
                    let members = self.canon.members(p);
                    let each = t / members.len() as u128;
                    finishes.extend(members.into_iter().map(|m| (m.resize(), each)));
                }
            }
            // The children, summed by orbit, chunk by chunk; a parent with none is a dead end.
            let mut next: HashMap<WideSet<W>, u128, Build> = HashMap::default();
            let mut overflow = false;
            for chunk in level.chunks(CHUNK) {
                if self
                    .options
                    .timeout
                    .is_some_and(|t| self.began.elapsed() > t)
                {
                    return Err(CountError::Timeout);
                }
                let parts: Vec<Part<W>> = chunk
                    .par_iter()
                    .fold(
                        || (Vec::new(), 0u64, 0u128),
                        |(mut out, mut dead, mut games), &(p, t)| {
                            let mut any = false;
                            self.tables.for_each_child(p, |_, child| {
                                any = true;
                                out.push((self.canon.canonical(child), t));
                            });
                            if !any {
                                dead += self.canon.orbit_size(p);
                                games = games.saturating_add(t);
                            }
                            (out, dead, games)
                        },
                    )
                    .collect();
                let incoming: usize = parts.iter().map(|p| p.0.len()).sum();
                // The table after these children (at 7/8 full, in a power of two of buckets),
                // the old buckets while it grows, the children buffered, and the sorted copy
                // the level becomes.
                let table = ((next.len() + incoming) * 8 / 7).next_power_of_two() * (entry + 1);
                let needed = held
                    + table
                    + next.capacity() * (entry + 1)
                    + incoming * entry
                    + (next.len() + incoming) * entry;
                // A quarter of the budget is left to the allocator's own overhead.
                if needed > self.options.max_memory / 4 * 3 {
                    return Err(CountError::Memory {
                        level: jumps + 1,
                        needed,
                    });
                }
                for (out, dead, games) in parts {
                    figures.dead_ends += dead;
                    c.games = c.games.checked_add(games).ok_or(CountError::Overflow)?;
                    overflow |= games == u128::MAX;
                    for (k, t) in out {
                        let slot = next.entry(k).or_insert(0);
                        match slot.checked_add(t) {
                            Some(sum) => *slot = sum,
                            None => overflow = true,
                        }
                    }
                }
            }
            if overflow {
                return Err(CountError::Overflow);
            }
            progress(&figures);
            levels.push(figures);
            if next.is_empty() {
                break;
            }
            let mut sorted: Vec<(WideSet<W>, u128)> = next.into_iter().collect();
            sorted.sort_unstable_by_key(|e| e.0);
            held += sorted.len() * entry;
            stored.push(sorted);
        }
        // Backward: a representative wins when it is a finish or has a child that wins.
        let mut wins_below: Vec<WideSet<W>> = Vec::new();
        for (k, level) in stored.iter().enumerate().rev() {
            let won: Vec<WideSet<W>> = level
                .par_iter()
                .filter(|(p, _)| {
                    self.is_finish(p) || {
                        let mut any = false;
                        self.tables.for_each_child(*p, |_, child| {
                            any = any
                                || wins_below
                                    .binary_search(&self.canon.canonical(child))
                                    .is_ok();
                        });
                        any
                    }
                })
                .map(|(p, _)| *p)
                .collect();
            levels[k].winning_classes = won.len() as u64;
            levels[k].winning = won.iter().map(|&p| self.canon.orbit_size(p)).sum();
            wins_below = won;
        }
        finishes.sort_unstable_by_key(|f| f.0);
        c.levels = levels;
        Ok(WideCount { count: c, finishes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Finish, Problem};

    /// Every figure of every level agrees with the 64-hole count, on every vacancy of small
    /// boards of each lattice, for a single-hole finish and one peg anywhere.
    #[test]
    fn agrees_with_the_narrow_count() {
        let pictures = [
            ("triangle:5", None),
            ("rect:4x4", None),
            ("hexagon:3", None),
            ("d", Some("lattice: diagonal\nooooo\nooooo\nooooo\n")),
        ];
        for (name, picture) in pictures {
            let narrow = match picture {
                Some(p) => Board::parse(name, p).unwrap(),
                None => Board::builtin(name).unwrap(),
            };
            let wide = match picture {
                Some(p) => WideBoard::parse(name, p).unwrap(),
                None => WideBoard::builtin(name).unwrap(),
            };
            for e in 0..wide.hole_count() {
                let start = wide.holes().without(e);
                let hole = crate::Hole::new(e).unwrap();
                let nstart = narrow.holes().without(hole);
                for (finish, nfinish) in [
                    (WideFinish::Pegs(1), Finish::AnyOne),
                    (
                        WideFinish::Exactly(WidePegs::bit(e)),
                        Finish::Holes(hole.bit()),
                    ),
                    (WideFinish::Pegs(2), Finish::Pegs(2)),
                ] {
                    let problem = Problem::new(&narrow, nstart, nfinish).unwrap();
                    let n = crate::count::count(&problem, usize::MAX, &|_| {}).unwrap();
                    let w = count_wide(&wide, start, &finish, &CountOptions::default(), &|_| {})
                        .unwrap()
                        .unwrap();
                    let what = format!("{name} vacancy {e} {finish:?}");
                    assert_eq!(w.count.levels, n.levels, "{what}");
                    assert_eq!(w.count.solutions, n.solutions, "{what}");
                    assert_eq!(w.count.games, n.games, "{what}");
                    assert_eq!(w.count.symmetries, n.symmetries, "{what}");
                    let wf: Vec<(Vec<usize>, u128)> = w
                        .finishes
                        .iter()
                        .map(|(p, t)| (p.iter().collect(), *t))
                        .collect();
                    let mut nf: Vec<(Vec<usize>, u128)> = n
                        .finishes
                        .iter()
                        .map(|(p, t)| (p.iter().map(crate::Hole::index).collect(), *t))
                        .collect();
                    nf.sort();
                    let mut wf = wf;
                    wf.sort();
                    assert_eq!(wf, nf, "{what}");
                }
            }
        }
    }

    #[test]
    fn budgets_end_the_count() {
        let board = WideBoard::builtin("triangle:11").unwrap();
        let start = board.holes().without(board.hole("a1").unwrap());
        let tight = CountOptions {
            max_memory: 1 << 20,
            ..CountOptions::default()
        };
        let r = count_wide(&board, start, &WideFinish::Pegs(1), &tight, &|_| {}).unwrap();
        assert!(matches!(r, Err(CountError::Memory { .. })), "{r:?}");
        let quick = CountOptions {
            timeout: Some(std::time::Duration::ZERO),
            ..CountOptions::default()
        };
        let r = count_wide(&board, start, &WideFinish::Pegs(1), &quick, &|_| {}).unwrap();
        assert!(matches!(r, Err(CountError::Timeout)), "{r:?}");
    }
}
