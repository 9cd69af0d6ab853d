//! Whether a problem whose finish is one position can be won at all: the meeting in the
//! middle of [`meeting`](super::meeting) on keys alone, with no path counts and no level but
//! the last kept, each level gathered in as many passes as the memory budget needs.
//!
//! The game has `L` jumps from the start to the finish. As in the full meeting, a solution
//! exists exactly when some child `C` of a position of forward level `a = L / 2` has its
//! complement in level `b = L - a - 1` of the dual game (from the finish's complement, whose
//! jumps are the original's played backwards): the solution's position after `a` jumps is
//! reachable from the start, its next one `C` reaches the finish in `b` jumps, so `C`'s
//! complement is reached from the finish's complement in `b` (undoing a jump on a position is a
//! jump on its complement), and the converse reads the same steps backwards. Positions that
//! pagoda functions show cannot reach the finish are cut from the forward levels, and those
//! that cannot reach the start's complement from the dual ones: every position on a solution
//! reaches its finish, so no solution's positions are cut, and the answer does not change.
//!
//! What this saves over the full meeting: a level is expanded into its children bucket range
//! by bucket range (the next level is stored in [`rank`](super::packed::rank) order, whose top
//! byte is the bucket, so the passes' outputs side by side are the level), so the children
//! in memory at once are a fraction of the level's; a child is a key alone, without its path
//! count; and the levels before the last are dropped. Generating the children once per pass
//! costs time, not memory. Where a symmetry of the board maps the game onto its dual (swaps
//! a single vacancy and a single-peg finish), one side is built for both ([`Mirror`]). The
//! answer is the full count's (a test checks it against the solution count, and the catalog's
//! against brute force); a winning line then comes from the full methods.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bitset::Bits;
use crate::count::cut::Cut;
use crate::count::lookup::Placed;
use crate::count::meeting::look_up_all;
use crate::count::packed::{Bare, Child, Narrow, Packed, Ranking, Spread, BUCKETS};
use crate::count::step::{gather, Expanded, Forecast};
use crate::count::CountError;
use crate::key::CountKey;
use crate::problem::Problem;
use crate::space::Space;
use crate::stop::Stop;
use crate::symmetry::{Canonicalizer, WIDE};
use crate::Pegs;

/// The least room, in bytes, a pass of children may have: below it the passes would be too
/// many to be worth running.
const LEAST_ROOM: usize = 32 << 20;

/// Whether `problem` can be won, found within `max_memory` bytes (see the module docs);
/// `None` when its finish is not one position.
pub(crate) fn winnable_meeting<K: CountKey>(
    problem: &Problem,
    max_memory: usize,
    deadline: Stop<'_>,
) -> Option<Result<bool, CountError>> {
    let [finish] = problem.targets::<K>()[..] else {
        return None;
    };
    Some(winnable(problem, finish, max_memory, 1, deadline))
}

