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
//! jump direction is one shift and a position's jumps are found for all holes at once; past 64
//! holes, in two or four words (`crate::key`), the board's own numbering, jump by jump. The
//! engine is written once over the key and compiled per width; one-word keys keep their tricks
//! (the grid, canonical forms from the parent's images, folded keys, dense indices on disk). Each
//! level's children are generated in parallel (rayon, by chunks of parents) and canonicalised
//! from their parent's symmetry images, then scattered into hash buckets. Each bucket is
//! summed in its own small hash table whose slots follow the order levels are kept in (a fixed
//! mix of the key), so a level comes out sorted without a sort. A backward pass over the
//! stored levels marks the representatives that can still reach the finish, gathering the
//! parents of the next level's winners the same way; when the finish is the start's
//! complement, each level's winners come from one intersection with its mirror level instead,
//! and on a board with an odd number of holes a position and its complement share a key
//! (`Space::folded`), so that intersection needs no canonical forms.
//!
//! The parts: `forward` (the level-by-level pass and its spilling), `winners` (the backward
//! pass and the meeting of mirror levels), `meeting` (solutions and winners from both ends,
//! for one finish), `reach` (whether one finish can be won at all: the meeting on keys
//! alone, the last level of each side kept, each level gathered in passes), `packed` (the
//! bucketed child tables a level is summed in), `lookup` (a stored level laid out for
//! lookups), `cut` (pagoda cuts); the key space itself is `crate::space`, which `fewest`
//! shares.

#[cfg(feature = "cluster")]
mod cluster;
mod cut;
mod forward;
mod lookup;
mod meeting;
#[cfg(feature = "cluster")]
mod mesh;
mod packed;
mod reach;
#[cfg(feature = "cluster")]
mod runs;
mod step;
mod vacancies;
mod winners;

#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::Instant;

use cut::Cut;
pub(crate) use forward::analyse;
use meeting::solutions_meeting;
pub(crate) use meeting::winners_meeting;
pub(crate) use winners::Winners;

use crate::key::CountKey;
use crate::problem::{Limits, Problem};
use crate::space::Space;
use crate::spill;
use crate::stop::Stop;
use crate::width::with_width;

pub use crate::spill::{remove_scratch_of, SCRATCH_PREFIX};
#[cfg(feature = "cluster")]
pub use cluster::{count_cluster, Cluster, ClusterCount};
pub use vacancies::{vacancy_solutions, VacancySide, VacancyTable};

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
    /// Every finish position reached, in increasing order, with the jump sequences from the
    /// start to it (they sum to `solutions`). With the finish "one peg anywhere" this is the
    /// solution count of every end hole at once.
    pub finishes: Vec<(crate::Pegs, u128)>,
}

impl Count {
    /// A level figure summed over all levels.
    fn total(&self, figure: impl Fn(&Level) -> u64) -> u64 {
        self.levels.iter().map(figure).sum()
    }

