//! Whole-game analysis: every position reachable from a start, level by level, with exact path
//! counts, dead ends, and the positions that can still reach the finish.
//!
//! Every jump removes one peg, so the positions reachable after `k` jumps form level `k`, and a
//! breadth-first pass needs only one level at a time. Positions are kept up to symmetry: the
//! group is the part of the board's group that fixes both the start and the finish, so a
//! representative stands for its whole orbit. Path counts are kept per orbit: if `T(R)` is the
//! number of jump sequences from the start to any position of orbit `R`, then
//! `T(R) = sum over parents P and jumps j from P's representative with j(P) in R of T(P)`,
//! since the representatives of one orbit have equally many continuations into each other
//! orbit. Counts are `u128` with checked additions: an overflow is an error, never a wrap.
//!
//! Positions are kept in the board's layout: on its grid where that fits 64 bits, so that a
//! jump direction is one shift and a position's jumps are found for all holes at once. Each
//! level's children are generated in parallel (rayon, by chunks of parents) and canonicalised
//! from their parent's symmetry images, then scattered into hash buckets. Each bucket is
//! summed in its own small hash table whose slots follow the order levels are kept in (a fixed
//! mix of the key), so a level comes out sorted without a sort. A backward pass over the
//! stored levels marks the representatives that can still reach the finish, gathering the
//! parents of the next level's winners the same way; when the finish is the start's
//! complement, each level's winners come from one intersection with its mirror level instead,
//! and on a board with an odd number of holes a position and its complement share a key
//! (`Space::folded`), so that intersection needs no canonical forms.

use rayon::prelude::*;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::bitset::Bits;
use crate::layout::Layout;
use crate::pagoda::Pagoda;
use crate::problem::Problem;
use crate::spill;
pub use crate::spill::{remove_scratch_of, SCRATCH_PREFIX};
use crate::symmetry::{Canonicalizer, WIDE};

/// Figures for one jump level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// Jumps made to reach this level.
    pub jumps: u32,
    /// Pegs on the board at this level.
    pub pegs: u32,
    /// Distinct positions reachable.
    pub positions: u64,
    /// The same up to symmetry.
    pub classes: u64,
    /// Positions from which the finish can still be reached.
    pub winning: u64,
    /// The same up to symmetry.
    pub winning_classes: u64,
    /// Positions with no jump left.
    pub dead_ends: u64,
    /// Jump sequences from the start reaching this level.
    pub paths: u128,
}

/// The whole analysis.
#[derive(Clone, Debug, Default)]
pub struct Count {
    /// One entry per level, from the start.
    pub levels: Vec<Level>,
    /// Order of the symmetry group used.
    pub symmetries: usize,
    /// Distinct jump sequences from the start to a finish position.
    pub solutions: u128,
    /// Distinct jump sequences played until no jump is left.
    pub games: u128,
}

impl Count {
    /// Positions reachable, over all levels.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.levels.iter().map(|l| l.positions).sum()
    }
    /// Positions reachable up to symmetry.
    #[must_use]
    pub fn classes(&self) -> u64 {
        self.levels.iter().map(|l| l.classes).sum()
    }
    /// Positions from which the finish can be reached.
    #[must_use]
    pub fn winning(&self) -> u64 {
        self.levels.iter().map(|l| l.winning).sum()
    }
    /// The same up to symmetry.
    #[must_use]
    pub fn winning_classes(&self) -> u64 {
        self.levels.iter().map(|l| l.winning_classes).sum()
    }
    /// The fewest jumps after which some game is stuck, if any game gets stuck.
    #[must_use]
    pub fn shortest_dead_end(&self) -> Option<u32> {
        self.levels
            .iter()
            .find(|l| l.dead_ends > 0)
            .map(|l| l.jumps)
    }
}

/// Peak resident memory of this process in MB, as reported by Linux (`VmHWM` in
/// `/proc/self/status`); 0 where that is not available. Counts report it.
#[must_use]
pub fn peak_memory_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb.div_ceil(1024))
}

/// Why a count could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// A level would not fit in the memory budget.
    Memory {
        /// The level (jumps made) that did not fit.
        level: u32,
        /// Bytes it needed.
        needed: usize,
    },
    /// A path count passed `u128::MAX`.
    Overflow,
    /// The time budget ran out (only for callers that set one).
    Timeout,
    /// Reading or writing a spill file failed.
    Io(String),
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Memory { level, needed } => write!(
                f,
                "level {level} needs {} MB, more than the memory budget; raise --max-memory, or give --spill DIR to spill to disk",
                needed >> 20
            ),
            CountError::Overflow => write!(f, "a path count passed 2^128"),
            CountError::Timeout => write!(f, "the time budget ran out; raise --timeout"),
            CountError::Io(e) => write!(f, "spill file: {e}; check the --spill directory"),
        }
    }
}

impl std::error::Error for CountError {}

/// Counts the whole game of `problem`, keeping at most `max_memory` bytes of level data.
/// `progress` is called after each level.
///
/// ```
/// use pegsol::{Board, Problem, count::count};
/// let b = Board::builtin("rect:3x3").unwrap();
/// let c = count(&Problem::new(&b, b.holes().without(b.hole("b2").unwrap()),
///     pegsol::Finish::AnyOne).unwrap(), usize::MAX, &|_| {}).unwrap();
/// assert_eq!(c.levels[0].positions, 1);
/// assert!(c.games >= c.solutions);
/// ```
pub fn count(
    problem: &Problem,
    max_memory: usize,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Count, CountError> {
    count_with(
        problem,
        &CountOptions {
            max_memory,
            ..CountOptions::default()
        },
        progress,
    )
}

/// How to run a count.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// Memory budget in bytes for the stored levels and the children being generated.
    pub max_memory: usize,
    /// Prune with pagoda functions (see [`count_pruned`]).
    pub pagoda: bool,
    /// A directory to spill to when a level's children would not fit in `max_memory`: the
    /// level is then expanded in slices whose sorted runs are written there and merged into
    /// the next level on disk (the files are removed at the end). Without it, such a level
    /// ends the count with [`CountError::Memory`].
    pub spill: Option<PathBuf>,
    /// Stop with [`CountError::Timeout`] at the first level boundary (or slice of a spilled
    /// level) after this long.
    pub timeout: Option<std::time::Duration>,
    /// Find jumps by word-wide shifts with the holes laid out on the board's grid, when its
    /// rectangle fits 64 bits (the default). Off, the board's own numbering is kept and jumps
    /// are tested from per-hole lists, as on larger boards; the figures are the same either
    /// way, only slower, which is what this switch is for: measuring the grid against it.
    pub grid: bool,
    /// Where the game is its own dual (one finish, the start's complement up to symmetry) on
    /// a board with an odd number of holes, let a position and its complement share one key,
    /// so that the winning positions come from the keys of mirror levels as they are (the
    /// default). Off, the complements of one level of each pair are canonicalised; the
    /// figures are the same, and the switch is for measuring the one against the other.
    pub fold: bool,
}

impl Default for CountOptions {
    fn default() -> CountOptions {
        CountOptions {
            max_memory: usize::MAX,
            pagoda: false,
            spill: None,
            timeout: None,
            grid: true,
            fold: true,
        }
    }
}

