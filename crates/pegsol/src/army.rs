//! The Solitaire Army (Conway's soldiers): men start on or below a line of the infinite board;
//! how few can send one man `N` rows beyond it?
//!
//! # Method
//!
//! The search runs backwards from the single man at the target `(0, N)`: undoing a jump
//! replaces the man on `c` by men on `a` and `b` (the jump `a` over `b` into `c`), so each undo
//! adds one man, and an army is found when every man stands on row 0 or below. The fewest men
//! is the fewest undos plus one, searched by iterative deepening (IDA*) on the number of men,
//! with a table of failed positions (up to the left-right mirror) and three lower bounds:
//!
//! - every man above the line needs at least one more undo;
//! - Conway's pagoda function `w(x, y) = sigma^(|x| + |N - y|)`, `sigma = (sqrt 5 - 1) / 2`.
//!   Since `sigma^2 + sigma = 1`, `w(a) + w(b) >= w(c)` for every jump, so an undo never
//!   lowers the total. The army's total is at least the current total, and `k` men below the
//!   line total at most the sum of the `k` largest weights there (on the infinite board), which
//!   bounds `k` from below. At the root this alone shows at least 2, 4, 8 and 19 men for rows
//!   1 to 4;
//! - lineages: the men that end up replacing one man form an army for that man alone (other
//!   men can only block his undos, never help them), so the men needed add up over the men
//!   present, each needing at least the pagoda bound for his own row.
//!
//! The search is confined to a window (columns `-5..=5`, rows down to `N - 10`, 121 holes in a
//! `u128`); "no smaller army" is proved for lines of play inside that window. Every army found
//! is replayed forwards by an independent checker before it is returned.
//!
//! Row 5 is impossible, and the proof is Conway's: the weights of every hole on or below the
//! line sum to exactly `sigma^(N - 5)`, which is 1 for `N = 5`, so any finite army totals less
//! than the target's weight 1, and totals never rise.

use std::collections::HashMap;
use std::time::Instant;

/// A cell of the infinite board: column (0 under the target) and row (0 is the line; the army
/// starts on rows `<= 0`).
pub type Cell = (i32, i32);

/// A jump: from, over, to.
pub type ArmyJump = (Cell, Cell, Cell);

/// `(sqrt 5 - 1) / 2`, the golden ratio's inverse.
pub const SIGMA: f64 = 0.618_033_988_749_894_9;

/// Half the window's width: columns `-HALF..=HALF`.
const HALF: i32 = 5;
const WIDTH: i32 = 2 * HALF + 1;
/// Rows in the window (121 cells fit a `u128`).
const HEIGHT: i32 = 11;

/// The smallest army found for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmySolution {
    /// The row reached.
    pub row: u32,
    /// The men's starting cells.
    pub men: Vec<Cell>,
    /// The jumps, in playing order, replayed and checked.
    pub jumps: Vec<ArmyJump>,
    /// Whether every smaller army was ruled out (within the window).
    pub minimal: bool,
    /// Positions searched.
    pub nodes: u64,
    /// The pagoda lower bound on the men (valid on the infinite board).
    pub pagoda_bound: u32,
}

/// Why no army came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArmyError {
    /// Rows 5 and beyond cannot be reached (Conway); the text is the proof.
    Impossible(String),
    /// Row 0 or less: no man needs to move.
    Trivial,
    /// The time budget ran out while searching this many men.
    Budget {
        /// Armies smaller than this were ruled out.
        ruled_out_below: u32,
    },
}

/// The window's geometry: cell index for (x, y), rows from `top = N` down.
struct Window {
    row: i32,
    weights: Vec<f64>,
    /// Weights of the cells on or below the line, largest first, as prefix sums.
    best: Vec<f64>,
    above: u128,
    /// For each window row (index `row - y`), the men a single man there needs by the pagoda
    /// bound centred on him (1 on or below the line): lineages of different men never help
    /// each other (men only block), so these add up.
    need: Vec<u32>,
    /// Cells of each window row, as masks.
    rows: Vec<u128>,
    mirror: Vec<usize>,
    /// Undo moves: (c, a, b) as bit indices: the man on c becomes men on a and b.
    undos: Vec<Vec<(usize, usize)>>,
}

