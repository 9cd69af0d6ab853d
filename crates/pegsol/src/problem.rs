//! The vocabulary every engine shares: a [`Problem`] (a board, its starts and a finish), the
//! [`Limits`] it is worked on under, and the shape of the answers ([`Outcome`], [`Report`]).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::bitset::{Bits, Hole, Pegs, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::stop::Stop;

/// What the last pegs must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Exactly these holes hold pegs at the end.
    Holes(Pegs),
    /// One peg, anywhere.
    AnyOne,
    /// This many pegs, anywhere (for "how few pegs can be left").
    Pegs(u32),
}

impl Finish {
    /// A finish as written: hole labels (`"d4"`, `"d4,c4"`), `any` (one peg anywhere) or
    /// `any:N` (N pegs anywhere; `any:1` is `any`), letter case and spaces around ignored.
    ///
    /// ```
    /// use pegsol::{Board, Finish};
    /// let board = Board::builtin("english").unwrap();
    /// assert_eq!(Finish::parse(&board, " Any ").unwrap(), Finish::AnyOne);
    /// assert_eq!(Finish::parse(&board, "any:2").unwrap(), Finish::Pegs(2));
    /// assert!(matches!(Finish::parse(&board, "d4").unwrap(), Finish::Holes(_)));
    /// assert!(Finish::parse(&board, "any:x").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::FinishPegs`] for `any:` without a number; the errors of
    /// [`Board::hole_set`] for bad labels.
    pub fn parse(board: &Board, text: &str) -> Result<Finish> {
        let f = text.trim();
        if f.eq_ignore_ascii_case("any") {
            return Ok(Finish::AnyOne);
        }
        if f.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("any:")) {
            let n = f[4..].trim();
            return match n.parse::<u32>() {
                Ok(1) => Ok(Finish::AnyOne),
                Ok(n) => Ok(Finish::Pegs(n)),
                Err(_) => Err(Error::FinishPegs(n.to_string())),
            };
        }
        Ok(Finish::Holes(board.hole_set(f)?))
    }

    /// [`Finish::Holes`] from a set of any width.
    #[must_use]
    pub fn holes<W: Word>(set: Bits<W>) -> Finish {
        Finish::Holes(set.resize())
    }
}

/// Most finishing positions a [`Finish::Pegs`] may stand for.
pub const MAX_FINISHES: u64 = 100_000;

/// A problem: a board (shared), one or more starting positions and a finish, with what every
/// engine derives from them: the finishing positions and the symmetries that keep them.
/// Built only by the checked constructors.
#[derive(Clone, Debug)]
pub struct Problem {
    board: Arc<Board>,
    starts: Vec<Pegs>,
    finish: Finish,
    targets: Vec<Pegs>,
}

impl Problem {
    /// A checked problem: the start and finish use only the board's holes, and the finish has
    /// at least one and at most as many pegs as the start.
    ///
    /// ```
    /// let board = pegsol::Board::builtin("english")?;
    /// let start = board.start().unwrap();
    /// let p = pegsol::Problem::new(board, start, pegsol::Finish::AnyOne)?;
    /// assert_eq!(p.target_count(), 33);
    /// # Ok::<(), pegsol::Error>(())
    /// ```
    pub fn new(board: impl Into<Arc<Board>>, start: Pegs, finish: Finish) -> Result<Problem> {
        Problem::with_starts(board, vec![start], finish)
    }

    /// A problem with several starts (for the fewest moves over all of them): each is checked
    /// as [`Problem::new`] checks one.
    pub fn with_starts(
        board: impl Into<Arc<Board>>,
        starts: Vec<Pegs>,
        finish: Finish,
    ) -> Result<Problem> {
        let board = board.into();
        if starts.is_empty() {
            return Err(Error::NoStarts);
        }
        for &start in &starts {
            check_pair(&board, start, finish)?;
        }
        let targets = targets_of(&board, finish);
        Ok(Problem {
            board,
            starts,
            finish,
            targets,
        })
    }

