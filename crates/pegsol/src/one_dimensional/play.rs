//! Playing a partition out: each piece's jumps from its stage pattern, a checker that replays
//! them, and exhaustive search for tests.

/// Appends the jumps that reduce one piece (a string of `0*L0*` starting at cell `offset`) to
/// one peg: the reverse of the stage's unhops.
///
/// Stage by stage, forwards (positions within the pegs' span `x`):
/// - `10(10)^k11`: the last peg jumps left over its neighbour, `k + 1` times, then
///   `1100 -> 0010`;
/// - `11(01)^a(11)^b00(10)^c11`: the pair of holes moves left (`1100 -> 0010`, `b` times), the
///   front `11` jumps right (`a` times), then `1100 -> 0010` leaves `10(10)^(b+c)11`;
/// - `11(01)^a(11)^b01` with `b >= 1`: `1101 -> 0011` at the end leaves the previous form;
/// - `11(01)^a(11)^b1011(10)^c11`: `1011 -> 1100` in the middle leaves the `00` form;
/// - mirror images are solved mirrored; `1` needs nothing; `11` jumps into the hole beside it.
///
/// # Panics
/// If the piece is not in the language (the partition guarantees it is).
pub fn reduce_piece(piece: &[bool], offset: usize, jumps: &mut Vec<(usize, usize)>) {
    let first = piece.iter().position(|&c| c).expect("a piece has a peg");
    let last = piece.iter().rposition(|&c| c).expect("a piece has a peg");
    let core = &piece[first..=last];
    let base = offset + first;
    if core.len() == 1 {
        return;
    }
    if core == [true, true] {
        if last + 1 < piece.len() {
            jumps.push((base, base + 2));
        } else {
            assert!(first > 0, "11 needs a hole beside it");
            jumps.push((base + 1, base - 1));
        }
        return;
    }
    // The core's jumps go straight onto `jumps` in the core's own cells, and are moved to
    // the board's once the form is known.
    let mark = jumps.len();
    if reduce_core(core, jumps) {
        for j in &mut jumps[mark..] {
            *j = (base + j.0, base + j.1);
        }
        return;
    }
    jumps.truncate(mark);
    let solved = with_copy(core.iter().rev().copied(), |mirrored| {
        reduce_core(mirrored, jumps)
    });
    assert!(solved, "piece is not in the language");
    let m = core.len() - 1;
    for j in &mut jumps[mark..] {
        *j = (base + m - j.0, base + m - j.1);
    }
}

/// Calls `f` on a copy of `cells` it may change: on the stack when short, as most pieces are.
fn with_copy<R>(cells: impl ExactSizeIterator<Item = bool>, f: impl FnOnce(&mut [bool]) -> R) -> R {
    let n = cells.len();
    if n <= 64 {
        let mut small = [false; 64];
        small.iter_mut().zip(cells).for_each(|(d, s)| *d = s);
        f(&mut small[..n])
    } else {
        f(&mut cells.collect::<Vec<bool>>())
    }
}

/// Reduces a core (first and last cells pegs) of one of the stage forms, unmirrored.
fn reduce_core(core: &[bool], out: &mut Vec<(usize, usize)>) -> bool {
    if core.len() % 2 == 1 {
        return false;
    }
    let chunk = |i: usize| (core[2 * i], core[2 * i + 1]);
    let m = core.len() / 2;
    const C11: (bool, bool) = (true, true);
    const C10: (bool, bool) = (true, false);
    const C01: (bool, bool) = (false, true);
    const C00: (bool, bool) = (false, false);
    // Form A: 10 (10)^k 11.
    if chunk(0) == C10 {
        if chunk(m - 1) != C11 || (1..m - 1).any(|i| chunk(i) != C10) {
            return false;
        }
        stage_one(2 * m - 1, out);
        return true;
    }
    if chunk(0) != C11 {
        return false;
    }
    let mut i = 1;
    while i < m && chunk(i) == C01 {
        i += 1;
    }
    let a = i - 1;
    while i < m && chunk(i) == C11 {
        i += 1;
    }
    let b = i - 1 - a;
    let hole_pair = |pair: usize, out: &mut Vec<(usize, usize)>| {
        // 11(01)^a(11)^b 00 ... with the 00 at chunk `pair`.
        let mut p = pair;
        for _ in 0..b {
            // 1100 -> 0010 just before the holes: the holes move left.
            out.push((2 * p - 2, 2 * p));
            p -= 1;
        }
        // 11(01)^a 00 ...: the front pair jumps right, a times, then once more into the holes.
        let mut q = 0;
        for _ in 0..a {
            out.push((q, q + 2));
            q += 2;
        }
        out.push((q, q + 2));
        // Now 10(10)^(...)11 from cell q + 2 to the end.
        stage_one_from(q + 2, core.len() - 1, out);
    };
    if i == m {
        // 11(01)^a with a >= 1 is the mirror image of form A: solved mirrored.
        return false;
    }
    match chunk(i) {
        C00 => {
            if chunk(m - 1) != C11 || i + 1 >= m || (i + 1..m - 1).any(|k| chunk(k) != C10) {
                return false;
            }
            hole_pair(i, out);
            true
        }
        C01 if i == m - 1 && b >= 1 => {
            // ...11 01 -> ...00 11: the holes move in from the right end.
            out.push((2 * i - 2, 2 * i));
            with_copy(core.iter().copied(), |rest| {
                rest[2 * i - 2] = false;
                rest[2 * i - 1] = false;
                rest[2 * i] = true;
                reduce_core(rest, out)
            })
        }
        C10 => {
            // 11(01)^a(11)^b 10 11 (10)^c 11: 1011 -> 1100 leaves the 00 form.
            if i + 2 >= m || chunk(i + 1) != C11 || chunk(m - 1) != C11 {
                return false;
            }
            if (i + 2..m - 1).any(|k| chunk(k) != C10) {
                return false;
            }
            out.push((2 * i + 3, 2 * i + 1));
            with_copy(core.iter().copied(), |rest| {
                rest[2 * i + 1] = true;
                rest[2 * i + 2] = false;
                rest[2 * i + 3] = false;
                reduce_core(rest, out)
            })
        }
        _ => false,
    }
}

