//! The solutions of many (single vacancy, single-peg finish) pairs of one board at once, each
//! vacancy's middle levels built once and shared by every pair that needs them.
//!
//! A game from the vacancy `u` to the peg `f` has `L = n - 2` jumps on a board of `n` holes.
//! As in the meeting ([`meeting`](super::meeting)), a solution passes through one position
//! `p` after `a = L / 2` jumps and its child `c`, from which `b = L - a - 1` jumps reach `f`.
//! Reaching `f` from `c` is, played backwards on complements, reaching the complement of `c`
//! from the complement of `f`: the board with `f` alone empty, the game of the single vacancy
//! `f`. So both sides of every pair are levels of single-vacancy games: level `a` of `u`'s
//! and level `b` of `f`'s. Each vacancy's levels are built once, up to the symmetries `G_u`
//! that fix `u` (and so the set of finishes `u`'s position class can reach, which the
//! pagoda cut keeps every position able to reach), and `f`'s comes from the level of the
//! representative `w` of its orbit, `f = g(w)`, by `g`.
//!
//! The identity. `T(R)` is the number of jump sequences from `u`'s start to an orbit `R` of
//! level `a` (each of its `|R|` positions has `T(R) / |R|`), and `d(y)` the number from
//! `w`'s start to a position `y` of level `b` (its orbit's count over its size). A jump
//! sequence from `c` to `f` is one from `f`'s start to the complement `c'` of `c`, and so,
//! by `g^-1`, one from `w`'s start to `g^-1(c')`: `sol(u, f)` is the sum over positions `p`
//! of level `a` and their children `c` of `T(p) d(g^-1(c'))`. The symmetries `h` of `G_u`
//! fix `u`'s start, so `sol(u, h^-1(f)) = sol(u, f)`, and summing over them:
//!
//! ```text
//! |G_u| sol(u, f) = sum over orbits R of level a of T(R) * (sum over the children c of R's
//!                   representative and h in G_u of d(g^-1 h (c')))
//! ```
//!
//! since the inner sum, taken over every `h`, is the same for every position of `R` (the
//! children of `h(p)` are the images of `p`'s): each position of `R` contributes its
//! `T(R) / |R|` paths times that sum, `|R|` times over. The division by `|G_u|` is exact, and
//! checked. A pair whose finish `u` cannot reach finds nothing: every child looked up that
//! is found is the middle of a real solution. What is cut is only what can reach no finish
//! of its class, so no solution's positions are cut.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::bitset::Bits;
use crate::bitset::Hole;
use crate::board::Board;
use crate::count::cut::Cut;
use crate::count::lookup::{Placed, Ranks};
use crate::count::meeting::look_up_all;
use crate::count::reach::Levels;
use crate::count::{CountError, CountOptions};
use crate::key::CountKey;
use crate::problem::{Finish, Problem};
use crate::space::Space;
use crate::stop::Stop;
use crate::width::with_width;
use crate::Pegs;

/// A single-vacancy game's figures where its middle levels were built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacancySide {
    /// The vacancy (the representative of its orbit under the board's symmetries).
    pub vacancy: Hole,
    /// The symmetries that fix it, which its levels are kept up to.
    pub symmetries: usize,
    /// Representatives of its middle level, `(holes - 2) / 2` jumps from the start, cut to
    /// the positions that may still reach a single peg.
    pub middle: u64,
    /// Milliseconds taken to build its levels.
    pub millis: u64,
}

/// What [`vacancy_solutions`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacancyTable {
    /// The solutions of each pair asked, in their order.
    pub solutions: Vec<u128>,
    /// The vacancies whose levels were built.
    pub sides: Vec<VacancySide>,
}

