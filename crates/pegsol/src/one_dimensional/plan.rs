//! The linear-time minimum and its partition, kept in a few bits per cell.
//!
//! The left-to-right pass keeps, for each DFA state, the fewest finished pieces before the
//! current one, and the best partition of the prefix ending at each cell (`best[i]`), which
//! the backward recovery of the pieces reads. Keeping `best` whole would cost a word per cell;
//! it changes little from one cell to the next, so it is kept as one byte per cell (the
//! change in pieces and in bare pairs, a signed nibble each), with the rare larger changes in
//! a side table.

use super::dfa::Dfa;
use super::play::reduce_piece;

/// Costs are (pieces, bare pairs) packed lexicographically: a bare `11` is used only when no
/// partition of as many pieces avoids it, since it needs a neighbour's hole.
const PIECE: u64 = 1 << 32;
const BARE: u64 = PIECE + 1;
const NONE: u64 = u64::MAX;

/// A set of cell indices, one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct CellSet(Vec<u64>);

impl CellSet {
    fn new(n: usize) -> CellSet {
        CellSet(vec![0; n.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The members in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    64 * k + b
                })
            })
        })
    }
}

/// Most DFA states the pass handles: the language's minimal DFA has 18.
const MAX_STATES: usize = 20;

/// The forward pass over one configuration, with the DFA as flat tables and sets of states
/// as bit masks.
struct Pass<'a> {
    cells: &'a [bool],
    /// `next[c][a]`: the state after `a` on cell value `c`.
    next: [[u8; MAX_STATES]; 2],
    accepting: u32,
    /// States from which no piece can be completed: never kept.
    hopeless: u32,
}

/// The pass's column at a cell: the cost of each live DFA state (the set `live`), and `best`
/// at the cell and the one before. Costs are in `cost[cur]`; a step writes the other array.
#[derive(Clone, Copy)]
struct Column {
    cost: [[u64; MAX_STATES]; 2],
    cur: usize,
    live: u32,
    best: u64,
    best_before: u64,
}

impl Pass<'_> {
    fn new(cells: &[bool]) -> Pass<'_> {
        let dfa = Dfa::language();
        assert!(dfa.states() <= MAX_STATES, "the language's DFA fits a mask");
        let mask = |f: &dyn Fn(usize) -> bool| {
            (0..dfa.states()).fold(0u32, |m, s| m | u32::from(f(s)) << s)
        };
        let hopeless = dfa.hopeless();
        let mut next = [[0u8; MAX_STATES]; 2];
        for (c, row) in next.iter_mut().enumerate() {
            for (a, to) in row.iter_mut().enumerate().take(dfa.states()) {
                *to = dfa.next[a][c] as u8;
            }
        }
        Pass {
            cells,
            next,
            accepting: mask(&|s| dfa.accepting[s]),
            hopeless: mask(&|s| hopeless[s]),
        }
    }

    /// The DFA state after `state` on a cell holding `peg`.
    fn next_state(&self, state: usize, peg: bool) -> usize {
        self.next[usize::from(peg)][state] as usize
    }

    fn accepts(&self, state: usize) -> bool {
        self.accepting >> state & 1 == 1
    }

    /// The column before the first cell: no pieces yet, in the start state.
    fn first() -> Column {
        let mut cost = [[NONE; MAX_STATES]; 2];
        cost[0][0] = 0;
        Column {
            cost,
            cur: 0,
            live: 1,
            best: 0,
            best_before: NONE,
        }
    }

    /// Advances `col` over cell `i`; the new `best`.
    #[inline]
    fn step(&self, col: &mut Column, i: usize) -> u64 {
        let next = &self.next[usize::from(self.cells[i])];
        let [c0, c1] = &mut col.cost;
        let (old, cost) = if col.cur == 0 { (c0, c1) } else { (c1, c0) };
        col.cur ^= 1;
        cost.fill(NONE);
        let mut live = 0u32;
        let mut m = col.live;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            let b = next[a] as usize;
            live |= 1 << b;
            cost[b] = cost[b].min(old[a]);
        }
        live &= !self.hopeless;
        let mut done = NONE;
        let mut m = live & self.accepting;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            done = done.min(cost[a] + PIECE);
        }
        if i >= 1 && self.cells[i] && self.cells[i - 1] && col.best_before != NONE {
            done = done.min(col.best_before + BARE);
        }
        if done != NONE {
            live |= 1;
            cost[0] = cost[0].min(done);
        }
        col.live = live;
        col.best_before = col.best;
        col.best = done;
        done
    }
}

/// `best[i]` for every prefix length `i`, a byte per cell, read through a cursor that moves
/// a cell at a time (the recovery reads it right to left, now and then one cell back).
struct Best {
    /// `best[i]` is `NONE` for `1 <= i <= zeros` (a prefix of holes only) and `PIECE` for
    /// `i = zeros + 1`.
    zeros: usize,
    /// `bytes[i]` encodes `best[i] - best[i - 1]` for `i >= zeros + 2`.
    bytes: Vec<u8>,
    /// `(i, best[i] - best[i - 1])` (wrapping) where the byte is [`LARGE`], by `i`.
    large: Vec<(usize, u64)>,
    at: usize,
    value: u64,
}