/// [`winnable_meeting`] for the one finish `finish`, each level gathered in at least
/// `passes` passes (more where the budget needs them).
pub(super) fn winnable<K: CountKey>(
    problem: &Problem,
    finish: Bits<K>,
    max_memory: usize,
    passes: usize,
    deadline: Stop<'_>,
) -> Result<bool, CountError> {
    let space = Space::<K>::folded(problem, true);
    let holes: K = space.layout.holes();
    let start = space.key(problem.start());
    let pegs = problem.start::<K>().count();
    let Some(total) = pegs.checked_sub(finish.count()).map(|t| t as usize) else {
        return Ok(false);
    };
    if total == 0 {
        // The group fixes the start and the finish: alike up to symmetry is alike.
        return Ok(start == space.key(finish));
    }
    let a = total / 2;
    let b = total - a - 1;
    let dual_start = space.canonical(holes.xor(space.layout.key(finish)));
    let dual_pegs = holes.count_ones() - finish.count();
    let cut = Cut::new(problem, &space.layout);
    let key_size = std::mem::size_of::<K>();
    let mut forward = Levels::new(&space, start, pegs, Some(&cut), passes, deadline, false);
    // A symmetry `g` that maps the game onto its dual makes dual level `b` the image of
    // forward level `b`, and the bridge looks up `g` of each child's complement in the
    // forward level (see `Mirror`).
    let mirror = if dual_start == start {
        None
    } else {
        dual_symmetry(problem).map(|g| Mirror::new(&space, problem, g))
    };
    let dual: Option<Vec<K>> = if dual_start == start || mirror.is_some() {
        // One side serves both. Where the game is its own dual (see the module docs of the
        // meeting), what cannot reach the finish is cut from both, as the dual levels'
        // positions must reach the start's complement, which is the finish; where a symmetry
        // maps it onto its dual, the image of the cut level holds every dual position that
        // reaches the dual finish. `b` is `a` or `a - 1`: the latter is kept aside.
        forward.advance_to(b, max_memory, 0)?;
        (b < a)
            .then(|| {
                let dual = forward.level.clone();
                let held = dual.len() * key_size;
                forward.advance_to(a, max_memory, held).map(|()| dual)
            })
            .transpose()?
    } else {
        forward.advance_to(a, max_memory, 0)?;
        let held = forward.level.len() * key_size;
        let dual_cut = Cut::dual(problem, finish, &space.layout);
        let mut dual = Levels::new(
            &space,
            dual_start,
            dual_pegs,
            dual_cut.as_ref(),
            passes,
            deadline,
            false,
        );
        dual.advance_to(b, max_memory, held)?;
        Some(dual.level)
    };
    let forward = forward.level;
    let dual_len = dual.as_ref().map_or(forward.len(), Vec::len);
    if forward.is_empty() || dual_len == 0 {
        return Ok(false);
    }
    // The forward level, the dual one where it is another, and the table of the dual one.
    // The steps' passes left none of their room behind (see `Levels::step`), so this is
    // the peak from here on.
    let needed = (forward.len() + dual.as_ref().map_or(0, Vec::len)) * key_size
        + Placed::<K>::bytes(dual_len);
    if needed > max_memory {
        return Err(CountError::Memory {
            level: a as u32,
            needed,
        });
    }
    let table = Placed::new(dual.as_deref().unwrap_or(&forward));
    drop(dual);
    let pegs_a = pegs - a as u32;
    let found = AtomicBool::new(false);
    look_up_all(
        &table,
        &forward,
        deadline,
        |k, _, stage| {
            if !found.load(Ordering::Relaxed) {
                let position = space.unfold(k, pegs_a);
                match &mirror {
                    Some(m) => m.for_each_child_complement(position, |q| stage.push((q, 0))),
                    None => space.for_each_child_complement(position, |q| stage.push((q, 0))),
                }
            }
        },
        |(): &mut (), _, _| found.store(true, Ordering::Relaxed),
    )?;
    Ok(found.into_inner())
}

/// One side's levels, the last alone kept, with its path counts where they are counted.
pub(super) struct Levels<'a, K: CountKey> {
    space: &'a Space<K>,
    /// Representatives of the last level, in [`rank`](super::packed::rank) order.
    pub(super) level: Vec<K>,
    /// Their path counts (as in [`levels_counted`](super::meeting::levels_counted)), or
    /// nothing where paths are not counted.
    pub(super) counts: Vec<u128>,
    counted: bool,
    /// Its depth, and the pegs of its positions.
    pub(super) depth: usize,
    pegs: u32,
    cut: Option<&'a Cut<K>>,
    /// Children the cut kept per parent, and per distinct child, in the last step: they
    /// forecast the next.
    branching: f64,
    duplication: f64,
    /// The fewest passes a level is gathered in.
    passes: usize,
    /// The least room a pass may have ([`LEAST_ROOM`]; the tests lower it, so that the
    /// small boards' levels meet budgets that need several passes).
    least_room: usize,
    deadline: Stop<'a>,
}

