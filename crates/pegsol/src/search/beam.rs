//! The guided search: a beam from the start, level by level, towards the positions known to
//! reach the finish.
//!
//! - **Backward levels.** From the finish, every position that can reach it in `k` jumps is
//!   found by undoing jumps, level by level, up to a memory budget (up to the symmetries
//!   that keep the finish, and without the positions a pagoda function shows the start
//!   cannot reach). These levels are exact.
//! - **Forward beam.** From the start, each level's children are made, cut by pagoda
//!   functions, merged up to symmetry, scored, and the best `width` kept. When the pegs come
//!   down to the deepest backward level, any child in it is a solution: the rest of the line
//!   is found by walking down the backward levels.
//! - **Widths.** The beam runs with growing widths until a budget runs out. A run in which no
//!   level was ever cut searched everything: if it found nothing, the problem is impossible.
//!
//! The score of a position (higher is better) counts pegs on holes that few jumps can clear
//! against it, and legal jumps and remaining pagoda weight for it; two weightings take turns. Positions the beam keeps must be
//! consistent: each is its parent with one jump played, so the line is rebuilt from parent
//! links and replayed by the caller's independent checker.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::jumps::{Jump, JumpTable};
use crate::pagoda::Pagoda;
use crate::symmetry::Canonicalizer;

use crate::problem::{Budget, Limits};
use crate::table::KeySet;

/// Most pagoda functions the beam tracks.
const MAX_PAGODA: usize = 4;

/// Most positions kept in the backward levels, over all of them: enough for ten or so
/// levels on the 45-hole board, and built in a fraction of a second.
const MAX_BACKWARD: usize = 1 << 16;

/// What a beam run ended with.
#[derive(Debug)]
pub(super) enum BeamEnd {
    /// A line of play to a target.
    Found(Vec<Jump>),
    /// Every level was kept whole and no target was reached: there is none.
    Exhausted,
    /// Some level was cut and nothing was found.
    Cut,
    /// A budget ran out, or another search decided first.
    Stopped(Budget),
}

/// The weights of the score, one per feature: pegs on hard holes, legal jumps, and the pagoda
/// slack left (in hundredths of the start's, summed).
#[derive(Clone, Copy, Debug)]
struct Weights {
    hard: i64,
    mobility: i64,
    pagoda: i64,
}

/// The scores the runs take turns with at each width. Measured on the 36 problem classes of
/// the 45-hole board that pass the class test: the first alone solves 35 of them (median
/// 0.18 s), the second alone 32 (median 0.08 s, its pagoda term cuts the widths needed on most
/// and misses a few); taking turns, 35 (median 0.10 s). Counting isolated pegs, the usual
/// advice, made things worse at every weight tried.
const WEIGHT_SETS: [Weights; 2] = [
    Weights {
        hard: 10,
        mobility: 3,
        pagoda: 0,
    },
    Weights {
        hard: 10,
        mobility: 3,
        pagoda: 5,
    },
];

/// The exact levels back from the finish: `levels[k]` holds the canonical keys of the
/// positions that reach a target in exactly `k` jumps.
struct Backward<W: Word> {
    levels: Vec<KeySet<Bits<W>>>,
}

/// One position the beam keeps: the position itself (its parent with `jump` played), the
/// parent's index in the level before, and its pagoda totals.
#[derive(Clone, Copy)]
struct Entry<W: Word> {
    pos: Bits<W>,
    parent: u32,
    jump: u16,
    totals: [i64; MAX_PAGODA],
}

/// The guided search for one problem direction.
pub(super) struct Beam<'a, W: Word> {
    table: JumpTable<W>,
    targets: &'a [Bits<W>],
    goal: u32,
    canon: Canonicalizer<W>,
    /// Holes where a peg is hard to clear: few jumps take a peg from or over them.
    hard: Bits<W>,
    pagoda_delta: Vec<[i64; MAX_PAGODA]>,
    pagoda_floor: [i64; MAX_PAGODA],
    pagoda_start: [i64; MAX_PAGODA],
    pagodas: usize,
    backward: Backward<W>,
    /// Positions made so far, over all runs.
    pub(super) nodes: u64,
}

