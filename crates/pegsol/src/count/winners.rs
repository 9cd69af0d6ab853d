//! The backward pass: which representatives of each level can still reach the finish.

use rayon::prelude::*;

use crate::count::packed::{rank, Bare, Part, Spread};
use crate::count::step::{gather, Forecast, Kept};
use crate::count::CountError;
use crate::key::CountKey;
use crate::key::Dense;
use crate::problem::Problem;
use crate::space::Space;
use crate::spill::{self, Value};
use crate::stop::Stop;

/// The winning representatives of each level as board positions (canonical under the
/// canonicaliser given, which must come from [`group_of`]), each level in increasing order.
pub(crate) type Winners<K = u64> = Vec<Vec<K>>;

/// The winning representatives of every stored level, in [`rank`] order, by the backward
/// pass: the finish representatives win; a level's winners are the parents of the next
/// level's winners (undoing a jump), canonicalised and kept where reachable. Working from the
/// winners touches far fewer positions than re-expanding every level.
///
/// The parents are gathered for a slice of the winners at a time, sized so that they take
/// about `max_memory` bytes (a winner has tens of parents: gathered at once, the parents of a
/// spilled level's winners were the count's peak); each slice's parents meet the stored level,
/// and the slices' winners are merged.
pub(super) fn backward<K: CountKey>(
    problem: &Problem,
    space: &Space<K>,
    stored: &[Kept<K>],
    is_target: &[K],
    goal: u32,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Result<Vec<Vec<K>>, CountError> {
    // Keys the parents of one slice may take: the gathering holds them about four times over.
    let room = (max_memory / (4 * std::mem::size_of::<K>())).max(64) as f64;
    let meet = |candidates: Vec<K>, level_keys: &Kept<K>| match level_keys {
        Kept::Mem(keys) => Ok(intersect_sorted(&candidates, keys)),
        // The stored level streamed (in the dense order) past the candidates sorted alike.
        Kept::Keys(..) => shared_keys(&Kept::Mem(candidates), level_keys, space.dense),
    };
    let mut found: Vec<Vec<K>> = vec![Vec::new(); stored.len()];
    for (depth, level_keys) in stored.iter().enumerate().rev() {
        let pegs = problem.start::<K>().count() - depth as u32;
        if pegs == goal {
            let mut t = is_target.to_vec();
            t.sort_unstable_by_key(|&k| rank(k));
            found[depth] = meet(t, level_keys)?;
            continue;
        }
        let next = found.get(depth + 1).map_or(&[][..], |w| &w[..]);
        let mut parts: Vec<Vec<K>> = Vec::new();
        // Parents per winner: a guess on the high side until the first slice measures it.
        let (mut from, mut per_winner) = (0, 32.0f64);
        while from < next.len() {
            if deadline.passed() {
                return Err(CountError::Timeout);
            }
            let take = ((room / per_winner) as usize).clamp(1, next.len() - from);
            let parents = parents_of(&next[from..from + take], pegs - 1, space, deadline)?;
            per_winner = (parents.len() as f64 / take as f64 * 1.25).max(1.0);
            parts.push(meet(parents, level_keys)?);
            from += take;
        }
        found[depth] = match parts.len() {
            0 => Vec::new(),
            1 => parts.pop().unwrap_or_default(),
            // Two slices can share a parent.
            _ => {
                let mut all = parts.concat();
                all.par_sort_unstable_by_key(|&k| rank(k));
                all.dedup();
                all
            }
        };
    }
    Ok(found)
}

/// The winning representatives of every stored level, in [`rank`] order, when the game is its
/// own dual: one finish position whose complement is the start up to symmetry (the English
/// central game), with [folded](Space::folded) keys or every level in memory; `None`
/// otherwise.
///
/// Undoing a jump on a position is a jump on its complement, so a position `p` after `k` of the
/// game's `L` jumps can reach the finish exactly when the complement of `p` is reachable after
/// `L - k` jumps. Complements map orbits to orbits one to one, so the winners of levels `k` and
/// `L - k` come from one intersection: with folded keys, of the two levels' keys as they are
/// (read from disk for a spilled level); else of the complements of the smaller level,
/// canonicalised, with the larger. This touches each position once, where the backward pass
/// undoes every jump into every winner.
pub(super) fn self_dual_winners<K: CountKey>(
    problem: &Problem,
    space: &Space<K>,
    stored: &[Kept<K>],
    deadline: Stop<'_>,
) -> Result<Option<Vec<Vec<K>>>, CountError> {
    let Some(finish) = space.self_dual_finish(problem) else {
        return Ok(None);
    };
    let total = (problem.start::<K>().count() - finish.count()) as usize;
    let mut found = vec![Vec::new(); stored.len()];
    if !space.fold.is_zero() {
        // A position and its complement share a key: the winners of both levels are the
        // keys they share, whether the levels are in memory or on disk.
        for k in 0..=total / 2 {
            if deadline.passed() {
                return Err(CountError::Timeout);
            }
            let j = total - k;
            let (Some(a), Some(b)) = (stored.get(k), stored.get(j)) else {
                continue;
            };
            let winners = match (a, b) {
                (Kept::Mem(a), Kept::Mem(b)) => intersect_sorted(a, b),
                _ => shared_keys(a, b, space.dense)?,
            };
            found[k].clone_from(&winners);
            found[j] = winners;
        }
        return Ok(Some(found));
    }
    let Some(levels) = stored
        .iter()
        .map(|s| match s {
            Kept::Mem(keys) => Some(&keys[..]),
            Kept::Keys(..) => None,
        })
        .collect::<Option<Vec<&[K]>>>()
    else {
        return Ok(None);
    };
    // The canonical complements of `keys`, distinct since `keys` are, in rank order.
    let holes = space.layout.holes();
    let dual = |keys: &[K]| {
        gather_keys(keys, &Forecast::new(1.0, 1.0), deadline, |k, part| {
            part.push(space.canonical(holes.xor(k)), 0);
        })
    };
    for k in 0..=total / 2 {
        if deadline.passed() {
            return Err(CountError::Timeout);
        }
        let j = total - k;
        let (Some(a), Some(b)) = (levels.get(k), levels.get(j)) else {
            continue;
        };
        let ((small, s), (big, b)) = if a.len() <= b.len() {
            ((a, k), (b, j))
        } else {
            ((b, j), (a, k))
        };
        let winners = intersect_sorted(&dual(small)?, big);
        if s != b {
            found[s] = dual(&winners)?;
        }
        found[b] = winners;
    }
    Ok(Some(found))
}

/// The keys two levels share, in [`rank`] order, where one of them at least is on disk: both
/// are read in [`Dense`] order and merged.
pub(super) fn shared_keys<K: CountKey>(
    a: &Kept<K>,
    b: &Kept<K>,
    dense: Dense,
) -> Result<Vec<K>, CountError> {
    let (mut a, mut b) = (DenseKeys::of(a, dense)?, DenseKeys::of(b, dense)?);
    let mut out = Vec::new();
    let (mut x, mut y) = (a.next()?, b.next()?);
    while let (Some(u), Some(v)) = (x, y) {
        if u <= v {
            x = a.next()?;
        }
        if v <= u {
            y = b.next()?;
        }
        if u == v {
            out.push(K::of_index(u, dense));
        }
    }
    out.par_sort_unstable_by_key(|&k| rank(k));
    Ok(out)
}

/// A stored level's [`Dense`] indices in increasing order.
pub(super) enum DenseKeys<V> {
    Mem(std::vec::IntoIter<V>),
    File(spill::Records<V>),
}

impl<V: Value> DenseKeys<V> {
    pub(super) fn of<K: CountKey<Rank = V>>(
        level: &Kept<K>,
        dense: Dense,
    ) -> Result<DenseKeys<V>, CountError> {
        Ok(match level {
            Kept::Mem(keys) => {
                let mut indices: Vec<V> = keys.par_iter().map(|&k| k.index(dense)).collect();
                indices.par_sort_unstable();
                DenseKeys::Mem(indices.into_iter())
            }
            Kept::Keys(parts) => DenseKeys::File(spill::Records::keys(parts)?),
        })
    }

    pub(super) fn next(&mut self) -> Result<Option<V>, CountError> {
        match self {
            DenseKeys::Mem(indices) => Ok(indices.next()),
            DenseKeys::File(records) => Ok(records.next_key()?),
        }
    }
}

/// The canonical parents of `winners` (keys of positions with `pegs` pegs): every position one
/// jump before one of them (undoing a jump: its landing hole full, the other two empty),
/// distinct, in [`rank`] order.
pub(super) fn parents_of<K: CountKey>(
    winners: &[K],
    pegs: u32,
    space: &Space<K>,
    stop: Stop<'_>,
) -> Result<Vec<K>, CountError> {
    gather_keys(winners, &Forecast::new(8.0, 4.0), stop, |w, part| {
        space.for_each_parent(space.unfold(w, pegs), |p| part.push(p, 0));
    })
}

/// The distinct keys `each` pushes for the keys of `keys`, in [`rank`] order, without counts.
fn gather_keys<K: CountKey>(
    keys: &[K],
    forecast: &Forecast,
    stop: Stop<'_>,
    each: impl Fn(K, &mut Part<Bare<K>, Spread>) + Sync,
) -> Result<Vec<K>, CountError> {
    let out = gather::<Bare<K>, _>(Spread, keys, &[], forecast, stop, |k, _, part| {
        each(k, part);
    })?;
    Ok(out.keys)
}

/// The keys in both lists, each sorted by [`rank`]: the lists are cut at the same ranks into
/// pieces intersected in parallel.
pub(super) fn intersect_sorted<K: CountKey>(a: &[K], b: &[K]) -> Vec<K> {
    const PIECES: u64 = 64;
    if a.len().min(b.len()) < 1 << 16 {
        return intersect_run(a, b);
    }
    // Piece `i` of a list: its keys whose rank's head is from `i` to `i + 1` times
    // MAX / PIECES.
    let piece = |list: &'_ [K], i: u64| -> std::ops::Range<usize> {
        let cut = |i: u64| match i {
            PIECES => list.len(),
            _ => list.partition_point(|&k| rank(k).head() < i * (u64::MAX / PIECES)),
        };
        cut(i)..cut(i + 1)
    };
    let pieces: Vec<Vec<K>> = (0..PIECES)
        .into_par_iter()
        .map(|i| intersect_run(&a[piece(a, i)], &b[piece(b, i)]))
        .collect();
    pieces.concat()
}

/// [`intersect_sorted`] in one pass.
pub(super) fn intersect_run<K: CountKey>(a: &[K], b: &[K]) -> Vec<K> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        match rank(a[i]).cmp(&rank(b[j])) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}
