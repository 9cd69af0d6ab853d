//! Moves as chains of jumps, played forward or undone, in positions of any width.
//!
//! A move is one peg jumping one or more times in a row, and it may stop after any of its
//! jumps, so the positions one move from `p` are the ends of every chain of every peg. Undoing
//! a move (the reverse game, from a finish towards the starts) follows chains of undone jumps:
//! the peg on a jump's landing hole goes back to its start and the jumped peg returns.
//!
//! Each jump is stored per hole and per direction as two masks: `flips` (its three holes) and
//! `want` (what those holes must hold: `from` and `over` forward, `to` backward), so a step is
//! legal when `q & flips == want` and leads to `q ^ flips`, one test either way.
//!
//! Invariant: a chain never leaves the peg range `(lo, hi]` forward or `[lo, hi)` backward, the
//! fewest pegs of a finish and the most of a start: no position of a solution lies outside it,
//! and undone chains on a sparse board would otherwise add pegs without end.

use std::collections::HashSet;

use crate::bitset::{Bits, Word};
use crate::board::Board;
use crate::jumps::Jump;

/// Which way a search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Way {
    /// From the starts, playing jumps.
    Forward,
    /// From the finishes, undoing jumps.
    Backward,
}

/// One jump from a hole, in one direction.
#[derive(Clone, Copy)]
struct Step<W: Word> {
    flips: Bits<W>,
    want: Bits<W>,
    /// Where the moving peg stands afterwards.
    next: u16,
    /// The jump's index in the board's list.
    jump: u32,
}

/// The hasher of the chain-state sets.
pub(super) use crate::table::SetBuild as Build;

/// A thread's buffers for following chains: the stack, and the chain states (position, hole
/// of the moving peg) already followed from the current peg.
pub(super) struct Scratch<W: Word> {
    stack: Vec<(Bits<W>, u16, u8)>,
    seen: HashSet<(Bits<W>, u16), Build>,
    /// The most bytes the buffers may take (no limit by default).
    pub(super) limit: usize,
    /// Whether a move was cut short because the buffers reached `limit`.
    pub(super) over: bool,
}

impl<W: Word> Default for Scratch<W> {
    fn default() -> Self {
        Scratch {
            stack: Vec::new(),
            seen: HashSet::default(),
            limit: usize::MAX,
            over: false,
        }
    }
}

impl<W: Word> Scratch<W> {
    /// Bytes the buffers hold.
    pub(super) fn bytes(&self) -> usize {
        Self::held(&self.stack, &self.seen)
    }

    /// Bytes a stack and a set of chain states hold.
    fn held(stack: &Vec<(Bits<W>, u16, u8)>, seen: &HashSet<(Bits<W>, u16), Build>) -> usize {
        let state = std::mem::size_of::<(Bits<W>, u16)>();
        stack.capacity() * (state + 8) + seen.capacity() * (state + 1)
    }
}

/// The jumps of a board by hole and direction, with the peg range chains keep to.
pub(super) struct Chains<W: Word> {
    jumps: Vec<Jump>,
    /// Per hole: the jumps starting there (forward), then those landing there (backward).
    forward: Vec<Vec<Step<W>>>,
    backward: Vec<Vec<Step<W>>>,
    /// Forward chains keep above `lo` pegs, backward ones below `hi`.
    lo: u32,
    hi: u32,
}

impl<W: Word> Chains<W> {
    /// The chains of `board` between the fewest pegs of `targets` and the most of `starts`.
    pub(super) fn new(board: &Board, starts: &[Bits<W>], targets: &[Bits<W>]) -> Chains<W> {
        let lo = targets.iter().map(|s| s.count()).min().unwrap_or(0);
        let hi = starts.iter().map(|s| s.count()).max().unwrap_or(0);
        let n = board.hole_count();
        let mut forward = vec![Vec::new(); n];
        let mut backward = vec![Vec::new(); n];
        for (k, &j) in board.jumps().iter().enumerate() {
            let flips: Bits<W> = j.holes();
            forward[j.from().index()].push(Step {
                flips,
                want: j.needs(),
                next: j.to().index() as u16,
                jump: k as u32,
            });
            backward[j.to().index()].push(Step {
                flips,
                want: j.to().bit(),
                next: j.from().index() as u16,
                jump: k as u32,
            });
        }
        Chains {
            jumps: board.jumps().to_vec(),
            forward,
            backward,
            lo,
            hi,
        }
    }