/// The solutions (jump sequences) from each single vacancy to each single-peg finish of
/// `pairs` `(vacancy, finish)`, from the middle levels of the vacancies' games, each built
/// once (see the module docs): a table of every vacancy costs a few single-vacancy games,
/// not a whole count per vacancy. Within `options.max_memory`; where the built levels
/// together do not fit beside the one being built, they are kept in `options.spill` (a
/// directory) and read back for the pairs that need them. `progress` is told what is being
/// done.
///
/// ```
/// use pegsol::{count::vacancy_solutions, Board};
/// let board = std::sync::Arc::new(Board::builtin("triangle5").unwrap());
/// let (a1, c5) = (board.hole("a1").unwrap(), board.hole("c5").unwrap());
/// let table = vacancy_solutions(&board, &[(a1, a1), (a1, c5)], &Default::default(), &|_| {})
///     .unwrap();
/// // Durango Bill's figures: 6,816 of the corner's 29,760 solutions end back in it.
/// assert_eq!(table.solutions, vec![6816, 16128]);
/// ```
///
/// # Errors
///
/// [`CountError::Memory`] where a level and what must be held beside it pass the budget
/// (with no spill directory, or even so), [`CountError::Timeout`], [`CountError::Io`] when
/// the spill directory cannot be written, [`CountError::Overflow`] past `u128`.
pub fn vacancy_solutions(
    board: &Arc<Board>,
    pairs: &[(Hole, Hole)],
    options: &CountOptions,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<VacancyTable, CountError> {
    with_width!(board, W => table_in::<W>(board, pairs, options, progress))
}

/// A hole's orbit representative `w` (its least hole) and a symmetry `g` with `g(w) = hole`.
fn representative(board: &Board, hole: Hole) -> (Hole, usize) {
    let sym = board.symmetries();
    let w = (0..sym.len())
        .map(|g| sym.map_hole(g, hole))
        .min_by_key(|h| h.index())
        .unwrap_or(hole);
    let g = (0..sym.len())
        .find(|&g| sym.map_hole(g, w) == hole)
        .unwrap_or(0);
    (w, g)
}

/// The symmetry `a` after `b` (`b` first), as an index.
fn compose(board: &Board, a: usize, b: usize) -> usize {
    let sym = board.symmetries();
    (0..sym.len())
        .find(|&s| {
            board
                .each_hole()
                .all(|h| sym.map_hole(s, h) == sym.map_hole(a, sym.map_hole(b, h)))
        })
        .unwrap_or(0)
}

/// The inverse of the symmetry `g`.
fn inverse(board: &Board, g: usize) -> usize {
    (0..board.symmetries().len())
        .find(|&s| compose(board, s, g) == 0)
        .unwrap_or(0)
}

/// A single-vacancy game: its problem (finish one peg anywhere, so its group is the
/// symmetries fixing the vacancy), key space and cut.
struct Game<K: CountKey> {
    problem: Problem,
    space: Space<K>,
    cut: Cut<K>,
}

impl<K: CountKey> Game<K> {
    fn new(board: &Arc<Board>, vacancy: Hole) -> Result<Game<K>, CountError> {
        let start = board.holes::<[u64; 4]>().without(vacancy);
        let problem = Problem::new(board.clone(), start, Finish::AnyOne)
            .map_err(|_| CountError::Internal("a single vacancy is a problem"))?;
        let space = Space::<K>::new(&problem, true);
        // Only the single pegs of the start's position class can be reached: the cut keeps
        // what may reach one of them.
        let targets: Vec<Pegs> = problem.reachable_targets();
        let cut = Cut::for_targets(&problem, &targets, &space.layout);
        Ok(Game {
            problem,
            space,
            cut,
        })
    }
}

/// A built level with its path counts: in memory, or in a file of keys (their words) and
/// counts (16 bytes), little-endian.
enum Shelf<K> {
    Mem(Vec<K>, Vec<u128>),
    File(PathBuf, usize),
}

impl<K: CountKey> Shelf<K> {
    fn len(&self) -> usize {
        match self {
            Shelf::Mem(k, _) => k.len(),
            Shelf::File(_, n) => *n,
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Shelf::Mem(k, _) => k.len() * (std::mem::size_of::<K>() + 16),
            Shelf::File(..) => 0,
        }
    }

    /// `keys` and `counts` written to `path`.
    fn write(path: &Path, keys: &[K], counts: &[u128]) -> Result<Shelf<K>, CountError> {
        let mut out = BufWriter::with_capacity(1 << 20, crate::spill::create_file(path)?);
        for (&k, &c) in keys.iter().zip(counts) {
            for w in 0..K::WORDS {
                out.write_all(&k.word(w).to_le_bytes())?;
            }
            out.write_all(&c.to_le_bytes())?;
        }
        out.flush()?;
        Ok(Shelf::File(path.to_path_buf(), keys.len()))
    }

    /// Calls `f` on consecutive slices of at most `n` keys with their counts.
    fn for_each_slice(
        &self,
        n: usize,
        mut f: impl FnMut(&[K], &[u128]) -> Result<(), CountError>,
    ) -> Result<(), CountError> {
        match self {
            Shelf::Mem(keys, counts) => {
                for (k, c) in keys.chunks(n).zip(counts.chunks(n)) {
                    f(k, c)?;
                }
                Ok(())
            }
            Shelf::File(path, len) => {
                let mut input = BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
                let mut left = *len;
                let mut record = vec![0u8; K::WORDS * 8 + 16];
                while left > 0 {
                    let take = left.min(n);
                    let (mut keys, mut counts) =
                        (Vec::with_capacity(take), Vec::with_capacity(take));
                    for _ in 0..take {
                        input.read_exact(&mut record)?;
                        let mut k = K::ZERO;
                        for w in 0..K::WORDS {
                            let bytes: [u8; 8] =
                                record[w * 8..w * 8 + 8].try_into().unwrap_or_default();
                            *k.word_mut(w) = u64::from_le_bytes(bytes);
                        }
                        let c: [u8; 16] = record[K::WORDS * 8..].try_into().unwrap_or_default();
                        keys.push(k);
                        counts.push(u128::from_le_bytes(c));
                    }
                    f(&keys, &counts)?;
                    left -= take;
                }
                Ok(())
            }
        }
    }

    /// The whole level, read.
    fn read_all(&self) -> Result<(Vec<K>, Vec<u128>), CountError> {
        let (mut keys, mut counts) = (
            Vec::with_capacity(self.len()),
            Vec::with_capacity(self.len()),
        );
        self.for_each_slice(1 << 20, |k, c| {
            keys.extend_from_slice(k);
            counts.extend_from_slice(c);
            Ok(())
        })?;
        Ok((keys, counts))
    }
}

/// Keys a slice of a level read from a file holds.
const SLICE: usize = 1 << 22;

/// [`vacancy_solutions`] in keys of `K`.
fn table_in<K: CountKey>(
    board: &Arc<Board>,
    pairs: &[(Hole, Hole)],
    options: &CountOptions,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<VacancyTable, CountError> {
    let stop = Stop::new(
        options.timeout.map(|t| Instant::now() + t),
        options.cancel.as_deref(),
    );
    let total = board.hole_count().saturating_sub(2);
    let (a, b) = (total / 2, total.saturating_sub(total / 2 + 1));
    if a == 0 || b == 0 {
        // Boards of three holes or fewer: each pair's own meeting.
        return small_board(board, pairs, options);
    }
    // The vacancies whose levels are wanted: each pair's vacancy and finish, as
    // representatives.
    let mut reps: Vec<Hole> = pairs
        .iter()
        .flat_map(|&(v, f)| [representative(board, v).0, representative(board, f).0])
        .collect();
    reps.sort_by_key(|h| h.index());
    reps.dedup();
    let games: Vec<Game<K>> = reps
        .iter()
        .map(|&r| Game::new(board, r))
        .collect::<Result<_, _>>()?;
    // Level `a` of each vacancy (the forward side of its pairs) and level `b` (the side
    // looked up, the same level where `a == b`).
    let mut forward: Vec<Shelf<K>> = Vec::new();
    let mut dual: Vec<Option<Shelf<K>>> = Vec::new();
    let mut sides = Vec::new();
    let mut held = 0usize;
    // The levels' files, in a scratch directory of this count's own, removed with it.
    let mut scratch = options
        .spill
        .as_deref()
        .map(crate::spill::SpillDir::new)
        .transpose()?;
    let result = (|| {
        for (r, game) in reps.iter().zip(&games) {
            progress(&format!("levels of vacancy {}", board.label(*r)));
            let began = Instant::now();
            let pegs = game.problem.start::<K>().count();
            let start = game.space.key(game.problem.start());
            let budget = options.max_memory.saturating_sub(held);
            let mut levels = Levels::new(&game.space, start, pegs, Some(&game.cut), 1, stop, true);
            levels.advance_to(b, budget, 0)?;
            let mut keep = |keys: Vec<K>, counts: Vec<u128>, depth: usize| {
                let shelf = match scratch.as_mut() {
                    Some(dir) => {
                        let path = dir.file(&format!("vacancy-{}-level-{depth}", r.index()));
                        Shelf::write(&path, &keys, &counts)?
                    }
                    None => Shelf::Mem(keys, counts),
                };
                held += shelf.bytes();
                Ok::<_, CountError>(shelf)
            };
            let at_b = if a == b {
                None
            } else {
                let shelf = keep(levels.level.clone(), levels.counts.clone(), b)?;
                levels.advance_to(a, budget.saturating_sub(shelf.bytes()), 0)?;
                Some(shelf)
            };
            sides.push(VacancySide {
                vacancy: *r,
                symmetries: game.space.canon.order(),
                middle: levels.level.len() as u64,
                millis: began.elapsed().as_millis() as u64,
            });
            let (keys, counts) = (
                std::mem::take(&mut levels.level),
                std::mem::take(&mut levels.counts),
            );
            drop(levels);
            forward.push(keep(keys, counts, a)?);
            dual.push(at_b);
            if held > options.max_memory {
                return Err(CountError::Memory {
                    level: a as u32,
                    needed: held,
                });
            }
        }
        // Each vacancy's level `b` is looked up for every pair whose finish it stands for.
        let mut solutions = vec![0u128; pairs.len()];
        for (i, (&w, game)) in reps.iter().zip(&games).enumerate() {
            let wanted: Vec<usize> = (0..pairs.len())
                .filter(|&p| representative(board, pairs[p].1).0 == w)
                .collect();
            if wanted.is_empty() {
                continue;
            }
            progress(&format!("finishes like {}", board.label(w)));
            let looked_up = dual[i].as_ref().unwrap_or(&forward[i]);
            let (table, per_position) =
                lookup_side(looked_up, &game.space, held, options.max_memory, b)?;
            let ranks = Ranks::of(&table);
            for &p in &wanted {
                let (v, f) = pairs[p];
                let (u, g_v) = representative(board, v);
                let j = reps.iter().position(|&r| r == u).unwrap_or(0);
                // The pair is `(u, g_v^-1(f))`, whose finish is `g(w)`.
                let finish = board.symmetries().map_hole(inverse(board, g_v), f);
                let g = (0..board.symmetries().len())
                    .find(|&g| board.symmetries().map_hole(g, w) == finish)
                    .unwrap_or(0);
                let lookups = Lookups::new(board, &games[j], game, inverse(board, g));
                let pegs = games[j].problem.start::<K>().count() - a as u32;
                let mut sum = 0u128;
                forward[j].for_each_slice(SLICE, |k, c| {
                    let part = lookups.sum(&table, &ranks, &per_position, (k, c), pegs, stop)?;
                    sum = sum.checked_add(part).ok_or(CountError::Overflow)?;
                    Ok(())
                })?;
                let order = games[j].space.canon.order() as u128;
                if !sum.is_multiple_of(order) {
                    return Err(CountError::Internal(
                        "solutions over the vacancy's symmetries not a whole number",
                    ));
                }
                solutions[p] = sum / order;
            }
        }
        Ok(VacancyTable { solutions, sides })
    })();
    drop(scratch);
    result
}

/// The table of a level `b` to look up, and the paths from its start to each of its
/// positions (an orbit's count over its size), in the level's order; refused where it would
/// pass `max_memory` beside the `held` bytes of levels in memory.
fn lookup_side<K: CountKey>(
    shelf: &Shelf<K>,
    space: &Space<K>,
    held: usize,
    max_memory: usize,
    b: usize,
) -> Result<(Placed<K>, Vec<u128>), CountError> {
    let n = shelf.len();
    let needed = held + Placed::<K>::bytes(n) + n * (std::mem::size_of::<K>() + 16);
    if needed > max_memory {
        return Err(CountError::Memory {
            level: b as u32,
            needed,
        });
    }
    let per = |k: K, c: u128| {
        let orbit = u128::from(space.orbit(k));
        if c.is_multiple_of(orbit) {
            Ok(c / orbit)
        } else {
            Err(CountError::Internal(
                "a path count not shared evenly by its orbit",
            ))
        }
    };
    match shelf {
        Shelf::Mem(keys, counts) => {
            let per_position = keys
                .par_iter()
                .zip(counts)
                .map(|(&k, &c)| per(k, c))
                .collect::<Result<Vec<u128>, _>>()?;
            Ok((Placed::new(keys), per_position))
        }
        Shelf::File(..) => {
            let (keys, mut counts) = shelf.read_all()?;
            counts
                .par_iter_mut()
                .zip(&keys)
                .try_for_each(|(c, &k)| -> Result<(), CountError> {
                    *c = per(k, *c)?;
                    Ok(())
                })?;
            Ok((Placed::new(&keys), counts))
        }
    }
}

/// How the children of one vacancy's level `a` are looked up in another's level `b` for
/// one pair: the symmetries `g^-1 h` (for `h` in the first vacancy's group) applied to each
/// child's complement, then its key in the second's space (see the module docs).
struct Lookups<'a, K: CountKey> {
    from: &'a Space<K>,
    to: &'a Space<K>,
    /// Whether the identity is among the symmetries.
    identity: bool,
    /// The others, in one canonicaliser (whose `image_under` numbers them).
    others: crate::symmetry::Canonicalizer<K>,
    others_len: usize,
}

impl<'a, K: CountKey> Lookups<'a, K> {
    /// For the pair of `from`'s vacancy and `g(w)`, `w` being `to`'s vacancy and `g_inv`
    /// the inverse of `g`.
    fn new(board: &Board, from: &'a Game<K>, to: &'a Game<K>, g_inv: usize) -> Lookups<'a, K> {
        let mut sigmas: Vec<usize> = crate::space::group_elements(&from.problem)
            .into_iter()
            .map(|h| compose(board, g_inv, h))
            .collect();
        sigmas.sort_unstable();
        let identity = sigmas.first() == Some(&0);
        sigmas.retain(|&s| s != 0);
        let others = board
            .symmetries()
            .canonicalizer_placed(&sigmas, from.space.layout.place());
        Lookups {
            from: &from.space,
            to: &to.space,
            identity,
            others,
            others_len: sigmas.len(),
        }
    }

    /// The sum over `keys` (positions with `pegs` pegs) of their path counts `counts` times
    /// the paths on to the finish of every child, under every symmetry (see the module docs).
    fn sum(
        &self,
        table: &Placed<K>,
        ranks: &Ranks,
        per_position: &[u128],
        (keys, counts): (&[K], &[u128]),
        pegs: u32,
        stop: Stop<'_>,
    ) -> Result<u128, CountError> {
        debug_assert!(keys.iter().all(|k| k.count_ones() == pegs));
        let holes = self.from.layout.holes();
        let parts = look_up_all(
            table,
            keys,
            stop,
            |k, parent, stage| {
                self.from.layout.for_each_jump(k, |jump, _| {
                    let complement = holes.xor(k.xor(jump));
                    if self.identity {
                        stage.push((self.to.canonical(complement), parent));
                    }
                    for s in 0..self.others_len {
                        let image = self.others.image_under(s, Bits(complement)).0;
                        stage.push((self.to.canonical(image), parent));
                    }
                });
            },
            |(sum, overflow): &mut (u128, bool), slot, parent| match counts[parent as usize]
                .checked_mul(per_position[ranks.index(slot)])
                .and_then(|p| sum.checked_add(p))
            {
                Some(s) => *sum = s,
                None => *overflow = true,
            },
        )?;
        parts.into_iter().try_fold(0u128, |total, (sum, overflow)| {
            (!overflow)
                .then(|| total.checked_add(sum))
                .flatten()
                .ok_or(CountError::Overflow)
        })
    }
}