    /// Positions reachable, over all levels.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.total(|l| l.positions)
    }
    /// Positions reachable up to symmetry.
    #[must_use]
    pub fn classes(&self) -> u64 {
        self.total(|l| l.classes)
    }
    /// Positions from which the finish can be reached.
    #[must_use]
    pub fn winning(&self) -> u64 {
        self.total(|l| l.winning)
    }
    /// The same up to symmetry.
    #[must_use]
    pub fn winning_classes(&self) -> u64 {
        self.total(|l| l.winning_classes)
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
    /// A figure that failed its own check (a bug, never an answer).
    Internal(&'static str),
    /// A distributed count could not start, or a process of it went away.
    Cluster(String),
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Memory { level, needed } => write!(
                f,
                "level {level} needs {} MB, more than the memory budget; raise the budget, or spill levels to disk",
                // Rounded up: below a megabyte it is still more than the budget.
                needed.div_ceil(1 << 20)
            ),
            CountError::Overflow => write!(f, "a path count passed 2^128"),
            CountError::Timeout => write!(f, "the time budget ran out; allow more time"),
            CountError::Io(e) => write!(f, "spill file: {e}; check the spill directory"),
            CountError::Internal(what) => write!(f, "internal error: {what}; please report it"),
            CountError::Cluster(what) => write!(f, "cluster: {what}"),
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
    /// Set from elsewhere (a Python notebook's Ctrl-C) to stop the count, as the timeout
    /// does: [`CountError::Timeout`] within one slice of a level.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
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
            cancel: None,
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
    with_width!(problem.board(), W => count_in::<W>(problem, options, progress))
}

/// [`count_with`] in keys of `K`.
fn count_in<K: CountKey>(
    problem: &Problem,
    options: &CountOptions,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Count, CountError> {
    let space = if options.fold {
        Space::<K>::folded(problem, options.grid)
    } else {
        Space::<K>::new(problem, options.grid)
    };
    let cut = options.pagoda.then(|| Cut::new(problem, &space.layout));
    analyse(
        problem,
        None,
        &space,
        cut.as_ref(),
        options.max_memory,
        options.spill.as_deref(),
        Stop::new(
            options.timeout.map(|t| Instant::now() + t),
            options.cancel.as_deref(),
        ),
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

impl From<std::io::Error> for CountError {
    fn from(e: std::io::Error) -> CountError {
        CountError::Io(e.to_string())
    }
}

/// The solutions and the winning positions of a problem, and nothing else: what
/// [`count_solutions`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// Jump sequences from the start to the finish.
    pub solutions: u128,
    /// Per level (jumps from the start): winning positions, and the same up to symmetry.
    pub winning: Vec<(u64, u64)>,
    /// The order of the symmetry group used.
    pub symmetries: usize,
    /// Milliseconds taken.
    pub millis: u64,
    /// How they were counted.
    pub method: SolutionsMethod,
}

/// How [`count_solutions_with`] counted: the figures are the same either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolutionsMethod {
    /// Path counts from both ends to the middle level, in memory.
    Meeting,
    /// The meeting did not fit its memory budget: the whole game from the start, spilled to
    /// disk and cut by pagoda functions (which never drop a winning position), and the
    /// winners found backwards from the finish.
    SpilledCount,
    /// The whole game on the workers of a cluster ([`Solutions::of_count`] of its count).
    Cluster,
}

impl SolutionsMethod {
    /// The method in words, as the answers print it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            SolutionsMethod::Meeting => "meeting in the middle",
            SolutionsMethod::SpilledCount => "the whole count on disk, cut by pagoda functions",
            SolutionsMethod::Cluster => "the whole count on the cluster",
        }
    }
}

impl Solutions {
    /// The solutions and winning positions of `problem` (one finish position) out of its
    /// whole count `c` (its solutions are the paths to the finish, and its levels' winning
    /// positions the same figures as the meeting's), one entry per level from the start to
    /// the finish's pegs as the meeting gives them: past the finish nothing wins, and a cut
    /// count may end before it (nothing is won there).
    #[must_use]
    pub fn of_count(
        problem: &Problem,
        c: &Count,
        millis: u64,
        method: SolutionsMethod,
    ) -> Solutions {
        let finish_pegs = problem
            .targets::<[u64; 4]>()
            .first()
            .map_or(1, |t| t.count());
        let levels = problem
            .start::<[u64; 4]>()
            .count()
            .saturating_sub(finish_pegs) as usize
            + 1;
        let winning = (0..levels)
            .map(|k| {
                c.levels
                    .get(k)
                    .map_or((0, 0), |l| (l.winning, l.winning_classes))
            })
            .collect();
        Solutions {
            solutions: c.solutions,
            winning,
            symmetries: c.symmetries,
            millis,
            method,
        }
    }

    /// Winning positions over all levels.
    #[must_use]
    pub fn winning(&self) -> u64 {
        self.winning.iter().map(|w| w.0).sum()
    }

    /// The same up to symmetry.
    #[must_use]
    pub fn winning_classes(&self) -> u64 {
        self.winning.iter().map(|w| w.1).sum()
    }
}