impl<'a, K: CountKey> Levels<'a, K> {
    /// The levels from `start` (the key of a position with `pegs` pegs), cut by `cut`, with
    /// path counts where `counted`.
    pub(super) fn new(
        space: &'a Space<K>,
        start: K,
        pegs: u32,
        cut: Option<&'a Cut<K>>,
        passes: usize,
        deadline: Stop<'a>,
        counted: bool,
    ) -> Levels<'a, K> {
        Levels {
            space,
            level: vec![start],
            counts: if counted { vec![1] } else { Vec::new() },
            counted,
            depth: 0,
            pegs,
            cut,
            branching: 1.0,
            duplication: 1.0,
            passes,
            least_room: LEAST_ROOM,
            deadline,
        }
    }

    /// A copy of these levels' state, to step on from twice (tests).
    #[cfg(test)]
    fn clone_level(&self) -> Levels<'a, K> {
        Levels {
            level: self.level.clone(),
            counts: self.counts.clone(),
            ..*self
        }
    }

    /// Steps on to level `depth`, within `max_memory` bytes of which `held` are taken
    /// elsewhere.
    pub(super) fn advance_to(
        &mut self,
        depth: usize,
        max_memory: usize,
        held: usize,
    ) -> Result<(), CountError> {
        while self.depth < depth && !self.level.is_empty() {
            self.step(max_memory.saturating_sub(held))?;
        }
        Ok(())
    }

    /// The next level, in as many passes over the children as `budget` bytes need. Each
    /// pass's room goes back to the system when it ends (a step's children of a few tens of
    /// megabytes stay with the allocator, in the tenth of the budget left to it: see
    /// [`room`]), so what is built after the step (the bridge's lookup table) needs no room
    /// beside the passes. Returns the passes run.
    fn step(&mut self, budget: usize) -> Result<usize, CountError> {
        if self.deadline.passed() {
            return Err(CountError::Timeout);
        }
        // The first steps are small: a margin on a forecast of a few children is nothing.
        let children = (self.level.len() as f64 * self.branching.max(4.0) * 1.2) as usize;
        let distinct = (children as f64 / self.duplication) as usize;
        let fixed = self.fixed(distinct);
        let room = room(budget, fixed);
        let all = (children as f64 * self.child_bytes(self.duplication)) as usize;
        let needed_passes = all.div_ceil(room.max(1));
        let least = self.least_room.min(all);
        if room < least || needed_passes > BUCKETS {
            return Err(CountError::Memory {
                level: self.depth as u32 + 1,
                needed: fixed + (all / BUCKETS).max(least),
            });
        }
        let passes = needed_passes.max(self.passes).min(BUCKETS);
        // The most buckets a pass may take: the fewest passes asked for (tests ask for more).
        let widest = BUCKETS / self.passes.clamp(1, BUCKETS);
        let mut next: Vec<K> = Vec::with_capacity(distinct);
        let mut next_counts: Vec<u128> =
            Vec::with_capacity(if self.counted { distinct } else { 0 });
        let mut made = 0;
        // The first pass takes the forecast's share of the buckets; each later one as many
        // as fit by what the passes before measured (see `Levels::width`).
        let mut width = BUCKETS / passes;
        let (mut done, mut run) = (0, 0);
        while done < BUCKETS {
            run += 1;
            let range = done..(done + width).min(BUCKETS);
            let per_bucket = if done == 0 {
                self.branching / BUCKETS as f64
            } else {
                made as f64 / done as f64 / self.level.len().max(1) as f64
            };
            let forecast = Forecast {
                branching: per_bucket * range.len() as f64,
                duplication: self.duplication,
                buckets: range.clone(),
            };
            let out = self.pass(&range, &forecast)?;
            made += out.children;
            next.extend_from_slice(&out.keys);
            next_counts.extend_from_slice(&out.counts);
            drop(out);
            done = range.end;
            if all > self.least_room {
                // What the pass freed goes back to the system: the plan gives later steps
                // less room than this one, which a heap that kept this room would pass.
                crate::memory::give_back_free_memory();
            }
            if done < BUCKETS {
                width = self
                    .width(budget, (&mut next, &mut next_counts), made, done)?
                    .min(widest);
            }
        }
        self.branching = made as f64 / self.level.len().max(1) as f64;
        self.duplication = (made as f64 / next.len().max(1) as f64).max(1.0);
        self.level = next;
        self.counts = next_counts;
        self.depth += 1;
        self.pegs -= 1;
        Ok(run)
    }

    /// The children of this level in the buckets `range` (see [`Levels::step`]), summed; with
    /// path counts in 64 bits where they fit, else in 128.
    fn pass(&self, range: &Range<usize>, forecast: &Forecast) -> Result<Expanded<K>, CountError> {
        if !self.counted {
            return self.pass_as::<Bare<K>>(range, forecast);
        }
        if self.counts.iter().all(|&c| c <= u128::from(u64::MAX)) {
            match self.pass_as::<Narrow<K>>(range, forecast) {
                Err(CountError::Overflow) => {}
                done => return done,
            }
        }
        self.pass_as::<Child<K>>(range, forecast)
    }

    /// [`Levels::pass`] with children packed as `C`.
    fn pass_as<C: Packed<K = K>>(
        &self,
        range: &Range<usize>,
        forecast: &Forecast,
    ) -> Result<Expanded<K>, CountError> {
        let (space, pegs, cut) = (self.space, self.pegs, self.cut);
        gather::<C, _>(
            Spread,
            &self.level,
            &self.counts,
            forecast,
            self.deadline,
            |key, count, part| {
                let k = space.unfold(key, pegs);
                let images = space.images_of(k);
                // The parent's pagoda totals, found for the first child in range.
                let mut totals = None;
                space.for_each_child_of(k, images.as_ref(), |_, slot, child| {
                    // The cut before the child is pushed: a pass keeps only its range,
                    // and most of that range's children would be cut once summed. It
                    // reads the child itself, not its key: a symmetry of the group
                    // fixes the finish, so either reaches it or neither does.
                    if range.contains(&Spread.bucket(child))
                        && cut.is_none_or(|c| {
                            c.keeps_child(totals.get_or_insert_with(|| c.totals(k)), slot)
                        })
                    {
                        part.push(child, count);
                    }
                });
            },
        )
    }

    /// The bytes a stored representative takes: its key, and its path count where counted.
    fn entry_bytes(&self) -> usize {
        std::mem::size_of::<K>() + if self.counted { 16 } else { 0 }
    }

    /// The bytes that stay through a step: this level and the next one of `next` keys.
    fn fixed(&self, next: usize) -> usize {
        (self.level.len() + next) * self.entry_bytes()
    }

    /// The bytes a child takes while its pass runs, where `duplication` children make a
    /// distinct key: in its bucket (with a margin for the bucket's growth), then its share of
    /// the pass's sorted run and of its copy. A counted child is reckoned at 64 bits of count:
    /// a pass whose sums pass them is redone wider, after the narrow one is gone.
    fn child_bytes(&self, duplication: f64) -> f64 {
        let key_size = std::mem::size_of::<K>() as f64;
        let child = if self.counted {
            std::mem::size_of::<Narrow<K>>() as f64
        } else {
            key_size
        };
        child * 1.5 + 2.0 * self.entry_bytes() as f64 / duplication
    }

    /// How many buckets the next pass of a step may take, measured on the `done` buckets
    /// whose `made` children summed to `next`: children spread evenly over the buckets (their
    /// ranks are), so the passes so far give the rest's children and distinct keys per bucket
    /// more closely than the step's forecast did. The rest of the level is reserved in `next`
    /// now, so that it never doubles while passes fill it.
    fn width(
        &self,
        budget: usize,
        (next, next_counts): (&mut Vec<K>, &mut Vec<u128>),
        made: usize,
        done: usize,
    ) -> Result<usize, CountError> {
        let children = made as f64 / done as f64;
        let distinct = next.len() as f64 / done as f64;
        // A twentieth more than the measure for the rest of the level.
        let total = next.len() + (distinct * (BUCKETS - done) as f64 * 1.05) as usize;
        if total > next.capacity() {
            next.reserve_exact(total - next.len());
        }
        if self.counted && total > next_counts.capacity() {
            next_counts.reserve_exact(total - next_counts.len());
        }
        // What `next` holds past `total` is never touched, so never resident.
        let fixed = self.fixed(total);
        let duplication = (children / distinct.max(1.0)).max(1.0);
        let per_bucket = children * self.child_bytes(duplication);
        let width = (room(budget, fixed) as f64 / per_bucket.max(1.0)) as usize;
        if width == 0 {
            return Err(CountError::Memory {
                level: self.depth as u32 + 1,
                needed: fixed + per_bucket as usize,
            });
        }
        Ok(width)
    }
}