/// The byte of a change too large for two nibbles.
const LARGE: u8 = 0;

impl Best {
    fn new(n: usize) -> Best {
        Best {
            zeros: 0,
            bytes: vec![LARGE; n + 1],
            large: Vec::new(),
            at: 0,
            value: 0,
        }
    }

    /// Records `best[i]`, given `best[i - 1]`; called for `i = 1, 2, ...` in order.
    fn record(&mut self, i: usize, before: u64, now: u64) {
        if now == NONE {
            self.zeros = i;
            return;
        }
        if i <= self.zeros + 1 {
            self.at = i;
            self.value = now;
            return;
        }
        let delta = now.wrapping_sub(before);
        // The low half as a signed change in bare pairs, the rest as the change in pieces.
        let bare = i64::from(delta as u32 as i32);
        let pieces = (delta as i64).wrapping_sub(bare) >> 32;
        let byte = if (-8..8).contains(&pieces) && (-8..8).contains(&bare) {
            ((pieces + 8) as u8) << 4 | (bare + 8) as u8
        } else {
            LARGE
        };
        self.bytes[i] = byte;
        if byte == LARGE {
            self.large.push((i, delta));
        }
        self.at = i;
        self.value = now;
    }

    /// `best[i] - best[i - 1]`, wrapping.
    fn delta(&self, i: usize) -> u64 {
        match self.bytes[i] {
            LARGE => {
                let k = self.large.partition_point(|&(at, _)| at < i);
                self.large[k].1
            }
            b => {
                let (pieces, bare) = (i64::from(b >> 4) - 8, i64::from(b & 15) - 8);
                (pieces << 32).wrapping_add(bare) as u64
            }
        }
    }

    /// `best[i]`: the cheapest partition of `cells[..i]`.
    fn get(&mut self, i: usize) -> u64 {
        if i == 0 {
            return 0;
        }
        if i <= self.zeros {
            return NONE;
        }
        while self.at > i {
            self.value = self.value.wrapping_sub(self.delta(self.at));
            self.at -= 1;
        }
        while self.at < i {
            self.at += 1;
            self.value = self.value.wrapping_add(self.delta(self.at));
        }
        self.value
    }
}

/// The fewest pegs a configuration reduces to, and a partition into that many pieces, each
/// of which reduces to one peg (a piece is a string of `0*L0*` or a bare `11`). It takes one
/// bit per cell; the jumps are produced on demand by [`LinePlan::jumps`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinePlan {
    len: usize,
    min_pegs: usize,
    /// Where each piece starts; the pieces tile the configuration.
    starts: CellSet,
}

impl LinePlan {
    /// The partition of `cells` into the fewest pieces, in linear time.
    ///
    /// ```
    /// let cells = pegsol::one_dimensional::parse_line("1011011").unwrap();
    /// let plan = pegsol::one_dimensional::LinePlan::new(&cells);
    /// assert_eq!(plan.min_pegs(), 2);
    /// assert_eq!(plan.pieces().collect::<Vec<_>>(), [(0, 4), (4, 7)]);
    /// ```
    #[must_use]
    pub fn new(cells: &[bool]) -> LinePlan {
        let n = cells.len();
        let mut starts = CellSet::new(n);
        if !cells.contains(&false) {
            // No hole: no jump is possible; each peg is its own piece.
            (0..n).for_each(|i| starts.insert(i));
            return LinePlan {
                len: n,
                min_pegs: n,
                starts,
            };
        }
        let pass = Pass::new(cells);
        let mut col = Pass::first();
        let mut best = Best::new(n);
        for i in 0..n {
            let before = col.best;
            best.record(i + 1, before, pass.step(&mut col, i));
        }
        if col.best == NONE {
            // No pegs at all: nothing to partition.
            return LinePlan {
                len: n,
                min_pegs: 0,
                starts,
            };
        }
        let total = col.best;
        // Recover the pieces from the right: the language is its own mirror image, so the DFA
        // read right to left recognises each last piece.
        let mut pieces = 0;
        let mut end = n;
        let mut at_end = total;
        while end > 0 {
            pieces += 1;
            if end >= 2 && cells[end - 1] && cells[end - 2] {
                let before = best.get(end - 2);
                if before != NONE && before + BARE == at_end {
                    end -= 2;
                    at_end = before;
                    starts.insert(end);
                    continue;
                }
            }
            let mut state = 0usize;
            let mut start = end;
            loop {
                start -= 1;
                state = pass.next_state(state, cells[start]);
                if pass.accepts(state) {
                    let before = best.get(start);
                    if before != NONE && before + PIECE == at_end {
                        at_end = before;
                        break;
                    }
                }
            }
            starts.insert(start);
            end = start;
        }
        LinePlan {
            len: n,
            min_pegs: pieces,
            starts,
        }
    }

