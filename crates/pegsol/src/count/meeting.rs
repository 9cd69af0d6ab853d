//! Solutions and winners of a problem whose finish is one position, by meeting in the middle:
//! forward levels from the start with path counts, forward levels of the dual game (its start
//! the finish's complement, its jumps the original's played backwards) with theirs, and the
//! one jump between the two sides looked up rather than stored.
//!
//! A position `p` after `k` of the game's `L` jumps can reach the finish exactly when its
//! complement is reachable in the dual game after `L - k` jumps (undoing a jump on a position
//! is a jump on its complement). The forward side goes to level `a = L / 2` and the dual side
//! to level `b = L - a - 1`, so that every solution passes through one position `P` of
//! forward level `a` and then one child `C` of `P` whose complement is in dual level `b`. Each
//! child of level `a` is looked up there ([`bridge`]): the level after `a`, the largest of the
//! game where `L` is odd, is never stored. Where the game is its own dual (the finish's
//! complement is the start up to symmetry, as in the English central game), the dual levels
//! are the forward ones, computed once, and `b <= a`.
//!
//! The identity: the group fixes the start and the finish, so every position of an orbit `R`
//! of level `a` has `T(R) / |R|` paths from the start, and a child `C` has `B(Q) / |Q|` paths
//! to the finish, `Q` the orbit of its complement in dual level `b`, `B(Q)` the dual game's
//! paths to it (an orbit and its complements have one size). The paths through `R` are its
//! `|R|` positions times their paths from the start times their paths on, which every
//! position of `R` has alike:
//!
//! ```text
//! solutions = sum over orbits R of level a of T(R) * (sum over the jumps j of R's
//!             representative whose child's complement is in Q_j of B(Q_j) / |Q_j|)
//! ```
//!
//! with every division exact (a remainder is a bug, reported, never rounded away). The
//! winners of level `a` are the orbits with such a jump, and those of dual level `b` the
//! orbits such a jump reaches; the winners below level `a` are the parents of the next level's
//! winners that the forward levels hold, those of the dual levels below `b` likewise, and the
//! winners of level `L - e` (for `e <= b`) are the complements of the dual winners of level
//! `e`. No child is stored, and nothing but the bridge is looked up per child.

use rayon::prelude::*;

use crate::bitset::Bits;
use crate::count::cut::Cut;
use crate::count::lookup::{self, Placed};
use crate::count::packed::{rank, Bare, Child, Spread};
use crate::count::step::{expand, expand_with, Step};
use crate::count::winners::Winners;
use crate::count::CountError;
use crate::key::CountKey;
use crate::problem::Problem;
use crate::space::Space;
use crate::stop::Stop;
use crate::symmetry::Canonicalizer;
use crate::table::prefetch;

