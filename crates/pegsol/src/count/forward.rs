//! The forward pass: every level of representatives with its path counts, expanded in
//! parallel and stored in memory or spilled to files.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::bitset::Bits;
use crate::count::cut::Cut;
use crate::count::packed::{Child, Spread};
use crate::count::step::{expand, Expanded, Kept, Step, Store};
use crate::count::winners::{backward, self_dual_winners, Winners};
use crate::count::{Count, CountError, Level};
use crate::key::CountKey;
use crate::problem::Problem;
use crate::space::Space;
use crate::spill;
use crate::stop::Stop;
use crate::symmetry::Canonicalizer;

/// [`count`], also returning the winning representatives of every level (canonical under
/// `canon`, which must come from [`group_of`]; empty without it), and stopping with
/// [`CountError::Timeout`] at the first level boundary (or slice of a spilled level) after
/// `deadline`. With `spill`, a level
/// whose children would not fit in `max_memory` is expanded in slices whose sorted runs go to
/// files there, merged into the next level on disk (external-memory breadth-first search).
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyse<K: CountKey>(
    problem: &Problem,
    canon: Option<&Canonicalizer<K>>,
    space: &Space<K>,
    cut: Option<&Cut<K>>,
    max_memory: usize,
    spill: Option<&Path>,
    deadline: Stop<'_>,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<(Count, Winners<K>), CountError> {
    let targets: &[Bits<K>] = &problem.targets();
    let goal = targets.first().map_or(1, |t| t.count());
    let is_target: Vec<K> = {
        let mut t: Vec<K> = targets.iter().map(|&t| space.key(t)).collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let mut current = Store::Mem(vec![space.key(problem.start())], vec![1]);
    // Every level's representatives, for the backward pass.
    let mut stored: Vec<Kept<K>> = Vec::new();
    let mut scratch: Option<spill::SpillDir> = None;
    let mut result = Count {
        symmetries: space.canon.order(),
        ..Count::default()
    };
    // The finish classes reached, with their path counts.
    let mut reached: Vec<(K, u128)> = Vec::new();
    let mut used = 0usize;
    let mut level = 0u32;
    // Children per representative at the last level: the forecast for the next one.
    let mut branching = 1.0f64;
    // Children per distinct child at the last level: sizes the next level's hash tables.
    let mut duplication = 1.0f64;
    let child_size = std::mem::size_of::<Child<K>>() as f64;
    loop {
        if deadline.passed() {
            return Err(CountError::Timeout);
        }
        let n = current.len();
        let pegs = problem.start::<K>().count() - level;
        // Decide before generating a level whether its children fit (with a margin over the
        // forecast), rather than finding out after the memory is spent.
        let forecast = (n as f64 * branching * 1.5 * child_size) as usize;
        let expected = used + n * std::mem::size_of::<K>() + forecast;
        let in_memory = matches!(current, Store::Mem(..)) && (level == 0 || expected <= max_memory);
        let slice = if in_memory {
            n
        } else {
            let Some(dir) = spill else {
                return Err(CountError::Memory {
                    level: level + 1,
                    needed: expected,
                });
            };
            if scratch.is_none() {
                scratch = Some(spill::SpillDir::new(dir)?);
            }
            // Each slice's children take at most a quarter of the budget.
            ((max_memory / 4) as f64 / (branching * 1.5 * child_size).max(1.0)) as usize
        }
        .max(1024);
        let (mut positions, mut dead_ends, mut games, mut paths, mut children) =
            (0u64, 0u64, 0u128, 0u128, 0usize);
        let mut runs: Vec<Expanded<K>> = Vec::new();
        let mut run_files: Vec<PathBuf> = Vec::new();
        // Bytes of the runs written since the last compaction (see below), and of what that
        // compaction left.
        let (mut fresh_bytes, mut compacted_bytes) = (0u64, 0u64);
        // A slice has fewer children per distinct child than its whole level: its tables are
        // sized from the slice before (too small, they would grow by copying).
        let mut slice_duplication = if in_memory { duplication } else { 1.0 };
        // A spilled level is kept for the backward pass as a file of its keys alone (under
        // half the room of its records), written while it is read.
        let mut keep = match (&current, scratch.as_mut()) {
            (Store::File(..), Some(dir)) => {
                let path = dir.file("keys");
                Some((spill::KeyWriter::create(&path)?, path))
            }
            _ => None,
        };
        current.for_each_slice(
            slice,
            space.dense,
            keep.as_mut().map(|k| &mut k.0),
            |ks, cs| {
                // A spilled level can take long: the budget is checked between its slices too.
                if deadline.passed() {
                    return Err(CountError::Timeout);
                }
                for (k, &c) in ks.iter().zip(cs) {
                    paths = paths.checked_add(c).ok_or(CountError::Overflow)?;
                    if pegs == goal && is_target.binary_search(k).is_ok() {
                        result.solutions = result
                            .solutions
                            .checked_add(c)
                            .ok_or(CountError::Overflow)?;
                        reached.push((*k, c));
                    }
                }
                let step = Step {
                    pegs,
                    space,
                    cut,
                    branching,
                    duplication: slice_duplication,
                    stop: deadline,
                };
                let out = if in_memory {
                    expand(ks, cs, step, Spread)?
                } else {
                    // Runs go to files, which keep the dense order.
                    expand(ks, cs, step, space.dense)?
                };
                if !in_memory {
                    slice_duplication =
                        (out.children as f64 / out.keys.len().max(1) as f64).max(1.0);
                }
                positions += out.positions;
                dead_ends += out.dead_ends;
                games = games.checked_add(out.games).ok_or(CountError::Overflow)?;
                children += out.children;
                match &mut scratch {
                    Some(dir) if !in_memory => {
                        let path = dir.file("run");
                        let indices: Vec<K::Rank> =
                            out.keys.par_iter().map(|&k| k.index(space.dense)).collect();
                        spill::write(&path, &indices, &out.counts)?;
                        fresh_bytes += std::fs::metadata(&path)?.len();
                        run_files.push(path);
                        // A child is in one run per slice that reaches it, and a position has
                        // several parents, so a level's runs can take many times the room of
                        // the level. Once the runs written since the last compaction outweigh
                        // both the memory budget and what that compaction left, all the runs
                        // are merged into one sorted set, so that the disk holds a few times
                        // the level being built rather than a record per jump into it.
                        if fresh_bytes > compacted_bytes.max(max_memory as u64)
                            && run_files.len() > 1
                        {
                            let (merged, _) = merge_runs(&run_files, dir, "run", space)?;
                            compacted_bytes = 0;
                            for run in &merged {
                                compacted_bytes += std::fs::metadata(run)?.len();
                            }
                            run_files = merged;
                            fresh_bytes = 0;
                        }
                    }
                    _ => runs.push(out),
                }
                Ok(())
            },
        )?;
        branching = children as f64 / n.max(1) as f64;
        result.games = result
            .games
            .checked_add(games)
            .ok_or(CountError::Overflow)?;
        let entry = Level {
            jumps: level,
            pegs,
            positions,
            classes: n as u64,
            dead_ends,
            paths,
            ..Level::default()
        };
        progress(&entry);
        result.levels.push(entry);
        // Keep the level's keys for the backward pass.
        stored.push(match (current, keep) {
            (Store::Mem(keys, _), _) => {
                used += keys.len() * std::mem::size_of::<K>();
                Kept::Mem(keys)
            }
            (Store::File(parts, _), Some((w, path))) => {
                w.finish()?;
                for part in parts {
                    std::fs::remove_file(part)?;
                }
                Kept::Keys(vec![path])
            }
            (Store::File(..), None) => {
                return Err(CountError::Io(
                    "a spilled level without its directory".into(),
                ));
            }
        });
        if children == 0 {
            break;
        }
        current = if let Some(dir) = scratch.as_mut().filter(|_| !in_memory) {
            let (parts, len) = merge_runs(&run_files, dir, "level", space)?;
            Store::File(parts, len)
        } else {
            let out = runs.pop().ok_or(CountError::Overflow)?;
            Store::Mem(out.keys, out.counts)
        };
        duplication = (children as f64 / current.len().max(1) as f64).max(1.0);
        level += 1;
    }
    result.finishes = finish_paths(problem, space, &reached, goal)?;
    let found = match self_dual_winners(problem, space, &stored, deadline)? {
        Some(found) => found,
        None => backward(
            problem, space, &stored, &is_target, goal, max_memory, deadline,
        )?,
    };
    let mut all_winners: Winners<K> = vec![Vec::new(); stored.len()];
    for (depth, winners) in found.iter().enumerate() {
        let entry = &mut result.levels[depth];
        entry.winning_classes = winners.len() as u64;
        entry.winning = winners.par_iter().map(|&k| space.orbit(k)).sum();
        if let Some(canon) = canon {
            let pegs = problem.start::<K>().count() - depth as u32;
            all_winners[depth] = space.to_board(winners, pegs, canon);
        }
    }
    Ok((result, all_winners))
}

/// Every finish position reached, with the jump sequences from the start to it: each class's
/// count `T(R)` is shared evenly by the `|R|` positions of its orbit (the group fixes the start,
/// so they are reached equally often); a remainder is a bug, never rounded.
pub(super) fn finish_paths<K: CountKey>(
    problem: &Problem,
    space: &Space<K>,
    reached: &[(K, u128)],
    pegs: u32,
) -> Result<Vec<(crate::Pegs, u128)>, CountError> {
    let sym = problem.board().symmetries();
    let group = crate::space::group_elements(problem);
    let mut out = Vec::new();
    for &(key, paths) in reached {
        let position: crate::Pegs = space.layout.bits(space.unfold(key, pegs)).resize();
        let mut orbit: Vec<crate::Pegs> = group.iter().map(|&g| sym.apply(g, position)).collect();
        orbit.sort_unstable();
        orbit.dedup();
        let size = orbit.len() as u128;
        if paths % size != 0 {
            return Err(CountError::Internal(
                "a finish's path count not shared evenly by its orbit",
            ));
        }
        out.extend(orbit.into_iter().map(|p| (p, paths / size)));
    }
    out.sort_unstable();
    Ok(out)
}

/// Merges a level's runs (files of [`Dense`] indices) into files named `what` in `dir`,
/// summing the counts of equal positions, and removes the runs; returns the merged files, in
/// order, and their number of positions. The merge runs in pieces of the index range, in
/// parallel.
pub(super) fn merge_runs<K: CountKey>(
    runs: &[PathBuf],
    dir: &mut spill::SpillDir,
    what: &str,
    space: &Space<K>,
) -> Result<(Vec<PathBuf>, usize), CountError> {
    let merged = spill::merge::<K::Rank, CountError>(
        runs,
        || dir.file(what),
        4 * rayon::current_num_threads() as u64,
        space.dense.last(),
        |a, b| a.checked_add(b).ok_or(CountError::Overflow),
    )?;
    for run in runs {
        std::fs::remove_file(run)?;
    }
    Ok(merged)
}