    /// The fewest pegs the configuration reduces to (the number of pieces).
    #[must_use]
    pub const fn min_pegs(&self) -> usize {
        self.min_pegs
    }

    /// The pieces as `[start, end)` cell ranges, left to right.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut starts = self.starts.iter().peekable();
        std::iter::from_fn(move || {
            let a = starts.next()?;
            Some((a, starts.peek().copied().unwrap_or(self.len)))
        })
    }

    /// Calls `each(from, to)` for every jump of a line of play from `cells` (the
    /// configuration this plan was made for) down to [`LinePlan::min_pegs`] pegs, in order;
    /// the jumped cell is between. First every piece that can be played within its own cells
    /// is reduced, then each bare `11` jumps into a hole a reduced neighbour has left, or over
    /// the neighbour's last peg (repeating while some bare pair can move, since each move
    /// frees a hole for the next). Memory: one byte per cell, and only when there are bare
    /// pairs.
    pub fn jumps(&self, cells: &[bool], mut each: impl FnMut(usize, usize)) {
        let is_bare = |(a, b): (usize, usize)| cells[a..b] == [true, true];
        // The bare pairs need the board as the other pieces leave it.
        let mut board = self.pieces().any(is_bare).then(|| cells.to_vec());
        let mut bare = CellSet::new(if board.is_some() { self.len } else { 0 });
        let mut local = Vec::new();
        for (a, b) in self.pieces() {
            if is_bare((a, b)) {
                bare.insert(a);
                continue;
            }
            local.clear();
            reduce_piece(&cells[a..b], a, &mut local);
            for &(f, t) in &local {
                each(f, t);
                if let Some(board) = &mut board {
                    board[f] = false;
                    board[(f + t) / 2] = false;
                    board[t] = true;
                }
            }
        }
        let Some(mut board) = board else {
            return;
        };
        loop {
            let mut moved = false;
            for k in 0..bare.0.len() {
                let mut word = bare.0[k];
                while word != 0 {
                    let a = 64 * k + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let n = board.len();
                    let empty = |i: usize| i < n && !board[i];
                    let peg = |i: usize| i < n && board[i];
                    // Into a hole beside the pair; or, where a neighbour's last peg sits
                    // beside it, over that peg into the hole beyond (three pegs become two,
                    // as two pieces should).
                    let jump = if empty(a + 2) {
                        (a, a + 2)
                    } else if a >= 1 && empty(a - 1) {
                        (a + 1, a - 1)
                    } else if a >= 2 && peg(a - 1) && empty(a - 2) {
                        (a, a - 2)
                    } else if peg(a + 2) && empty(a + 3) {
                        (a + 1, a + 3)
                    } else {
                        continue;
                    };
                    board[jump.0] = false;
                    board[(jump.0 + jump.1) / 2] = false;
                    board[jump.1] = true;
                    each(jump.0, jump.1);
                    bare.remove(a);
                    moved = true;
                }
            }
            if !moved || bare.is_empty() {
                // Every bare pair moves, for a partition of a board with a hole (checked
                // exhaustively); the replay that follows each plan would catch it otherwise.
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `best` kept whole, one word per cell: what [`Best`] must give back.
    fn every_best(cells: &[bool]) -> Vec<u64> {
        let pass = Pass::new(cells);
        let mut col = Pass::first();
        let mut out = vec![0];
        for i in 0..cells.len() {
            out.push(pass.step(&mut col, i));
        }
        out
    }

    fn check_cursor(cells: &[bool]) {
        let whole = every_best(cells);
        let pass = Pass::new(cells);
        let mut col = Pass::first();
        let mut best = Best::new(cells.len());
        for i in 0..cells.len() {
            let before = col.best;
            best.record(i + 1, before, pass.step(&mut col, i));
        }
        // Right to left, with a step back now and then, as the recovery reads it.
        for i in (0..=cells.len()).rev() {
            assert_eq!(best.get(i), whole[i], "{cells:?} at {i}");
            if i < cells.len() {
                assert_eq!(best.get(i + 1), whole[i + 1]);
            }
        }
    }

    #[test]
    fn best_reads_back_exactly() {
        for n in 1..=12usize {
            for x in 0u32..1 << n {
                check_cursor(&(0..n).map(|i| x >> i & 1 == 1).collect::<Vec<_>>());
            }
        }
        // Long runs that change `best` by more than a nibble: (10)^k then 11 drops it by k-1.
        let mut long: Vec<bool> = Vec::new();
        for k in [3, 9, 40, 200] {
            long.extend(std::iter::repeat_n([true, false], k).flatten());
            long.extend([true, true, false, false, false]);
        }
        check_cursor(&long);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let random: Vec<bool> = (0..200_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                !state.is_multiple_of(3)
            })
            .collect();
        check_cursor(&random);
    }
}
