//! One level's step, shared by the forward pass and the winners' backward pass: a level kept
//! in memory or on disk, and its expansion into the next level's children, gathered and
//! merged in parallel.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::bitset::Bits;
use crate::count::cut::Cut;
use crate::count::packed::{Child, Narrow, Packed, Part, Ranking, Table, BUCKETS};
use crate::count::CountError;
use crate::key::CountKey;
use crate::key::Dense;
use crate::space::Space;
use crate::spill;
use crate::stop::Stop;

/// A level of representatives with their path counts, in memory or spilled to files.
pub(super) enum Store<K> {
    /// In [`rank`] order.
    Mem(Vec<K>, Vec<u128>),
    /// Files that make the level one after another, and its length; by [`Dense`] index.
    File(Vec<PathBuf>, usize),
}

/// A level's representatives kept for the backward pass.
pub(super) enum Kept<K> {
    /// In [`rank`] order.
    Mem(Vec<K>),
    /// Files of [`Dense`] indices alone.
    Keys(Vec<PathBuf>),
}

impl<K: CountKey> Store<K> {
    pub(super) fn len(&self) -> usize {
        match self {
            Store::Mem(k, _) => k.len(),
            Store::File(_, n) => *n,
        }
    }

    /// Calls `f` on consecutive slices of at most `n` representatives. A level in files
    /// (in [`Dense`] order) is read once: its indices are copied to `keep` on the way.
    pub(super) fn for_each_slice(
        &self,
        n: usize,
        dense: Dense,
        mut keep: Option<&mut spill::KeyWriter>,
        mut f: impl FnMut(&[K], &[u128]) -> Result<(), CountError>,
    ) -> Result<(), CountError> {
        match self {
            Store::Mem(keys, counts) => {
                for (ks, cs) in keys.chunks(n.max(1)).zip(counts.chunks(n.max(1))) {
                    f(ks, cs)?;
                }
                Ok(())
            }
            Store::File(parts, _) => {
                let mut r = spill::Records::<K::Rank>::open_all(parts)?;
                loop {
                    let (indices, cs) = r.chunk(n.max(1))?;
                    if indices.is_empty() {
                        return Ok(());
                    }
                    if let Some(w) = keep.as_deref_mut() {
                        w.push_all(&indices)?;
                    }
                    let ks: Vec<K> = indices.iter().map(|&i| K::of_index(i, dense)).collect();
                    f(&ks, &cs)?;
                }
            }
        }
    }
}

/// What expanding one slice of a level produced.
pub(super) struct Expanded<K> {
    /// Distinct children in [`rank`] order, with summed path counts.
    pub(super) keys: Vec<K>,
    pub(super) counts: Vec<u128>,
    pub(super) children: usize,
    /// Positions the expanded representatives stand for (orbit sizes).
    pub(super) positions: u64,
    pub(super) dead_ends: u64,
    pub(super) games: u128,
}

/// What expanding a slice of a level needs beside the slice: its pegs, the key space, the
/// pagoda cut, and the last level's figures that size the tables (children per parent, and
/// children per distinct child).
#[derive(Clone, Copy)]
pub(super) struct Step<'a, K: CountKey> {
    pub(super) pegs: u32,
    pub(super) space: &'a Space<K>,
    pub(super) cut: Option<&'a Cut<K>>,
    pub(super) branching: f64,
    pub(super) duplication: f64,
    /// When to give up: checked every few thousand parents, so a large level stops soon.
    pub(super) stop: Stop<'a>,
}

/// Expands representatives `ks` of positions with `step.pegs` pegs (with path counts `cs`):
/// every child, canonicalised, summed per distinct key, in the order of `ranking`.
pub(super) fn expand<K: CountKey, R: Ranking<K>>(
    ks: &[K],
    cs: &[u128],
    step: Step<K>,
    ranking: R,
) -> Result<Expanded<K>, CountError> {
    // Most levels' path counts fit 64 bits: their children, and the sums of those, are then
    // 16 bytes, not 24. Where a sum turns out not to fit, the level is redone wide.
    if cs.iter().all(|&c| c <= u128::from(u64::MAX)) {
        match expand_with::<Narrow<K>, R>(ks, cs, step, ranking) {
            Err(CountError::Overflow) => {}
            done => return done,
        }
    }
    expand_with::<Child<K>, R>(ks, cs, step, ranking)
}

/// [`expand`] with children packed as `C`.
pub(super) fn expand_with<C: Packed, R: Ranking<C::K>>(
    ks: &[C::K],
    cs: &[u128],
    step: Step<C::K>,
    ranking: R,
) -> Result<Expanded<C::K>, CountError> {
    let Step {
        pegs,
        space,
        cut,
        branching,
        duplication,
        stop,
    } = step;
    let canon = &space.canon;
    let forecast = Forecast::new(branching, duplication);
    gather::<C, R>(ranking, ks, cs, &forecast, stop, |key, c, part| {
        let mut any = false;
        let k = space.unfold(key, pegs);
        let images = space.images_of(k);
        part.positions += match &images {
            // Folded images hold the folded position once per symmetry fixing it.
            Some(i) => u64::from(canon.orbit_of(i, Bits(space.fold(k)))),
            None => space.orbit(k),
        };
        // The parent's pagoda totals: each child's are then one lookup a function away.
        let cut = cut.map(|cut| (cut, cut.totals(k)));
        space.for_each_child_of(k, images.as_ref(), |_, slot, child| {
            any = true;
            if cut.is_some_and(|(cut, totals)| !cut.keeps_child(&totals, slot)) {
                return;
            }
            part.push(child, c);
        });
        if !any {
            part.dead_ends += space.orbit(k);
            part.games = part.games.and_then(|g| g.checked_add(c));
        }
    })
}