/// The room a step's passes have in `budget` bytes beside the `fixed` ones: a tenth of the
/// budget is left to the allocator's own keeping and to the process (the diamond's
/// d2 -> f8 went 3% past the budget without).
fn room(budget: usize, fixed: usize) -> usize {
    (budget - budget / 10).saturating_sub(fixed)
}

/// A symmetry of the board that maps the game onto its dual: it takes the start to the
/// finish's complement and the finish to the start's (so a jump sequence from the start to
/// the finish to one from the dual start to the dual finish). It maps the problem's group
/// (the symmetries fixing the start and the finish) onto itself: for `h` in the group,
/// `g h g^-1` fixes `g` of the start and of the finish, the complements of the finish and the
/// start, so it fixes the finish and the start (symmetries commute with complements), and the
/// image of a level's orbits are orbits of that group. `None` when there is none, or the
/// game is its own dual under the group itself.
pub(super) fn dual_symmetry(problem: &Problem) -> Option<usize> {
    let board = problem.board();
    let sym = board.symmetries();
    let holes: Pegs = board.holes();
    let start: Pegs = problem.start();
    let [finish] = problem.targets::<[u64; 4]>()[..] else {
        return None;
    };
    (1..sym.len()).find(|&g| {
        sym.apply(g, start) == holes.xor(finish) && sym.apply(g, finish) == holes.xor(start)
    })
}

