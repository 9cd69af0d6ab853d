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
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use super::solve::{finish_targets, WideFinish};
use super::spill::{self, Record, Stored};
use super::tables::{stabilizer, Build, Canon, Tables};
use crate::bitset::Bits;
use crate::bitset::Pegs;
use crate::board::Board;
use crate::count::{Count, CountError, CountOptions, Level};
use crate::error::Result;
use crate::spill::SpillDir;

/// A count on a wide board: the figures of [`Count`] (whose own `finishes` stays empty), and
/// every finish position reached with its jump sequences.
#[derive(Clone, Debug, Default)]
pub struct WideCount {
    /// Levels, solutions, games and the group's order, as for 64 holes.
    pub count: Count,
    /// Every finish position reached, in increasing order, with the jump sequences from the
    /// start to it (they sum to `count.solutions`).
    pub finishes: Vec<(Pegs, u128)>,
}

/// Counts the whole game from `start` on a wide board, with `finish` for the solutions and
/// the winning positions, within `options.max_memory` and `options.timeout`. With
/// `options.spill`, a level's table that would pass the budget goes to sorted runs in a
/// scratch directory there, merged into the level on disk, and finished levels that do not
/// fit are kept on disk for the backward pass; the winning positions of one level are still
/// kept in memory. (`pagoda`, `grid` and `fold` are for 64 holes and ignored here.) `progress` is called with
/// each level's forward figures as it is finished.
///
/// ```
/// use pegsol::{count_wide, Hole, Board, WideFinish};
/// use pegsol::count::CountOptions;
/// let board = Board::builtin("triangle:5")?;
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
    board: &Board,
    start: Pegs,
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
type Part<const W: usize> = (Vec<Record<W>>, u64, u128);

struct Counter<'o, const W: usize> {
    tables: Tables<W>,
    canon: Canon<W>,
    /// The exact finish, or the pegs of any finish.
    finish: Result<Bits<[u64; W]>, u32>,
    options: &'o CountOptions,
    began: Instant,
    /// Parents a chunk: [`CHUNK`], or fewer when spilling under a small budget, so that one
    /// chunk's children (a few hundred a parent at most) stay within it.
    chunk: usize,
}

impl<'o, const W: usize> Counter<'o, W> {
    fn new(board: &Board, group: &[usize], finish: &WideFinish, options: &'o CountOptions) -> Self {
        Counter {
            tables: Tables::new(board),
            canon: Canon::new(board, group),
            finish: match finish {
                WideFinish::Exactly(f) => Ok(f.resize()),
                WideFinish::Pegs(k) => Err(*k as u32),
            },
            options,
            began: Instant::now(),
            chunk: match options.spill {
                Some(_) => (options.max_memory / 4 * 3 / (std::mem::size_of::<Record<W>>() * 256))
                    .clamp(1, CHUNK),
                None => CHUNK,
            },
        }
    }

    /// Whether `p` is a finish position (the same for every member of its orbit).
    fn is_finish(&self, p: &Bits<[u64; W]>) -> bool {
        match &self.finish {
            Ok(f) => p == f,
            Err(k) => p.count() == *k,
        }
    }

    /// The bytes the count may hold: a quarter of the budget is left to the allocator's own
    /// overhead.
    fn budget(&self) -> usize {
        self.options.max_memory / 4 * 3
    }