/// [`vacancy_solutions`] on a board too small for a middle level: each pair's own meeting.
fn small_board(
    board: &Arc<Board>,
    pairs: &[(Hole, Hole)],
    options: &CountOptions,
) -> Result<VacancyTable, CountError> {
    let limits = crate::problem::Limits {
        max_memory: options.max_memory,
        timeout: options.timeout,
        cancel: options.cancel.clone(),
    };
    let solutions = pairs
        .iter()
        .map(|&(v, f)| {
            let start = board.holes::<[u64; 4]>().without(v);
            let problem = Problem::new(board.clone(), start, Finish::Holes(f.bit()))
                .map_err(|_| CountError::Internal("a single vacancy is a problem"))?;
            Ok(super::count_solutions(&problem, &limits)?.map_or(0, |s| s.solutions))
        })
        .collect::<Result<_, CountError>>()?;
    Ok(VacancyTable {
        solutions,
        sides: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Jump sequences from `pegs` to each single peg, by hole: a memoised recursion over
    /// plain bitmasks and the board's jump list, nothing else of the library.
    fn brute(
        jumps: &[(u64, u64, u64)],
        pegs: u64,
        memo: &mut HashMap<u64, Vec<u128>>,
        holes: usize,
    ) -> Vec<u128> {
        if let Some(v) = memo.get(&pegs) {
            return v.clone();
        }
        let mut out = vec![0u128; holes];
        if pegs.count_ones() == 1 {
            out[pegs.trailing_zeros() as usize] = 1;
        }
        for &(from, over, to) in jumps {
            if pegs & from != 0 && pegs & over != 0 && pegs & to == 0 {
                let child = brute(jumps, pegs ^ from ^ over ^ to, memo, holes);
                for (o, c) in out.iter_mut().zip(child) {
                    *o += c;
                }
            }
        }
        memo.insert(pegs, out.clone());
        out
    }

    /// Every (vacancy, finish) pair of `name`, solvable or not.
    fn all_pairs(board: &Board) -> Vec<(Hole, Hole)> {
        board
            .each_hole()
            .flat_map(|v| board.each_hole().map(move |f| (v, f)))
            .collect()
    }

    /// Every pair of small boards (an odd number of jumps, where both sides meet at one
    /// level, and an even one, where the looked-up side stops a level short; square and
    /// triangular lattices, groups of order 1 to 8) against brute force, with the levels in
    /// memory and in files.
    #[test]
    fn every_pair_agrees_with_brute_force() {
        let dir = std::env::temp_dir().join(format!("pegsol-vacancies-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut solvable = Vec::new();
        for name in ["triangle5", "rect:3x4", "rect:4x4", "rect:3x5", "rect:2x6"] {
            let board = Arc::new(Board::builtin(name).unwrap());
            let n = board.hole_count();
            let jumps: Vec<(u64, u64, u64)> = board
                .jumps()
                .iter()
                .map(|j| {
                    (
                        1u64 << j.from().index(),
                        1u64 << j.over().index(),
                        1u64 << j.to().index(),
                    )
                })
                .collect();
            let pairs = all_pairs(&board);
            let mut memo = HashMap::new();
            let expected: Vec<u128> = pairs
                .iter()
                .map(|&(v, f)| {
                    let start = (u64::MAX >> (64 - n)) & !(1u64 << v.index());
                    brute(&jumps, start, &mut memo, n)[f.index()]
                })
                .collect();
            solvable.push((name, expected.iter().filter(|&&s| s > 0).count()));
            for spill in [None, Some(dir.clone())] {
                let options = CountOptions {
                    spill: spill.clone(),
                    ..CountOptions::default()
                };
                let table = vacancy_solutions(&board, &pairs, &options, &|_| {}).unwrap();
                assert_eq!(
                    table.solutions,
                    expected,
                    "{name}, spilled {}",
                    spill.is_some()
                );
            }
        }
        // Solvable pairs on all but the boards that have none.
        assert!(
            solvable.iter().filter(|s| s.1 >= 4).count() >= 3,
            "{solvable:?}"
        );
        // The levels' files are gone.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A larger board against the whole count of each vacancy (whose last level gives every
    /// end hole's solutions), for the pairs a per-vacancy table asks: representatives of the
    /// vacancies, and every finish.
    #[test]
    fn a_larger_board_agrees_with_the_whole_counts() {
        let board = Arc::new(Board::builtin("rect:4x6").unwrap());
        let (vacancies, _) = crate::catalog::problems(&board, crate::catalog::Finishes::Single);
        let mut pairs = Vec::new();
        let mut expected = Vec::new();
        for v in &vacancies {
            let start = board.holes::<[u64; 4]>().without(v.hole);
            let p = Problem::new(board.clone(), start, Finish::AnyOne).unwrap();
            let whole = super::super::count(&p, usize::MAX, &|_| {}).unwrap();
            for f in board.each_hole() {
                pairs.push((v.hole, f));
                expected.push(
                    whole
                        .finishes
                        .iter()
                        .find(|(b, _)| *b == f.bit())
                        .map_or(0, |&(_, n)| n),
                );
            }
        }
        assert!(expected.iter().filter(|&&s| s > 0).count() >= 10);
        let table = vacancy_solutions(&board, &pairs, &CountOptions::default(), &|_| {}).unwrap();
        assert_eq!(table.solutions, expected);
    }
}