/// A symmetry `g` of the board that maps the game onto its dual ([`dual_symmetry`]), on keys
/// of a [`Space`] (not folded: the game is not its own dual under the group).
///
/// Dual level `b` is then `g` of forward level `b`, and also `g^-1` of it (`g^-1` maps the
/// game onto its dual too: symmetries commute with complements), so a complement is in dual
/// level `b` exactly when its image under `g` is in forward level `b`, up to the group (which
/// `g` maps onto itself).
struct Mirror<'a, K: CountKey> {
    space: &'a Space<K>,
    /// The symmetry alone, on keys of the space's layout.
    canon: Canonicalizer<K>,
    /// The image of each jump slot's holes.
    slots: Vec<K>,
    /// The group's images of each of those (see [`Space::images_of`]); empty where the
    /// group has none (the identity alone, or keys past one word).
    slot_images: Vec<[u64; WIDE]>,
}

impl<'a, K: CountKey> Mirror<'a, K> {
    fn new(space: &'a Space<K>, problem: &Problem, g: usize) -> Mirror<'a, K> {
        let canon = problem
            .board()
            .symmetries()
            .canonicalizer_placed(&[g], space.layout.place());
        let image = |k: K| canon.image_under(0, Bits(k)).0;
        let slots: Vec<K> = (0..space.layout.slots())
            .map(|i| image(space.layout.slot_holes(i)))
            .collect();
        let slot_images = slots
            .iter()
            .map(|&k| space.images_of(k))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        Mirror {
            space,
            canon,
            slots,
            slot_images,
        }
    }

    /// The key of `g` of the complement of every child of `pegs`: a symmetry permutes bits
    /// and maps the holes onto themselves, so that is the holes xor the parent's image xor
    /// the jump's. Its key is the least of its images under the group, which are likewise
    /// those of the parent's part xor those of the jump's (so one set of images a parent,
    /// not one a child).
    #[inline]
    fn for_each_child_complement(&self, pegs: K, mut f: impl FnMut(K)) {
        let holes = self.space.layout.holes();
        let parent = holes.xor(self.canon.image_under(0, Bits(pegs)).0);
        match self.space.images_of(parent) {
            Some(images) if !self.slot_images.is_empty() => {
                self.space.layout.for_each_jump(pegs, |_, i| {
                    f(K::from_low(Canonicalizer::<K>::least_of(
                        &images,
                        &self.slot_images[i],
                    )));
                });
            }
            _ => self.space.layout.for_each_jump(pegs, |_, i| {
                f(self.space.canonical(parent.xor(self.slots[i])));
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    /// A level gathered in passes sized by what the budget leaves (the first by the
    /// forecast, the later ones by what the passes before measured) is the level gathered in
    /// one pass, on every step of every single-vacancy game of a board, for budgets from
    /// too small to ample; the passes' widths vary (some steps take more passes than the
    /// forecast planned, or fewer), and a budget too small is a memory error, never a level
    /// with buckets missing; with path counts too, which come out the same.
    #[test]
    fn passes_sized_by_measure_make_the_same_levels() {
        let b = Board::builtin("rect:4x5").unwrap();
        let (mut several, mut refused) = (0, 0);
        for (v, counted) in b.each_hole().flat_map(|v| [(v, false), (v, true)]) {
            let start: Pegs = b.holes::<u64>().without(v).resize();
            let p = Problem::new(&b, start, crate::Finish::AnyOne).unwrap();
            let space = Space::<u64>::folded(&p, true);
            let pegs = p.start::<u64>().count();
            let mut whole = Levels::new(
                &space,
                space.key(p.start()),
                pegs,
                None,
                1,
                Stop::default(),
                counted,
            );
            whole.least_room = 0;
            while !whole.level.is_empty() {
                let parent = whole.clone_level();
                whole.step(usize::MAX).unwrap();
                for budget in (10..22).map(|i| 1usize << i) {
                    let mut part = parent.clone_level();
                    match part.step(budget) {
                        Ok(passes) => {
                            assert_eq!(
                                (&part.level, &part.counts),
                                (&whole.level, &whole.counts),
                                "{} depth {}",
                                b.label(v),
                                part.depth
                            );
                            assert_eq!(
                                part.counts.len(),
                                if counted { part.level.len() } else { 0 }
                            );
                            several += usize::from(passes > 2);
                        }
                        Err(CountError::Memory { .. }) => refused += 1,
                        Err(e) => panic!("{e:?}"),
                    }
                }
            }
        }
        assert!(
            several >= 20 && refused >= 20,
            "several passes {several}, refused {refused}"
        );
    }
}