    /// The same board and finish from another start (a hint from a position in play, say).
    pub fn from_start(&self, start: Pegs) -> Result<Problem> {
        check_pair(&self.board, start, self.finish)?;
        Ok(Problem {
            board: self.board.clone(),
            starts: vec![start],
            finish: self.finish,
            targets: self.targets.clone(),
        })
    }

    /// The board's conventional problem: its usual start and [`Problem::default_finish`].
    pub fn conventional(board: impl Into<Arc<Board>>) -> Result<Problem> {
        let board = board.into();
        let start: Pegs = board
            .start()
            .ok_or_else(|| Error::NoStart(board.name().to_string()))?;
        let finish = Problem::default_finish(&board, start);
        Problem::new(board, start, finish)
    }

    /// The default finish: the single starting vacancy when there is one, otherwise any one peg.
    #[must_use]
    pub fn default_finish(board: &Board, start: Pegs) -> Finish {
        let vacant: Pegs = board.holes().minus(start);
        if vacant.count() == 1 {
            Finish::Holes(vacant)
        } else {
            Finish::AnyOne
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board, shared.
    #[must_use]
    pub fn shared_board(&self) -> &Arc<Board> {
        &self.board
    }

    /// The (first) starting pegs, in positions of any width that holds the board (see
    /// [`Board::holes`]).
    #[must_use]
    #[track_caller]
    pub fn start<W: Word>(&self) -> Bits<W> {
        self.narrow(self.starts[0])
    }

    /// The holes without a peg at the (first) start, whatever the board's size.
    #[must_use]
    pub fn empty_holes(&self) -> Pegs {
        self.board.holes::<[u64; 4]>().minus(self.starts[0])
    }

    /// Every start, the first one first.
    #[must_use]
    #[track_caller]
    pub fn starts<W: Word>(&self) -> Vec<Bits<W>> {
        self.starts.iter().map(|&s| self.narrow(s)).collect()
    }

    /// A set of this problem's board in positions of `W` words, which must hold it.
    #[track_caller]
    fn narrow<W: Word>(&self, set: Pegs) -> Bits<W> {
        self.board.narrow(set)
    }

    /// The finish.
    #[must_use]
    pub const fn finish(&self) -> Finish {
        self.finish
    }

    /// The final positions that would count as solved (see [`Problem::start`] for `W`).
    #[must_use]
    #[track_caller]
    pub fn targets<W: Word>(&self) -> Vec<Bits<W>> {
        self.targets.iter().map(|&t| self.narrow(t)).collect()
    }

    /// How many final positions count as solved.
    #[must_use]
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// The targets in the position class of the start: the only ones it can reach.
    #[must_use]
    #[track_caller]
    pub fn reachable_targets<W: Word>(&self) -> Vec<Bits<W>> {
        let classes = self.board.classes();
        let class = classes.class_of(self.starts[0]);
        self.targets
            .iter()
            .filter(|&&t| classes.class_of(t) == class)
            .map(|&t| self.narrow(t))
            .collect()
    }

    /// The symmetries of the board that map the set of targets onto itself (the identity
    /// first): a position and its image under one are equally able to finish.
    #[must_use]
    pub fn symmetries(&self) -> Vec<usize> {
        self.board.symmetries().stabilizer(&self.targets)
    }
}

/// Checks one start against a finish on a board.
fn check_pair(board: &Board, start: Pegs, finish: Finish) -> Result<()> {
    board.position(start)?;
    if let Finish::Holes(f) = finish {
        board.position(f)?;
        if f.is_empty() {
            return Err(Error::EmptyFinish);
        }
        if f.count() > start.count() {
            return Err(Error::FinishTooLarge {
                finish: f.count(),
                start: start.count(),
            });
        }
        return Ok(());
    }
    let n = match finish {
        Finish::Pegs(n) => n,
        _ => 1,
    };
    if n == 0 {
        return Err(Error::EmptyFinish);
    }
    if n > start.count() {
        return Err(Error::FinishTooLarge {
            finish: n,
            start: start.count(),
        });
    }
    let holes = board.hole_count() as u64;
    if finishes_within_limit(holes, u64::from(n)).is_none() {
        return Err(Error::TooManyFinishes { pegs: n, holes });
    }
    Ok(())
}

/// `C(holes, k)`, the positions of `k` pegs on `holes` holes, when it is at most
/// [`MAX_FINISHES`]. The running product `C(holes, i)` rises with `i` up to `holes / 2`, so
/// it is taken to `min(k, holes - k)` (`C(n, k) = C(n, n - k)`) and may stop as soon as it
/// passes the limit: `C(20, 18) = 190` is within it, though `C(20, 10)` is not.
pub(crate) fn finishes_within_limit(holes: u64, k: u64) -> Option<u64> {
    if k > holes {
        return Some(0);
    }
    let k = k.min(holes - k);
    let mut subsets = 1u64;
    for i in 0..k {
        // Exact: C(holes, i) (holes - i) is divisible by i + 1; no overflow below the limit.
        subsets = subsets * (holes - i) / (i + 1);
        if subsets > MAX_FINISHES {
            return None;
        }
    }
    Some(subsets)
}

/// Every final position of `finish` on `board`.
fn targets_of(board: &Board, finish: Finish) -> Vec<Pegs> {
    match finish {
        Finish::Holes(f) => vec![f],
        Finish::AnyOne => board.each_hole().map(Pegs::single).collect(),
        Finish::Pegs(n) => {
            // Every n-subset of the holes, by choosing holes in increasing order.
            let holes: Vec<Hole> = board.each_hole().collect();
            let mut out = Vec::new();
            let mut pick: Vec<usize> = (0..n as usize).collect();
            if pick.len() > holes.len() {
                return out;
            }
            loop {
                out.push(pick.iter().fold(Pegs::EMPTY, |s, &i| s.with(holes[i])));
                // The rightmost index that can still move right.
                let Some(i) = (0..pick.len())
                    .rev()
                    .find(|&i| pick[i] < holes.len() - pick.len() + i)
                else {
                    break;
                };
                pick[i] += 1;
                for j in i + 1..pick.len() {
                    pick[j] = pick[j - 1] + 1;
                }
            }
            out
        }
    }
}

/// The budget of one piece of work: memory, time, and a way to cancel it. Every engine honours
/// it from its first step and answers "undecided" when it runs out, never an out-of-memory
/// kill.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most bytes the engine's tables may use.
    pub max_memory: usize,
    /// Wall-clock limit.
    pub timeout: Option<Duration>,
    /// Set from elsewhere (a server whose client went away) to stop the work; the answer is
    /// then undecided, as if the time had run out.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How [`crate::solve_with`] searches (the defaults are what it is for; the others exist to
/// measure what each part is worth).
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Which searches to run: both by default.
    pub engines: Engines,
    /// Race the dual problem on a second thread when the finish is one exact position.
    pub race_dual: bool,
    /// Prune with pagoda functions.
    pub pagoda: bool,
    /// Canonicalise under the finish's symmetry stabilizer.
    pub symmetry: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            engines: Engines::Portfolio,
            race_dual: true,
            pagoda: true,
            symmetry: true,
        }
    }
}

