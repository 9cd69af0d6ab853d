//! One search of the meeting: the two sides' level tables and frontiers, a level grown
//! in parallel under the time and memory budgets, pruning by the bounds, and a contact
//! rebuilt into a solution.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::report::{MeetOutcome, MeetProgress, MeetReport, MeetSolution};
use crate::bitset::{Bits, Word};
use crate::error::{Error, Result};
use crate::fewest::bound::{MoveBound, Origins};
use crate::fewest::chains::{Chains, Scratch, Way};
use crate::jumps::Jump;
use crate::problem::{Budget, Finish, Limits};
use crate::stop;
use crate::symmetry::Canonicalizer;
use crate::table::{Full, KeyMap};

/// The least time a level is allowed while both sides may grow, in nanoseconds.
pub(super) const LEAST_ALLOWANCE: f64 = 250e6;

/// Parents per chunk: enough for both cores, small enough to bound the children buffered.
const CHUNK: usize = 1 << 14;

/// Children looked up together, their slots prefetched first: enough to overlap the cache
/// misses, few enough that the first prefetched are still cached when looked up.
const BATCH: usize = 32;

/// How far ahead of the key going in the table's slot is fetched.
const AHEAD: usize = 16;

/// The depth a position withdrawn from a table is marked with: it counts as absent.
const GONE: u8 = u8::MAX;

/// The level of each position reached, with the fewest and most pegs of any key, to skip
/// lookups that cannot hit.
struct Levels<W: Word> {
    depth: KeyMap<u8, Bits<W>>,
    pegs: (u32, u32),
    /// Whether some key was withdrawn (marked [`GONE`]): until then a key's presence is its
    /// answer, and lookups read no depth (one cache miss less where they hit).
    withdrawn: bool,
}

impl<W: Word> Levels<W> {
    fn new() -> Levels<W> {
        Levels {
            depth: KeyMap::with_capacity(512),
            pegs: (u32::MAX, 0),
            withdrawn: false,
        }
    }

    fn bytes(&self) -> usize {
        self.depth.bytes()
    }

    /// Whether `key` has as many pegs as some key stored: only then may a lookup hit.
    #[inline]
    fn may_hold(&self, key: Bits<W>) -> bool {
        let n = key.count();
        n >= self.pegs.0 && n <= self.pegs.1
    }

    #[inline]
    fn get(&self, key: Bits<W>) -> Option<u8> {
        if !self.may_hold(key) {
            return None;
        }
        self.depth.get(key).filter(|&d| d != GONE)
    }

    /// Whether `key` was reached (and not withdrawn).
    #[inline]
    fn holds(&self, key: Bits<W>) -> bool {
        if !self.may_hold(key) {
            return false;
        }
        if self.withdrawn {
            self.depth.get(key).is_some_and(|d| d != GONE)
        } else {
            self.depth.contains(key)
        }
    }

    /// Starts loading `key`'s slot into the cache where a lookup may hit ([`KeyMap::prefetch`]).
    #[inline]
    fn prefetch(&self, key: Bits<W>) {
        if self.may_hold(key) {
            self.depth.prefetch(key);
        }
    }

    /// Adds `key` at `depth` unless present; `Err` when the table's limit is reached.
    fn insert(&mut self, key: Bits<W>, depth: u8) -> std::result::Result<bool, Full> {
        let added = match self.depth.insert(key, depth)? {
            true => true,
            // A withdrawn key is reached again.
            false => {
                self.withdrawn && self.depth.get(key) == Some(GONE) && self.depth.set(key, depth)
            }
        };
        let n = key.count();
        self.pegs = (self.pegs.0.min(n), self.pegs.1.max(n));
        Ok(added)
    }

    /// Marks a key absent (its level was withdrawn); the slot stays.
    fn withdraw(&mut self, key: Bits<W>) {
        self.depth.set(key, GONE);
        self.withdrawn = true;
    }
}

/// One side of the search.
struct Side<W: Word> {
    way: Way,
    table: Levels<W>,
    frontier: Vec<Bits<W>>,
    /// Completed levels.
    depth: u8,
    /// Classes first reached per level.
    sizes: Vec<u64>,
    /// Measured nanoseconds per frontier position in this side's last large expansion, once
    /// there was one.
    rate: Option<f64>,
}