/// [`count`] with all its options.
pub fn count_with(
    problem: &Problem,
    options: &CountOptions,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Count, CountError> {
    if let Some(dir) = &options.spill {
        // Scratch that a killed count left behind goes before this one adds its own.
        spill::remove_stale_scratch(dir);
    }
    let space = if options.fold {
        Space::folded(problem, options.grid)
    } else {
        Space::new(problem, options.grid)
    };
    let cut = options.pagoda.then(|| Cut::new(problem, &space.layout));
    analyse(
        problem,
        None,
        &space,
        cut.as_ref(),
        options.max_memory,
        options.spill.as_deref(),
        options.timeout.map(|t| Instant::now() + t),
        progress,
    )
    .map(|(c, _)| c)
}

/// [`count`] with pagoda pruning: a child whose total under one of a few pagoda functions
/// (the board's stock and one fitted by LP to each finish) is below every finish's is
/// dropped, since totals never rise. What concerns winning play stays exact (`solutions`,
/// the winning positions per level); `positions`, `dead_ends` and `games` then describe the
/// pruned tree only.
///
/// ```
/// use pegsol::{Board, Problem, count::{count, count_pruned}};
/// let b = Board::builtin("rect:4x4").unwrap();
/// let p = Problem::new(&b, b.holes().without(b.hole("b1").unwrap()), pegsol::Finish::AnyOne).unwrap();
/// let (full, pruned) = (count(&p, usize::MAX, &|_| {}).unwrap(), count_pruned(&p, usize::MAX, &|_| {}).unwrap());
/// assert_eq!((full.solutions, full.winning()), (pruned.solutions, pruned.winning()));
/// assert!(pruned.positions() <= full.positions());
/// ```
pub fn count_pruned(
    problem: &Problem,
    max_memory: usize,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Count, CountError> {
    count_with(
        problem,
        &CountOptions {
            max_memory,
            pagoda: true,
            ..CountOptions::default()
        },
        progress,
    )
}

/// Most pagoda functions a [`Cut`] evaluates per child.
const MAX_CUTS: usize = 4;

/// Pagoda functions that cut positions which cannot reach any finish (their total is below
/// every finish's, and a pagoda total never rises), as byte tables: a total is eight lookups.
pub(crate) struct Cut {
    tables: Vec<[[i64; 256]; 8]>,
    floors: Vec<i64>,
}

impl Cut {
    /// The stock functions of the board plus one fitted by LP to each finish (up to eight),
    /// keeping the few with the least slack (start total over finish total): each costs
    /// eight lookups per child, and those are the ones that cut early. Its tables read keys
    /// of the board's [`Layout`], as a count keeps them.
    pub(crate) fn new(problem: &Problem, layout: &Layout) -> Cut {
        let board = problem.board();
        let targets = problem.targets();
        let mut functions = Pagoda::library(board);
        if targets.len() <= 8 {
            functions.extend(
                targets
                    .iter()
                    .filter_map(|&t| Pagoda::fit(board, problem.start(), t)),
            );
        }
        let floor_of = |f: &Pagoda| targets.iter().map(|&t| f.total(t)).min().unwrap_or(0);
        let mut ranked: Vec<(f64, Pagoda)> = functions
            .into_iter()
            .filter(|f| f.can_cut(targets))
            .map(|f| (f.room(problem.start(), targets), f))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked.truncate(MAX_CUTS);
        let mut cut = Cut {
            tables: Vec::new(),
            floors: Vec::new(),
        };
        for (_, f) in ranked {
            let mut table = [[0i64; 256]; 8];
            for (byte, row) in table.iter_mut().enumerate() {
                for (value, total) in row.iter_mut().enumerate() {
                    *total = f.total(layout.bits((value as u64) << (8 * byte)));
                }
            }
            cut.floors.push(floor_of(&f));
            cut.tables.push(table);
        }
        cut
    }

    /// Whether `key` may still reach a finish as far as these functions tell.
    #[inline]
    pub(crate) fn keeps(&self, key: u64) -> bool {
        self.tables.iter().zip(&self.floors).all(|(t, &floor)| {
            let total: i64 = (0..8).map(|b| t[b][(key >> (8 * b)) as usize & 0xff]).sum();
            total >= floor
        })
    }
}

/// The symmetries a count may use: those fixing both the start and the set of finishes.
pub(crate) fn group_of(problem: &Problem) -> Canonicalizer {
    problem
        .board()
        .symmetries()
        .canonicalizer(&group_elements(problem))
}

/// The elements of [`group_of`].
fn group_elements(problem: &Problem) -> Vec<usize> {
    let sym = problem.board().symmetries();
    let mut group = sym.stabilizer(problem.targets());
    group.retain(|&g| sym.apply(g, problem.start()) == problem.start());
    group
}

/// The winning representatives of each level as board positions (canonical under the
/// canonicaliser given, which must come from [`group_of`]), each level in increasing order.
pub(crate) type Winners = Vec<Vec<u64>>;

/// A level of representatives with their path counts, in memory or spilled to files.
enum Store {
    /// In [`rank`] order.
    Mem(Vec<u64>, Vec<u128>),
    /// Files that make the level one after another, and its length; by [`Dense`] index.
    File(Vec<PathBuf>, usize),
}

/// A level's representatives kept for the backward pass.
enum Kept {
    /// In [`rank`] order.
    Mem(Vec<u64>),
    /// Files of [`Dense`] indices alone.
    Keys(Vec<PathBuf>),
}

impl Store {
    fn len(&self) -> usize {
        match self {
            Store::Mem(k, _) => k.len(),
            Store::File(_, n) => *n,
        }
    }

    /// Calls `f` on consecutive slices of at most `n` representatives. A level in files
    /// (in [`Dense`] order) is read once: its indices are copied to `keep` on the way.
    fn for_each_slice(
        &self,
        n: usize,
        dense: Dense,
        mut keep: Option<&mut spill::KeyWriter>,
        mut f: impl FnMut(&[u64], &[u128]) -> Result<(), CountError>,
    ) -> Result<(), CountError> {
        match self {
            Store::Mem(keys, counts) => {
                for (ks, cs) in keys.chunks(n.max(1)).zip(counts.chunks(n.max(1))) {
                    f(ks, cs)?;
                }
                Ok(())
            }
            Store::File(parts, _) => {
                let mut r = spill::Records::open_all(parts)?;
                loop {
                    let (mut ks, cs) = r.chunk(n.max(1))?;
                    if ks.is_empty() {
                        return Ok(());
                    }
                    if let Some(w) = keep.as_deref_mut() {
                        w.push_all(&ks)?;
                    }
                    for k in &mut ks {
                        *k = dense.key(*k);
                    }
                    f(&ks, &cs)?;
                }
            }
        }
    }
}

impl From<std::io::Error> for CountError {
    fn from(e: std::io::Error) -> CountError {
        CountError::Io(e.to_string())
    }
}

/// What expanding one slice of a level produced.
struct Expanded {
    /// Distinct children in [`rank`] order, with summed path counts.
    keys: Vec<u64>,
    counts: Vec<u128>,
    children: usize,
    /// Positions the expanded representatives stand for (orbit sizes).
    positions: u64,
    dead_ends: u64,
    games: u128,
}

/// Expands representatives `ks` of positions with `pegs` pegs (with path counts `cs`): every
/// child, canonicalised, summed per distinct key, in the order of `ranking`.
#[allow(clippy::too_many_arguments)]
fn expand<R: Ranking>(
    ks: &[u64],
    cs: &[u128],
    pegs: u32,
    space: &Space,
    cut: Option<&Cut>,
    branching: f64,
    duplication: f64,
    ranking: R,
) -> Result<Expanded, CountError> {
    // Most levels' path counts fit 64 bits: their children, and the sums of those, are then
    // 16 bytes, not 24. Where a sum turns out not to fit, the level is redone wide.
    if cs.iter().all(|&c| c <= u128::from(u64::MAX)) {
        match expand_with::<Narrow, R>(ks, cs, pegs, space, cut, branching, duplication, ranking) {
            Err(CountError::Overflow) => {}
            done => return done,
        }
    }
    expand_with::<Child, R>(ks, cs, pegs, space, cut, branching, duplication, ranking)
}

/// [`expand`] with children packed as `C`.
#[allow(clippy::too_many_arguments)]
fn expand_with<C: Packed, R: Ranking>(
    ks: &[u64],
    cs: &[u128],
    pegs: u32,
    space: &Space,
    cut: Option<&Cut>,
    branching: f64,
    duplication: f64,
    ranking: R,
) -> Result<Expanded, CountError> {
    let canon = &space.canon;
    gather::<C, R>(ranking, ks, cs, branching, duplication, |key, c, part| {
        let mut any = false;
        let k = space.unfold(key, pegs);
        let images = space.images_of(k);
        part.positions += match &images {
            // Folded images hold the folded position once per symmetry fixing it.
            Some(i) => u64::from(canon.orbit_of(i, Bits(space.fold(k)))),
            None => space.orbit(k),
        };
        space.for_each_child_of(k, images.as_ref(), |holes, child| {
            any = true;
            if cut.is_some_and(|c| !c.keeps(k ^ holes)) {
                return;
            }
            part.push(child, c);
        });
        if !any {
            part.dead_ends += space.orbit(k);
            part.games = part.games.and_then(|g| g.checked_add(c));
        }
    })
}

/// Calls `each` on every key of `ks` (with its count from `cs`) in parallel chunks; what it
/// pushes is summed per distinct key. About `branching` keys are pushed per key given, and
/// `duplication` pushes per distinct key, which sizes the buffers.
fn gather<C: Packed, R: Ranking>(
    ranking: R,
    ks: &[u64],
    cs: &[u128],
    branching: f64,
    duplication: f64,
    each: impl Fn(u64, u128, &mut Part<C, R>) + Sync,
) -> Result<Expanded, CountError> {
    let chunk = (ks.len() / (rayon::current_num_threads() * 4)).max(1024);
    // Pushes go straight into hash buckets, so that each bucket can be summed and sorted on
    // its own, in cache, in parallel: no global sort of the whole level.
    let parts: Vec<Part<C, R>> = ks
        .par_chunks(chunk)
        .zip(cs.par_chunks(chunk))
        .map(|(ks, cs)| {
            let mut part = Part::new(
                (ks.len() as f64 * branching * 1.2) as usize / BUCKETS,
                ranking,
            );
            for (&k, &c) in ks.iter().zip(cs) {
                each(k, c, &mut part);
                part.settle(false);
            }
            part.settle(true);
            part
        })
        .collect();
    let mut out = Expanded {
        keys: Vec::new(),
        counts: Vec::new(),
        children: 0,
        positions: 0,
        dead_ends: 0,
        games: 0,
    };
    // Each bucket's pieces from every part, so that a bucket's memory can go back to the
    // allocator as soon as it is summed, for the sums and the level to reuse.
    let mut buckets: Vec<Vec<Vec<C>>> = (0..BUCKETS)
        .map(|_| Vec::with_capacity(parts.len()))
        .collect();
    for part in parts {
        out.positions += part.positions;
        out.dead_ends += part.dead_ends;
        out.games = part
            .games
            .and_then(|g| out.games.checked_add(g))
            .ok_or(CountError::Overflow)?;
        for (all, piece) in buckets.iter_mut().zip(part.buckets) {
            out.children += piece.len();
            all.push(piece);
        }
    }
    // Each bucket's pushes are summed in a hash table first (there are several per distinct
    // key), which reads out in rank order.
    let expect = 1.5 / duplication;
    let merged: Vec<(Vec<u64>, Vec<u128>)> = buckets
        .into_par_iter()
        .map(|pieces| {
            let n: usize = pieces.iter().map(Vec::len).sum();
            let mut table = Table::<C, R>::with_capacity((n as f64 * expect) as usize, ranking);
            for piece in pieces {
                for &c in &piece {
                    table.add(c)?;
                }
            }
            Ok(table.into_sorted())
        })
        .collect::<Result<_, CountError>>()?;
    // The buckets' runs side by side make the level: copied in parallel into place, with
    // no pass that zeroes the room first (on a reused heap that is a serial memset, about
    // 0.05 s of the English count).
    let total: usize = merged.iter().map(|m| m.0.len()).sum();
    out.keys = Vec::with_capacity(total);
    out.counts = Vec::with_capacity(total);
    let mut places = Vec::with_capacity(BUCKETS);
    let (mut keys, mut counts) = (
        &mut out.keys.spare_capacity_mut()[..total],
        &mut out.counts.spare_capacity_mut()[..total],
    );
    for (ks, _) in &merged {
        let (k, rest_k) = keys.split_at_mut(ks.len());
        let (c, rest_c) = counts.split_at_mut(ks.len());
        places.push((k, c));
        (keys, counts) = (rest_k, rest_c);
    }
    places
        .into_par_iter()
        .zip(merged)
        .for_each(|((k, c), (ks, cs))| {
            for (place, key) in k.iter_mut().zip(ks) {
                place.write(key);
            }
            for (place, count) in c.iter_mut().zip(cs) {
                place.write(count);
            }
        });
    // SAFETY: the runs' lengths sum to `total`, and the pieces they were copied to tile the
    // first `total` places of each vector, so every one of them is initialised.
    unsafe {
        out.keys.set_len(total);
        out.counts.set_len(total);
    }
    Ok(out)
}

/// [`count`], also returning the winning representatives of every level (canonical under
/// `canon`, which must come from [`group_of`]; empty without it), and stopping with
/// [`CountError::Timeout`] at the first level boundary (or slice of a spilled level) after
/// `deadline`. With `spill`, a level
/// whose children would not fit in `max_memory` is expanded in slices whose sorted runs go to
/// files there, merged into the next level on disk (external-memory breadth-first search).
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyse(
    problem: &Problem,
    canon: Option<&Canonicalizer>,
    space: &Space,
    cut: Option<&Cut>,
    max_memory: usize,
    spill: Option<&Path>,
    deadline: Option<Instant>,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<(Count, Winners), CountError> {
    let targets = problem.targets();
    let goal = targets.first().map_or(1, |t| t.count());
    let is_target: Vec<u64> = {
        let mut t: Vec<u64> = targets.iter().map(|&t| space.key(t)).collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let mut current = Store::Mem(vec![space.key(problem.start())], vec![1]);
    // Every level's representatives, for the backward pass.
    let mut stored: Vec<Kept> = Vec::new();
    let mut scratch: Option<spill::SpillDir> = None;
    let mut result = Count {
        symmetries: space.canon.order(),
        ..Count::default()
    };
    let mut used = 0usize;
    let mut level = 0u32;
    // Children per representative at the last level: the forecast for the next one.
    let mut branching = 1.0f64;
    // Children per distinct child at the last level: sizes the next level's hash tables.
    let mut duplication = 1.0f64;
    let child_size = std::mem::size_of::<Child>() as f64;
    loop {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(CountError::Timeout);
        }
        let n = current.len();
        let pegs = problem.start().count() - level;
        // Decide before generating a level whether its children fit (with a margin over the
        // forecast), rather than finding out after the memory is spent.
        let forecast = (n as f64 * branching * 1.5 * child_size) as usize;
        let expected = used + n * 8 + forecast;
        let in_memory = matches!(current, Store::Mem(..)) && (level == 0 || expected <= max_memory);
        let slice = if in_memory {
            n
        } else {
            let Some(dir) = spill else {
                return Err(CountError::Memory {
                    level: level + 1,
                    needed: expected,
                });
            };
            if scratch.is_none() {
                scratch = Some(spill::SpillDir::new(dir)?);
            }
            // Each slice's children take at most a quarter of the budget.
            ((max_memory / 4) as f64 / (branching * 1.5 * child_size).max(1.0)) as usize
        }
        .max(1024);
        let (mut positions, mut dead_ends, mut games, mut paths, mut children) =
            (0u64, 0u64, 0u128, 0u128, 0usize);
        let mut runs: Vec<Expanded> = Vec::new();
        let mut run_files: Vec<PathBuf> = Vec::new();
        // Bytes of the runs written since the last compaction (see below), and of what that
        // compaction left.
        let (mut fresh_bytes, mut compacted_bytes) = (0u64, 0u64);
        // A slice has fewer children per distinct child than its whole level: its tables are
        // sized from the slice before (too small, they would grow by copying).
        let mut slice_duplication = if in_memory { duplication } else { 1.0 };
        // A spilled level is kept for the backward pass as a file of its keys alone (under
        // half the room of its records), written while it is read.
        let mut keep = match (&current, scratch.as_mut()) {
            (Store::File(..), Some(dir)) => {
                let path = dir.file("keys");
                Some((spill::KeyWriter::create(&path)?, path))
            }
            _ => None,
        };
        current.for_each_slice(
            slice,
            space.dense,
            keep.as_mut().map(|k| &mut k.0),
            |ks, cs| {
                // A spilled level can take long: the budget is checked between its slices too.
                if deadline.is_some_and(|d| Instant::now() > d) {
                    return Err(CountError::Timeout);
                }
                for (k, &c) in ks.iter().zip(cs) {
                    paths = paths.checked_add(c).ok_or(CountError::Overflow)?;
                    if pegs == goal && is_target.binary_search(k).is_ok() {
                        result.solutions = result
                            .solutions
                            .checked_add(c)
                            .ok_or(CountError::Overflow)?;
                    }
                }
                let out = if in_memory {
                    expand(
                        ks,
                        cs,
                        pegs,
                        space,
                        cut,
                        branching,
                        slice_duplication,
                        Spread,
                    )?
                } else {
                    // Runs go to files, which keep the dense order.
                    expand(
                        ks,
                        cs,
                        pegs,
                        space,
                        cut,
                        branching,
                        slice_duplication,
                        space.dense,
                    )?
                };
                if !in_memory {
                    slice_duplication =
                        (out.children as f64 / out.keys.len().max(1) as f64).max(1.0);
                }
                positions += out.positions;
                dead_ends += out.dead_ends;
                games = games.checked_add(out.games).ok_or(CountError::Overflow)?;
                children += out.children;
                match &mut scratch {
                    Some(dir) if !in_memory => {
                        let path = dir.file("run");
                        let indices: Vec<u64> =
                            out.keys.par_iter().map(|&k| space.dense.index(k)).collect();
                        spill::write(&path, &indices, &out.counts)?;
                        fresh_bytes += std::fs::metadata(&path)?.len();
                        run_files.push(path);
                        // A child is in one run per slice that reaches it, and a position has
                        // several parents, so a level's runs can take many times the room of
                        // the level. Once the runs written since the last compaction outweigh
                        // both the memory budget and what that compaction left, all the runs
                        // are merged into one sorted set, so that the disk holds a few times
                        // the level being built rather than a record per jump into it.
                        if fresh_bytes > compacted_bytes.max(max_memory as u64)
                            && run_files.len() > 1
                        {
                            let (merged, _) = merge_runs(&run_files, dir, "run", space)?;
                            compacted_bytes = 0;
                            for run in &merged {
                                compacted_bytes += std::fs::metadata(run)?.len();
                            }
                            run_files = merged;
                            fresh_bytes = 0;
                        }
                    }
                    _ => runs.push(out),
                }
                Ok(())
            },
        )?;
        branching = children as f64 / n.max(1) as f64;
        result.games = result
            .games
            .checked_add(games)
            .ok_or(CountError::Overflow)?;
        let entry = Level {
            jumps: level,
            pegs,
            positions,
            classes: n as u64,
            dead_ends,
            paths,
            ..Level::default()
        };
        progress(&entry);
        result.levels.push(entry);
        // Keep the level's keys for the backward pass.
        stored.push(match (current, keep) {
            (Store::Mem(keys, _), _) => {
                used += keys.len() * 8;
                Kept::Mem(keys)
            }
            (Store::File(parts, _), Some((w, path))) => {
                w.finish()?;
                for part in parts {
                    std::fs::remove_file(part)?;
                }
                Kept::Keys(vec![path])
            }
            (Store::File(..), None) => {
                return Err(CountError::Io(
                    "a spilled level without its directory".into(),
                ));
            }
        });
        if children == 0 {
            break;
        }
        current = if let Some(dir) = scratch.as_mut().filter(|_| !in_memory) {
            let (parts, len) = merge_runs(&run_files, dir, "level", space)?;
            Store::File(parts, len)
        } else {
            let out = runs.pop().ok_or(CountError::Overflow)?;
            Store::Mem(out.keys, out.counts)
        };
        duplication = (children as f64 / current.len().max(1) as f64).max(1.0);
        level += 1;
    }
    let found = match self_dual_winners(problem, space, &stored, deadline)? {
        Some(found) => found,
        None => backward(problem, space, &stored, &is_target, goal, deadline)?,
    };
    let mut all_winners: Winners = vec![Vec::new(); stored.len()];
    for (depth, winners) in found.iter().enumerate() {
        let entry = &mut result.levels[depth];
        entry.winning_classes = winners.len() as u64;
        entry.winning = winners.par_iter().map(|&k| space.orbit(k)).sum();
        if let Some(canon) = canon {
            let pegs = problem.start().count() - depth as u32;
            all_winners[depth] = space.to_board(winners, pegs, canon);
        }
    }
    Ok((result, all_winners))
}

/// Merges a level's runs (files of [`Dense`] indices) into files named `what` in `dir`,
/// summing the counts of equal positions, and removes the runs; returns the merged files, in
/// order, and their number of positions. The merge runs in pieces of the index range, in
/// parallel.
fn merge_runs(
    runs: &[PathBuf],
    dir: &mut spill::SpillDir,
    what: &str,
    space: &Space,
) -> Result<(Vec<PathBuf>, usize), CountError> {
    let merged = spill::merge(
        runs,
        || dir.file(what),
        4 * rayon::current_num_threads() as u64,
        space.dense.last(),
        |a, b| a.checked_add(b).ok_or(CountError::Overflow),
    )?;
    for run in runs {
        std::fs::remove_file(run)?;
    }
    Ok(merged)
}

/// The winning representatives of every stored level, in [`rank`] order, by the backward
/// pass: the finish representatives win; a level's winners are the parents of the next
/// level's winners (undoing a jump), canonicalised and kept where reachable. Working from the
/// winners touches far fewer positions than re-expanding every level.
fn backward(
    problem: &Problem,
    space: &Space,
    stored: &[Kept],
    is_target: &[u64],
    goal: u32,
    deadline: Option<Instant>,
) -> Result<Vec<Vec<u64>>, CountError> {
    let mut found: Vec<Vec<u64>> = vec![Vec::new(); stored.len()];
    for (depth, level_keys) in stored.iter().enumerate().rev() {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(CountError::Timeout);
        }
        let pegs = problem.start().count() - depth as u32;
        let candidates: Vec<u64> = if pegs == goal {
            let mut t = is_target.to_vec();
            t.sort_unstable_by_key(|&k| rank(k));
            t
        } else {
            parents_of(
                found.get(depth + 1).map_or(&[], |w| &w[..]),
                pegs - 1,
                space,
            )?
        };
        found[depth] = match level_keys {
            Kept::Mem(keys) => intersect_sorted(&candidates, keys),
            // The stored level streamed (in the dense order) past the candidates sorted alike.
            Kept::Keys(..) => shared_keys(&Kept::Mem(candidates), level_keys, space.dense)?,
        };
    }
    Ok(found)
}

/// The winning representatives of every stored level, in [`rank`] order, when the game is its
/// own dual: one finish position whose complement is the start up to symmetry (the English
/// central game), with [folded](Space::folded) keys or every level in memory; `None`
/// otherwise.
///
/// Undoing a jump on a position is a jump on its complement, so a position `p` after `k` of the
/// game's `L` jumps can reach the finish exactly when the complement of `p` is reachable after
/// `L - k` jumps. Complements map orbits to orbits one to one, so the winners of levels `k` and
/// `L - k` come from one intersection: with folded keys, of the two levels' keys as they are
/// (read from disk for a spilled level); else of the complements of the smaller level,
/// canonicalised, with the larger. This touches each position once, where the backward pass
/// undoes every jump into every winner.
fn self_dual_winners(
    problem: &Problem,
    space: &Space,
    stored: &[Kept],
    deadline: Option<Instant>,
) -> Result<Option<Vec<Vec<u64>>>, CountError> {
    let Some(finish) = space.self_dual_finish(problem) else {
        return Ok(None);
    };
    let total = (problem.start().count() - finish.count()) as usize;
    let mut found = vec![Vec::new(); stored.len()];
    if space.fold != 0 {
        // A position and its complement share a key: the winners of both levels are the
        // keys they share, whether the levels are in memory or on disk.
        for k in 0..=total / 2 {
            if deadline.is_some_and(|d| Instant::now() > d) {
                return Err(CountError::Timeout);
            }
            let j = total - k;
            let (Some(a), Some(b)) = (stored.get(k), stored.get(j)) else {
                continue;
            };
            let winners = match (a, b) {
                (Kept::Mem(a), Kept::Mem(b)) => intersect_sorted(a, b),
                _ => shared_keys(a, b, space.dense)?,
            };
            found[k].clone_from(&winners);
            found[j] = winners;
        }
        return Ok(Some(found));
    }
    let Some(levels) = stored
        .iter()
        .map(|s| match s {
            Kept::Mem(keys) => Some(&keys[..]),
            Kept::Keys(..) => None,
        })
        .collect::<Option<Vec<&[u64]>>>()
    else {
        return Ok(None);
    };
    // The canonical complements of `keys`, distinct since `keys` are, in rank order.
    let holes = space.layout.holes();
    let dual = |keys: &[u64]| -> Result<Vec<u64>, CountError> {
        let zeros = vec![0; keys.len()];
        let out = gather::<Narrow, _>(Spread, keys, &zeros, 1.0, 1.0, |k, _, part| {
            part.push(space.canonical(holes ^ k), 0);
        })?;
        Ok(out.keys)
    };
    for k in 0..=total / 2 {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(CountError::Timeout);
        }
        let j = total - k;
        let (Some(a), Some(b)) = (levels.get(k), levels.get(j)) else {
            continue;
        };
        let ((small, s), (big, b)) = if a.len() <= b.len() {
            ((a, k), (b, j))
        } else {
            ((b, j), (a, k))
        };
        let winners = intersect_sorted(&dual(small)?, big);
        if s != b {
            found[s] = dual(&winners)?;
        }
        found[b] = winners;
    }
    Ok(Some(found))
}

/// The keys two levels share, in [`rank`] order, where one of them at least is on disk: both
/// are read in [`Dense`] order and merged.
fn shared_keys(a: &Kept, b: &Kept, dense: Dense) -> Result<Vec<u64>, CountError> {
    let (mut a, mut b) = (DenseKeys::of(a, dense)?, DenseKeys::of(b, dense)?);
    let mut out = Vec::new();
    let (mut x, mut y) = (a.next()?, b.next()?);
    while let (Some(u), Some(v)) = (x, y) {
        if u <= v {
            x = a.next()?;
        }
        if v <= u {
            y = b.next()?;
        }
        if u == v {
            out.push(dense.key(u));
        }
    }
    out.par_sort_unstable_by_key(|&k| rank(k));
    Ok(out)
}

/// A stored level's [`Dense`] indices in increasing order.
enum DenseKeys {
    Mem(std::vec::IntoIter<u64>),
    File(spill::Records),
}

impl DenseKeys {
    fn of(level: &Kept, dense: Dense) -> Result<DenseKeys, CountError> {
        Ok(match level {
            Kept::Mem(keys) => {
                let mut indices: Vec<u64> = keys.par_iter().map(|&k| dense.index(k)).collect();
                indices.par_sort_unstable();
                DenseKeys::Mem(indices.into_iter())
            }
            Kept::Keys(parts) => DenseKeys::File(spill::Records::keys(parts)?),
        })
    }

    fn next(&mut self) -> Result<Option<u64>, CountError> {
        match self {
            DenseKeys::Mem(indices) => Ok(indices.next()),
            DenseKeys::File(records) => Ok(records.next_key()?),
        }
    }
}

/// The winning representatives of every level, by search from both ends, for a finish that is
/// one position: forward levels from the start to the middle, and forward levels of the dual
/// problem (start: the finish's complement, whose jumps are the original's undone) to the
/// middle from the other side. A position `p` of level `k` can reach the finish exactly when
/// its complement is reachable in the dual game after `L - k` jumps, so
///
/// - at the middle level `m`, the winners are the forward positions whose complement is in
///   the dual level `L - m`;
/// - below it, the winners are the forward positions that are parents of winners;
/// - above it, the winners are the children of winners whose complement is in the dual level.
///
/// Only about half of each game tree is enumerated; when start and finish are complements of
/// each other (the English central game) the dual levels are the forward ones and one half is
/// enough. Returns `None` when the finish is not a single position.
pub(crate) fn winners_meeting(
    problem: &Problem,
    canon: &Canonicalizer,
    max_memory: usize,
    deadline: Option<Instant>,
) -> Option<Result<Winners, CountError>> {
    let targets = problem.targets();
    let [finish] = targets[..] else {
        return None;
    };
    Some(meet(problem, canon, finish, max_memory, deadline))
}

fn meet(
    problem: &Problem,
    canon: &Canonicalizer,
    finish: Bits,
    max_memory: usize,
    deadline: Option<Instant>,
) -> Result<Winners, CountError> {
    let space = Space::new(problem, true);
    let holes = space.layout.holes();
    let total = (problem.start().count() - finish.count()) as usize;
    let middle = total / 2;
    let start = space.key(problem.start());
    let dual_start = space.canonical(holes ^ space.layout.key(finish));
    let self_dual = dual_start == start;
    let reach = if self_dual { total - middle } else { middle };
    let forward = levels(
        &space,
        start,
        problem.start().count(),
        reach,
        max_memory,
        deadline,
    )?;
    let dual = if self_dual {
        None
    } else {
        Some(levels(
            &space,
            dual_start,
            holes.count_ones() - finish.count(),
            total - middle,
            max_memory,
            deadline,
        )?)
    };
    let dual = dual.as_ref().unwrap_or(&forward);
    // Whether `k` (a position after `depth` jumps) can reach the finish.
    let wins = |k: u64, depth: usize| {
        dual.get(total - depth).is_some_and(|level| {
            let c = space.canonical(holes ^ k);
            level.binary_search_by_key(&rank(c), |&x| rank(x)).is_ok()
        })
    };
    let mut winners: Winners = vec![Vec::new(); total + 1];
    winners[middle] = forward[middle]
        .par_iter()
        .copied()
        .filter(|&k| wins(k, middle))
        .collect();
    // Towards the start: parents of winners that are reachable.
    for depth in (0..middle).rev() {
        let pegs = problem.start().count() - depth as u32 - 1;
        let parents = parents_of(&winners[depth + 1], pegs, &space)?;
        winners[depth] = intersect_sorted(&parents, &forward[depth]);
    }
    // Towards the finish: children of winners that can still win.
    for depth in middle + 1..=total {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(CountError::Timeout);
        }
        let mut children: Vec<u64> = winners[depth - 1]
            .par_iter()
            .flat_map_iter(|&w| {
                let mut out = Vec::new();
                space.for_each_child(w, |_, child| out.push(child));
                out
            })
            .collect();
        children.par_sort_unstable_by_key(|&k| rank(k));
        children.dedup();
        winners[depth] = children
            .into_par_iter()
            .filter(|&k| wins(k, depth))
            .collect();
    }
    let pegs = problem.start().count();
    Ok(winners
        .iter()
        .enumerate()
        .map(|(depth, w)| space.to_board(w, pegs - depth as u32, canon))
        .collect())
}

