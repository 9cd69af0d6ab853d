//! What the integration tests share: a brute-force oracle that knows nothing of the library
//! but the board's hole numbering (checked), and a generator of random boards of every
//! lattice, compact or sparse in large bounding boxes.

#![allow(dead_code)]

use std::collections::HashMap;

use pegsol::{Bits, Board, Finish, Hole, Lattice};

/// A small xorshift generator: fixed seeds give the same cases on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// The unit steps of each lattice, written out here rather than taken from the library.
pub fn steps(lattice: Lattice) -> &'static [(i64, i64)] {
    match lattice {
        Lattice::Orthogonal => &[(0, 1), (0, -1), (1, 0), (-1, 0)],
        Lattice::Diagonal => &[
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ],
        Lattice::Triangular => &[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
    }
}

/// Exhaustive search over every position, with jumps made here from coordinates.
pub struct Oracle {
    jumps: Vec<(u64, u64, u64)>,
}

/// What the oracle knows of one start and finish.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Truth {
    /// Some finish position is reachable.
    pub solvable: bool,
    /// Positions reachable from the start (the start included).
    pub positions: u64,
    /// Reachable positions from which a finish can be reached.
    pub winning: u64,
    /// Jump sequences from the start to a finish position.
    pub solutions: u128,
    /// Jump sequences from the start to a position with no jump left.
    pub games: u128,
}

impl Oracle {
    /// The oracle for holes at `cells` (any order, any offset) on `lattice`. Holes are
    /// numbered in reading order, which must be the board's numbering: checked against
    /// `board` when one is given.
    pub fn new(lattice: Lattice, cells: &[(i64, i64)], board: Option<&Board>) -> Oracle {
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if let Some(board) = board {
            let (r0, c0) = (
                sorted.iter().map(|c| c.0).min().unwrap(),
                sorted.iter().map(|c| c.1).min().unwrap(),
            );
            assert_eq!(board.hole_count(), sorted.len());
            for (i, &(r, c)) in sorted.iter().enumerate() {
                let (br, bc) = board.coords(Hole::new(i).unwrap());
                assert_eq!((br as i64, bc as i64), (r - r0, c - c0), "hole numbering");
            }
        }
        let index: HashMap<(i64, i64), usize> =
            sorted.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut jumps = Vec::new();
        for &(r, c) in &sorted {
            for &(dr, dc) in steps(lattice) {
                let at = |k: i64| index.get(&(r + k * dr, c + k * dc)).copied();
                if let (Some(a), Some(b), Some(t)) = (at(0), at(1), at(2)) {
                    jumps.push((1 << a, 1 << b, 1 << t));
                }
            }
        }
        Oracle { jumps }
    }