/// The winning representatives of every level, by search from both ends, for a finish that
/// is one position (see the module docs), as board positions canonical under `canon` (from
/// [`group_of`](crate::space::group_of)). `None` when the finish is not one position.
pub(crate) fn winners_meeting<K: CountKey>(
    problem: &Problem,
    canon: &Canonicalizer<K>,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Option<Result<Winners<K>, CountError>> {
    let [finish] = problem.targets::<K>()[..] else {
        return None;
    };
    Some((|| {
        let m = Meeting::new(problem, finish, false, max_memory, deadline)?;
        let bridged = m.bridge(deadline)?;
        let winners = m.winners(problem, bridged, deadline)?;
        let pegs = problem.start::<K>().count();
        Ok(winners
            .iter()
            .enumerate()
            .map(|(depth, w)| m.space.to_board(w, pegs - depth as u32, canon))
            .collect())
    })())
}

/// Per level, the winning positions and their orbits: `(positions, classes)`.
pub(crate) type WinningFigures = Vec<(u64, u64)>;

/// The solutions of a problem whose finish is one position, and per level its winning
/// positions and their orbits `(positions, classes)` (see the module docs); `None` when the
/// finish is not one position.
pub(crate) fn solutions_meeting<K: CountKey>(
    problem: &Problem,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Option<Result<(u128, WinningFigures), CountError>> {
    let [finish] = problem.targets::<K>()[..] else {
        return None;
    };
    Some((|| {
        let m = Meeting::new(problem, finish, true, max_memory, deadline)?;
        let bridged = m.bridge(deadline)?;
        let solutions = bridged.solutions;
        let winners = m.winners(problem, bridged, deadline)?;
        let space = &m.space;
        let winning = winners
            .par_iter()
            .map(|level| {
                // An orbit and its complements have one size, so a folded key gives it too.
                let positions = level.iter().map(|&k| space.orbit(k)).sum();
                (positions, level.len() as u64)
            })
            .collect();
        Ok((solutions, winning))
    })())
}

/// Path counts of some levels, beside their keys (empty for the others).
type PathCounts = Vec<Vec<u128>>;

/// The levels of a meeting: forward from the start to level `a`, and forward in the dual
/// game from the finish's complement to level `b = total - a - 1` (when the game is its own
/// dual, the forward levels serve both), with their path counts when asked.
struct Meeting<K: CountKey> {
    space: Space<K>,
    /// Jumps from the start to the finish.
    total: usize,
    /// The last forward level, `total / 2`.
    a: usize,
    forward: Vec<Vec<K>>,
    forward_counts: PathCounts,
    /// `None` when the problem is its own dual.
    dual: Option<(Vec<Vec<K>>, PathCounts)>,
    /// Pegs of the start, and of the dual game's start.
    pegs: u32,
    dual_pegs: u32,
    /// The finish's key.
    finish: K,
}

/// What the jump between the two sides gives: the solutions (0 when paths are not counted),
/// and which representatives of forward level `a` and of dual level `b` it joins, by index.
struct Bridged {
    solutions: u128,
    forward: Vec<u32>,
    dual: Vec<u32>,
}

impl<K: CountKey> Meeting<K> {
    /// The levels, within `max_memory` bytes (each side within half, where there are two).
    fn new(
        problem: &Problem,
        finish: Bits<K>,
        counted: bool,
        max_memory: usize,
        deadline: Stop<'_>,
    ) -> Result<Meeting<K>, CountError> {
        // Where the game is its own dual on a board with an odd number of holes, a position
        // and its complement share a key: the bridge then looks each child up as it is.
        let space = Space::folded(problem, true);
        let holes: K = space.layout.holes();
        let pegs = problem.start::<K>().count();
        let total = (pegs - finish.count()) as usize;
        let a = total / 2;
        let start = space.key(problem.start());
        let dual_start = space.canonical(holes.xor(space.layout.key(finish)));
        let dual_pegs = holes.count_ones() - finish.count();
        let self_dual = dual_start == start;
        // Each side has half the budget where there are two, so the whole needs twice
        // what one side lacked. A side's budget holds its levels and the table of its last
        // level (the bridge looks the dual one up; the forward one's is a margin).
        let side = if self_dual {
            max_memory
        } else {
            max_memory / 2
        };
        let whole = |e| match e {
            CountError::Memory { level, needed } if !self_dual => CountError::Memory {
                level,
                needed: needed.saturating_mul(2),
            },
            e => e,
        };
        // Path counts are read at the bridge only: forward level `a` and dual level `b`.
        let b = total.saturating_sub(a + 1);
        let (at_a, at_b, at_both) = ([a], [b], [a, b]);
        // Positions that cannot reach the finish are cut from the forward levels, and those
        // that cannot reach the dual finish (the start's complement) from the dual ones:
        // every position on a path to a winning one is winning, so no count read at the
        // bridge changes.
        let cut = Cut::pruning(problem, &space.layout);
        let (forward, forward_counts) = levels_counted(
            &space,
            start,
            pegs,
            a,
            side,
            deadline,
            counted.then_some(if self_dual { &at_both[..] } else { &at_a[..] }),
            cut.as_ref(),
        )
        .map_err(whole)?;
        let dual = if self_dual || total == 0 {
            None
        } else {
            let dual_cut = Cut::dual_pruning(problem, finish, &space.layout);
            Some(
                levels_counted(
                    &space,
                    dual_start,
                    dual_pegs,
                    b,
                    side,
                    deadline,
                    counted.then_some(&at_b[..]),
                    dual_cut.as_ref(),
                )
                .map_err(whole)?,
            )
        };
        Ok(Meeting {
            total,
            a,
            forward,
            forward_counts,
            dual,
            pegs,
            dual_pegs,
            finish: space.key(finish),
            space,
        })
    }

    /// The dual game's levels.
    fn dual_levels(&self) -> &[Vec<K>] {
        self.dual.as_ref().map_or(&self.forward, |d| &d.0)
    }

    /// The dual game's path counts (empty levels where they are not counted).
    fn dual_counts(&self) -> &PathCounts {
        self.dual.as_ref().map_or(&self.forward_counts, |d| &d.1)
    }

    /// Every child of forward level `a`, its complement looked up in dual level `b`.
    ///
    /// A child found there is kept as its slot in the dual level's table and its parent's
    /// index; afterwards the kept ones are sorted (slots follow the dual level's order) and
    /// summed per dual orbit, so that each dual orbit's count is read once and in order, not
    /// once per child.
    fn bridge(&self, deadline: Stop<'_>) -> Result<Bridged, CountError> {
        let space = &self.space;
        let keys = &self.forward[self.a];
        if self.total == 0 {
            // No jump: the start is the finish, or the game has no solution (the group fixes
            // both, so alike up to symmetry is alike).
            let same = keys.first() == Some(&self.finish);
            return Ok(Bridged {
                solutions: u128::from(same),
                forward: if same { vec![0] } else { Vec::new() },
                dual: Vec::new(),
            });
        }
        let b = self.total - self.a - 1;
        let dual = &self.dual_levels()[b];
        let table = Placed::new(dual);
        let pegs = self.pegs - self.a as u32;
        let counts = Some(&self.forward_counts[self.a]).filter(|c| !c.is_empty());
        // Slots and parents are numbered in 32 bits.
        if table.slots() > u32::MAX as usize || keys.len() > u32::MAX as usize {
            return Err(CountError::Internal("a level too large to look up"));
        }
        if counts.is_none() {
            return self.bridge_keys(&table, keys, pegs, deadline);
        }
        // Per chunk: the parents with a child found (in order), and the children found, each
        // as its slot in the dual table and its parent's index in one word.
        let parts = look_up_all(
            &table,
            keys,
            deadline,
            |k, parent, stage| {
                let position = space.unfold(k, pegs);
                space.for_each_child_complement(position, |q| stage.push((q, parent)));
            },
            |(winners, found): &mut (Vec<u32>, Vec<u64>), slot, parent| {
                if winners.last() != Some(&parent) {
                    winners.push(parent);
                }
                found.push((slot as u64) << 32 | u64::from(parent));
            },
        )?;
        let mut forward = Vec::new();
        let mut found = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
        for (w, f) in parts {
            forward.extend(w);
            found.extend(f);
        }
        found.par_sort_unstable();
        // The dual orbits reached, in order, with the paths from the start into them (the
        // parents' counts read a few ahead of their use, as they are scattered).
        let mut reached: Vec<(u32, u128)> = Vec::new();
        let slots = found.iter().map(|&f| (f >> 32) as usize);
        let parent = |i: usize| found[i] as u32 as usize;
        for (i, j) in table.indices(slots).enumerate() {
            let t = match counts {
                Some(c) => {
                    if let Some(&ahead) = found.get(i + 16) {
                        prefetch(c.as_ptr().wrapping_add(ahead as u32 as usize));
                    }
                    c[parent(i)]
                }
                None => 0,
            };
            match reached.last_mut() {
                Some((at, sum)) if *at as usize == j => {
                    *sum = sum.checked_add(t).ok_or(CountError::Overflow)?;
                }
                _ => reached.push((j as u32, t)),
            }
        }
        let dual_counts = Some(&self.dual_counts()[b]).filter(|c| !c.is_empty());
        let solutions = match dual_counts {
            None => 0,
            Some(dual_counts) => reached
                .par_iter()
                .map(|&(j, t)| -> Result<u128, CountError> {
                    // Paths from each position of the dual orbit: its count over its size.
                    let (k, c) = (dual[j as usize], dual_counts[j as usize]);
                    let orbit = u128::from(space.orbit(k));
                    if c % orbit != 0 {
                        return Err(CountError::Internal(
                            "a path count not shared evenly by its orbit",
                        ));
                    }
                    t.checked_mul(c / orbit).ok_or(CountError::Overflow)
                })
                .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(CountError::Overflow))?,
        };
        Ok(Bridged {
            solutions,
            forward,
            dual: reached.into_iter().map(|(j, _)| j).collect(),
        })
    }

    /// [`Meeting::bridge`] where no path is counted: the parents with a child found, and
    /// the dual orbits found, marked in the table rather than gathered and sorted (not even
    /// marked where the game is its own dual: its dual winners are the forward ones).
    fn bridge_keys(
        &self,
        table: &Placed<K>,
        keys: &[K],
        pegs: u32,
        deadline: Stop<'_>,
    ) -> Result<Bridged, CountError> {
        let space = &self.space;
        let marks = self.dual.as_ref().map(|_| lookup::marks(table.slots()));
        let parts = look_up_all(
            table,
            keys,
            deadline,
            |k, parent, stage| {
                let position = space.unfold(k, pegs);
                space.for_each_child_complement(position, |q| stage.push((q, parent)));
            },
            |winners: &mut Vec<u32>, slot, parent| {
                if winners.last() != Some(&parent) {
                    winners.push(parent);
                }
                if let Some(marks) = &marks {
                    lookup::mark(marks, slot);
                }
            },
        )?;
        // The marked orbits' indices in the dual level.
        let dual = marks.as_ref().map_or_else(Vec::new, |marks| {
            table
                .indices(lookup::marked_slots(marks))
                .map(|j| j as u32)
                .collect()
        });
        Ok(Bridged {
            solutions: 0,
            forward: parts.concat(),
            dual,
        })
    }

    /// The winning representatives of every level as keys of the space, each level in
    /// [`rank`] order, from what the bridge joined.
    fn winners(
        &self,
        problem: &Problem,
        bridged: Bridged,
        deadline: Stop<'_>,
    ) -> Result<Winners<K>, CountError> {
        let (space, total, a) = (&self.space, self.total, self.a);
        let holes = space.layout.holes();
        let pegs = problem.start::<K>().count();
        let mut winners: Winners<K> = vec![Vec::new(); total + 1];
        winners[a] = bridged
            .forward
            .iter()
            .map(|&i| self.forward[a][i as usize])
            .collect();
        // Towards the start: parents of winners that are reachable.
        for depth in (0..a).rev() {
            let next = &winners[depth + 1];
            let pegs = pegs - depth as u32 - 1;
            winners[depth] = parents_in(space, next, pegs, &self.forward[depth], deadline)?;
        }
        if total == 0 {
            return Ok(winners);
        }
        // The dual game's winners, from those the bridge reached the same way; where the
        // game is its own dual they are the forward winners (the bridge reached those).
        let b = total - a - 1;
        let dual_winners: Winners<K> = if self.dual.is_none() {
            winners[..=b].to_vec()
        } else {
            let levels = self.dual_levels();
            let mut found: Winners<K> = vec![Vec::new(); b + 1];
            found[b] = bridged
                .dual
                .iter()
                .map(|&j| levels[b][j as usize])
                .collect();
            for e in (0..b).rev() {
                if deadline.passed() {
                    return Err(CountError::Timeout);
                }
                let pegs = self.dual_pegs - e as u32 - 1;
                found[e] = parents_in(space, &found[e + 1], pegs, &levels[e], deadline)?;
            }
            found
        };
        // The winners past level `a` are the complements of the dual winners.
        for (e, level) in dual_winners.into_iter().enumerate() {
            winners[total - e] = if space.fold.is_zero() {
                let pegs = self.dual_pegs - e as u32;
                let mut out: Vec<K> = level
                    .par_iter()
                    .map(|&k| space.canonical(holes.xor(space.unfold(k, pegs))))
                    .collect();
                out.par_sort_unstable_by_key(|&k| rank(k));
                out
            } else {
                // A folded key stands for the complement's orbit too.
                level
            };
        }
        Ok(winners)
    }
}

/// Keys staged before their lookups.
const STAGE: usize = 1024;

/// Looks up in `table` the keys `each` stages for every item of `items` (each staged with a
/// tag, such as the item's index, which `each` is given), in parallel chunks of items and a
/// batch at a time ([`Placed::find_all`]). `hit` gets its chunk's state, the slot found and
/// the tag, in the items' order; the states come back in the chunks' order.
pub(super) fn look_up_all<K: CountKey, S: Default + Send>(
    table: &Placed<K>,
    items: &[K],
    deadline: Stop<'_>,
    each: impl Fn(K, u32, &mut Vec<(K, u32)>) + Sync,
    hit: impl Fn(&mut S, usize, u32) + Sync,
) -> Result<Vec<S>, CountError> {
    let chunk = (items.len() / (rayon::current_num_threads() * 8)).max(1024);
    items
        .par_chunks(chunk)
        .enumerate()
        .map(|(c, ks)| {
            let mut state = S::default();
            let mut stage: Vec<(K, u32)> = Vec::with_capacity(STAGE + 256);
            for (i, &k) in ks.iter().enumerate() {
                if i % 4096 == 4095 && deadline.passed() {
                    return Err(CountError::Timeout);
                }
                each(k, (c * chunk + i) as u32, &mut stage);
                if stage.len() >= STAGE {
                    table.find_all(&mut stage, |slot, tag| hit(&mut state, slot, tag));
                }
            }
            table.find_all(&mut stage, |slot, tag| hit(&mut state, slot, tag));
            Ok(state)
        })
        .collect()
}

/// The keys of `level` (positions with `pegs - 1` pegs, in [`rank`] order) that are parents
/// of some of `winners` (positions with `pegs` pegs), in [`rank`] order: each winner's
/// parents looked up in the level.
fn parents_in<K: CountKey>(
    space: &Space<K>,
    winners: &[K],
    pegs: u32,
    level: &[K],
    deadline: Stop<'_>,
) -> Result<Vec<K>, CountError> {
    if winners.is_empty() || level.is_empty() {
        return Ok(Vec::new());
    }
    let table = Placed::new(level);
    let marks = lookup::marks(table.slots());
    look_up_all(
        &table,
        winners,
        deadline,
        |w, _, stage| space.for_each_parent(space.unfold(w, pegs), |p| stage.push((p, 0))),
        |(): &mut (), slot, _| lookup::mark(&marks, slot),
    )?;
    Ok(table.marked(&marks))
}

/// The representatives of levels `0..=depth` from one start (the key of a position with
/// `pegs` pegs), each in [`rank`] order, with the path counts of the levels `counted` names
/// (empty for the others, and for all where it is `None`: then the levels are gathered on
/// keys alone). A count `T(R)` is the number of jump sequences from the start to any
/// position of the orbit `R`. Where `cut` is given, the positions it drops are left out of
/// every level after the start, their paths with them: a position `cut` keeps whenever it
/// can reach a finish keeps its exact count, as every path to it runs through such positions.
#[allow(clippy::too_many_arguments)]
pub(super) fn levels_counted<K: CountKey>(
    space: &Space<K>,
    start: K,
    pegs: u32,
    depth: usize,
    max_memory: usize,
    deadline: Stop<'_>,
    counted: Option<&[usize]>,
    cut: Option<&Cut<K>>,
) -> Result<(Vec<Vec<K>>, PathCounts), CountError> {
    let mut out = vec![vec![start]];
    let mut counts = vec![1u128];
    let mut kept: PathCounts = Vec::new();
    let keep = |level: usize| counted.is_some_and(|c| c.contains(&level));
    let key_size = std::mem::size_of::<K>();
    let (mut used, mut branching, mut duplication) = (key_size, 1.0f64, 1.0f64);
    while out.len() <= depth {
        if deadline.passed() {
            return Err(CountError::Timeout);
        }
        let keys = out.last().map_or(&[][..], |l| &l[..]);
        // The children as they are gathered (with a margin over the forecast), then the next
        // level's keys and counts, and this level's counts.
        let children = keys.len() as f64 * branching;
        let (child_size, distinct_size) = match counted {
            Some(_) => (std::mem::size_of::<Child<K>>(), key_size + 16),
            None => (key_size, 2 * key_size),
        };
        let needed = used
            + (children * 1.5) as usize * child_size
            + (children / duplication) as usize * distinct_size
            + counts.len() * 16;
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
        let mut next = match counted {
            Some(_) => expand(keys, &counts, step, Spread)?,
            // Keys alone where no path count is wanted: 8-byte children, not 16 (English
            // central game, one thread: the levels in 0.77-0.81 s against 0.95-0.99 s).
            None => expand_with::<Bare<K>, _>(keys, &[], step, Spread)?,
        };
        branching = next.children as f64 / keys.len().max(1) as f64;
        duplication = (next.children as f64 / next.keys.len().max(1) as f64).max(1.0);
        if let Some(cut) = cut {
            // Once per distinct child, not per child: most children are duplicates.
            (next.keys, next.counts) = cut_level(space, cut, level - 1, next.keys, next.counts);
        }
        used += next.keys.len() * key_size;
        // Empty where no path count is wanted.
        let done = std::mem::replace(&mut counts, next.counts);
        if keep(kept.len()) {
            used += done.len() * 16;
            kept.push(done);
        } else {
            kept.push(Vec::new());
        }
        out.push(next.keys);
    }
    // The last level is met by the bridge, whose table takes about as much room again.
    let last = out.last().map_or(0, Vec::len);
    let needed = used + counts.len() * 16 + Placed::<K>::bytes(last);
    if needed > max_memory {
        return Err(CountError::Memory {
            level: out.len() as u32,
            needed,
        });
    }
    kept.push(if keep(kept.len()) { counts } else { Vec::new() });
    Ok((out, kept))
}

/// The keys of a level (of positions with `pegs` pegs) that `cut` keeps, with their counts,
/// in their order.
fn cut_level<K: CountKey>(
    space: &Space<K>,
    cut: &Cut<K>,
    pegs: u32,
    keys: Vec<K>,
    counts: Vec<u128>,
) -> (Vec<K>, Vec<u128>) {
    let keeps: Vec<bool> = keys
        .par_iter()
        .map(|&k| cut.keeps(space.unfold(k, pegs)))
        .collect();
    if keeps.iter().all(|&k| k) {
        return (keys, counts);
    }
    fn kept<T: Copy>(v: &[T], keeps: &[bool]) -> Vec<T> {
        v.iter().zip(keeps).filter(|p| *p.1).map(|p| *p.0).collect()
    }
    let counts = if counts.len() == keys.len() {
        kept(&counts, &keeps)
    } else {
        counts
    };
    (kept(&keys, &keeps), counts)
}