/// The canonical parents of `winners` (keys of positions with `pegs` pegs): every position one
/// jump before one of them (undoing a jump: its landing hole full, the other two empty),
/// distinct, in [`rank`] order.
fn parents_of(winners: &[u64], pegs: u32, space: &Space) -> Result<Vec<u64>, CountError> {
    let zeros = vec![0; winners.len()];
    let out = gather::<Narrow, _>(Spread, winners, &zeros, 8.0, 4.0, |w, _, part| {
        space.for_each_parent(space.unfold(w, pegs), |p| part.push(p, 0));
    })?;
    Ok(out.keys)
}

/// The representatives of levels `0..=depth` from one start (the key of a position with
/// `pegs` pegs), each in [`rank`] order.
fn levels(
    space: &Space,
    start: u64,
    pegs: u32,
    depth: usize,
    max_memory: usize,
    deadline: Option<Instant>,
) -> Result<Vec<Vec<u64>>, CountError> {
    let mut out = vec![vec![start]];
    let mut counts = vec![1u128];
    let (mut used, mut branching, mut duplication) = (8usize, 1.0f64, 1.0f64);
    while out.len() <= depth {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(CountError::Timeout);
        }
        let keys = out.last().map_or(&[][..], |l| &l[..]);
        let needed =
            used + (keys.len() as f64 * branching * 1.5) as usize * std::mem::size_of::<Child>();
        if needed > max_memory {
            return Err(CountError::Memory {
                level: out.len() as u32,
                needed,
            });
        }
        let level = pegs - (out.len() as u32 - 1);
        let next = expand(
            keys,
            &counts,
            level,
            space,
            None,
            branching,
            duplication,
            Spread,
        )?;
        branching = next.children as f64 / keys.len().max(1) as f64;
        duplication = (next.children as f64 / next.keys.len().max(1) as f64).max(1.0);
        used += next.keys.len() * 8;
        // Path counts are not needed here; ones keep them from growing.
        counts = vec![1; next.keys.len()];
        out.push(next.keys);
    }
    Ok(out)
}

