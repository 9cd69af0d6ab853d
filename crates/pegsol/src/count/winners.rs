//! The backward pass: which representatives of each level can still reach the finish.

use rayon::prelude::*;

use crate::bitset::Bits;
use crate::count::packed::{rank, Bare, Child, Spread};
use crate::count::step::{expand, gather, Kept, Step};
use crate::count::CountError;
use crate::key::CountKey;
use crate::key::Dense;
use crate::problem::Problem;
use crate::space::Space;
use crate::spill::{self, Value};
use crate::stop::Stop;
use crate::symmetry::Canonicalizer;

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
    let dual = |keys: &[K]| -> Result<Vec<K>, CountError> {
        let zeros = vec![0; keys.len()];
        let out =
            gather::<Bare<K>, _>(Spread, keys, &zeros, (1.0, 1.0), deadline, |k, _, part| {
                part.push(space.canonical(holes.xor(k)), 0);
            })?;
        Ok(out.keys)
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

/// The winning representatives of every level, by search from both ends, for a finish that is
/// one position: forward levels from the start to the middle, and forward levels of the dual
/// problem (start: the finish's complement, whose jumps are the original's undone) to the
/// middle from the other side. A position `p` of level `k` can reach the finish exactly when
/// its complement is reachable in the dual game after `L - k` jumps, so
///
/// - at the middle level `m`, the winners are the forward positions whose complement is in
///   the dual level `L - m`;
/// - below it, the winners are the forward positions that are parents of winners;
/// - above it, the winners are the children of winners whose complement is in the dual level.
///
/// Only about half of each game tree is enumerated; when start and finish are complements of
/// each other (the English central game) the dual levels are the forward ones and one half is
/// enough. Returns `None` when the finish is not a single position.
pub(crate) fn winners_meeting<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Option<Result<Winners<K>, CountError>> {
    let targets: &[Bits<K>] = &problem.targets();
    let [finish] = targets[..] else {
        return None;
    };
    Some(meet(problem, canon, finish, max_memory, deadline))
}

pub(super) fn meet<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    finish: Bits<K>,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Result<Winners<K>, CountError> {
    let m = Meeting::new(problem, finish, false, max_memory, deadline)?;
    let pairs = middle_pairs(&m.space, m.forward_middle(), m.dual_middle());
    winners_from(problem, canon, &m, finish, &pairs, deadline)
}

/// The levels of a meeting in the middle: forward from the start, and forward in the dual game
/// from the finish's complement, each to its side of the middle (when start and finish are
/// complements the dual levels are the forward ones, computed once), with their path counts
/// when asked.
struct Meeting<K: CountKey> {
    space: Space<K>,
    total: usize,
    middle: usize,
    forward: Vec<Vec<K>>,
    forward_counts: PathCounts,
    /// `None` when the problem is its own dual.
    dual: Option<(Vec<Vec<K>>, PathCounts)>,
}

impl<K: CountKey> Meeting<K> {
    /// The levels, each side within `side_memory` bytes.
    fn new(
        problem: &Problem,
        finish: Bits<K>,
        counted: bool,
        side_memory: usize,
        deadline: Stop<'_>,
    ) -> Result<Meeting<K>, CountError> {
        let space = Space::new(problem, true);
        let holes: K = space.layout.holes();
        let total = (problem.start::<K>().count() - finish.count()) as usize;
        let middle = total / 2;
        let start = space.key(problem.start());
        let dual_start = space.canonical(holes.xor(space.layout.key(finish)));
        let self_dual = dual_start == start;
        let reach = if self_dual { total - middle } else { middle };
        let (forward, forward_counts) = levels_counted(
            &space,
            start,
            problem.start::<K>().count(),
            reach,
            side_memory,
            deadline,
            counted,
        )?;
        let dual = if self_dual {
            None
        } else {
            Some(levels_counted(
                &space,
                dual_start,
                holes.count_ones() - finish.count(),
                total - middle,
                side_memory,
                deadline,
                counted,
            )?)
        };
        Ok(Meeting {
            space,
            total,
            middle,
            forward,
            forward_counts,
            dual,
        })
    }

    /// The dual game's levels.
    fn dual_levels(&self) -> &[Vec<K>] {
        self.dual.as_ref().map_or(&self.forward, |d| &d.0)
    }

    fn forward_middle(&self) -> &[K] {
        &self.forward[self.middle]
    }

    /// The dual level that meets the forward middle.
    fn dual_middle(&self) -> &[K] {
        &self.dual_levels()[self.total - self.middle]
    }

    /// Path counts of the dual level that meets the forward middle.
    fn dual_middle_counts(&self) -> &[u128] {
        let counts = self.dual.as_ref().map_or(&self.forward_counts, |d| &d.1);
        &counts[self.total - self.middle]
    }
}

/// The winners of every level from the meeting's levels, given the middle's `pairs`
/// ([`middle_pairs`] of the forward middle and the dual level it meets).
fn winners_from<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    m: &Meeting<K>,
    finish: Bits<K>,
    pairs: &[(u32, u32)],
    deadline: Stop<'_>,
) -> Result<Winners<K>, CountError> {
    let (space, forward, dual) = (&m.space, &m.forward, m.dual_levels());
    let holes = space.layout.holes();
    let (total, middle) = (m.total, m.middle);
    // The middle's winners: reachable from the start, and complements of positions the dual
    // game reaches.
    let mut winners: Winners<K> = vec![Vec::new(); total + 1];
    winners[middle] = pairs
        .iter()
        .map(|&(i, _)| forward[middle][i as usize])
        .collect();
    // Towards the start: parents of winners that are reachable.
    for depth in (0..middle).rev() {
        let pegs = problem.start::<K>().count() - depth as u32 - 1;
        let parents = parents_of(&winners[depth + 1], pegs, space, deadline)?;
        winners[depth] = intersect_sorted(&parents, &forward[depth]);
    }
    // Towards the finish: a position `d` jumps in wins exactly when its complement is a
    // winner of the dual game `total - d` jumps in (reachable there, and its complement
    // reachable here). The dual game's winners below the middle come as the start's do:
    // parents of the next level's winners that the dual levels hold, from the complements of
    // the middle's winners. No child is expanded and nothing is looked up per child.
    let complements = |level: &[K]| -> Vec<K> {
        let mut out: Vec<K> = level
            .par_iter()
            .map(|&k| space.canonical(holes.xor(k)))
            .collect();
        out.par_sort_unstable_by_key(|&k| rank(k));
        out
    };
    let dual_depth = total - middle;
    let dual_pegs = holes.count_ones() - finish.count();
    let mut dual_winners: Vec<Vec<K>> = vec![Vec::new(); dual_depth + 1];
    if m.dual.is_none() {
        // The problem is its own dual (the same start and finish, not only up to symmetry:
        // the group fixes both), so the dual game's winners are the ones just found, and the
        // levels past the middle are their complements.
        for (e, level) in winners.iter().enumerate().take(middle + 1) {
            dual_winners[e].clone_from(level);
        }
    } else {
        dual_winners[dual_depth] = complements(&winners[middle]);
        for e in (0..dual_depth).rev() {
            if deadline.passed() {
                return Err(CountError::Timeout);
            }
            let pegs = dual_pegs - e as u32 - 1;
            let parents = parents_of(&dual_winners[e + 1], pegs, space, deadline)?;
            dual_winners[e] = intersect_sorted(&parents, &dual[e]);
        }
    }
    for depth in middle + 1..=total {
        winners[depth] = complements(&dual_winners[total - depth]);
    }
    let pegs = problem.start::<K>().count();
    Ok(winners
        .iter()
        .enumerate()
        .map(|(depth, w)| space.to_board(w, pegs - depth as u32, canon))
        .collect())
}