impl Window {
    fn new(row: i32) -> Window {
        let mut w = Window {
            row,
            weights: vec![0.0; (WIDTH * HEIGHT) as usize],
            best: Vec::new(),
            above: 0,
            need: Vec::new(),
            rows: vec![0; HEIGHT as usize],
            mirror: vec![0; (WIDTH * HEIGHT) as usize],
            undos: vec![Vec::new(); (WIDTH * HEIGHT) as usize],
        };
        for i in 0..(WIDTH * HEIGHT) as usize {
            let (x, y) = w.cell(i);
            let weight = SIGMA.powi(x.abs() + (row - y).abs());
            w.weights[i] = weight;
            if y > 0 {
                w.above |= 1 << i;
            }
            w.rows[(row - y) as usize] |= 1 << i;
            w.mirror[i] = w.index((-x, y)).unwrap_or(i);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if let (Some(a), Some(b)) =
                    (w.index((x - 2 * dx, y - 2 * dy)), w.index((x - dx, y - dy)))
                {
                    w.undos[i].push((a, b));
                }
            }
        }
        // The largest weights on or below the line of the infinite board: distance d >= row
        // holds 1 + 2 (d - row) cells (they bound the men needed on the infinite board, and so
        // in the window too).
        w.best = best_sums(row);
        w.need = (0..HEIGHT)
            .map(|r| {
                let y = row - r;
                if y <= 0 {
                    1
                } else {
                    needed(&best_sums(y), 1.0)
                }
            })
            .collect();
        w
    }

    fn cell(&self, i: usize) -> Cell {
        let i = i as i32;
        (i % WIDTH - HALF, self.row - i / WIDTH)
    }

    fn index(&self, (x, y): Cell) -> Option<usize> {
        let r = self.row - y;
        (x.abs() <= HALF && (0..HEIGHT).contains(&r)).then(|| (r * WIDTH + x + HALF) as usize)
    }

    /// The fewest men below the line whose weights can total `total`.
    fn men_needed(&self, total: f64) -> u32 {
        needed(&self.best, total)
    }

    /// The sum of the single-man bounds of every man in `pegs`.
    fn lineage_bound(&self, pegs: u128) -> u32 {
        self.rows
            .iter()
            .zip(&self.need)
            .map(|(&mask, &n)| (pegs & mask).count_ones() * n)
            .sum()
    }

    fn mirror(&self, pegs: u128) -> u128 {
        let mut out = 0u128;
        let mut p = pegs;
        while p != 0 {
            let i = p.trailing_zeros() as usize;
            p &= p - 1;
            out |= 1 << self.mirror[i];
        }
        out
    }
}

/// Prefix sums of the largest weights on or below the line of the infinite board for a target
/// on row `row`: distance `d >= row` holds `1 + 2 (d - row)` cells.
fn best_sums(row: i32) -> Vec<f64> {
    let mut sums = vec![0.0];
    let mut sum = 0.0;
    for d in row..row + 40 {
        for _ in 0..1 + 2 * (d - row) {
            sum += SIGMA.powi(d);
            sums.push(sum);
        }
    }
    sums
}

/// The fewest of those weights that total `total` (a little slack keeps rounding on the safe
/// side).
fn needed(best: &[f64], total: f64) -> u32 {
    best.iter()
        .position(|&s| s >= total - 1e-9)
        .map_or(u32::MAX, |k| k as u32)
}