/// Hash buckets of a level: children are grouped by bucket, and a level is stored in
/// [`rank`] order, whose top byte is the bucket.
const BUCKETS: usize = 256;

/// An odd constant (the golden ratio's bits) and its inverse modulo `2^64`.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;
const UNSPREAD: u64 = {
    // Newton's iteration doubles the bits of an inverse that are right; an odd `x` is its
    // own inverse modulo 8.
    let mut inv = SPREAD;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(SPREAD.wrapping_mul(inv)));
        i += 1;
    }
    inv
};

/// The order levels are stored in: the key times an odd constant, a bijection that spreads
/// keys evenly, so that its top byte picks a bucket and the next bits a hash slot.
const fn rank(key: u64) -> u64 {
    key.wrapping_mul(SPREAD)
}

/// How a level is ordered: by [`rank`] in memory ([`Spread`]), by [`Dense`] index in files.
/// Both spread keys evenly: a rank's top byte picks a bucket, and the next bits a hash slot.
trait Ranking: Copy + Send + Sync {
    fn rank(self, key: u64) -> u64;

    #[inline]
    fn bucket(self, key: u64) -> usize {
        (self.rank(key) >> 56) as usize
    }
}

/// The order of levels in memory: [`rank`].
#[derive(Clone, Copy, Debug)]
struct Spread;