impl<'a, W: Word> Beam<'a, W> {
    /// A beam from `start` to `targets` (one peg count), pruning with `functions`; the
    /// backward levels take at most `memory` bytes.
    pub(super) fn new(
        board: &Board,
        start: Bits<W>,
        targets: &'a [Bits<W>],
        functions: &[Pagoda],
        memory: usize,
        spent: &dyn Fn() -> bool,
    ) -> Beam<'a, W> {
        let sym = board.symmetries();
        let canon = sym.canonicalizer(&sym.stabilizer(targets));
        let jumps = board.jumps();
        let floor = |p: &Pagoda| targets.iter().map(|&t| p.total(t)).min().unwrap_or(0);
        let mut useful: Vec<&Pagoda> = functions
            .iter()
            .filter(|p| p.can_cut(targets) && p.total(start) >= floor(p))
            .collect();
        // Least room first: those cut most.
        useful.sort_by(|a, b| a.room(start, targets).total_cmp(&b.room(start, targets)));
        useful.truncate(MAX_PAGODA);
        let mut pagoda_delta = vec![[0i64; MAX_PAGODA]; jumps.len()];
        let mut pagoda_floor = [0i64; MAX_PAGODA];
        let mut pagoda_start = [0i64; MAX_PAGODA];
        for (k, p) in useful.iter().enumerate() {
            pagoda_floor[k] = floor(p);
            pagoda_start[k] = p.total(start);
            for (d, j) in pagoda_delta.iter_mut().zip(jumps) {
                d[k] = p.jump_change(*j);
            }
        }
        let mut clearing = vec![0u32; board.hole_count()];
        for j in jumps {
            clearing[j.from().index()] += 1;
            clearing[j.over().index()] += 1;
        }
        let most = clearing.iter().copied().max().unwrap_or(0);
        let hard = clearing
            .iter()
            .enumerate()
            .filter(|&(_, &c)| 2 * c <= most)
            .fold(Bits::EMPTY, |m, (h, _)| m.with(Hole::at(h)));
        let mut beam = Beam {
            table: JumpTable::new(jumps),
            targets,
            goal: targets[0].count(),
            canon,
            hard,
            pagoda_delta,
            pagoda_floor,
            pagoda_start,
            pagodas: useful.len(),
            backward: Backward { levels: Vec::new() },
            nodes: 0,
        };
        beam.backward = beam.backward_levels(start, &useful, memory, spent);
        beam
    }

    /// The exact backward levels within `memory` bytes and [`MAX_BACKWARD`] positions (a
    /// level that would not fit is left out whole), stopping a level short of the start's peg
    /// count, or when `spent` says so.
    fn backward_levels(
        &self,
        start: Bits<W>,
        functions: &[&Pagoda],
        memory: usize,
        spent: &dyn Fn() -> bool,
    ) -> Backward<W> {
        let start_totals: Vec<i64> = functions.iter().map(|p| p.total(start)).collect();
        let reachable = |p: Bits<W>| {
            functions
                .iter()
                .zip(&start_totals)
                .all(|(f, &s)| f.total(p) <= s)
        };
        let mut first = KeySet::new(memory.max(1 << 16));
        let mut frontier = Vec::new();
        for &t in self.targets {
            let key = self.canon.canonical(t);
            // The first level is a handful of finishes: within any limit.
            if first.insert(key, ()) == Ok(true) {
                frontier.push(key);
            }
        }
        let mut levels = vec![first];
        let memory = memory.min(16 * MAX_BACKWARD);
        let mut used = frontier.len() * 16;
        let mut pegs = self.goal;
        while pegs + 2 < start.count() && !frontier.is_empty() {
            let budget = memory.saturating_sub(used);
            let mut next = KeySet::new(budget.max(1 << 16));
            let mut next_frontier = Vec::new();
            let mut fits = true;
            'level: for (n, &q) in frontier.iter().enumerate() {
                if n % 1024 == 0 && spent() {
                    fits = false;
                    break;
                }
                for i in 0..self.table.len() {
                    let j = self.table.get(i);
                    // Undo `j`: its landing hole holds a peg, the other two are empty.
                    if !q.contains(j.to()) || !q.is_disjoint(j.needs()) {
                        continue;
                    }
                    let p = j.apply(q);
                    if !reachable(p) {
                        continue;
                    }
                    let key = self.canon.canonical(p);
                    match next.insert(key, ()) {
                        Ok(false) => continue,
                        Ok(true) if (next_frontier.len() + 1) * 16 <= budget => {
                            next_frontier.push(key);
                        }
                        _ => {
                            fits = false;
                            break 'level;
                        }
                    }
                }
            }
            if !fits {
                break;
            }
            used += next_frontier.len() * 16;
            levels.push(next);
            frontier = next_frontier;
            pegs += 1;
        }
        Backward { levels }
    }

    /// The score of `pos`: higher is better.
    fn score(&self, w: &Weights, pos: Bits<W>, totals: &[i64; MAX_PAGODA]) -> i64 {
        let hard = i64::from(pos.intersect(self.hard).count());
        let mobility = if w.mobility == 0 {
            0
        } else {
            self.table.legal_count(pos) as i64
        };
        let slack: i64 = (0..self.pagodas)
            .map(|k| {
                let room = (self.pagoda_start[k] - self.pagoda_floor[k]).max(1);
                (totals[k] - self.pagoda_floor[k]) * 100 / room
            })
            .sum();
        w.mobility * mobility + w.pagoda * slack - w.hard * hard
    }

    /// Runs the beam from `start` with growing widths from `first_width`, until it decides,
    /// a budget runs out or `stop` is set.
    /// Widths grow while a run's tables fit in `memory` bytes.
    pub(super) fn run(
        &mut self,
        start: Bits<W>,
        first_width: usize,
        memory: usize,
        limits: &Limits,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> BeamEnd {
        let mut width = first_width.max(1);
        // A run keeps a level of entries, about 16 children each (with their set), and six
        // bytes of history per kept position and level.
        let levels = start.count() as usize;
        let cost = |w: usize| {
            w.saturating_mul(std::mem::size_of::<Entry<W>>() * 17 + 16 * 16 + 6 * levels)
        };
        loop {
            if cost(width) > memory {
                return BeamEnd::Stopped(Budget::Memory);
            }
            for w in &WEIGHT_SETS {
                match self.once(start, width, w, limits, deadline, stop) {
                    BeamEnd::Cut => {}
                    end => return end,
                }
            }
            width = width.saturating_mul(4);
        }
    }

    /// One run of width `width`.
    fn once(
        &mut self,
        start: Bits<W>,
        width: usize,
        weights: &Weights,
        limits: &Limits,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> BeamEnd {
        let deepest = self.backward.levels.len() - 1;
        let meet = self.goal + deepest as u32;
        if start.count() <= meet {
            // The backward levels are exact: the start is in its level or cannot finish.
            let k = (start.count() - self.goal) as usize;
            let key = self.canon.canonical(start);
            return if self.backward.levels[k].contains(key) {
                self.finish_from(&[], start)
            } else {
                BeamEnd::Exhausted
            };
        }
        // The kept positions of the level being expanded, and for every level so far each
        // kept position's parent and jump.
        let mut level = vec![Entry {
            pos: start,
            parent: 0,
            jump: 0,
            totals: self.pagoda_start,
        }];
        let mut history: Vec<Vec<(u32, u16)>> = Vec::new();
        let mut cut = false;
        let mut children: Vec<Entry<W>> = Vec::new();
        let mut scored: Vec<(i64, u32)> = Vec::new();
        loop {
            children.clear();
            let mut seen = KeySet::new(usize::MAX / 4);
            for (pi, parent) in level.iter().enumerate() {
                if pi % 256 == 0 && (stop.load(Ordering::Relaxed) || limits.spent(deadline)) {
                    return BeamEnd::Stopped(Budget::Time);
                }
                // In table order: which child of an orbit is kept decides its pagoda totals,
                // and this order is the one the widths were measured with (from the sparser
                // side, rect:12x12 needed a width four times as large).
                for i in 0..self.table.len() {
                    if !self.table.is_legal(i, parent.pos) {
                        continue;
                    }
                    let delta = &self.pagoda_delta[i];
                    let mut totals = parent.totals;
                    let mut pruned = false;
                    for k in 0..self.pagodas {
                        totals[k] += delta[k];
                        pruned |= totals[k] < self.pagoda_floor[k];
                    }
                    if pruned {
                        continue;
                    }
                    self.nodes += 1;
                    let pos = self.table.get(i).apply(parent.pos);
                    let key = self.canon.canonical(pos);
                    // `seen` has no limit: every insert succeeds.
                    if seen.insert(key, ()) == Ok(true) {
                        children.push(Entry {
                            pos,
                            parent: pi as u32,
                            jump: i as u16,
                            totals,
                        });
                    }
                }
            }
            if children.is_empty() {
                return if cut {
                    BeamEnd::Cut
                } else {
                    BeamEnd::Exhausted
                };
            }
            if children[0].pos.count() == meet {
                let last = &self.backward.levels[deepest];
                let hit = children
                    .iter()
                    .find(|c| last.contains(self.canon.canonical(c.pos)));
                return match hit {
                    Some(c) => {
                        history.push(vec![(c.parent, c.jump)]);
                        self.finish_from(&history, c.pos)
                    }
                    None if cut => BeamEnd::Cut,
                    None => BeamEnd::Exhausted,
                };
            }
            if children.len() > width {
                cut = true;
                scored.clear();
                scored.extend(
                    children
                        .iter()
                        .enumerate()
                        .map(|(i, c)| (self.score(weights, c.pos, &c.totals), i as u32)),
                );
                scored.select_nth_unstable_by(width - 1, |a, b| b.0.cmp(&a.0));
                scored.truncate(width);
                level.clear();
                level.extend(scored.iter().map(|&(_, i)| children[i as usize]));
            } else {
                std::mem::swap(&mut level, &mut children);
            }
            history.push(level.iter().map(|e| (e.parent, e.jump)).collect());
        }
    }

    /// The line that `history` leads to `end` (from its last level's first entry back to the
    /// start), then on down the backward levels from `end` to a target.
    fn finish_from(&self, history: &[Vec<(u32, u16)>], end: Bits<W>) -> BeamEnd {
        let mut jumps = Vec::new();
        let mut at = 0usize;
        for level in history.iter().rev() {
            let (parent, jump) = level[at];
            jumps.push(self.table.get(jump as usize));
            at = parent as usize;
        }
        jumps.reverse();
        let mut pos = end;
        let mut k = (pos.count() - self.goal) as usize;
        while k > 0 {
            let below = &self.backward.levels[k - 1];
            let step = (0..self.table.len()).find(|&i| {
                self.table.is_legal(i, pos)
                    && below.contains(self.canon.canonical(self.table.get(i).apply(pos)))
            });
            let Some(i) = step else {
                // The backward levels are closed under the symmetries used: cannot happen.
                return BeamEnd::Cut;
            };
            jumps.push(self.table.get(i));
            pos = self.table.get(i).apply(pos);
            k -= 1;
        }
        if self.targets.contains(&pos) {
            BeamEnd::Found(jumps)
        } else {
            // A target's symmetric image that is not itself a target: not a solution.
            BeamEnd::Cut
        }
    }
}