struct Search<'w> {
    w: &'w Window,
    /// Failed positions (up to mirror) with the most men they were allowed.
    failed: HashMap<u128, u32>,
    nodes: u64,
    /// Undos made, as (c, a, b).
    path: Vec<(usize, usize, usize)>,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl Search<'_> {
    /// Whether the men in `pegs` (`men` of them, pagoda total `total`) can be brought on or
    /// below the line with at most `limit` men in all.
    fn go(&mut self, pegs: u128, men: u32, total: f64, limit: u32) -> bool {
        let up = (pegs & self.w.above).count_ones();
        if up == 0 {
            return true;
        }
        if men + up > limit
            || self.w.men_needed(total) > limit
            || self.w.lineage_bound(pegs) > limit
        {
            return false;
        }
        self.nodes += 1;
        if self.nodes & 0xffff == 0 && self.deadline.is_some_and(|d| Instant::now() > d) {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return false;
        }
        let key = pegs.min(self.w.mirror(pegs));
        if self.failed.get(&key).is_some_and(|&l| l >= limit) {
            return false;
        }
        // Undo men above the line first, highest first: they are what remains to be done.
        let mut order: Vec<usize> = Vec::with_capacity(men as usize);
        let mut p = pegs;
        while p != 0 {
            let i = p.trailing_zeros() as usize;
            p &= p - 1;
            order.push(i);
        }
        order.sort_by_key(|&i| (self.w.above >> i & 1 == 0, i));
        for c in order {
            for &(a, b) in &self.w.undos[c] {
                if pegs >> a & 1 == 0 && pegs >> b & 1 == 0 {
                    let next = pegs & !(1 << c) | 1 << a | 1 << b;
                    let t = total - self.w.weights[c] + self.w.weights[a] + self.w.weights[b];
                    self.path.push((c, a, b));
                    if self.go(next, men + 1, t, limit) {
                        return true;
                    }
                    self.path.pop();
                }
            }
        }
        if !self.out_of_time {
            self.failed.insert(key, limit);
        }
        false
    }
}

/// Replays an army's jumps forwards on the infinite board, from coordinates alone: each jump
/// moves two cells in a line over an occupied neighbour into an empty cell. Returns whether a
/// man reaches `(0, row)` and every man started on or below the line.
#[must_use]
pub fn replay_army(men: &[Cell], jumps: &[ArmyJump], row: i32) -> bool {
    let mut pegs: std::collections::HashSet<Cell> = men.iter().copied().collect();
    if pegs.len() != men.len() || men.iter().any(|&(_, y)| y > 0) {
        return false;
    }
    for &(from, over, to) in jumps {
        let d = (to.0 - from.0, to.1 - from.1);
        let straight = matches!(d, (2, 0) | (-2, 0) | (0, 2) | (0, -2));
        let mid = (from.0 + d.0 / 2, from.1 + d.1 / 2);
        if !straight || mid != over || !pegs.contains(&from) || !pegs.contains(&over) {
            return false;
        }
        if !pegs.insert(to) {
            return false;
        }
        pegs.remove(&from);
        pegs.remove(&over);
    }
    pegs.contains(&(0, row))
}

/// Conway's proof that row `row` (5 or more) is out of reach, as text.
#[must_use]
pub fn conway_proof(row: u32) -> String {
    format!(
        "Weight each cell sigma^d, where d = |x| + |{row} - y| is its distance from the target \
         (0, {row}) and sigma = (sqrt 5 - 1)/2, so sigma^2 + sigma = 1.\n\
         A jump towards the target changes the total by sigma^d - sigma^(d+1) - sigma^(d+2) = 0, \
         any other jump lowers it: the total never rises.\n\
         The target alone totals sigma^0 = 1.\n\
         Every cell on or below the line (y <= 0) together: the sum over columns of sigma^|x| is \
         1 + 2 sigma/(1 - sigma) = sigma^-3, and the sum over rows y <= 0 of sigma^({row} - y) is \
         sigma^{row}/(1 - sigma) = sigma^{row} / sigma^2, so the whole half-plane totals \
         sigma^({row} - 5) = {:.6}{}.\n\
         A finite army is a finite part of the half-plane, so it totals strictly less than that, \
         which is at most 1: no finite army can put a man on row {row}.",
        SIGMA.powi(row as i32 - 5),
        if row == 5 { " (exactly 1)" } else { "" }
    )
}