impl Ranking for Spread {
    #[inline]
    fn rank(self, key: u64) -> u64 {
        rank(key)
    }
}

impl Ranking for Dense {
    /// The index in the top bits of a word.
    #[inline]
    fn rank(self, key: u64) -> u64 {
        self.index(key) << self.shift
    }
}

/// The order of levels on disk. A layout's keys fit its lowest `w` bits, and a key's index
/// is a bijection on `w`-bit numbers: the key with its high half folded onto its low half,
/// times an odd constant, modulo `2^w`. Indices are spread evenly, so that cutting their
/// range in equal parts cuts a level in equal parts, and dense, so that the gaps between a
/// sorted level's indices take few bytes in a file (see `spill`), where [`rank`] would
/// spread `w` bits over 64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dense {
    /// `64 - w`.
    shift: u32,
    /// `w / 2`, rounded up.
    half: u32,
}

impl Dense {
    /// The order of keys made of the bits of `holes`.
    pub(crate) const fn new(holes: u64) -> Dense {
        let width = 64 - (holes | 1).leading_zeros();
        Dense {
            shift: 64 - width,
            half: width.div_ceil(2),
        }
    }

    /// The index of a key: at most [`last`](Self::last).
    #[inline]
    pub(crate) const fn index(self, key: u64) -> u64 {
        (key ^ key >> self.half).wrapping_mul(SPREAD) & self.last()
    }

    /// The key of an index.
    #[inline]
    pub(crate) const fn key(self, index: u64) -> u64 {
        // Folding twice restores a key: its high half, shifted down, lands below `half`.
        let folded = index.wrapping_mul(UNSPREAD) & self.last();
        folded ^ folded >> self.half
    }

    /// The largest index.
    pub(crate) const fn last(self) -> u64 {
        u64::MAX >> self.shift
    }
}

/// A child position with the path count it inherits, packed in 24 bytes (a `u128` field
/// would pad the pair to 32).
#[derive(Clone, Copy)]
struct Child {
    key: u64,
    lo: u64,
    hi: u64,
}

/// A child with its inherited path count, as stored in a bucket and summed in a [`Table`].
trait Packed: Copy + Send + Sync {
    /// A free table slot: no child has every bit set, since its jump left a hole empty.
    const FREE: Self;
    /// Packs `count`, which must fit (see [`expand`]).
    fn new(key: u64, count: u128) -> Self;
    fn key(self) -> u64;
    fn count(self) -> u128;
    /// Adds the count of `other`, a child with the same key.
    fn absorb(&mut self, other: Self) -> Result<(), CountError>;
}

impl Packed for Child {
    const FREE: Child = Child {
        key: u64::MAX,
        lo: 0,
        hi: 0,
    };
    fn new(key: u64, count: u128) -> Child {
        Child {
            key,
            lo: count as u64,
            hi: (count >> 64) as u64,
        }
    }
    fn key(self) -> u64 {
        self.key
    }
    fn count(self) -> u128 {
        u128::from(self.hi) << 64 | u128::from(self.lo)
    }
    fn absorb(&mut self, other: Child) -> Result<(), CountError> {
        let sum = self
            .count()
            .checked_add(other.count())
            .ok_or(CountError::Overflow)?;
        *self = Child::new(self.key, sum);
        Ok(())
    }
}

/// A child whose path count fits 64 bits: 16 bytes. Used only where the sums fit too.
#[derive(Clone, Copy)]
struct Narrow {
    key: u64,
    count: u64,
}

impl Packed for Narrow {
    const FREE: Narrow = Narrow {
        key: u64::MAX,
        count: 0,
    };
    fn new(key: u64, count: u128) -> Narrow {
        debug_assert!(count <= u128::from(u64::MAX));
        Narrow {
            key,
            count: count as u64,
        }
    }
    fn key(self) -> u64 {
        self.key
    }
    fn count(self) -> u128 {
        u128::from(self.count)
    }
    fn absorb(&mut self, other: Narrow) -> Result<(), CountError> {
        self.count = self
            .count
            .checked_add(other.count)
            .ok_or(CountError::Overflow)?;
        Ok(())
    }
}

