//! The search certificate: a set of positions closed under jumps, up to symmetry and pagoda
//! cuts, that holds the start and no finish.
//!
//! The search is exhaustive from the start, over positions up to the symmetries that keep the
//! finishes. A child is *cut* when some pagoda function of the certificate totals less on it
//! than on every finish (totals never rise, so it cannot reach one); near the start, a child
//! that no function cuts yet gets a signed function fitted to refute it by linear programming
//! (that is how "several functions at once" arise: one per early branch). Every other child is
//! explored, and the explored positions are the certificate. If the search reaches a finish,
//! the problem is solvable and there is no certificate.

use std::time::Instant;

use crate::bitset::{Bits, Word};
use crate::board::Board;
use crate::pagoda::Pagoda;
use crate::problem::{Budget, Limits};
use crate::table::KeySet;

use super::positions::Positions;

/// Depth (jumps from the start) down to which a position no function cuts gets a fitted one.
const FIT_DEPTH: u32 = 4;

/// Most functions a certificate holds.
const MAX_FUNCTIONS: usize = 400;

/// Why no closed set came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoSet {
    /// A finish is reachable: the problem is solvable.
    Reached,
    /// The time or the memory (`max_positions`) ran out.
    Budget(Budget),
}

/// Pagoda functions as byte tables over positions: a total is one lookup per byte of the
/// position (8 a word).
struct Tables {
    /// Function `k`'s tables are `tables[k * bytes..(k + 1) * bytes]`.
    tables: Vec<[i64; 256]>,
    bytes: usize,
    floors: Vec<i64>,
}

impl Tables {
    fn new<W: Word>() -> Tables {
        Tables {
            tables: Vec::new(),
            bytes: 8 * W::WORDS,
            floors: Vec::new(),
        }
    }

    fn push(&mut self, p: &Pagoda, floor: i64) {
        for byte in 0..self.bytes {
            let mut row = [0i64; 256];
            for (value, total) in row.iter_mut().enumerate() {
                // The holes of this byte: `value` shifted to its place in the position.
                let mut set = [0u64; 4];
                set[byte / 8] = (value as u64) << (8 * (byte % 8));
                *total = p.total(Bits(set));
            }
            self.tables.push(row);
        }
        self.floors.push(floor);
    }

    /// The first function that totals less on `pos` than its floor.
    fn cut_by<W: Word>(&self, pos: Bits<W>) -> Option<usize> {
        let bytes = self.bytes;
        self.floors.iter().enumerate().position(|(k, &floor)| {
            let t = &self.tables[k * bytes..(k + 1) * bytes];
            let mut total = 0i64;
            for w in 0..W::WORDS {
                let word = pos.0.word(w);
                for b in 0..8 {
                    total += t[8 * w + b][(word >> (8 * b)) as usize & 0xff];
                }
            }
            total < floor
        })
    }
}

/// Searches from `start` for a set of positions closed under jumps, up to the symmetries
/// `group` (which must map the set of `targets` onto itself) and cuts by `functions` (which
/// it may add to, and from which it drops those that cut nothing), holding the start and no
/// target. At most `max_positions` are kept.
pub(crate) fn closed_set<W: Word>(
    board: &Board,
    start: Bits<W>,
    targets: &[Bits<W>],
    group: &[usize],
    functions: &mut Vec<Pagoda>,
    limits: &Limits,
    max_positions: usize,
) -> Result<Positions, NoSet> {
    let began = Instant::now();
    let deadline = limits.timeout.map(|t| began + t);
    let canon = board.symmetries().canonicalizer::<W>(group);
    let goal = targets.first().map_or(1, |t| t.count());
    // Functions without a floor (no targets) are dropped first, so that table `k` is
    // function `k`.
    functions.retain(|f| f.floor(targets).is_some());
    let mut tables = Tables::new::<W>();
    for f in functions.iter() {
        tables.push(f, f.floor(targets).unwrap_or(i64::MIN));
    }
    let mut used = vec![false; functions.len()];
    let jumps = board.jumps();
    let mut seen: KeySet<Bits<W>> = KeySet::new(max_positions.saturating_mul(16 * W::WORDS));
    let mut kept = Positions::new::<W>();
    let mut stack: Vec<(Bits<W>, u32)> = vec![(start, 0)];
    let mut steps = 0u64;
    while let Some((pos, depth)) = stack.pop() {
        steps += 1;
        if steps.is_multiple_of(4096) && limits.spent(deadline) {
            return Err(NoSet::Budget(Budget::Time));
        }
        if targets.contains(&pos) {
            return Err(NoSet::Reached);
        }
        if pos.count() <= goal {
            // As few pegs as a finish, and not one: it reaches no finish.
            continue;
        }
        if let Some(k) = tables.cut_by(pos) {
            used[k] = true;
            continue;
        }
        let key = canon.canonical(pos);
        if seen.contains(key) {
            continue;
        }
        if depth <= FIT_DEPTH && functions.len() < MAX_FUNCTIONS {
            if let Some(p) = Pagoda::refuting(board, pos, targets) {
                tables.push(&p, p.floor(targets).unwrap_or(i64::MIN));
                functions.push(p);
                used.push(true);
                continue;
            }
        }
        if kept.len() >= max_positions || seen.insert(key, ()).is_err() {
            return Err(NoSet::Budget(Budget::Memory));
        }
        kept.push(pos);
        for j in jumps {
            if j.is_legal(pos) {
                stack.push((j.apply(pos), depth + 1));
            }
        }
    }
    let mut k = 0;
    functions.retain(|_| {
        k += 1;
        used[k - 1]
    });
    Ok(kept)
}