    /// The board's jump of index `k`.
    pub(super) fn jump(&self, k: u32) -> Jump {
        self.jumps[k as usize]
    }

    #[inline]
    fn steps(&self, way: Way, at: u16) -> &[Step<W>] {
        match way {
            Way::Forward => &self.forward[usize::from(at)],
            Way::Backward => &self.backward[usize::from(at)],
        }
    }

    /// Whether a position of `pegs` pegs may take one more step on `way`.
    #[inline]
    fn may_step(&self, way: Way, pegs: u32) -> bool {
        match way {
            Way::Forward => pegs > self.lo,
            Way::Backward => pegs < self.hi,
        }
    }

    /// Calls `f` with every position one move from `p` on `way`; stops when `f` returns true.
    /// Chains that reach the same position with the peg on the same hole go on alike, so each
    /// such state is followed once: undoing chains on a sparse board branches too much to
    /// follow every order of the same jumps. (The states one or two jumps from `p` are all
    /// distinct, as two jumps of one peg cannot remove the same two pegs in the other order,
    /// so only longer chains are looked up; a repeat would only cost time, never an answer.)
    #[inline]
    pub(super) fn moves(
        &self,
        way: Way,
        p: Bits<W>,
        scratch: &mut Scratch<W>,
        mut f: impl FnMut(Bits<W>) -> bool,
    ) -> bool {
        let pegs = p.count();
        // Chains longer than this would leave the peg range.
        let longest = match way {
            Way::Forward => pegs.saturating_sub(self.lo),
            Way::Backward => self.hi.saturating_sub(pegs),
        };
        if longest == 0 {
            return false;
        }
        let table = match way {
            Way::Forward => &self.forward,
            Way::Backward => &self.backward,
        };
        let Scratch {
            stack,
            seen,
            limit,
            over,
        } = scratch;
        for h in p.iter() {
            // A move cut short by `f` leaves states behind.
            stack.clear();
            // Clearing a hash set writes all its control bytes: skipped when nothing is there.
            if !seen.is_empty() {
                seen.clear();
            }
            stack.push((p, h.index() as u16, 0));
            while let Some((q, at, length)) = stack.pop() {
                let goes_on = u32::from(length) + 1 < longest;
                for s in &table[usize::from(at)] {
                    if q.0.and(s.flips.0) != s.want.0 {
                        continue;
                    }
                    let r = q.xor(s.flips);
                    if length >= 2 {
                        if !seen.insert((r, s.next)) {
                            continue;
                        }
                        // One parent's chains may pass through millions of states: the
                        // buffers keep to their limit while they grow, not only after.
                        if seen.len().is_multiple_of(4096) && Scratch::held(stack, seen) > *limit {
                            *over = true;
                            return true;
                        }
                    }
                    if f(r) {
                        return true;
                    }
                    if goes_on {
                        stack.push((r, s.next, length + 1));
                    }
                }
            }
        }
        false
    }

    /// A move from `p` on `way` to a position accepted by `want`, with its jumps in playing
    /// order (used only to rebuild a solution, so it may recurse and allocate).
    pub(super) fn traced(
        &self,
        way: Way,
        p: Bits<W>,
        want: &dyn Fn(Bits<W>) -> bool,
    ) -> Option<(Bits<W>, Vec<Jump>)> {
        let mut path = Vec::new();
        let mut seen: HashSet<(Bits<W>, u16), Build> = HashSet::default();
        for h in p.iter() {
            seen.clear();
            if let Some(r) = self.go(way, p, h.index() as u16, &mut path, &mut seen, want) {
                if way == Way::Backward {
                    // Undone jumps come last-played first.
                    path.reverse();
                }
                return Some((r, path.iter().map(|&k| self.jump(k)).collect()));
            }
        }
        None
    }