/// What one chunk of a level produces.
struct Part<C, R> {
    ranking: R,
    /// Children as generated, before they go to their buckets (see [`Part::settle`]).
    stage: Vec<C>,
    buckets: Vec<Vec<C>>,
    /// Positions the parents stand for (orbit sizes).
    positions: u64,
    dead_ends: u64,
    /// `None` after an overflow.
    games: Option<u128>,
}

/// Children a [`Part`] stages before scattering them: 16 KB of narrow ones, which stay in
/// the first level of cache.
const STAGE: usize = 1024;

impl<C: Packed, R: Ranking> Part<C, R> {
    /// A part whose buckets have room for `each` children (the forecast), so that they
    /// rarely grow by copying.
    fn new(each: usize, ranking: R) -> Part<C, R> {
        Part {
            ranking,
            // Room for one parent's children past the threshold.
            stage: Vec::with_capacity(STAGE + 256),
            buckets: (0..BUCKETS).map(|_| Vec::with_capacity(each)).collect(),
            positions: 0,
            dead_ends: 0,
            games: Some(0),
        }
    }

    #[inline]
    fn push(&mut self, key: u64, count: u128) {
        self.stage.push(C::new(key, count));
    }

    /// Scatters the staged children into their buckets once there are enough of them
    /// (`all`: whatever there is). Stores into 256 buckets, mixed into the generating loop,
    /// stall it on their cache misses; written in order to a small buffer and scattered
    /// from there in a loop of their own, they cost less (English: generating and
    /// scattering 1.57 s against 1.81 s, best of 5 alternating runs).
    #[inline]
    fn settle(&mut self, all: bool) {
        if self.stage.len() >= STAGE || all {
            for &c in &self.stage {
                self.buckets[self.ranking.bucket(c.key())].push(c);
            }
            self.stage.clear();
        }
    }
}

/// The positions of a count as keys of the board's [`Layout`], with the symmetry group and
/// each jump's images in that layout, so that a child's canonical form comes from its
/// parent's images without any table lookup.
pub(crate) struct Space {
    layout: Layout,
    canon: Canonicalizer,
    dense: Dense,
    /// The images of each jump slot's holes under the group (empty without wide tables),
    /// [folded](Space::fold).
    images: Vec<[u64; WIDE]>,
    /// The layout's holes where keys are folded (see [`Space::folded`]), else 0.
    fold: u64,
    /// The layout's highest hole where keys are folded, else 0.
    top: u64,
}

impl Space {
    /// The space of `problem`, under the symmetries that fix its start and its finishes, in
    /// the grid layout where the board fits one (and `grid` is set).
    pub(crate) fn new(problem: &Problem, grid: bool) -> Space {
        let board = problem.board();
        let layout = if grid {
            Layout::of(board)
        } else {
            Layout::dense(board)
        };
        let canon = board
            .symmetries()
            .canonicalizer_placed(&group_elements(problem), layout.place());
        let images = if canon.images(Bits::EMPTY).is_some() {
            (0..layout.slots())
                .map(|i| {
                    canon
                        .images(Bits(layout.slot_holes(i)))
                        .unwrap_or([0; WIDE])
                })
                .collect()
        } else {
            Vec::new()
        };
        Space {
            dense: Dense::new(layout.holes()),
            layout,
            canon,
            images,
            fold: 0,
            top: 0,
        }
    }

    /// [`Space::new`] where a position's orbit and its complement's share one key, when the
    /// game is its own dual (one finish, whose complement is the start up to symmetry; see
    /// [`self_dual_winners`]) on a board with an odd number of holes. Then the winners of
    /// levels `k` and `L - k` are the keys the two levels share, with nothing to
    /// canonicalise.
    ///
    /// A key is the least *folded* image of a position, folding a set by complementing it
    /// when it holds the layout's highest hole. A set and its complement fold alike, and two
    /// sets with as many pegs fold alike only if they are equal, so within a level a key
    /// still stands for one orbit. With an odd number of holes a position and its complement
    /// never have as many pegs, so a key is unfolded by its number of pegs
    /// ([`Space::unfold`]). Symmetries permute holes, so they commute with complements: a
    /// position's complement has the position's key. Folding is linear over xor
    /// (`fold(a ^ b) = fold(a) ^ fold(b)`), so a child's folded images are still its parent's
    /// xor its jump's, and generating costs the same.
    pub(crate) fn folded(problem: &Problem, grid: bool) -> Space {
        let mut space = Space::new(problem, grid);
        let holes = space.layout.holes();
        let self_dual = space.self_dual_finish(problem).is_some();
        if self_dual && holes.count_ones() % 2 == 1 && !space.images.is_empty() {
            space.fold = holes;
            space.top = 1 << (63 - holes.leading_zeros());
            for i in 0..space.images.len() {
                space.images[i] = space.images[i].map(|y| space.fold(y));
            }
        }
        space
    }

    /// The finish of `problem` when the game is its own dual: one finish position, whose
    /// complement is the start up to symmetry.
    fn self_dual_finish(&self, problem: &Problem) -> Option<Bits> {
        let [finish] = problem.targets()[..] else {
            return None;
        };
        let complement = self.layout.holes() ^ self.layout.key(finish);
        (self.canonical(complement) == self.key(problem.start())).then_some(finish)
    }

    /// A set, complemented if it holds the highest hole (where keys are folded).
    #[inline]
    const fn fold(&self, set: u64) -> u64 {
        if set & self.top != 0 {
            set ^ self.fold
        } else {
            set
        }
    }

    /// The position with `pegs` pegs that `key` stands for: the key, or its complement where
    /// keys are [folded](Space::folded).
    #[inline]
    const fn unfold(&self, key: u64, pegs: u32) -> u64 {
        if self.fold != 0 && key.count_ones() != pegs {
            key ^ self.fold
        } else {
            key
        }
    }

    /// The [folded](Space::fold) images of a position (see [`Canonicalizer::images`]).
    #[inline]
    fn images_of(&self, pegs: u64) -> Option<[u64; WIDE]> {
        let images = self.canon.images(Bits(pegs))?;
        Some(if self.fold == 0 {
            images
        } else {
            images.map(|y| self.fold(y))
        })
    }

    /// A board position as a canonical key.
    fn key(&self, set: Bits) -> u64 {
        self.canonical(self.layout.key(set))
    }

    /// The key of a position: its least image, [folded](Space::folded) where keys are.
    fn canonical(&self, pegs: u64) -> u64 {
        if self.fold != 0 {
            if let Some(images) = self.images_of(pegs) {
                return images.into_iter().min().unwrap_or(pegs);
            }
        }
        self.canon.canonical(Bits(pegs)).raw()
    }

    /// The number of positions `key` stands for.
    fn orbit(&self, key: u64) -> u64 {
        u64::from(self.canon.canonical_and_orbit(Bits(key)).1)
    }

    /// The canonical form of every child of `pegs`: `f(holes of the jump, canonical child)`.
    #[inline]
    fn for_each_child(&self, pegs: u64, f: impl FnMut(u64, u64)) {
        self.for_each_child_of(pegs, self.images_of(pegs).as_ref(), f);
    }

    /// [`Space::for_each_child`] with the parent's [images](Space::images_of) at hand: a
    /// symmetry permutes bits, so the child's images are the parent's xor the jump's.
    #[inline]
    fn for_each_child_of(
        &self,
        pegs: u64,
        parent: Option<&[u64; WIDE]>,
        mut f: impl FnMut(u64, u64),
    ) {
        match parent {
            Some(parent) => self.layout.for_each_jump(
                pegs,
                // Left to itself, the compiler calls this once per child: 2.96 s against
                // 2.81 s for the English count (best of 6 alternating runs).
                #[inline(always)]
                |holes, i| {
                    f(holes, Canonicalizer::least_of(parent, &self.images[i]));
                },
            ),
            None => self
                .layout
                .for_each_jump(pegs, |holes, _| f(holes, self.canonical(pegs ^ holes))),
        }
    }

    /// The canonical form of every parent of `pegs` (one jump before it), with repeats.
    #[inline]
    fn for_each_parent(&self, pegs: u64, mut f: impl FnMut(u64)) {
        match self.images_of(pegs) {
            Some(own) => self.layout.for_each_undo(pegs, |_, i| {
                f(Canonicalizer::least_of(&own, &self.images[i]));
            }),
            None => self
                .layout
                .for_each_undo(pegs, |holes, _| f(self.canonical(pegs ^ holes))),
        }
    }

    /// Keys of positions with `pegs` pegs as canonical board positions under `canon`,
    /// sorted.
    fn to_board(&self, keys: &[u64], pegs: u32, canon: &Canonicalizer) -> Vec<u64> {
        let mut out: Vec<u64> = keys
            .par_iter()
            .map(|&k| {
                canon
                    .canonical(self.layout.bits(self.unfold(k, pegs)))
                    .raw()
            })
            .collect();
        out.par_sort_unstable();
        out
    }
}