impl Limits {
    /// Whether the search must stop now: the deadline has passed or the work was cancelled.
    pub(crate) fn spent(&self, deadline: Option<Instant>) -> bool {
        Stop::new(deadline, self.cancel.as_deref()).passed()
    }

    /// When work under this budget must stop: its timeout counted from `began`, or its
    /// cancel flag.
    pub(crate) fn stop(&self, began: Instant) -> Stop<'_> {
        Stop::new(self.timeout.map(|t| began + t), self.cancel.as_deref())
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_memory: 4 << 30,
            timeout: None,
            cancel: None,
        }
    }
}

/// The searches [`crate::solve`] runs once the quick probe has not decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engines {
    /// The exact and the guided search side by side; the first to decide answers.
    #[default]
    Portfolio,
    /// The exact depth-first search alone (with its dual).
    Exact,
    /// The guided beam search alone (no probe either): it proves impossibility only when
    /// it never has to cut a level.
    Guided,
}

/// Search effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions entered.
    pub nodes: u64,
    /// Positions proved dead and stored.
    pub dead: u64,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Why a problem is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The start and every allowed finish lie in different position classes.
    Class,
    /// A pagoda function totals less on the start than on every allowed finish.
    Pagoda,
    /// Every line of play was searched.
    Exhausted,
    /// An exhaustive count of what can be won from the start found no solution: every
    /// position reachable from the start (less those a pagoda function rules out, which
    /// cannot reach the finish) was counted, and no path reaches the finish. No certificate
    /// is left to check; the count's method is stated instead.
    Counted,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Class => "position class",
            Reason::Pagoda => "pagoda function",
            Reason::Exhausted => "exhausted search",
            Reason::Counted => "exhaustive count",
        })
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The timeout passed.
    Time,
    /// The dead-position table reached the memory budget.
    Memory,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Time => "time",
            Budget::Memory => "memory",
        })
    }
}

