//! The positions every winning line from a position must pass through.
//!
//! Every jump removes one peg, so a line from `p` holds exactly one position `k` jumps on for
//! every `k`. A position `q` that many jumps on is therefore on *every* winning line from `p`
//! exactly when it is the only position `k` jumps on that is reachable from `p` and can still
//! reach the finish: the winning positions reachable from `p` are counted level by level, and a
//! level of one position is forced. Two forced positions one jump apart fix the jump between
//! them (distinct jumps from one position give distinct positions), so a run of forced levels
//! from `p` is a forced line of play.
//!
//! The count is made up to the symmetries `H` that fix `p` and the set of finishes: the
//! positions reachable from `p` are mapped onto positions reachable from `p` by `H`, and so
//! are the winning ones (a finish goes to a finish), so each level is a union of `H`-orbits
//! and its size is the sum of the orbit sizes of its representatives. A level is forced when
//! it holds one representative whose orbit is itself alone.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::bitset::{Bits, Pegs, Word};
use crate::board::Board;
use crate::jumps::Jump;
use crate::stop::Stop;

/// What every winning line from a position passes through.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Forced {
    /// Per number of jumps from the position, from 0 (the position itself) to the finish:
    /// how many positions that many jumps on are reachable from it and can still reach the
    /// finish. Empty when the position cannot win.
    pub counts: Vec<u64>,
    /// The forced positions: `(k, q)` when `q` is the only winning position `k >= 1` jumps on,
    /// so every winning line from the position passes through it.
    pub positions: Vec<(u32, Pegs)>,
    /// The forced jumps: `(k, j)` when every winning line plays `j` as its jump `k + 1` from
    /// the position (the levels `k` and `k + 1` both forced).
    pub jumps: Vec<(u32, Jump)>,
}

impl Forced {
    /// The jumps every winning line from the position begins with (a run of forced jumps
    /// from the position itself), in order; empty when the first jump is a choice.
    #[must_use]
    pub fn opening(&self) -> Vec<Jump> {
        self.jumps
            .iter()
            .enumerate()
            .take_while(|(i, (k, _))| *k as usize == *i)
            .map(|(_, &(_, j))| j)
            .collect()
    }
}

/// Children a representative is assumed to have on average when the memory a level will
/// take is judged before it is made.
const CHILDREN: usize = 16;

/// The forced positions and jumps from `position` (which must be on the board, with more
/// pegs than `goal` or as many), where `wins` says whether a position reachable from it can
/// still reach a finish of `goal` pegs, and `targets` are the finishes. `None` when `stop`
/// passes or a level would take more than `max_memory` bytes.
pub(crate) fn forced_from<K: Word>(
    board: &Board,
    targets: &[Pegs],
    position: Bits<K>,
    goal: u32,
    wins: impl Fn(Bits<K>) -> bool + Sync,
    stop: Stop<'_>,
    max_memory: usize,
) -> Option<Forced> {
    if !wins(position) {
        return Some(Forced {
            counts: Vec::new(),
            positions: Vec::new(),
            jumps: Vec::new(),
        });
    }
    let sym = board.symmetries();
    let mut group = sym.stabilizer(targets);
    let wide: Pegs = position.resize();
    group.retain(|&g| sym.apply(g, wide) == wide);
    let canon = sym.canonicalizer::<K>(&group);
    let jumps = board.jumps();
    let mut level = vec![position.0];
    let mut counts = vec![1u64];
    let mut positions = Vec::new();
    let mut pegs = position.count();
    while pegs > goal {
        let need = level
            .len()
            .saturating_mul(CHILDREN * std::mem::size_of::<K>());
        if stop.passed() || need > max_memory {
            return None;
        }
        // Looked at for every representative, so that a level stops soon after `stop`.
        let stopped = AtomicBool::new(false);
        let mut next: Vec<K> = level
            .par_iter()
            .flat_map_iter(|&k| {
                let p = Bits::<K>(k);
                let go = !stopped.load(Ordering::Relaxed) && !stop.passed();
                if !go {
                    stopped.store(true, Ordering::Relaxed);
                }
                jumps
                    .iter()
                    .filter(move |j| go && j.is_legal(p))
                    .map(move |j| j.apply(p))
                    .filter(|&c| wins(c))
                    .map(|c| canon.canonical(c).0)
            })
            .collect();
        if stopped.into_inner() || next.len().saturating_mul(std::mem::size_of::<K>()) > max_memory
        {
            return None;
        }
        next.par_sort_unstable();
        next.dedup();
        let count: u64 = next
            .par_iter()
            .map(|&k| u64::from(canon.canonical_and_orbit(Bits(k)).1))
            .sum();
        pegs -= 1;
        let depth = counts.len() as u32;
        counts.push(count);
        if count == 1 {
            positions.push((depth, Bits(next[0]).resize()));
        }
        level = next;
    }
    // The jump between two forced positions one level apart (the position itself is level 0).
    let at = |k: u32| -> Option<Pegs> {
        if k == 0 {
            Some(wide)
        } else {
            positions.iter().find(|p| p.0 == k).map(|p| p.1)
        }
    };
    let forced_jumps = (0..counts.len() as u32 - 1)
        .filter_map(|k| {
            let (a, b) = (at(k)?, at(k + 1)?);
            let j = jumps.iter().find(|j| j.is_legal(a) && j.apply(a) == b)?;
            Some((k, *j))
        })
        .collect();
    Some(Forced {
        counts,
        positions,
        jumps: forced_jumps,
    })
}