/// Open-addressing sum of counts by key, for one bucket of a level. `u64::MAX` marks a free
/// slot: a child always has an empty hole (the one its jump left), so no key is all ones.
///
/// A key's home slot grows with its [`rank`] and probing never wraps around (a short tail
/// past the last home takes the overflow), so the slots end up in rank order but for a few
/// keys pushed just past their neighbours: reading them out needs no sort, only a pass of
/// insertion that moves those few back.
struct Table<C, R> {
    /// Key and count side by side: one cache line per probe.
    slots: Vec<C>,
    ranking: R,
    len: usize,
    /// Home slots: `1 << (64 - shift)`.
    shift: u32,
}

/// Slots past the last home slot, for probes that run off its end.
const TAIL: usize = 64;

impl<C: Packed, R: Ranking> Table<C, R> {
    fn with_capacity(n: usize, ranking: R) -> Table<C, R> {
        let slots = (n.max(8) * 2).next_power_of_two();
        Table {
            slots: vec![C::FREE; slots + TAIL],
            ranking,
            len: 0,
            shift: 64 - slots.trailing_zeros(),
        }
    }

    /// Home slot of a key: the rank's bits below the ones that chose the bucket.
    #[inline]
    fn home(&self, key: u64) -> usize {
        ((self.ranking.rank(key) << 8) >> self.shift) as usize
    }

    #[inline]
    fn add(&mut self, child: C) -> Result<(), CountError> {
        let key = child.key();
        loop {
            let mut i = self.home(key);
            while let Some(slot) = self.slots.get_mut(i) {
                if slot.key() == key {
                    return slot.absorb(child);
                }
                if slot.key() == u64::MAX {
                    *slot = child;
                    self.len += 1;
                    if self.len * 10 > (self.slots.len() - TAIL) * 7 {
                        self.grow()?;
                    }
                    return Ok(());
                }
                i += 1;
            }
            // The probe ran past the tail: a bigger table spreads the keys out again.
            self.grow()?;
        }
    }

    #[cold]
    fn grow(&mut self) -> Result<(), CountError> {
        let mut bigger = Table::with_capacity(self.slots.len(), self.ranking);
        for &s in &self.slots {
            if s.key() != u64::MAX {
                bigger.add(s)?;
            }
        }
        *self = bigger;
        Ok(())
    }

    /// The keys in the order of the ranking, with their counts.
    fn into_sorted(self) -> (Vec<u64>, Vec<u128>) {
        // Every slot is copied to the next place, which advances only past a key: no branch
        // on whether a slot is free, which the table's load leaves hard to predict.
        let mut keys = vec![0u64; self.len + 1];
        let mut counts = vec![0u128; self.len + 1];
        let mut n = 0;
        for &s in &self.slots {
            keys[n] = s.key();
            counts[n] = s.count();
            n += usize::from(s.key() != u64::MAX);
            if n == self.len {
                break;
            }
        }
        keys.truncate(n);
        counts.truncate(n);
        // Insertion: only keys that probing pushed past a later home move, and not far.
        let mut last = 0;
        for i in 0..n {
            let r = self.ranking.rank(keys[i]);
            if r >= last {
                last = r;
                continue;
            }
            let mut at = i;
            while at > 0 && self.ranking.rank(keys[at - 1]) > r {
                keys.swap(at - 1, at);
                counts.swap(at - 1, at);
                at -= 1;
            }
        }
        (keys, counts)
    }
}

/// The keys in both lists, each sorted by [`rank`]: the lists are cut at the same ranks into
/// pieces intersected in parallel.
fn intersect_sorted(a: &[u64], b: &[u64]) -> Vec<u64> {
    const PIECES: u64 = 64;
    if a.len().min(b.len()) < 1 << 16 {
        return intersect_run(a, b);
    }
    // Piece `i` of a list: its keys of rank from `i` to `i + 1` times MAX / PIECES.
    let piece = |list: &'_ [u64], i: u64| -> std::ops::Range<usize> {
        let cut = |i: u64| match i {
            PIECES => list.len(),
            _ => list.partition_point(|&k| rank(k) < i * (u64::MAX / PIECES)),
        };
        cut(i)..cut(i + 1)
    };
    let pieces: Vec<Vec<u64>> = (0..PIECES)
        .into_par_iter()
        .map(|i| intersect_run(&a[piece(a, i)], &b[piece(b, i)]))
        .collect();
    pieces.concat()
}