/// What a [`gather`] expects of its pushes, to size its buffers: about `branching` pushes
/// per key given, `duplication` pushes per distinct key, all into the buckets `buckets` (a
/// pass of a level gathered range by range pushes nothing elsewhere).
#[derive(Clone, Debug)]
pub(super) struct Forecast {
    pub(super) branching: f64,
    pub(super) duplication: f64,
    pub(super) buckets: Range<usize>,
}

impl Forecast {
    /// About `branching` pushes per key, `duplication` per distinct key, into any bucket.
    pub(super) fn new(branching: f64, duplication: f64) -> Forecast {
        Forecast {
            branching,
            duplication,
            buckets: 0..BUCKETS,
        }
    }
}

/// Calls `each` on every key of `ks` (with its count from `cs`, or 0 where `cs` is empty) in
/// parallel chunks; what it pushes is summed per distinct key. `forecast` sizes the buffers
/// (pushes outside its buckets still land, in buffers that grow). [`CountError::Timeout`]
/// once `stop` has passed (read every 4,096 keys of a chunk).
pub(super) fn gather<C: Packed, R: Ranking<C::K>>(
    ranking: R,
    ks: &[C::K],
    cs: &[u128],
    forecast: &Forecast,
    stop: Stop<'_>,
    each: impl Fn(C::K, u128, &mut Part<C, R>) + Sync,
) -> Result<Expanded<C::K>, CountError> {
    let Forecast {
        branching,
        duplication,
        ref buckets,
    } = *forecast;
    let stopped = AtomicBool::new(false);
    let chunk = (ks.len() / (rayon::current_num_threads() * 4)).max(1024);
    // Pushes go straight into hash buckets, so that each bucket can be summed and sorted on
    // its own, in cache, in parallel: no global sort of the whole level.
    let parts: Vec<Part<C, R>> = ks
        .par_chunks(chunk)
        .enumerate()
        .map(|(n, ks)| {
            let cs = cs.get(n * chunk..n * chunk + ks.len()).unwrap_or(&[]);
            let room = (ks.len() as f64 * branching * 1.2) as usize / buckets.len().max(1);
            let mut part = Part::new(room, buckets.clone(), ranking);
            for (i, &k) in ks.iter().enumerate() {
                let c = cs.get(i).copied().unwrap_or(0);
                if i % 4096 == 4095 && (stopped.load(Ordering::Relaxed) || stop.passed()) {
                    stopped.store(true, Ordering::Relaxed);
                    break;
                }
                each(k, c, &mut part);
                part.settle(false);
            }
            part.settle(true);
            part
        })
        .collect();
    if stopped.load(Ordering::Relaxed) {
        return Err(CountError::Timeout);
    }
    let mut out = Expanded {
        keys: Vec::new(),
        counts: Vec::new(),
        children: 0,
        positions: 0,
        dead_ends: 0,
        games: 0,
    };
    // Each bucket's pieces from every part, so that a bucket's memory can go back to the
    // allocator as soon as it is summed, for the sums and the level to reuse.
    let mut buckets: Vec<Vec<Vec<C>>> = (0..BUCKETS)
        .map(|_| Vec::with_capacity(parts.len()))
        .collect();
    for part in parts {
        out.positions += part.positions;
        out.dead_ends += part.dead_ends;
        out.games = part
            .games
            .and_then(|g| out.games.checked_add(g))
            .ok_or(CountError::Overflow)?;
        for (all, piece) in buckets.iter_mut().zip(part.buckets) {
            out.children += piece.len();
            all.push(piece);
        }
    }
    // Each bucket's pushes are summed in a hash table first (there are several per distinct
    // key), which reads out in rank order.
    let expect = 1.5 / duplication;
    let merged: Vec<(Vec<C::K>, Vec<u128>)> = buckets
        .into_par_iter()
        .map(|pieces| {
            let n: usize = pieces.iter().map(Vec::len).sum();
            let mut table = Table::<C, R>::with_capacity((n as f64 * expect) as usize, ranking);
            for piece in pieces {
                table.add_all(&piece)?;
            }
            Ok(table.into_sorted())
        })
        .collect::<Result<_, CountError>>()?;
    // The buckets' runs side by side make the level: copied in parallel into place, with
    // no pass that zeroes the room first (on a reused heap that is a serial memset, about
    // 0.05 s of the English count).
    let total: usize = merged.iter().map(|m| m.0.len()).sum();
    // Gathers without counts read out keys alone (see `Packed::COUNTED`).
    let counted = if C::COUNTED { total } else { 0 };
    out.keys = Vec::with_capacity(total);
    out.counts = Vec::with_capacity(counted);
    let mut places = Vec::with_capacity(BUCKETS);
    let (mut keys, mut counts) = (
        &mut out.keys.spare_capacity_mut()[..total],
        &mut out.counts.spare_capacity_mut()[..counted],
    );
    for (ks, _) in &merged {
        let (k, rest_k) = keys.split_at_mut(ks.len());
        let (c, rest_c) = counts.split_at_mut(if C::COUNTED { ks.len() } else { 0 });
        places.push((k, c));
        (keys, counts) = (rest_k, rest_c);
    }
    places
        .into_par_iter()
        .zip(merged)
        .for_each(|((k, c), (ks, cs))| {
            for (place, key) in k.iter_mut().zip(ks) {
                place.write(key);
            }
            for (place, count) in c.iter_mut().zip(cs) {
                place.write(count);
            }
        });
    // SAFETY: the runs' lengths sum to `total`, and the pieces they were copied to tile the
    // first `total` places of the keys (and of the counts, where there are counts: a table
    // without them reads out none), so every one of them is initialised.
    unsafe {
        out.keys.set_len(total);
        out.counts.set_len(counted);
    }
    Ok(out)
}