    fn run(
        &self,
        start: Pegs,
        progress: &(dyn Fn(&Level) + Sync),
    ) -> std::result::Result<WideCount, CountError> {
        let entry = std::mem::size_of::<Record<W>>();
        let pegs = start.count();
        let start: Bits<[u64; W]> = start.resize();
        let mut stored: Vec<Stored<W>> =
            vec![Stored::Memory(vec![(self.canon.canonical(start), 1)])];
        // Bytes of the levels kept in memory.
        let mut held = entry;
        let mut scratch: Option<SpillDir> = None;
        let mut levels: Vec<Level> = Vec::new();
        let mut c = Count {
            symmetries: self.canon.order(),
            ..Count::default()
        };
        let mut finishes: Vec<(Pegs, u128)> = Vec::new();
        loop {
            let jumps = levels.len() as u32;
            let level = stored.last().expect("level 0 is stored");
            let mut figures = Level {
                jumps,
                pegs: pegs - jumps,
                classes: level.len() as u64,
                ..Level::default()
            };
            // The children, summed by orbit, chunk by chunk; a parent with none is a dead end.
            // With a spill directory, a table that would pass the budget goes to a sorted run
            // on disk, and the runs are merged into the level at its end.
            let mut next: HashMap<Bits<[u64; W]>, u128, Build> = HashMap::default();
            let mut runs: Vec<PathBuf> = Vec::new();
            let mut overflow = false;
            level.for_each_chunk(self.chunk, |chunk| {
                if self
                    .options
                    .timeout
                    .is_some_and(|t| self.began.elapsed() > t)
                {
                    return Err(CountError::Timeout);
                }
                for &(p, t) in chunk {
                    figures.positions += self.canon.orbit_size(p);
                    figures.paths = figures.paths.checked_add(t).ok_or(CountError::Overflow)?;
                    if self.is_finish(&p) {
                        c.solutions = c.solutions.checked_add(t).ok_or(CountError::Overflow)?;
                        let members = self.canon.members(p);
                        let each = t / members.len() as u128;
                        finishes.extend(members.into_iter().map(|m| (m.resize(), each)));
                    }
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
                let needed = |len: usize, capacity: usize| {
                    held + ((len + incoming) * 8 / 7).next_power_of_two() * (entry + 1)
                        + capacity * (entry + 1)
                        + incoming * entry
                        + (len + incoming) * entry
                };
                if needed(next.len(), next.capacity()) > self.budget() {
                    let Some(dir) = &self.options.spill else {
                        return Err(CountError::Memory {
                            level: jumps + 1,
                            needed: needed(next.len(), next.capacity()),
                        });
                    };
                    if next.is_empty() || needed(0, 0) > self.budget() {
                        return Err(CountError::Memory {
                            level: jumps + 1,
                            needed: needed(0, 0),
                        });
                    }
                    let dir = match &mut scratch {
                        Some(d) => d,
                        None => scratch
                            .insert(SpillDir::new(dir).map_err(|e| CountError::Io(e.to_string()))?),
                    };
                    let path = dir.file("run");
                    spill::write(&path, &sorted(std::mem::take(&mut next)))?;
                    runs.push(path);
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
                Ok(())
            })?;
            if overflow {
                return Err(CountError::Overflow);
            }
            progress(&figures);
            levels.push(figures);
            if next.is_empty() && runs.is_empty() {
                break;
            }
            let level = if runs.is_empty() {
                let sorted = sorted(next);
                let bytes = sorted.len() * entry;
                // Kept for the backward pass: when spilling, in memory only while the levels
                // held take at most half the budget, so that the work has the other half.
                match (&self.options.spill, held + bytes > self.budget() / 2) {
                    (Some(dir), true) => {
                        let dir = match &mut scratch {
                            Some(d) => d,
                            None => scratch.insert(
                                SpillDir::new(dir).map_err(|e| CountError::Io(e.to_string()))?,
                            ),
                        };
                        let path = dir.file("level");
                        spill::write(&path, &sorted)?;
                        Stored::File {
                            path,
                            len: sorted.len(),
                        }
                    }
                    _ => {
                        held += bytes;
                        Stored::Memory(sorted)
                    }
                }
            } else {
                let dir = scratch
                    .as_mut()
                    .ok_or(CountError::Internal("runs without a spill directory"))?;
                let last = dir.file("run");
                spill::write(&last, &sorted(next))?;
                runs.push(last);
                let path = dir.file("level");
                let len = spill::merge::<W>(&runs, &path)?;
                Stored::File { path, len }
            };
            stored.push(level);
        }
        // Backward: a representative wins when it is a finish or has a child that wins. The
        // winners of the level below are kept in memory, sorted, for the lookups.
        let mut wins_below: Vec<Bits<[u64; W]>> = Vec::new();
        for (k, level) in stored.iter().enumerate().rev() {
            let mut won: Vec<Bits<[u64; W]>> = Vec::new();
            level.for_each_chunk(self.chunk, |chunk| {
                won.par_extend(
                    chunk
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
                        .map(|(p, _)| *p),
                );
                let needed = held
                    + (won.capacity() + wins_below.capacity())
                        * std::mem::size_of::<Bits<[u64; W]>>();
                if needed > self.budget() {
                    return Err(CountError::Memory {
                        level: k as u32,
                        needed,
                    });
                }
                Ok(())
            })?;
            levels[k].winning_classes = won.len() as u64;
            levels[k].winning = won.iter().map(|&p| self.canon.orbit_size(p)).sum();
            wins_below = won;
        }
        finishes.sort_unstable_by_key(|f| f.0);
        c.levels = levels;
        Ok(WideCount { count: c, finishes })
    }
}

/// A table's records in increasing order of position.
fn sorted<const W: usize>(table: HashMap<Bits<[u64; W]>, u128, Build>) -> Vec<Record<W>> {
    let mut v: Vec<Record<W>> = table.into_iter().collect();
    v.sort_unstable_by_key(|e| e.0);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::Hole;
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
                Some(p) => Board::parse(name, p).unwrap(),
                None => Board::builtin(name).unwrap(),
            };
            for e in 0..wide.hole_count() {
                let start = wide.holes().without(Hole::at(e));
                let hole = crate::Hole::new(e).unwrap();
                let nstart: Bits = narrow.holes().without(hole);
                for (finish, nfinish) in [
                    (WideFinish::Pegs(1), Finish::AnyOne),
                    (
                        WideFinish::Exactly(Pegs::single(Hole::at(e))),
                        Finish::Holes(hole.bit()),
                    ),
                    (WideFinish::Pegs(2), Finish::Pegs(2)),
                ] {
                    let problem = Problem::new(&narrow, nstart.resize(), nfinish).unwrap();
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
                        .map(|(p, t)| (p.iter().map(Hole::index).collect(), *t))
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
        let board = Board::builtin("triangle:11").unwrap();
        let start = board
            .holes()
            .without(Hole::at((board.hole("a1").unwrap()).index()));
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

    /// A count past its memory budget: undecided without a spill directory; with one, its
    /// levels go to sorted runs and files, the figures are those of the count in memory, and
    /// the scratch files are gone at the end. (A 4x4 block of pegs, one missing, on the
    /// 9x9 square, to two pegs: 81 holes, two words a position.)
    #[test]
    fn a_count_past_its_memory_spills_to_disk_and_agrees() {
        let board = Board::builtin("rect:9x9").unwrap();
        let block = board
            .hole_set("c3,d3,e3,f3,c4,e4,f4,c5,d5,e5,f5,c6,d6,e6,f6")
            .unwrap();
        let whole = count_wide(
            &board,
            block,
            &WideFinish::Pegs(2),
            &CountOptions::default(),
            &|_| {},
        )
        .unwrap()
        .unwrap();
        let tight = CountOptions {
            max_memory: 1 << 20,
            ..CountOptions::default()
        };
        let r = count_wide(&board, block, &WideFinish::Pegs(2), &tight, &|_| {}).unwrap();
        assert!(matches!(r, Err(CountError::Memory { .. })), "{r:?}");
        let dir =
            std::env::temp_dir().join(format!("pegsol-wide-spill-count-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // 1 MB: the big levels go to sorted runs; 5 MB: runs, and a finished level to a file
        // of its own; 9 MB: levels to files only (measured: those are the paths each takes).
        for mb in [1, 5, 9] {
            let spilled = CountOptions {
                spill: Some(dir.clone()),
                max_memory: mb << 20,
                ..CountOptions::default()
            };
            let c = count_wide(&board, block, &WideFinish::Pegs(2), &spilled, &|_| {})
                .unwrap()
                .unwrap();
            assert_eq!(c.count.levels, whole.count.levels, "{mb} MB");
            assert_eq!(c.count.games, whole.count.games);
            assert_eq!(c.count.solutions, whole.count.solutions);
            assert_eq!(c.finishes, whole.finishes);
            assert_eq!(
                std::fs::read_dir(&dir).unwrap().count(),
                0,
                "scratch left behind"
            );
        }
        assert_eq!(whole.count.solutions, 311_206_372);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