/// [`intersect_sorted`] in one pass.
fn intersect_run(a: &[u64], b: &[u64]) -> Vec<u64> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        match rank(a[i]).cmp(&rank(b[j])) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::problem::Finish;

    /// The game on `b` with the holes `empty` empty, ending on the holes `finish` (or on any
    /// one peg).
    fn problem(b: &Board, empty: &str, finish: Option<&str>) -> Problem {
        let start = b.holes().minus(b.hole_set(empty).unwrap());
        let finish = finish.map_or(Finish::AnyOne, |f| Finish::Holes(b.hole_set(f).unwrap()));
        Problem::new(b, start, finish).unwrap()
    }

    /// A whole count in memory, with its winners as board positions under `canon`.
    fn analyse_in_memory(p: &Problem, canon: &Canonicalizer, space: &Space) -> (Count, Winners) {
        analyse(p, Some(canon), space, None, usize::MAX, None, None, &|_| {}).unwrap()
    }

    #[test]
    fn winners_from_both_ends_match_the_full_count() {
        // Self-dual (complement problems) and not, odd and even numbers of jumps.
        for (name, empty, finish) in [
            ("triangle5", "a1", "a1"),
            ("triangle5", "c5", "a4"),
            ("triangle6", "c3", "c3"),
            ("rect:5x5", "c1", "c5"),
            ("rect:4x5", "b2", "c2"),
        ] {
            let b = Board::builtin(name).unwrap();
            let p = problem(&b, empty, Some(finish));
            let canon = group_of(&p);
            let (_, full) = analyse_in_memory(&p, &canon, &Space::new(&p, true));
            let met = winners_meeting(&p, &canon, usize::MAX, None)
                .unwrap()
                .unwrap();
            if full.iter().all(Vec::is_empty) {
                // Impossible: the forward count may stop early, when no jump is left.
                assert!(met.iter().all(Vec::is_empty), "{name} {empty} -> {finish}");
            } else {
                assert_eq!(full, met, "{name} {empty} -> {finish}");
            }
        }
        let b = Board::builtin("triangle5").unwrap();
        let any =
            Problem::new(&b, b.holes().without(b.hole("a1").unwrap()), Finish::AnyOne).unwrap();
        assert!(winners_meeting(&any, &group_of(&any), usize::MAX, None).is_none());
    }

    #[test]
    fn self_dual_winners_match_the_backward_pass() {
        let mut solvable = 0;
        for (name, empty, finish, dual) in [
            ("triangle5", "a1", "a1", true),
            ("triangle6", "c3", "c3", true),
            ("rect:5x5", "c3", "c3", true),
            ("rect:4x5", "b2", "b2", true),
            ("triangle6", "a1", "a1", true),
            ("rect:4x6", "b2", "b2", true),
            ("triangle5", "c5", "a4", false),
            ("rect:5x5", "c1", "c5", false),
        ] {
            let b = Board::builtin(name).unwrap();
            let p = problem(&b, empty, Some(finish));
            let (start, target) = (p.start(), b.hole_set(finish).unwrap());
            let canon = group_of(&p);
            // Levels and winners as board positions, from plain keys and from folded ones.
            let mut seen = Vec::new();
            for fold in [false, true] {
                let space = if fold {
                    Space::folded(&p, true)
                } else {
                    Space::new(&p, true)
                };
                let odd = b.holes().count() % 2 == 1;
                assert_eq!(space.fold != 0, fold && dual && odd, "{name} {empty}");
                let jumps = (start.count() - target.count()) as usize;
                let levels = levels(
                    &space,
                    space.key(start),
                    start.count(),
                    jumps,
                    usize::MAX,
                    None,
                )
                .unwrap();
                let boards = |sets: &[Vec<u64>]| -> Vec<Vec<u64>> {
                    sets.iter()
                        .enumerate()
                        .map(|(d, s)| space.to_board(s, start.count() - d as u32, &canon))
                        .collect()
                };
                let all = boards(&levels);
                let stored: Vec<Kept> = levels.into_iter().map(Kept::Mem).collect();
                let is_target = vec![space.key(target)];
                let slow = backward(&p, &space, &stored, &is_target, target.count(), None).unwrap();
                match self_dual_winners(&p, &space, &stored, None).unwrap() {
                    Some(fast) => {
                        assert!(dual, "{name} {empty} -> {finish}");
                        assert_eq!(fast, slow, "{name} {empty} -> {finish}");
                        solvable += usize::from(fast.iter().all(|w| !w.is_empty()));
                    }
                    None => assert!(!dual, "{name} {empty} -> {finish}"),
                }
                seen.push((all, boards(&slow)));
            }
            assert_eq!(seen[0], seen[1], "{name} {empty} -> {finish}");
        }
        // Not only empty sets compared: both spaces, solvable games.
        assert!(solvable >= 6, "{solvable}");
    }

    #[test]
    fn folded_and_plain_keys_count_alike() {
        let mut solvable = 0;
        // Odd boards whose game is its own dual (one unsolvable), and one whose game is not.
        for (name, empty, finish) in [
            ("triangle6", "c3", "c3"),
            ("triangle5", "a1", "a1"),
            ("rect:3x5", "c1", "c1"),
            ("rect:5x5", "c3", "c3"),
            ("triangle5", "c5", "a4"),
        ] {
            let b = Board::builtin(name).unwrap();
            let p = problem(&b, empty, Some(finish));
            let canon = group_of(&p);
            let run = |space: &Space| analyse_in_memory(&p, &canon, space);
            let (plain, plain_winners) = run(&Space::new(&p, true));
            // Folded on the grid, and on the board's own numbering (per-hole jump lists).
            for grid in [true, false] {
                let space = Space::folded(&p, grid);
                assert_eq!(space.fold != 0, empty == finish, "{name} {empty} {grid}");
                let (folded, folded_winners) = run(&space);
                assert_eq!(
                    format!("{plain:?}"),
                    format!("{folded:?}"),
                    "{name} {empty} {grid}"
                );
                assert_eq!(plain_winners, folded_winners, "{name} {empty} {grid}");
            }
            solvable += usize::from(plain.solutions > 0);
        }
        assert!(solvable >= 4, "{solvable}");
    }

    #[test]
    fn spilling_to_disk_gives_the_same_count() {
        // The last is its own dual, so its keys are folded: spilled, its winners come from
        // mirror levels read from files, in memory from levels intersected in memory.
        for (name, empty, finish) in [
            ("triangle6", "c3", None),
            ("rect:5x5", "c1", None),
            ("triangle6", "c3", Some("c3")),
        ] {
            let b = Board::builtin(name).unwrap();
            let p = problem(&b, empty, finish);
            let dual = finish.is_some();
            assert_eq!(Space::folded(&p, true).fold != 0, dual, "{name}");
            let full = count(&p, usize::MAX, &|_| {}).unwrap();
            // Without a spill directory a small budget ends the count; with one it goes on
            // through files (64 KB: many slices and runs per level).
            assert!(matches!(
                count(&p, 1 << 16, &|_| {}),
                Err(CountError::Memory { .. })
            ));
            let spilled = count_with(
                &p,
                &CountOptions {
                    max_memory: 1 << 16,
                    spill: Some(std::env::temp_dir()),
                    ..CountOptions::default()
                },
                &|_| {},
            )
            .unwrap();
            assert_eq!(full.levels, spilled.levels, "{name}");
            assert_eq!(full.solutions, spilled.solutions);
            assert_eq!(full.games, spilled.games);
            assert!(full.solutions > 0);
        }
    }

    /// Plain enumeration without symmetry, for cross-checking.
    fn brute(board: &Board, start: Bits) -> (u64, u128) {
        fn walk(board: &Board, p: Bits, seen: &mut std::collections::HashSet<u64>) -> u128 {
            seen.insert(p.raw());
            let mut games = 0u128;
            let mut any = false;
            for j in board.jumps() {
                if j.is_legal(p) {
                    any = true;
                    games += walk(board, j.apply(p), seen);
                }
            }
            if any {
                games
            } else {
                1
            }
        }
        let mut seen = std::collections::HashSet::new();
        let games = walk(board, start, &mut seen);
        (seen.len() as u64, games)
    }

    /// Positions from which a single peg can be reached, by plain memoized search.
    fn brute_winning(board: &Board, start: Bits) -> u64 {
        fn wins(board: &Board, p: Bits, memo: &mut std::collections::HashMap<u64, bool>) -> bool {
            if p.count() == 1 {
                return true;
            }
            if let Some(&w) = memo.get(&p.raw()) {
                return w;
            }
            let w = board
                .jumps()
                .iter()
                .filter(|j| j.is_legal(p))
                .any(|j| wins(board, j.apply(p), memo));
            memo.insert(p.raw(), w);
            w
        }
        let mut memo = std::collections::HashMap::new();
        wins(board, start, &mut memo);
        // Every reachable position was visited unless an earlier sibling already won: recount
        // over all reachable positions.
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![start];
        let mut winning = 0;
        while let Some(p) = stack.pop() {
            if !seen.insert(p.raw()) {
                continue;
            }
            if wins(board, p, &mut memo) {
                winning += 1;
            }
            for j in board.jumps() {
                if j.is_legal(p) {
                    stack.push(j.apply(p));
                }
            }
        }
        winning
    }

    #[test]
    fn matches_plain_enumeration_on_small_boards() {
        for (name, empty) in [
            ("rect:3x4", "a1"),
            ("rect:4x4", "b2"),
            ("triangle:5", "a1"),
            ("rect:3x5", "c2"),
        ] {
            let b = Board::builtin(name).unwrap();
            let start = b.holes().without(b.hole(empty).unwrap());
            let p = Problem::new(&b, start, Finish::AnyOne).unwrap();
            let c = count(&p, usize::MAX, &|_| {}).unwrap();
            let (positions, games) = brute(&b, start);
            assert_eq!(c.positions(), positions, "{name}");
            assert_eq!(c.games, games, "{name}");
            assert_eq!(c.winning(), brute_winning(&b, start), "{name}");
        }
    }

    /// Path counts past 64 bits take the wide children; both packings sum the same way.
    #[test]
    fn wide_and_narrow_children_sum_alike() {
        let board = Board::builtin("english").unwrap();
        let problem = Problem::conventional(&board).unwrap();
        let space = Space::new(&problem, true);
        // The four first jumps of the English board are one class: one child with 4 paths.
        let start = [space.key(problem.start())];
        // 3 fits 64 bits throughout; half of `u64::MAX` fits, but not four of it, so that
        // level is redone wide; 3 << 70 is wide from the start.
        for count in [3u128, u128::from(u64::MAX / 2), 3 << 70] {
            let out = expand(&start, &[count], 32, &space, None, 1.0, 1.0, Spread).unwrap();
            assert_eq!((out.keys.len(), out.children), (1, 4));
            assert_eq!(out.counts, vec![4 * count]);
            assert_eq!(out.positions, 1);
        }
    }

    #[test]
    fn grid_and_dense_layouts_count_alike() {
        // Square, triangular and diagonal lattices; with a finish and without.
        for (name, empty, finish) in [
            ("triangle6", "c3", None),
            ("rect:5x5", "c1", Some("c5")),
            ("rect:4x6", "b2", None),
            ("diagonal 4x4", "b2", None),
        ] {
            let b = match name.strip_prefix("diagonal ") {
                Some(_) => {
                    Board::parse(name, "lattice: diagonal\noooo\noooo\noooo\noooo\n").unwrap()
                }
                None => Board::builtin(name).unwrap(),
            };
            let p = problem(&b, empty, finish);
            assert!(Space::new(&p, true).layout.is_grid(), "{name}");
            let options = |grid| CountOptions {
                grid,
                timeout: Some(std::time::Duration::from_secs(60)),
                ..CountOptions::default()
            };
            let grid = count_with(&p, &options(true), &|_| {}).unwrap();
            let dense = count_with(&p, &options(false), &|_| {}).unwrap();
            assert_eq!(grid.levels, dense.levels, "{name}");
            assert_eq!((grid.solutions, grid.games), (dense.solutions, dense.games));
        }
    }

    #[test]
    fn dense_order_is_a_bijection_on_the_keys_of_its_width() {
        assert_eq!(SPREAD.wrapping_mul(UNSPREAD), 1);
        let mut next = crate::testing::xorshift();
        for holes in [1u64, 0x1F, (1 << 33) - 1, 0x1_C71C_71C7_1C71, u64::MAX] {
            let dense = Dense::new(holes);
            let width = 64 - holes.leading_zeros();
            assert_eq!(dense.last(), u64::MAX >> (64 - width));
            let mut seen = std::collections::HashSet::new();
            for _ in 0..2000 {
                let k = next() & dense.last();
                let i = dense.index(k);
                assert!(i <= dense.last());
                assert_eq!(dense.key(i), k);
                seen.insert(i);
            }
            if width == 5 {
                // Every 5-bit key, every index once.
                assert_eq!(seen.len(), 32);
            }
        }
    }

    #[test]
    fn intersections_in_pieces_match_one_pass() {
        // Large enough to be cut into pieces, with keys near the cuts' ranks.
        let mut random = crate::testing::xorshift();
        let mut next = || random() % (1 << 20);
        let mut a: Vec<u64> = (0..200_000).map(|_| next()).collect();
        let mut b: Vec<u64> = (0..300_000).map(|_| next()).collect();
        for list in [&mut a, &mut b] {
            list.sort_unstable_by_key(|&k| rank(k));
            list.dedup();
        }
        let both = intersect_sorted(&a, &b);
        assert_eq!(both, intersect_run(&a, &b));
        let set: std::collections::HashSet<u64> = b.iter().copied().collect();
        let expected: Vec<u64> = a.iter().copied().filter(|k| set.contains(k)).collect();
        assert_eq!(both, expected);
        assert!(both.len() > 10_000);
    }

    #[test]
    fn triangle_corner_has_29760_solutions() {
        // George Bell: the 15-hole triangle, vacate a corner, finish anywhere: 29,760 solutions.
        let b = Board::builtin("triangle:5").unwrap();
        let p = Problem::new(&b, b.holes().without(b.hole("a1").unwrap()), Finish::AnyOne).unwrap();
        let c = count(&p, usize::MAX, &|_| {}).unwrap();
        assert_eq!(c.solutions, 29_760);
    }
}