    fn children(&self, p: u64) -> impl Iterator<Item = u64> + '_ {
        self.jumps
            .iter()
            .filter(move |&&(a, b, t)| p & a != 0 && p & b != 0 && p & t == 0)
            .map(move |&(a, b, t)| p ^ a ^ b ^ t)
    }

    /// Everything about `start` and the finish positions `done` accepts.
    pub fn truth(&self, start: u64, done: impl Fn(u64) -> bool) -> Truth {
        // Paths from the start to every reachable position, level by level (a jump removes
        // one peg, so levels are peg counts).
        let mut paths: HashMap<u64, u128> = HashMap::from([(start, 1)]);
        let mut level = vec![start];
        let mut all = vec![start];
        let mut truth = Truth::default();
        while !level.is_empty() {
            let mut next: Vec<u64> = Vec::new();
            for &p in &level {
                let here = paths[&p];
                if done(p) {
                    truth.solutions += here;
                }
                let mut stuck = true;
                for q in self.children(p) {
                    stuck = false;
                    let e = paths.entry(q).or_insert(0);
                    if *e == 0 {
                        next.push(q);
                    }
                    *e += here;
                }
                if stuck {
                    truth.games += here;
                }
            }
            all.extend(&next);
            level = next;
        }
        truth.positions = all.len() as u64;
        // Winning positions, from the last level back.
        let mut wins: HashMap<u64, bool> = HashMap::new();
        for &p in all.iter().rev() {
            let w = done(p) || self.children(p).any(|q| wins.get(&q) == Some(&true));
            wins.insert(p, w);
        }
        truth.winning = wins.values().filter(|&&w| w).count() as u64;
        truth.solvable = wins[&start];
        truth
    }

    /// The oracle for a board, from its hole coordinates alone (the numbering is the
    /// board's): the jumps are made here from the lattice's unit steps.
    pub fn of_board(board: &Board) -> Oracle {
        let cells: Vec<(i64, i64)> = board
            .each_hole()
            .map(|h| {
                let (r, c) = board.coords(h);
                (r as i64, c as i64)
            })
            .collect();
        Oracle::new(board.lattice(), &cells, Some(board))
    }

    /// Whether a finish position is reachable from `start`: depth first, stopping at the
    /// first finish.
    pub fn solvable(&self, start: u64, done: impl Fn(u64) -> bool) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            if done(p) {
                return true;
            }
            if seen.insert(p) {
                stack.extend(self.children(p));
            }
        }
        false
    }

    /// Jumps on the board.
    pub fn jump_count(&self) -> usize {
        self.jumps.len()
    }

    /// The fewest moves (a move: one peg's consecutive jumps) from `start` to a finish
    /// position, by memoized search over (position, hole the last jump landed on).
    pub fn fewest_moves(&self, start: u64, done: impl Fn(u64) -> bool + Copy) -> Option<u32> {
        self.moves_from(start, 0, done, &mut HashMap::new())
    }

    /// The fewest moves to a finish from every position reachable from `start` that can
    /// still reach one (its next jump beginning a move), with one memo for them all.
    pub fn fewest_moves_from_each(
        &self,
        start: u64,
        done: impl Fn(u64) -> bool + Copy,
    ) -> Vec<(u64, u32)> {
        let mut memo = HashMap::new();
        let mut seen = std::collections::HashSet::from([start]);
        let mut stack = vec![start];
        let mut out = Vec::new();
        while let Some(p) = stack.pop() {
            if let Some(m) = self.moves_from(p, 0, done, &mut memo) {
                out.push((p, m));
            }
            for q in self.children(p) {
                if seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        out
    }

    /// The fewest moves from any of `starts` to every position reachable from them: a
    /// shortest-path search over (position, hole the last jump landed on), where a jump from
    /// that hole is free and any other begins a move.
    pub fn fewest_moves_to_each(&self, starts: &[u64]) -> HashMap<u64, u32> {
        let mut best: HashMap<(u64, u64), u32> = HashMap::new();
        let mut queue: std::collections::VecDeque<(u64, u64, u32)> =
            starts.iter().map(|&s| (s, 0, 0)).collect();
        for &s in starts {
            best.insert((s, 0), 0);
        }
        while let Some((p, last, d)) = queue.pop_front() {
            if best.get(&(p, last)).is_some_and(|&b| b < d) {
                continue;
            }
            for &(a, b, t) in &self.jumps {
                if p & a != 0 && p & b != 0 && p & t == 0 {
                    let free = a == last;
                    let e = d + u32::from(!free);
                    let key = (p ^ a ^ b ^ t, t);
                    if best.get(&key).is_none_or(|&b| e < b) {
                        best.insert(key, e);
                        if free {
                            queue.push_front((key.0, t, e));
                        } else {
                            queue.push_back((key.0, t, e));
                        }
                    }
                }
            }
        }
        let mut out: HashMap<u64, u32> = HashMap::new();
        for ((p, _), d) in best {
            let e = out.entry(p).or_insert(d);
            *e = (*e).min(d);
        }
        out
    }

    /// The fewest moves from `p` when the peg that last landed on `last` (a bit; 0 for none)
    /// may go on jumping without starting a move.
    fn moves_from(
        &self,
        p: u64,
        last: u64,
        done: impl Fn(u64) -> bool + Copy,
        memo: &mut HashMap<(u64, u64), Option<u32>>,
    ) -> Option<u32> {
        if done(p) {
            return Some(0);
        }
        if let Some(&v) = memo.get(&(p, last)) {
            return v;
        }
        let mut best: Option<u32> = None;
        for &(a, b, t) in &self.jumps {
            if p & a != 0 && p & b != 0 && p & t == 0 {
                let cost = u32::from(a != last);
                if let Some(r) = self.moves_from(p ^ a ^ b ^ t, t, done, memo) {
                    best = Some(best.map_or(r + cost, |x| x.min(r + cost)));
                }
            }
        }
        memo.insert((p, last), best);
        best
    }
}

/// Whether `pegs` is a finish position of `finish`.
pub fn is_finish(finish: Finish, pegs: u64) -> bool {
    match finish {
        Finish::Holes(f) => pegs == f.resize::<u64>().raw(),
        Finish::AnyOne => pegs.count_ones() == 1,
        Finish::Pegs(n) => pegs.count_ones() == n,
    }
}

/// A random board and problem.
pub struct Case {
    pub lattice: Lattice,
    pub cells: Vec<(i64, i64)>,
    /// The board as a picture, with the start drawn (what a user would write).
    pub picture: String,
    pub board: Board,
    pub start: Bits,
    pub finish: Finish,
    /// Whether the holes are spread over a large bounding box.
    pub sparse: bool,
}

/// A connected shape of `n` cells grown on `lattice` from `origin`, avoiding `taken`.
fn grow(
    rng: &mut Rng,
    lattice: Lattice,
    origin: (i64, i64),
    n: usize,
    taken: &[(i64, i64)],
) -> Vec<(i64, i64)> {
    let mut cells = vec![origin];
    let dirs = steps(lattice);
    for _ in 0..50 * n {
        if cells.len() == n {
            break;
        }
        let (r, c) = cells[(rng.next() % cells.len() as u64) as usize];
        let (dr, dc) = dirs[(rng.next() % dirs.len() as u64) as usize];
        let cell = (r + dr, c + dc);
        if cell.0 >= 0 && cell.1 >= 0 && !cells.contains(&cell) && !taken.contains(&cell) {
            cells.push(cell);
        }
    }
    cells
}

/// A random case: one of the three lattices; a compact shape of 5 to 14 holes, or 2 to 4
/// small clusters (or a cluster and a lone hole) spread over a bounding box of side 40 to
/// 130; a random start and finish.
pub fn random_case(rng: &mut Rng) -> Case {
    loop {
        if let Some(case) = try_case(rng) {
            return case;
        }
    }
}

/// [`random_case`], or `None` for a shape whose picture would be ambiguous: when every hole
/// is in a column of one parity, the parser may read the picture as cells separated by
/// spaces.
fn try_case(rng: &mut Rng) -> Option<Case> {
    let lattice = Lattice::ALL[(rng.next() % 3) as usize];
    let sparse = rng.next().is_multiple_of(2);
    let mut cells: Vec<(i64, i64)> = Vec::new();
    if sparse {
        let side = rng.range(40, 130) as i64;
        let clusters = rng.range(1, 4);
        for k in 0..clusters {
            let origin = if k == 0 {
                (0, 0)
            } else {
                (
                    rng.range(0, side as u64) as i64,
                    rng.range(0, side as u64) as i64,
                )
            };
            let size = rng.range(1, 6) as usize;
            let more = grow(rng, lattice, origin, size, &cells);
            cells.extend(more);
            if cells.len() >= 14 {
                break;
            }
        }
        // A lone hole in the far corner stretches the box to its full side.
        if !cells.contains(&(side, side)) {
            cells.push((side, rng.range(0, side as u64) as i64));
        }
        cells.truncate(15);
    } else {
        let n = rng.range(5, 14) as usize;
        cells = grow(rng, lattice, (20, 20), n, &[]);
    }
    cells.sort_unstable();
    cells.dedup();
    if cells.iter().all(|c| c.1 % 2 == cells[0].1 % 2) {
        return None;
    }
    let n = cells.len();
    let x = rng.next();
    let all = (1u64 << n) - 1;
    let hole = |i: u64| 1u64 << (i % n as u64);
    let mut start = match x % 4 {
        0 => all & !hole(x >> 8),
        1 => all & !hole(x >> 8) & !hole(x >> 16),
        2 => all & !hole(x >> 8) & !hole(x >> 16) & !hole(x >> 24),
        _ => (x >> 4) & (x >> 30) & all | hole(x >> 50),
    };
    if start == all {
        start &= !hole(x >> 40);
    }
    if start == 0 {
        start = hole(x >> 12);
    }
    // Clusters far apart never meet: a finish of a few pegs anywhere is often reachable.
    let finish = match rng.next() % 6 {
        0 => Finish::AnyOne,
        1 => Finish::Pegs(2),
        2 => Finish::Pegs(rng.range(1, 5) as u32),
        3 => Finish::holes(
            Bits(all & !start)
                .lowest()
                .map_or(Bits(hole(x)), |h| h.bit()),
        ),
        4 if n >= 2 => Finish::holes(Bits(hole(x >> 33) | hole(x >> 37))),
        _ => Finish::holes(Bits(hole(x >> 33))),
    };
    let picture = picture(lattice, &cells, start);
    let board = Board::parse("random", &picture).expect("a generated picture parses");
    assert_eq!(board.start(), Some(Bits(start)), "{picture}");
    Some(Case {
        lattice,
        cells,
        picture,
        board,
        start: Bits(start),
        finish,
        sparse,
    })
}

/// The picture of holes at `cells` (sorted) with pegs where `start` has them.
pub fn picture(lattice: Lattice, cells: &[(i64, i64)], start: u64) -> String {
    let r0 = cells.iter().map(|c| c.0).min().unwrap();
    let c0 = cells.iter().map(|c| c.1).min().unwrap();
    let mut out = String::new();
    if lattice != Lattice::Orthogonal {
        out.push_str(&format!("lattice: {lattice}\n"));
    }
    let mut row = r0;
    let mut col = c0;
    for (i, &(r, c)) in cells.iter().enumerate() {
        while row < r {
            out.push('\n');
            row += 1;
            col = c0;
        }
        out.extend(std::iter::repeat_n(' ', (c - col) as usize));
        out.push(if start >> i & 1 == 1 { 'o' } else { '.' });
        col = c + 1;
    }
    out.push('\n');
    out
}
