//! A lower bound on the moves a position still needs, from *Merson regions* (after Bell's
//! counting arguments for the triangles and the diagonal boards).
//!
//! A Merson region is a set `R` of holes such that every jump over a hole of `R` starts or
//! ends in `R`. A corner (a hole no jump passes over) is one; so is a pair of neighbouring
//! holes on the edge of a triangle, since an edge hole can only be jumped along the edge; so
//! is a hole of the triangular lattice with its six neighbours (each hole of that hexagon has
//! a neighbour in it on each of its three lines). The hexagons are what Bell's bound
//! `T(floor((n-4)/3)) + floor((3n-2)/2)` for the triangle of side `n` counts inside the edges'
//! pairs and corners.
//!
//! **Claim.** Let `R` be a Merson region full of pegs in position `p`. If `R` is not full at
//! the end, some move made after `p` begins with a jump from a hole of `R`.
//!
//! *Proof.* Consider the first jump after `p` that changes what is on `R`. While `R` is full no
//! jump can end in `R` (its landing hole must be empty), and a jump over a hole of `R` starts
//! or ends in `R` by definition, so this jump starts in `R`. It is the first jump of its move:
//! had the same peg jumped just before, that jump would have ended on this one's starting hole,
//! in `R`, while `R` was still full. (The bound is for the moves after `p` when the next jump
//! begins a move, as between the moves of a solution.)
//!
//! **Bound.** Take regions `R_1 .. R_k`, pairwise disjoint, each full in `p` and unable to stay
//! full until the end. A move begins on one hole, so no move begins in two of them, and at
//! least `k` moves remain. What can stay full depends on the finish: a region inside the final
//! holes of [`Finish::Holes`]; under [`Finish::Pegs`]`(n)` (and one peg anywhere, `n = 1`) at most
//! `n` regions of at most `n` holes each, so that many are not counted. A position that is not
//! a finish needs one move besides. The bound therefore never exceeds the true fewest moves.
//!
//! **The other way.** The claim read from a start `s` gives a lower bound on the moves *from*
//! the starts *to* a position `q`: every region full in `s` and not full in `q` saw a move
//! begin in it between the two, and disjoint regions saw different moves. Where the starts
//! differ, a region full in every start counts for sure, and of the others (each not full in
//! `q`) at most as many may be not full in a start `s` as `s` has empty holes, since each holds
//! one of them; so a packing of `a` sure regions and `b` others proves `a + b - min(b, m)`
//! moves, `m` the most holes any start leaves empty ([`Origins`]). From every single vacancy
//! (`m = 1`) that is one less than the regions packed.
//!
//! The regions are found once per board (every Merson region of one to three connected holes,
//! and the neighbourhoods of a hole that hold no smaller one, since a packing can always take
//! the smaller instead); a position's full regions are packed greedily, small
//! ones first, along the hole order one way and the other, and the better packing is its
//! bound.

use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::problem::Finish;

/// The largest connected regions looked for hole by hole; of the larger ones only the
/// neighbourhoods of a hole (the triangular lattice's hexagons) are added. (The square
/// lattice's 2x2 blocks raise the English board's bound at the start from 12 to 14, but
/// computing them at every position made `solve english --fewest-moves` 1.5 times slower,
/// for almost no position pruned.)
const MAX_REGION: usize = 3;

/// The Merson regions of one board, in four packing orders, ready to bound positions of `W`
/// words.
#[derive(Clone, Debug)]
pub struct MoveBound<W: Word = [u64; 4]> {
    /// Every region in each order: small ones first (or regions of two or more holes first),
    /// then along the hole order one way or the other.
    orders: Vec<Vec<Bits<W>>>,
    /// The most regions one order packs on the whole board.
    ceiling: u32,
}