/// The middle level's meeting: the pairs `(i, j)` where the complement of `forward[i]` is
/// `dual[j]` up to symmetry, in increasing `i`. Both levels are in [`rank`] order; the
/// complements are canonicalised in parallel, sorted, and merged with the dual level in one
/// pass, which touches memory in order where a search per key would miss the cache each time.
fn middle_pairs<K: CountKey>(space: &Space<K>, forward: &[K], dual: &[K]) -> Vec<(u32, u32)> {
    let holes = space.layout.holes();
    let mut complements: Vec<(K::Rank, u32)> = forward
        .par_iter()
        .enumerate()
        .map(|(i, &k)| (rank(space.canonical(holes.xor(k))), i as u32))
        .collect();
    complements.par_sort_unstable_by_key(|&(r, _)| r);
    let mut pairs = Vec::new();
    let mut j = 0;
    for &(r, i) in &complements {
        while j < dual.len() && rank(dual[j]) < r {
            j += 1;
        }
        if j < dual.len() && rank(dual[j]) == r {
            pairs.push((i, j as u32));
        }
    }
    pairs.par_sort_unstable();
    pairs
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
    let zeros = vec![0; winners.len()];
    let out = gather::<Bare<K>, _>(Spread, winners, &zeros, (8.0, 4.0), stop, |w, _, part| {
        space.for_each_parent(space.unfold(w, pegs), |p| part.push(p, 0));
    })?;
    Ok(out.keys)
}