/// `10(10)^k11` on cells `0..=last`.
fn stage_one(last: usize, out: &mut Vec<(usize, usize)>) {
    stage_one_from(0, last, out);
}

/// `10(10)^k11` on cells `first..=last`: the last peg jumps left over its neighbour until
/// `1100` remains at `first`, which jumps right.
fn stage_one_from(first: usize, last: usize, out: &mut Vec<(usize, usize)>) {
    let mut p = last;
    while p >= first + 3 {
        out.push((p, p - 2));
        p -= 2;
    }
    out.push((first, first + 2));
}

/// The fewest pegs by exhaustive search, for tests and small inputs (at most 24 cells).
#[must_use]
pub fn brute_force_min(cells: &[bool]) -> usize {
    assert!(cells.len() <= 24);
    let n = cells.len();
    let start: u32 = cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &c)| acc | (u32::from(c) << i));
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start];
    let mut best = start.count_ones() as usize;
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        best = best.min(p.count_ones() as usize);
        for i in 0..n.saturating_sub(2) {
            let (a, b, c) = (1 << i, 1 << (i + 1), 1 << (i + 2));
            if p & a != 0 && p & b != 0 && p & c == 0 {
                stack.push(p ^ a ^ b ^ c);
            }
            if p & c != 0 && p & b != 0 && p & a == 0 {
                stack.push(p ^ a ^ b ^ c);
            }
        }
    }
    best
}

/// An independent checker for a line of play: it holds its own copy of the cells and
/// checks each jump against it, so that jumps can be checked as they are made, without
/// keeping them.
pub struct LineReplay {
    cells: Vec<bool>,
    played: usize,
}

impl LineReplay {
    /// A checker starting from `cells`.
    #[must_use]
    pub fn new(cells: &[bool]) -> LineReplay {
        LineReplay {
            cells: cells.to_vec(),
            played: 0,
        }
    }

    /// Plays the jump `from -> to`, over the cell between, if it is legal.
    pub fn play(&mut self, from: usize, to: usize) -> Result<(), String> {
        self.played += 1;
        let cells = &mut self.cells;
        let ok = from.abs_diff(to) == 2
            && from.max(to) < cells.len()
            && cells[from]
            && cells[(from + to) / 2]
            && !cells[to];
        if !ok {
            return Err(format!("jump {} ({from}-{to}) is illegal", self.played));
        }
        cells[from] = false;
        cells[(from + to) / 2] = false;
        cells[to] = true;
        Ok(())
    }

    /// The jumps played so far.
    #[must_use]
    pub const fn played(&self) -> usize {
        self.played
    }

    /// The pegs left.
    #[must_use]
    pub fn pegs(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }
}

/// Plays `jumps` on `cells`, checking each; the number of pegs left.
pub fn replay_line(cells: &[bool], jumps: &[(usize, usize)]) -> Result<usize, String> {
    let mut replay = LineReplay::new(cells);
    for &(from, to) in jumps {
        replay.play(from, to)?;
    }
    Ok(replay.pegs())
}