impl<W: Word> MoveBound<W> {
    /// The Merson regions of `board`: those of up to three connected holes, and each hole
    /// with all its neighbours on jump lines where that is one and holds no smaller region
    /// (the hexagons of the triangular lattice).
    #[must_use]
    pub fn new(board: &Board) -> MoveBound<W> {
        let regions = merson_regions(board);
        let by_hole = |r: &[Hole]| r.iter().map(|h| h.index()).min().unwrap_or(0);
        let order = |reverse: bool, pairs_first: bool| {
            let mut order = regions.clone();
            // Small regions first (more of them fit), then along the hole order either way;
            // or regions of two or more holes first, which one last peg cannot keep full.
            order.sort_by_key(|r| {
                let at = by_hole(r);
                (
                    pairs_first && r.len() == 1,
                    r.len(),
                    if reverse { usize::MAX - at } else { at },
                )
            });
            order
                .iter()
                .map(|r| r.iter().fold(Bits::<W>::EMPTY, |s, &h| s.with(h)))
                .collect()
        };
        let orders = vec![
            order(false, false),
            order(true, false),
            order(false, true),
            order(true, true),
        ];
        // No packing holds more regions than the sum, over the holes, of one over the size
        // of the smallest region holding the hole (a region of `k` holes takes at least
        // `k` times `1/k`).
        let mut smallest = vec![usize::MAX; board.hole_count()];
        for r in &regions {
            for h in r {
                smallest[h.index()] = smallest[h.index()].min(r.len());
            }
        }
        let share: f64 = smallest
            .iter()
            .filter(|&&k| k != usize::MAX)
            .map(|&k| 1.0 / k as f64)
            .sum();
        // Rounded up past a rounding error: a ceiling too high only skips less.
        let ceiling = (share + 1e-9).floor() as u32;
        MoveBound { orders, ceiling }
    }

    /// At least the most regions any packing holds on this board, so neither bound ever
    /// exceeds it: a search whose slack is at least this can skip computing them.
    #[must_use]
    pub fn ceiling(&self) -> u32 {
        self.ceiling
    }

    /// A lower bound on the moves from `position` to `finish` (see the module docs): never
    /// above the true fewest moves, 0 only for a finish position. The regions full in
    /// `position` are packed greedily in each order, and the better packing counts.
    #[must_use]
    pub fn moves_needed(&self, position: Bits<W>, finish: &Finish) -> u32 {
        // Pegs left at the end when only their number is given (one peg anywhere is one).
        let left = match finish {
            Finish::Holes(_) => None,
            Finish::AnyOne => Some(1),
            Finish::Pegs(n) => Some(*n),
        };
        let best = self
            .orders
            .iter()
            .map(|order| {
                let (mut used, mut full, mut may_stay) = (Bits::<W>::EMPTY, 0u32, 0u32);
                for &r in order {
                    if !r.is_subset(position) || !r.is_disjoint(used) {
                        continue;
                    }
                    if let Finish::Holes(f) = finish {
                        if r.is_subset(f.resize()) {
                            // May stay full to the end: leave its holes to other regions.
                            continue;
                        }
                    }
                    may_stay += u32::from(left.is_some_and(|n| r.count() <= n));
                    used = used.union(r);
                    full += 1;
                }
                // `n` pegs left keep at most `n` disjoint regions full.
                full - left.map_or(0, |n| may_stay.min(n))
            })
            .max()
            .unwrap_or(0);
        let done = match finish {
            Finish::Holes(f) => position == f.resize(),
            _ => left == Some(position.count()),
        };
        best.max(u32::from(!done))
    }

    /// The least of [`MoveBound::moves_needed`] over `starts`: a lower bound on the moves of
    /// any solution from one of them (0 without starts).
    #[must_use]
    pub fn least(&self, starts: &[Bits<W>], finish: &Finish) -> u32 {
        starts
            .iter()
            .map(|&s| self.moves_needed(s, finish))
            .min()
            .unwrap_or(0)
    }

    /// A lower bound on the moves from any of the starts `origins` describes to `position`
    /// (see the module docs): never above the fewest moves from any start to it.
    #[must_use]
    pub fn moves_since(&self, position: Bits<W>, origins: &Origins<W>) -> u32 {
        self.orders
            .iter()
            .map(|order| {
                let (mut used, mut sure, mut others) = (Bits::<W>::EMPTY, 0u32, 0u32);
                for &r in order {
                    if r.is_subset(position) || !r.is_disjoint(used) {
                        continue;
                    }
                    used = used.union(r);
                    if r.is_subset(origins.common) {
                        sure += 1;
                    } else {
                        others += 1;
                    }
                }
                sure + others - others.min(origins.most_empty)
            })
            .max()
            .unwrap_or(0)
    }