impl<W: Word> Side<W> {
    /// The time this side's next level is expected to take (one nanosecond a position while
    /// it is not measured: the first levels are a handful of positions).
    fn cost(&self) -> f64 {
        self.frontier.len() as f64 * self.rate.unwrap_or(1.0)
    }

    /// Withdraws a level that did not fit: its positions are marked gone from the table, its
    /// size leaves the list, and the frontier is the one it was grown from, so the side
    /// searches as before the attempt.
    fn rollback(&mut self, frontier: Vec<Bits<W>>, added: &[Bits<W>]) {
        for &c in added {
            self.table.withdraw(c);
        }
        self.abandon(frontier);
    }

    /// Gives up a level when the search ends in it (a time budget): only its size leaves the
    /// list, since the table is not searched again (marking millions of entries withdrawn
    /// would take a second past the deadline).
    fn abandon(&mut self, frontier: Vec<Bits<W>>) {
        self.sizes.pop();
        self.frontier = frontier;
    }
}

/// A contact between the sides: a parent on the growing side's frontier and a child (an
/// actual position reached from it in one move) that the other side holds.
struct Contact<W: Word> {
    parent: Bits<W>,
    child: Bits<W>,
}

/// Why a search stopped without an answer.
enum Stop<W: Word> {
    Budget(Budget),
    /// The level ran past its allowance and was withdrawn: nanoseconds a parent took, at
    /// least.
    Slow(f64),
    Met(Contact<W>),
}

/// What the sides keep when only solutions of at most `cap` moves are sought (a line of
/// `cap + 1` is known): a position `d` moves from a start whose bound to the finish
/// ([`MoveBound::moves_needed`]) passes `cap - d` lies on no such solution, nor does one `d`
/// moves from a finish whose bound from the starts ([`MoveBound::moves_since`]) passes it. A
/// position on a solution of `m <= cap` moves, `d` moves from one end along it, is first
/// reached at a depth of at most `d` and is bounded by at most `m - d`, so it is kept, and so
/// is every position before it on its side: the sides hold every such solution.
pub(super) struct Prune<'p, W: Word> {
    pub(super) bound: &'p MoveBound<W>,
    pub(super) origins: &'p Origins<W>,
    pub(super) finish: Finish,
    pub(super) cap: u32,
    /// The longest solution sought: `cap`, or `cap + 1` on a deepening step (none of at most
    /// `cap + 1` moves is lost before every one of at most `cap` is ruled out, so a contact at
    /// `cap + 1` is then the fewest).
    pub(super) seek: u32,
}

impl<W: Word> Prune<'_, W> {
    #[inline]
    fn keeps(&self, way: Way, depth: u8, c: Bits<W>) -> bool {
        let depth = u32::from(depth);
        // Neither bound exceeds the ceiling: where that fits, nothing needs computing.
        if depth + self.bound.ceiling() <= self.cap {
            return true;
        }
        let rest = match way {
            Way::Forward => self.bound.moves_needed(c, &self.finish),
            Way::Backward => self.bound.moves_since(c, self.origins),
        };
        depth + rest <= self.cap
    }
}

pub(super) struct Meet<'p, W: Word> {
    pub(super) prune: Option<Prune<'p, W>>,
    /// Proven before this search began (by the regions, or by earlier searches).
    pub(super) proven: u32,
    /// New children kept and pruned, to judge whether the bound is worth its cost.
    pub(super) kept: u64,
    pub(super) pruned: u64,
    progress: &'p (dyn Fn(&MeetProgress) + Sync),
    chains: &'p Chains<W>,
    canon: &'p Canonicalizer<W>,
    max_memory: usize,
    /// The budget's deadline and cancel flag.
    halt: stop::Stop<'p>,
    peak: usize,
    /// Nanoseconds a level is allowed at least while both sides may grow.
    pub(super) least_allowance: f64,
}