/// Finds the smallest army that puts a man on row `row`, proving (within the window) that no
/// smaller one works, or says why it cannot.
///
/// ```
/// use pegsol::army::smallest_army;
/// let a = smallest_army(3, None).unwrap();
/// assert_eq!((a.men.len(), a.minimal), (8, true));
/// ```
pub fn smallest_army(
    row: u32,
    timeout: Option<std::time::Duration>,
) -> Result<ArmySolution, ArmyError> {
    if row == 0 {
        return Err(ArmyError::Trivial);
    }
    if row >= 5 {
        return Err(ArmyError::Impossible(conway_proof(row)));
    }
    let w = Window::new(row as i32);
    let target = w
        .index((0, row as i32))
        .expect("the target is in the window");
    let bound = w.men_needed(1.0);
    let mut search = Search {
        w: &w,
        failed: HashMap::new(),
        nodes: 0,
        path: Vec::new(),
        deadline: timeout.map(|t| Instant::now() + t),
        out_of_time: false,
    };
    let mut limit = bound.max(2);
    loop {
        if search.go(1 << target, 1, 1.0, limit) {
            break;
        }
        if search.out_of_time {
            return Err(ArmyError::Budget {
                ruled_out_below: limit,
            });
        }
        limit += 1;
    }
    // Rebuild the army and the forward jumps: the undos in reverse order are the jumps.
    let mut pegs: u128 = 1 << target;
    for &(c, a, b) in &search.path {
        pegs = pegs & !(1 << c) | 1 << a | 1 << b;
    }
    let mut men = Vec::new();
    let mut p = pegs;
    while p != 0 {
        let i = p.trailing_zeros() as usize;
        p &= p - 1;
        men.push(w.cell(i));
    }
    let jumps: Vec<ArmyJump> = search
        .path
        .iter()
        .rev()
        .map(|&(c, a, b)| (w.cell(a), w.cell(b), w.cell(c)))
        .collect();
    assert!(
        replay_army(&men, &jumps, row as i32),
        "an army failed its replay"
    );
    Ok(ArmySolution {
        row,
        minimal: true,
        nodes: search.nodes,
        pagoda_bound: bound,
        men,
        jumps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_one_to_three_need_2_4_8_men() {
        for (row, men) in [(1, 2), (2, 4), (3, 8)] {
            let a = smallest_army(row, None).unwrap();
            assert_eq!(a.men.len(), men, "row {row}");
            assert!(a.minimal);
            assert_eq!(a.jumps.len(), men - 1);
            assert!(replay_army(&a.men, &a.jumps, row as i32));
        }
    }

    #[test]
    fn the_pagoda_bound_alone() {
        let bounds: Vec<u32> = (1..=4).map(|r| Window::new(r).men_needed(1.0)).collect();
        assert_eq!(bounds[..3], [2, 4, 8]);
        assert!(bounds[3] >= 17 && bounds[3] <= 20, "{bounds:?}");
    }

    #[test]
    fn row_five_is_conways_proof() {
        match smallest_army(5, None) {
            Err(ArmyError::Impossible(text)) => assert!(text.contains("exactly 1")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_checker_rejects_bad_lines() {
        let men = [(0, 0), (0, -1)];
        assert!(replay_army(&men, &[((0, -1), (0, 0), (0, 1))], 1));
        // A man above the line at the start, a jump over nothing, a diagonal jump.
        assert!(!replay_army(
            &[(0, 1), (0, 0)],
            &[((0, 0), (0, 1), (0, 2))],
            2
        ));
        assert!(!replay_army(&men, &[((0, -1), (1, 0), (0, 1))], 1));
        assert!(!replay_army(
            &[(0, 0), (1, 1)],
            &[((0, 0), (1, 1), (2, 2))],
            2
        ));
    }
}