/// The answer to a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A sequence of jumps from the start to `finish`, already replayed by [`crate::replay`].
    Solved {
        /// The jumps in order.
        jumps: Vec<Jump>,
        /// The final position reached.
        finish: Pegs,
    },
    /// No sequence exists.
    Impossible(Reason),
    /// The search stopped when a budget ran out.
    Undecided(Budget),
}

/// An outcome with the effort it took.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub outcome: Outcome,
    /// The effort.
    pub stats: Stats,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_finish_limit_is_the_exact_binomial() {
        // Brute force: C(n, k) by Pascal's triangle in u128.
        let mut row = vec![1u128];
        for n in 0..=64u64 {
            for k in 0..=n + 1 {
                let exact = row.get(k as usize).copied().unwrap_or(0);
                let within = finishes_within_limit(n, k);
                if exact <= u128::from(MAX_FINISHES) {
                    assert_eq!(within, Some(exact as u64), "C({n}, {k})");
                } else {
                    assert_eq!(within, None, "C({n}, {k})");
                }
            }
            row = (0..=row.len())
                .map(|k| {
                    if k == 0 || k == row.len() {
                        1
                    } else {
                        row[k - 1] + row[k]
                    }
                })
                .collect();
        }
        assert_eq!(finishes_within_limit(20, 18), Some(190));
        assert_eq!(finishes_within_limit(256, 255), Some(256));
        // Eighteen pegs left on twenty holes: 190 finishes, a problem like any other.
        let b = Board::builtin("rect:4x5").unwrap();
        let p = Problem::new(b.clone(), b.holes(), Finish::Pegs(18)).unwrap();
        assert_eq!(p.target_count(), 190);
    }

    #[test]
    fn n_pegs_anywhere_stands_for_every_subset() {
        let b = Board::builtin("rect:3x3").unwrap();
        let p = Problem::new(b.clone(), b.holes(), Finish::Pegs(2)).unwrap();
        let mut t = p.targets().to_vec();
        assert_eq!(t.len(), 36);
        assert!(t.iter().all(|s| s.count() == 2 && s.is_subset(b.holes())));
        t.sort_unstable_by_key(|s| s.raw());
        t.dedup();
        assert_eq!(t.len(), 36);
        assert_eq!(
            Problem::new(b.clone(), b.holes(), Finish::Pegs(9))
                .unwrap()
                .targets::<u64>(),
            [b.holes()]
        );
        assert!(Problem::new(b, crate::Pegs::EMPTY.with(Hole::at(0)), Finish::Pegs(10)).is_err());
    }

    #[test]
    fn several_starts_are_each_checked() {
        let b = Board::builtin("english").unwrap();
        let starts: Vec<Bits> = b.each_hole().map(|h| b.holes().without(h)).collect();
        let p = Problem::with_starts(
            b.clone(),
            starts.iter().map(|s| s.resize()).collect(),
            Finish::AnyOne,
        )
        .unwrap();
        assert_eq!(p.starts::<u64>().len(), 33);
        assert!(Problem::with_starts(b, Vec::new(), Finish::AnyOne).is_err());
    }
}