/// Each level's path counts, beside its keys.
type PathCounts = Vec<Vec<u128>>;

/// The representatives of levels `0..=depth` from one start (the key of a position with
/// `pegs` pegs), each in [`rank`] order, with each level's path counts when `counted` (else
/// none: ones in their place keep the children narrow). A count `T(R)` is the number of jump sequences from the start
/// to any position of the orbit `R`.
pub(super) fn levels_counted<K: CountKey>(
    space: &Space<K>,
    start: K,
    pegs: u32,
    depth: usize,
    max_memory: usize,
    deadline: Stop<'_>,
    counted: bool,
) -> Result<(Vec<Vec<K>>, PathCounts), CountError> {
    let mut out = vec![vec![start]];
    let mut counts = vec![1u128];
    let mut kept: Vec<Vec<u128>> = Vec::new();
    let key_size = std::mem::size_of::<K>();
    let (mut used, mut branching, mut duplication) = (key_size, 1.0f64, 1.0f64);
    while out.len() <= depth {
        if deadline.passed() {
            return Err(CountError::Timeout);
        }
        let keys = out.last().map_or(&[][..], |l| &l[..]);
        let needed =
            used + (keys.len() as f64 * branching * 1.5) as usize * std::mem::size_of::<Child<K>>();
        if needed > max_memory {
            return Err(CountError::Memory {
                level: out.len() as u32,
                needed,
            });
        }
        let level = pegs - (out.len() as u32 - 1);
        let step = Step {
            pegs: level,
            space,
            cut: None,
            branching,
            duplication,
            stop: deadline,
        };
        let next = expand(keys, &counts, step, Spread)?;
        branching = next.children as f64 / keys.len().max(1) as f64;
        duplication = (next.children as f64 / next.keys.len().max(1) as f64).max(1.0);
        used += next.keys.len() * if counted { key_size + 16 } else { key_size };
        if counted {
            kept.push(std::mem::replace(&mut counts, next.counts));
        } else {
            // Path counts are not needed here; ones keep them from growing.
            counts = vec![1; next.keys.len()];
        }
        out.push(next.keys);
    }
    if counted {
        kept.push(counts);
    }
    Ok((out, kept))
}

/// Solutions and winning positions of a problem whose finish is one position, from both
/// ends: forward levels from the start with path counts up to the middle, and forward levels
/// of the dual game (its start the finish's complement, its jumps the original's played
/// backwards) with theirs up to the same middle.
///
/// The identity: a solution passes through exactly one position `P` of the middle level, and
/// the solutions through `P` are the paths from the start to `P` times the paths from `P` to
/// the finish; the latter are the dual game's paths from the finish's complement to `P`'s
/// complement. The group fixes the start and the finish, so every position of an orbit `R` has
/// `T(R) / |R|` paths from the start and `B(R') / |R|` to the finish (`R'` the complements,
/// an orbit of the same size), and the orbit contributes `|R| * T(R)/|R| * B(R')/|R|`:
///
/// ```text
/// solutions = sum over middle orbits R of (T(R) / |R|) * B(R')
/// ```
///
/// with every division exact. The winning positions are the meeting's (`meet`).
pub(crate) fn solutions_meeting<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Option<Result<(u128, Winners<K>), CountError>> {
    let [finish] = problem.targets::<K>()[..] else {
        return None;
    };
    Some((|| {
        // Each side has half the budget, so the whole needs twice what one side lacked.
        let m =
            Meeting::new(problem, finish, true, max_memory / 2, deadline).map_err(|e| match e {
                CountError::Memory { level, needed } => CountError::Memory {
                    level,
                    needed: needed.saturating_mul(2),
                },
                e => e,
            })?;
        let (keys, counts) = (m.forward_middle(), &m.forward_counts[m.middle]);
        let dcounts = m.dual_middle_counts();
        let pairs = middle_pairs(&m.space, keys, m.dual_middle());
        let solutions = pairs
            .par_iter()
            .map(|&(i, j)| -> Result<u128, CountError> {
                let (k, t) = (keys[i as usize], counts[i as usize]);
                let orbit = u128::from(m.space.orbit(k));
                // Every position of the orbit has as many paths: the division is exact, and
                // a remainder is a bug, never rounded away.
                if t % orbit != 0 {
                    return Err(CountError::Internal(
                        "a path count not shared evenly by its orbit",
                    ));
                }
                (t / orbit)
                    .checked_mul(dcounts[j as usize])
                    .ok_or(CountError::Overflow)
            })
            .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(CountError::Overflow))?;
        let winners = winners_from(problem, canon, &m, finish, &pairs, deadline)?;
        Ok((solutions, winners))
    })())
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