    fn go(
        &self,
        way: Way,
        q: Bits<W>,
        at: u16,
        path: &mut Vec<u32>,
        seen: &mut HashSet<(Bits<W>, u16), Build>,
        want: &dyn Fn(Bits<W>) -> bool,
    ) -> Option<Bits<W>> {
        if !self.may_step(way, q.count()) {
            return None;
        }
        for s in self.steps(way, at) {
            if q.0.and(s.flips.0) != s.want.0 {
                continue;
            }
            let r = q.xor(s.flips);
            if !seen.insert((r, s.next)) {
                continue;
            }
            path.push(s.jump);
            if want(r) {
                return Some(r);
            }
            if let Some(found) = self.go(way, r, s.next, path, seen, want) {
                return Some(found);
            }
            path.pop();
        }
        None
    }

    /// Every position one move forward from `p` with the jumps of its move (each chain state
    /// once), appended to `out`.
    pub(super) fn moves_traced(&self, p: Bits<W>, out: &mut Vec<(Bits<W>, Vec<u32>)>) {
        let mut seen: HashSet<(Bits<W>, u16), Build> = HashSet::default();
        for h in p.iter() {
            let mut stack: Vec<(Bits<W>, u16, Vec<u32>)> = vec![(p, h.index() as u16, Vec::new())];
            while let Some((q, at, path)) = stack.pop() {
                if !self.may_step(Way::Forward, q.count()) {
                    continue;
                }
                for s in self.steps(Way::Forward, at) {
                    if q.0.and(s.flips.0) != s.want.0 {
                        continue;
                    }
                    let r = q.xor(s.flips);
                    if seen.insert((r, s.next)) {
                        let mut longer = path.clone();
                        longer.push(s.jump);
                        out.push((r, longer.clone()));
                        stack.push((r, s.next, longer));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move the chains give is a real move (replayed jump by jump), and the chains
    /// give every position a brute-force walk of all chains reaches, both ways.
    #[test]
    fn chains_give_exactly_the_moves_of_brute_force() {
        let board = Board::builtin("triangle5").unwrap();
        // Every peg count from none to a full board is in range.
        let chains: Chains<u64> = Chains::new(&board, &[board.holes()], &[Bits::EMPTY]);
        let mut scratch = Scratch::default();
        fn all(board: &Board, p: Bits, at: crate::Hole, out: &mut Vec<Bits>, back: bool) {
            for &j in board.jumps() {
                let (ok, r, next) = if back {
                    let need: Bits = j.needs();
                    (
                        p.contains(j.to()) && p.is_disjoint(need),
                        p.xor(j.holes()),
                        j.from(),
                    )
                } else {
                    (j.is_legal(p), j.apply(p), j.to())
                };
                let starts = if back { j.to() } else { j.from() };
                if ok && starts == at {
                    out.push(r);
                    all(board, r, next, out, back);
                }
            }
        }
        for e in board.each_hole() {
            for (p, way, back) in [
                (board.holes().without(e), Way::Forward, false),
                (Bits::single(e), Way::Backward, true),
            ] {
                let p: Bits = p;
                let mut got = Vec::new();
                chains.moves(way, p, &mut scratch, |r| {
                    got.push(r);
                    false
                });
                let mut expected = Vec::new();
                for h in p.iter() {
                    all(&board, p, h, &mut expected, back);
                }
                got.sort_unstable();
                got.dedup();
                expected.sort_unstable();
                expected.dedup();
                assert_eq!(got, expected, "{e:?} {way:?}");
            }
        }
    }
}