    /// Every region found, each a Merson region (for tests and pictures).
    #[must_use]
    pub fn regions(&self) -> &[Bits<W>] {
        &self.orders[0]
    }
}

/// What [`MoveBound::moves_since`] needs to know of the starts: the holes full in every one
/// of them, and the most holes one of them leaves empty.
#[derive(Clone, Copy, Debug)]
pub struct Origins<W: Word = [u64; 4]> {
    common: Bits<W>,
    most_empty: u32,
}

impl<W: Word> Origins<W> {
    /// The starts' common pegs and most empty holes on `board`.
    #[must_use]
    pub fn of(board: &Board, starts: &[Bits<W>]) -> Origins<W> {
        let holes = board.holes::<W>();
        Origins {
            common: starts.iter().fold(holes, |c, &s| c.intersect(s)),
            most_empty: starts
                .iter()
                .map(|&s| holes.minus(s).count())
                .max()
                .unwrap_or(0),
        }
    }
}

/// Every Merson region of `board` of one to [`MAX_REGION`] holes connected by jump lines,
/// then each hole's neighbourhood (the hole and its neighbours on jump lines) that is one and
/// holds none of those.
fn merson_regions(board: &Board) -> Vec<Vec<Hole>> {
    let n = board.hole_count();
    // For each hole, the (from, to) of the jumps over it; and its neighbours on jump lines.
    let mut over: Vec<Vec<(Hole, Hole)>> = vec![Vec::new(); n];
    let mut next: Vec<Vec<Hole>> = vec![Vec::new(); n];
    for j in board.jumps() {
        over[j.over().index()].push((j.from(), j.to()));
        for (a, b) in [(j.from(), j.over()), (j.over(), j.to())] {
            if !next[a.index()].contains(&b) {
                next[a.index()].push(b);
            }
            if !next[b.index()].contains(&a) {
                next[b.index()].push(a);
            }
        }
    }
    let is_merson = |r: &[Hole]| {
        r.iter().all(|h| {
            over[h.index()]
                .iter()
                .all(|(f, t)| r.contains(f) || r.contains(t))
        })
    };
    // Connected sets grown from their lowest hole, each listed once (sorted, deduplicated).
    let mut found: Vec<Vec<Hole>> = Vec::new();
    let small = |found: &[Vec<Hole>], r: &[Hole]| {
        found
            .iter()
            .any(|f| f.len() < r.len() && f.iter().all(|h| r.contains(h)))
    };
    let mut frontier: Vec<Vec<Hole>> = (0..n).map(|i| vec![Hole::at(i)]).collect();
    for size in 1..=MAX_REGION {
        found.extend(frontier.iter().filter(|r| is_merson(r)).cloned());
        if size == MAX_REGION {
            break;
        }
        let mut grown: Vec<Vec<Hole>> = Vec::new();
        for r in &frontier {
            for h in r {
                for &m in &next[h.index()] {
                    if r.contains(&m) {
                        continue;
                    }
                    let mut bigger = r.clone();
                    bigger.push(m);
                    bigger.sort_unstable_by_key(|h| h.index());
                    grown.push(bigger);
                }
            }
        }
        grown.sort_unstable_by_key(|r| r.iter().map(|h| h.index()).collect::<Vec<_>>());
        grown.dedup();
        frontier = grown;
    }
    // A hole with every neighbour on its jump lines: on the triangular lattice, the hexagon
    // of seven holes, the smallest region inside the board (each of its holes has a
    // neighbour in it on each of its three lines).
    let mut hoods: Vec<Vec<Hole>> = (0..n)
        .map(|i| {
            let mut r = next[i].clone();
            r.push(Hole::at(i));
            r.sort_unstable_by_key(|h| h.index());
            r
        })
        .filter(|r| r.len() > MAX_REGION && is_merson(r) && !small(&found, r))
        .collect();
    hoods.dedup();
    found.extend(hoods);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(name: &str, empty: &str, finish: Finish) -> u32 {
        let b = Board::builtin(name).unwrap();
        let start = b.holes::<[u64; 4]>().minus(b.hole_set(empty).unwrap());
        MoveBound::<[u64; 4]>::new(&b).moves_needed(start, &finish)
    }

    #[test]
    fn corners_and_edge_pairs_of_the_triangles() {
        // Side 5 with a1 empty: pairs only, which one last peg cannot keep full: {a2,a3} and
        // {a4,a5} down one edge, {b2,c3} and {d4,e5} down the other, one of the bottom's.
        // (Corners alone first would give 3 corners less the one a last peg may keep, and 3
        // pairs: 4.)
        assert_eq!(bound("triangle5", "a1", Finish::AnyOne), 5);
        // Side 11: on each edge a corner with its neighbour and four pairs, none of which one
        // last peg keeps full (c5 is inside).
        assert!(bound("triangle:11", "c5", Finish::AnyOne) >= 15);
        // The English board: its arms' ends {c1,d1,e1}-like rows and columns.
        assert!(bound("english", "d4", Finish::AnyOne) >= 4);
    }

    #[test]
    fn hexagons_inside_the_triangles() {
        // The least over the single vacancies to one peg anywhere, sides 4 to 12, never above
        // the fewest moves known (Bell, OEIS A127500: 5, 9, 9, 12, 13, 16, 18 for 4 to 10;
        // at least 19 on side 11 and 21 on side 12): the edges' pairs and corners, and from
        // side 7 on the seven-hole hexagons inside (one on side 9, three on side 10).
        let known = [5, 9, 9, 12, 13, 16, 18, 19, 21];
        let mut least = Vec::new();
        for (side, fewest) in (4..=12).zip(known) {
            let b = Board::builtin(&format!("triangle:{side}")).unwrap();
            let m = MoveBound::<[u64; 4]>::new(&b);
            let starts = crate::fewest::single_vacancies::<[u64; 4]>(&b);
            let l = m.least(&starts, &Finish::AnyOne);
            assert!(l <= fewest, "side {side}: {l} > {fewest}");
            assert!(m.ceiling() >= l, "side {side}");
            least.push(l);
        }
        assert_eq!(least, [4, 5, 7, 9, 11, 12, 16, 17, 19]);
        let hexagons = |name: &str| {
            let b = Board::builtin(name).unwrap();
            MoveBound::<[u64; 4]>::new(&b)
                .regions()
                .iter()
                .filter(|r| r.count() == 7)
                .count()
        };
        // Side 9: a hexagon around each of the 6 holes two or more from every edge (one
        // nearer an edge holds an edge pair, and is left out).
        assert_eq!(hexagons("triangle:9"), 6);
    }

    #[test]
    fn a_finish_needs_nothing_and_other_positions_one_move() {
        let b = Board::builtin("triangle5").unwrap();
        let m = MoveBound::<u64>::new(&b);
        let one = b.hole_set::<u64>("c3").unwrap();
        assert_eq!(m.moves_needed(one, &Finish::AnyOne), 0);
        assert_eq!(m.moves_needed(one, &Finish::Holes(one.resize())), 0);
        let two = b.hole_set::<u64>("c3,c4").unwrap();
        assert_eq!(m.moves_needed(two, &Finish::AnyOne), 1);
    }

    #[test]
    fn every_region_is_a_merson_region() {
        for name in ["triangle:8", "english", "hexagon:4", "english-diagonal"] {
            let b = Board::builtin(name).unwrap();
            let m = MoveBound::<[u64; 4]>::new(&b);
            assert!(!m.regions().is_empty(), "{name}");
            for &r in m.regions() {
                assert!((1..=7).contains(&r.count()), "{name}");
                for j in b.jumps() {
                    if r.contains(j.over()) {
                        assert!(r.contains(j.from()) || r.contains(j.to()), "{name}");
                    }
                }
            }
        }
    }
}