impl<'p, W: Word> Meet<'p, W> {
    pub(super) fn new(
        chains: &'p Chains<W>,
        canon: &'p Canonicalizer<W>,
        limits: &'p Limits,
        began: Instant,
        progress: &'p (dyn Fn(&MeetProgress) + Sync),
    ) -> Meet<'p, W> {
        Meet {
            prune: None,
            proven: 0,
            kept: 0,
            pruned: 0,
            progress,
            chains,
            canon,
            // What the tables and buffers are counted to take: the process was measured to hold
            // up to 1.4 times that (the threads' allocator arenas, vectors of children being
            // gathered), and the beam after it up to 1.9 times, so half the budget keeps the
            // command's peak within it.
            max_memory: limits.max_memory / 2,
            halt: limits.stop(began),
            peak: 0,
            least_allowance: LEAST_ALLOWANCE,
        }
    }

    fn report(&self, outcome: MeetOutcome, fwd: &Side<W>, back: &Side<W>) -> MeetReport {
        MeetReport {
            outcome,
            lower_bound: self
                .proven
                .max(self.within(u32::from(fwd.depth) + u32::from(back.depth)) + 1),
            forward: fwd.sizes.clone(),
            backward: back.sizes.clone(),
            depths: (u32::from(fwd.depth), u32::from(back.depth)),
            pruned_to: self.prune.as_ref().map(|p| p.cap),
            symmetries: 0,
            peak_bytes: self.peak,
            millis: 0,
        }
    }

    /// The longest solutions ruled out once the sides' depths sum to `total`: all of them, or
    /// with pruning, those of at most `cap` moves (longer ones may have lost positions).
    fn within(&self, total: u32) -> u32 {
        self.prune.as_ref().map_or(total, |p| total.min(p.cap))
    }

    pub(super) fn run(&mut self, starts: &[Bits<W>], targets: &[Bits<W>]) -> Result<MeetReport> {
        let mut fwd = self.side(Way::Forward, starts);
        let mut back = self.side(Way::Backward, targets);
        if let Some(&x) = starts
            .iter()
            .find(|&&x| back.table.get(self.canon.canonical(x)).is_some())
        {
            // A start is already a finish (the finishes are closed under the group).
            let solution = MeetSolution {
                start: x.resize(),
                jumps: Vec::new(),
                moves: 0,
                finish: x.resize(),
            };
            let mut r = self.report(MeetOutcome::Optimal(solution), &fwd, &back);
            r.lower_bound = 0;
            return Ok(r);
        }
        // A side whose next level did not fit stops growing; the other may still grow (and
        // raise the lower bound) until it does not fit either.
        let mut blocked = (false, false);
        loop {
            if let Some(prune) = &self.prune {
                if u32::from(fwd.depth) + u32::from(back.depth) >= prune.seek {
                    // Every solution sought would have met by now: none has at most `cap`
                    // moves (the caller goes on).
                    return Ok(self.report(MeetOutcome::Impossible, &fwd, &back));
                }
            }
            // Run dry: no finish is reachable (with pruning, none within the cap).
            if fwd.frontier.is_empty() || back.frontier.is_empty() {
                return Ok(self.report(MeetOutcome::Impossible, &fwd, &back));
            }
            let forward_first = match blocked {
                (true, true) => {
                    let outcome = MeetOutcome::Undecided(Budget::Memory);
                    return Ok(self.report(outcome, &fwd, &back));
                }
                (true, false) => false,
                (false, true) => true,
                (false, false) => {
                    // A side's first large level is priced by a sample of it: undoing chains
                    // can give thousands of children a parent where playing them gives ten.
                    for side in [&mut fwd, &mut back] {
                        if side.rate.is_none() && side.frontier.len() >= 1024 {
                            side.rate = Some(self.probe(side));
                        }
                    }
                    fwd.cost() <= back.cost()
                }
            };
            // While both sides may grow, a level is given four times what the other side's
            // next level is expected to take (a quarter of a second at least): one that runs
            // past it is withdrawn and its side priced at what it was seen to cost, so a side
            // whose parents each have millions of children does not take the whole budget
            // while the other could still raise the bound.
            let allowance = (blocked == (false, false)).then(|| {
                let other = if forward_first { &back } else { &fwd };
                let nanos = (4.0 * other.cost()).max(self.least_allowance).min(1e13);
                Instant::now() + std::time::Duration::from_nanos(nanos as u64)
            });
            let (grow, other) = if forward_first {
                (&mut fwd, &back)
            } else {
                (&mut back, &fwd)
            };
            match self.expand(grow, other, allowance) {
                Ok(()) => {}
                Err(Stop::Slow(rate)) => grow.rate = Some(rate),
                Err(Stop::Budget(Budget::Memory)) if forward_first => blocked.0 = true,
                Err(Stop::Budget(Budget::Memory)) => blocked.1 = true,
                Err(Stop::Budget(b)) => {
                    return Ok(self.report(MeetOutcome::Undecided(b), &fwd, &back));
                }
                Err(Stop::Met(c)) => {
                    let moves = u32::from(fwd.depth) + u32::from(back.depth) + 1;
                    // A contact that cannot be walked back to both ends is a bug.
                    let s = self.rebuild(&fwd, &back, forward_first, &c, moves).ok_or(
                        Error::Internal("a meeting could not be rebuilt into a solution"),
                    )?;
                    return Ok(self.report(MeetOutcome::Optimal(s), &fwd, &back));
                }
            }
        }
    }

    fn side(&mut self, way: Way, seeds: &[Bits<W>]) -> Side<W> {
        let mut table = Levels::new();
        let mut frontier = Vec::new();
        for &s in seeds {
            let c = self.canon.canonical(s);
            // The seeds are few: the first table never needs to grow past the budget's check.
            if table.insert(c, 0) == Ok(true) {
                frontier.push(c);
            }
        }
        Side {
            way,
            table,
            sizes: vec![frontier.len() as u64],
            frontier,
            depth: 0,
            rate: None,
        }
    }

    /// Nanoseconds a parent of `side`'s frontier takes, estimated on up to 64 parents spread
    /// over it and at most `2^16` children (a parent cut short counts whole, so a side whose
    /// parents have millions of children is priced high, not measured to the end).
    fn probe(&self, side: &Side<W>) -> f64 {
        let began = Instant::now();
        let step = (side.frontier.len() / 64).max(1);
        let mut scratch = Scratch::default();
        let (mut parents, mut children) = (0u32, 0u32);
        for &p in side.frontier.iter().step_by(step) {
            parents += 1;
            let cut = self.chains.moves(side.way, p, &mut scratch, |r| {
                std::hint::black_box(self.canon.canonical(r));
                children += 1;
                children >= 1 << 16
            });
            if cut {
                break;
            }
        }
        began.elapsed().as_nanos() as f64 / f64::from(parents.max(1))
    }

    /// Grows `side` by one level, checking every new position against `other`. A level that
    /// does not fit the memory budget is withdrawn whole (the side is as before it).
    fn expand(
        &mut self,
        side: &mut Side<W>,
        other: &Side<W>,
        allowance: Option<Instant>,
    ) -> std::result::Result<(), Stop<W>> {
        let began = Instant::now();
        // This level stops at the deadline or the allowance, or when cancelled.
        let stop_at = self.halt.sooner(allowance);
        let mut finished = 0usize;
        let depth = side.depth + 1;
        // The level that brings the depths to the longest solution sought only needs meeting
        // the other side: none of its positions is grown again, so none is kept (it is the
        // largest level of a pruned search, and keeping it took over half the time).
        let last = self
            .prune
            .as_ref()
            .is_some_and(|x| u32::from(side.depth) + u32::from(other.depth) + 1 >= x.seek);
        let frontier = std::mem::take(&mut side.frontier);
        let key = std::mem::size_of::<Bits<W>>();
        let mut next = Vec::new();
        side.sizes.push(0);
        for (i, chunk) in frontier.chunks(CHUNK).enumerate() {
            if stop_at.passed() {
                return Err(self.stop_late(side, frontier, &next, began, finished));
            }
            let this = &*self;
            let own = &side.table;
            let way = side.way;
            // Each thread's children and chain buffers may take a share of what is left;
            // past it the level cannot fit. (One parent can have billions of children:
            // undoing chains of jumps from a single peg on a 45-hole triangle.)
            let share = self
                .max_memory
                .saturating_sub(side.table.bytes() + other.table.bytes())
                .saturating_sub((frontier.len() + next.len() + other.frontier.len()) * key)
                / (2 * rayon::current_num_threads());
            let over = AtomicBool::new(false);
            let late = AtomicBool::new(false);
            let done = AtomicUsize::new(0);
            // Per thread: its new children, a contact if one was met, its chain buffers, the
            // children seen, the new children pruned, and the batch of children (as reached
            // and canonical) not yet looked up.
            type Part<W> = (
                Vec<Bits<W>>,
                Option<Contact<W>>,
                Scratch<W>,
                u32,
                u64,
                Vec<(Bits<W>, Bits<W>)>,
            );
            // Per thread: its new children, a contact if one was met, the bytes of its
            // buffers, the new children pruned.
            type Done<W> = (Vec<Bits<W>>, Option<Contact<W>>, usize, u64);
            // Looks up a batch of one parent's children, their slots prefetched first so that
            // the cache misses overlap; true when the thread stops (a contact, or no room).
            let settle = |p: Bits<W>,
                          batch: &mut Vec<(Bits<W>, Bits<W>)>,
                          out: &mut Vec<Bits<W>>,
                          hit: &mut Option<Contact<W>>,
                          pruned: &mut u64| {
                for &(_, c) in batch.iter() {
                    other.table.prefetch(c);
                    if !last {
                        own.prefetch(c);
                    }
                }
                let mut stop = false;
                for &(r, c) in batch.iter() {
                    if other.table.holds(c) {
                        *hit = Some(Contact {
                            parent: p,
                            child: r,
                        });
                        stop = true;
                        break;
                    }
                    if last || own.holds(c) {
                        continue;
                    }
                    if this.prune.as_ref().is_some_and(|x| !x.keeps(way, depth, c)) {
                        *pruned += 1;
                    } else {
                        out.push(c);
                        if out.len().is_multiple_of(4096) && out.capacity() * key > share {
                            over.store(true, Ordering::Relaxed);
                            stop = true;
                            break;
                        }
                    }
                }
                batch.clear();
                stop
            };
            let parts: Vec<Done<W>> = chunk
                .par_iter()
                .fold(
                    || {
                        let batch = Vec::with_capacity(BATCH);
                        (Vec::new(), None, Scratch::default(), 0, 0, batch)
                    },
                    |(mut out, mut hit, mut scratch, mut seen, mut pruned, mut batch): Part<W>,
                     &p| {
                        let stopped =
                            || over.load(Ordering::Relaxed) || late.load(Ordering::Relaxed);
                        if hit.is_none() && !stopped() {
                            scratch.limit = share;
                            let cut = this.chains.moves(side.way, p, &mut scratch, |r| {
                                // One parent may have millions of children: the clock is
                                // read every so many of them, not only between chunks.
                                seen = seen.wrapping_add(1);
                                if seen.is_multiple_of(1 << 14) && stop_at.passed() {
                                    late.store(true, Ordering::Relaxed);
                                    return true;
                                }
                                batch.push((r, this.canon.canonical(r)));
                                batch.len() == BATCH
                                    && settle(p, &mut batch, &mut out, &mut hit, &mut pruned)
                            });
                            if !cut && !batch.is_empty() {
                                settle(p, &mut batch, &mut out, &mut hit, &mut pruned);
                            }
                            batch.clear();
                            if !stopped() {
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                            if scratch.over || scratch.bytes() > share {
                                over.store(true, Ordering::Relaxed);
                            }
                        }
                        (out, hit, scratch, seen, pruned, batch)
                    },
                )
                .map(|(out, hit, scratch, _, pruned, _)| (out, hit, scratch.bytes(), pruned))
                .collect();
            finished += done.load(Ordering::Relaxed);
            if late.load(Ordering::Relaxed) {
                return Err(self.stop_late(side, frontier, &next, began, finished));
            }
            if over.load(Ordering::Relaxed) {
                side.rollback(frontier, &next);
                return Err(Stop::Budget(Budget::Memory));
            }
            let mut parts = parts;
            if let Some(c) = parts.iter_mut().find_map(|p| p.1.take()) {
                side.frontier = frontier;
                return Err(Stop::Met(c));
            }
            // Capacities, not lengths: a vector holds up to twice what it uses.
            let buffered: usize = parts.iter().map(|p| p.0.capacity() * key + p.2).sum();
            self.kept += parts.iter().map(|p| p.0.len() as u64).sum::<u64>();
            self.pruned += parts.iter().map(|p| p.3).sum::<u64>();
            let room = self
                .max_memory
                .saturating_sub(other.table.bytes() + other.frontier.len() * key)
                .saturating_sub((frontier.len() + next.len()) * key + buffered);
            side.table.depth.limit(room);
            for (out, _, _, _) in parts {
                for (k, &c) in out.iter().enumerate() {
                    // Tens of millions of children may come from one chunk, and the table
                    // grows while they go in: the clock is read here too.
                    if k % (1 << 16) == 0 && stop_at.passed() {
                        return Err(self.stop_late(side, frontier, &next, began, finished));
                    }
                    // The slot of a key a little ahead is fetched while this one goes in.
                    if let Some(&ahead) = out.get(k + AHEAD) {
                        side.table.depth.prefetch(ahead);
                    }
                    match side.table.insert(c, depth) {
                        Ok(true) => next.push(c),
                        Ok(false) => {}
                        Err(Full) => {
                            side.rollback(frontier, &next);
                            return Err(Stop::Budget(Budget::Memory));
                        }
                    }
                }
            }
            let held = side.table.bytes()
                + other.table.bytes()
                + (frontier.len() + next.len() + other.frontier.len()) * key
                + buffered;
            self.peak = self.peak.max(held);
            *side.sizes.last_mut().expect("pushed above") = next.len() as u64;
            let forward = side.way == Way::Forward;
            let (mine, theirs) = (u32::from(side.depth), u32::from(other.depth));
            (self.progress)(&MeetProgress {
                depths: if forward {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                },
                growing_forward: forward,
                done: (i * CHUNK + chunk.len()) as u64,
                frontier: frontier.len() as u64,
                table_bytes: side.table.bytes() + other.table.bytes(),
                lower_bound: self.proven.max(self.within(mine + theirs) + 1),
            });
        }
        // The first levels (a handful of starts or single pegs) say little about the cost per
        // position further on, so the rate is learnt from larger levels only.
        if frontier.len() >= 1024 {
            side.rate = Some(began.elapsed().as_nanos() as f64 / frontier.len() as f64);
        }
        if last {
            // Met nothing: the search ends here (the depths reach the longest sought), and
            // the level, never kept, has no size.
            side.sizes.pop();
        }
        side.frontier = next;
        side.depth = depth;
        Ok(())
    }

    /// Why a level stopped once its clock ran out: the deadline (the search ends; the level
    /// is only dropped from the sizes), or its allowance (the level is withdrawn from the
    /// table, and the time per parent seen so far returned).
    fn stop_late(
        &self,
        side: &mut Side<W>,
        frontier: Vec<Bits<W>>,
        added: &[Bits<W>],
        began: Instant,
        finished: usize,
    ) -> Stop<W> {
        if self.halt.passed() {
            side.abandon(frontier);
            return Stop::Budget(Budget::Time);
        }
        side.rollback(frontier, added);
        Stop::Slow(began.elapsed().as_nanos() as f64 / finished.max(1) as f64)
    }

    /// The actual position `from` steps to next on `way`, with the move's jumps in playing
    /// order, chosen so that its class lies in `table` at `depth`.
    fn step(
        &self,
        way: Way,
        from: Bits<W>,
        table: &Levels<W>,
        depth: u8,
    ) -> Option<(Bits<W>, Vec<Jump>)> {
        self.chains.traced(way, from, &|r| {
            table.get(self.canon.canonical(r)) == Some(depth)
        })
    }

    /// Rebuilds a solution through the contact: back to a start through the forward levels,
    /// on to a finish through the backward levels.
    fn rebuild(
        &self,
        fwd: &Side<W>,
        back: &Side<W>,
        forward_grew: bool,
        c: &Contact<W>,
        moves: u32,
    ) -> Option<MeetSolution> {
        // `a`: an actual position at forward depth `da`; `b`: one move on, at backward depth `db`.
        let (a, b) = if forward_grew {
            (c.parent, c.child)
        } else {
            (c.child, c.parent)
        };
        let (_, middle) = self.chains.traced(Way::Forward, a, &|r| r == b)?;
        let da = fwd.table.get(self.canon.canonical(a))?;
        let db = back.table.get(self.canon.canonical(b))?;
        if u32::from(da) + u32::from(db) + 1 != moves {
            return None;
        }
        let mut head = Vec::new();
        let mut p = a;
        for d in (0..da).rev() {
            let (q, jumps) = self.step(Way::Backward, p, &fwd.table, d)?;
            head.push(jumps);
            p = q;
        }
        let start = p;
        let mut jumps: Vec<Jump> = head.into_iter().rev().flatten().collect();
        jumps.extend(middle);
        let mut p = b;
        for d in (0..db).rev() {
            let (q, more) = self.step(Way::Forward, p, &back.table, d)?;
            jumps.extend(more);
            p = q;
        }
        Some(MeetSolution {
            start: start.resize(),
            jumps,
            moves,
            finish: p.resize(),
        })
    }
}
