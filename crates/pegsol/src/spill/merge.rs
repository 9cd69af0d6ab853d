//! Merging sorted runs of records into a level, in parallel pieces cut by value.

use std::cmp::Reverse;
use std::collections::binary_heap::{BinaryHeap, PeekMut};
use std::fs::File;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::spill::read::{Start, Trailer};
use crate::spill::write::Writer;
use crate::spill::{Records, Value};

/// The most runs one merge reads at once: bounds the open files and the read buffers.
pub(super) const FAN_IN: usize = 64;

/// Merges sorted runs (of values whose heads are up to `last`) into files named by `name`,
/// summing the counts of equal values with `add` (which fails on overflow). The range of
/// heads is cut into `pieces` equal parts, found in each run by a binary search of its index, and the parts
/// are merged in parallel, each into its own file: the files in order make the merged level.
/// More than [`FAN_IN`] runs are first merged in groups (in parallel) into fewer, longer runs.
/// Returns the files and the number of distinct values written.
pub(crate) fn merge<V: Value, E: From<std::io::Error> + Send>(
    runs: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
    pieces: u64,
    last: u64,
    add: impl Fn(u128, u128) -> Result<u128, E> + Sync,
) -> Result<(Vec<PathBuf>, usize), E> {
    let mut merged: Option<Vec<PathBuf>> = None;
    loop {
        let current = merged.as_deref().unwrap_or(runs);
        if current.len() <= FAN_IN {
            break;
        }
        let groups: Vec<&[PathBuf]> = current.chunks(FAN_IN).collect();
        let outs: Vec<PathBuf> = groups.iter().map(|_| name()).collect();
        groups
            .par_iter()
            .zip(&outs)
            .map(|(group, out)| {
                let readers = group
                    .iter()
                    .map(|run| Records::<V>::open_all(std::slice::from_ref(run)))
                    .collect::<std::io::Result<Vec<_>>>()?;
                merge_into(readers, out, &add)
            })
            .collect::<Result<Vec<usize>, E>>()?;
        // Runs made here, not the caller's, are removed once merged further.
        if let Some(done) = merged.replace(outs) {
            for run in done {
                let _ = std::fs::remove_file(run);
            }
        }
    }
    let result = merge_pieces::<V, E>(merged.as_deref().unwrap_or(runs), name, pieces, last, &add);
    for run in merged.unwrap_or_default() {
        let _ = std::fs::remove_file(run);
    }
    result
}

/// [`merge`] of at most [`FAN_IN`] runs.
pub(super) fn merge_pieces<V: Value, E: From<std::io::Error> + Send>(
    runs: &[PathBuf],
    mut name: impl FnMut() -> PathBuf,
    pieces: u64,
    last: u64,
    add: &(impl Fn(u128, u128) -> Result<u128, E> + Sync),
) -> Result<(Vec<PathBuf>, usize), E> {
    let pieces = pieces.clamp(1, last.saturating_add(1).max(1));
    // Piece `p` holds the heads from `bound(p)` up to `bound(p + 1)`.
    let bound = |p: u64| p * (last / pieces);
    // starts[r][p]: where piece `p` starts in run `r`: the last block that begins below the
    // piece's first value.
    let mut starts: Vec<Vec<Start>> = Vec::with_capacity(runs.len());
    for run in runs {
        let mut file = File::open(run)?;
        let t = Trailer::read(&mut file, run)?;
        let index = t.index(&mut file)?;
        let at = (0..pieces)
            .map(|p| {
                let from = bound(p);
                let b = index.partition_point(|e| e[0] < from).saturating_sub(1);
                index.get(b).map_or(Start::default(), |e| Start {
                    offset: e[2],
                    prev: e[1],
                    from,
                })
            })
            .collect();
        starts.push(at);
    }
    let outs: Vec<PathBuf> = (0..pieces).map(|_| name()).collect();
    let written: Vec<usize> = outs
        .par_iter()
        .enumerate()
        .map(|(p, out)| {
            let until = (p as u64 + 1 < pieces).then(|| bound(p as u64 + 1));
            let readers = runs
                .iter()
                .zip(&starts)
                .map(|(run, at)| Records::<V>::open_range(run, at[p], until))
                .collect::<std::io::Result<Vec<_>>>()?;
            merge_into(readers, out, add)
        })
        .collect::<Result<_, E>>()?;
    Ok((outs, written.iter().sum()))
}

/// Merges `readers` (each in increasing order) into the file `out`; returns the records
/// written.
pub(super) fn merge_into<V: Value, E: From<std::io::Error>>(
    mut readers: Vec<Records<V>>,
    out: &Path,
    add: &impl Fn(u128, u128) -> Result<u128, E>,
) -> Result<usize, E> {
    // The heap holds each reader's value and index; its record waits in `heads`, and the
    // top is replaced in place (one sift) rather than popped and pushed.
    let mut heads = Vec::with_capacity(readers.len());
    let mut heap = BinaryHeap::with_capacity(readers.len());
    for r in &mut readers {
        if let Some((v, c)) = r.next_record()? {
            heap.push(Reverse((v, heads.len())));
            heads.push(c);
        } else {
            heads.push(0);
        }
    }
    let mut w = Writer::create(out, true)?;
    let mut written = 0usize;
    let mut pending: Option<(V, u128)> = None;
    while let Some(mut top) = heap.peek_mut() {
        let Reverse((v, i)) = *top;
        let c = heads[i];
        pending = match pending {
            Some((pv, pc)) if pv == v => Some((pv, add(pc, c)?)),
            Some((pv, pc)) => {
                w.push(pv, pc)?;
                written += 1;
                Some((v, c))
            }
            None => Some((v, c)),
        };
        match readers[i].next_record()? {
            Some((v2, c2)) => {
                heads[i] = c2;
                *top = Reverse((v2, i));
            }
            None => {
                PeekMut::pop(top);
            }
        }
    }
    if let Some((pv, pc)) = pending {
        w.push(pv, pc)?;
        written += 1;
    }
    w.finish()?;
    Ok(written)
}