/// Solutions and winning positions by meeting in the middle: path counts forward from the
/// start and, in the dual game, forward from the finish's complement, to either side of the
/// middle jump, whose children are looked up on the other side and their counts multiplied
/// and summed (the identity is in `count::meeting`); far fewer positions than the whole game.
/// `Ok(None)` when the finish is not one position (then [`count`] answers it).
///
/// ```
/// use pegsol::{count::count_solutions, Board, Problem};
/// let board = Board::builtin("triangle5").unwrap();
/// let start = board.holes().without(board.hole("a1").unwrap());
/// let finish = pegsol::Finish::Holes(board.hole("a1").unwrap().bit());
/// let p = Problem::new(&board, start, finish).unwrap();
/// let s = count_solutions(&p, &pegsol::Limits::default()).unwrap().unwrap();
/// assert_eq!((s.solutions, s.winning()), (6816, 370));
/// ```
///
/// # Errors
///
/// As [`count`]: the memory or time budget (a cancelled count is [`CountError::Timeout`]),
/// or a path count past `u128`.
pub fn count_solutions(
    problem: &Problem,
    limits: &Limits,
) -> Result<Option<Solutions>, CountError> {
    with_width!(problem.board(), W => solutions_in::<W>(problem, limits))
}

/// [`count_solutions`] under a count's options: the meeting in the middle within
/// `options.max_memory`, and where it does not fit and `options.spill` names a directory,
/// the whole count of the game spilled there ([`count_with`], cut by pagoda functions), whose
/// solutions and winning positions are the same figures: the solutions are the paths to the
/// finish, and the winning positions per level those the backward pass marks (a pagoda cut
/// drops only positions that cannot reach the finish, so neither changes). It is far slower;
/// [`Solutions::method`] says which ran, and `progress` is called after each level of the
/// whole count. `options.timeout` bounds both together.
///
/// # Errors
///
/// As [`count_solutions`]; [`CountError::Io`] when the spill directory cannot be written.
pub fn count_solutions_with(
    problem: &Problem,
    options: &CountOptions,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Option<Solutions>, CountError> {
    let began = Instant::now();
    let limits = Limits {
        max_memory: options.max_memory,
        timeout: options.timeout,
        cancel: options.cancel.clone(),
    };
    match count_solutions(problem, &limits) {
        Err(CountError::Memory { .. }) if options.spill.is_some() => {}
        other => return other,
    }
    let timeout = match options.timeout {
        Some(t) => Some(t.checked_sub(began.elapsed()).ok_or(CountError::Timeout)?),
        None => None,
    };
    let whole = count_with(
        problem,
        &CountOptions {
            pagoda: true,
            timeout,
            ..options.clone()
        },
        progress,
    )?;
    Ok(Some(Solutions::of_count(
        problem,
        &whole,
        began.elapsed().as_millis() as u64,
        SolutionsMethod::SpilledCount,
    )))
}

/// Whether `problem`, whose finish must be one position, can be won at all: `Ok(None)` where
/// its finish is not one position. The meeting in the middle on keys alone, with no path
/// counts and only each side's last level kept, its levels gathered in as many passes as
/// `limits.max_memory` needs, so it decides problems whose [`count_solutions`] runs out of
/// memory (see the `reach` module's docs). It gives no line: where the answer is yes, the
/// full methods find one.
///
/// # Errors
///
/// [`CountError::Memory`] when one side's middle level (with its lookup table) does not fit
/// the budget, [`CountError::Timeout`] past `limits.timeout`.
pub fn winnable(problem: &Problem, limits: &Limits) -> Result<Option<bool>, CountError> {
    let stop = limits.stop(Instant::now());
    with_width!(problem.board(), W => {
        reach::winnable_meeting::<W>(problem, limits.max_memory, stop).transpose()
    })
}

/// [`count_solutions`] in keys of `K`.
fn solutions_in<K: CountKey>(
    problem: &Problem,
    limits: &Limits,
) -> Result<Option<Solutions>, CountError> {
    let began = Instant::now();
    let canon = crate::space::group_of::<K>(problem);
    let stop = limits.stop(began);
    let Some(found) = solutions_meeting::<K>(problem, limits.max_memory, stop) else {
        return Ok(None);
    };
    let (solutions, winning) = found?;
    Ok(Some(Solutions {
        solutions,
        winning,
        symmetries: canon.order(),
        millis: began.elapsed().as_millis() as u64,
        method: SolutionsMethod::Meeting,
    }))
}
