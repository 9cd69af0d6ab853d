//! Every legal jump of a position with its fate: keeps the finish reachable, loses it, or not
//! known within the budget. The playground colours the moves by it (`POST /api/analyse`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use pegsol::fewest::WinningSet;
use pegsol::{Board, Budget, Finish, Limits, Outcome, Pegs, Problem};

use pegsol::answer::{FinishView, ForcedView};

/// One legal jump and what it does to the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct MoveFate {
    /// `from-to`.
    pub jump: String,
    pub from: String,
    pub over: String,
    pub to: String,
    /// `wins` (the finish stays reachable), `loses` or `unknown`.
    pub fate: &'static str,
    /// Why a jump loses, in a player's words; `None` otherwise.
    pub why: Option<&'static str>,
}

/// The answer of `POST /api/analyse`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AnalyseAnswer {
    pub board: String,
    pub empty: Vec<String>,
    pub finish: FinishView,
    pub pegs: u32,
    /// `won` (this is a finish), `stuck` (no jump left), `winnable`, `lost` or `unknown`.
    pub status: &'static str,
    /// Whether the fates come from the game's exact winning set (else from the solver).
    pub exact: bool,
    /// With the winning set, when asked for: the probability that uniformly random legal
    /// jumps from here reach the finish (`null` without it).
    pub random_win: Option<f64>,
    /// With the winning set, when it was asked for and fitted its budget: the positions and
    /// jumps every winning line from here passes through.
    pub forced: Option<ForcedView>,
    pub moves: Vec<MoveFate>,
}

/// The fates decided so far, kept for a server's life: whether a position can still reach a
/// finish never changes, so a position seen again (a menu board's opening, an undone jump)
/// costs one lookup a jump. Only decided fates are kept; an unknown one is tried again.
pub(crate) struct FateMemo {
    known: Mutex<Known>,
}

/// The boards seen, each by its whole geometry (so two boards share fates only when they are
/// the same board), and the fates keyed by the board's place in that list.
#[derive(Default)]
struct Known {
    boards: Vec<Geometry>,
    fates: HashMap<FateKey, Fate>,
    /// What every winning line passes through, or `None` where the walk did not fit its
    /// budget (not tried again: it would not fit again).
    forced: HashMap<FateKey, Option<ForcedView>>,
}

impl Known {
    /// The place of the board of `geometry` among those seen, if it was.
    fn place(&self, geometry: &Geometry) -> Option<usize> {
        self.boards.iter().position(|g| g == geometry)
    }
}

/// The key of `position` on the board at `place` towards `finish`.
fn fate_key(place: usize, position: Pegs, finish: Finish) -> FateKey {
    let (holes, pegs) = match finish {
        Finish::Holes(f) => (f, 0),
        Finish::AnyOne => (Pegs::EMPTY, 1),
        Finish::Pegs(n) => (Pegs::EMPTY, n),
    };
    (place, position, holes, pegs)
}

/// A board's lattice and its holes' coordinates, in hole order.
type Geometry = (&'static str, Vec<(usize, usize)>);

/// A board (its place among those seen), a position on it, and a finish (holes, or a number
/// of pegs anywhere).
type FateKey = (usize, Pegs, Pegs, u32);

/// A decided fate and why.
type Fate = (&'static str, Option<&'static str>);

/// Most fates kept (about 100 bytes each), and most boards; past either, the memo starts
/// again empty.
const MAX_FATES: usize = 200_000;
/// Most forced answers kept (up to a few kilobytes each).
const MAX_FORCED: usize = 10_000;
const MAX_BOARDS: usize = 1024;

impl FateMemo {
    pub(crate) fn new() -> FateMemo {
        FateMemo {
            known: Mutex::new(Known::default()),
        }
    }

    fn geometry(board: &Board) -> Geometry {
        (
            board.lattice().name(),
            board.each_hole().map(|h| board.coords(h)).collect(),
        )
    }

    fn get(&self, geometry: &Geometry, position: Pegs, finish: Finish) -> Option<Fate> {
        let known = self.known.lock().ok()?;
        let place = known.place(geometry)?;
        known.fates.get(&fate_key(place, position, finish)).copied()
    }

    fn put(&self, geometry: &Geometry, position: Pegs, finish: Finish, fate: Fate) {
        self.keep(geometry, |known, place| {
            if known.fates.len() >= MAX_FATES {
                known.fates.clear();
            }
            known.fates.insert(fate_key(place, position, finish), fate);
        });
    }

    /// Runs `put` on the memo with the place of `geometry`'s board, which is added when new.
    fn keep(&self, geometry: &Geometry, put: impl FnOnce(&mut Known, usize)) {
        let Ok(mut known) = self.known.lock() else {
            return;
        };
        let place = match known.place(geometry) {
            Some(place) => place,
            None => {
                if known.boards.len() >= MAX_BOARDS {
                    *known = Known::default();
                }
                known.boards.push(geometry.clone());
                known.boards.len() - 1
            }
        };
        put(&mut known, place);
    }

    /// The forced positions from `position`, as found before (`Some(None)`: they did not fit).
    fn forced(
        &self,
        geometry: &Geometry,
        position: Pegs,
        finish: Finish,
    ) -> Option<Option<ForcedView>> {
        let known = self.known.lock().ok()?;
        let place = known.place(geometry)?;
        known
            .forced
            .get(&fate_key(place, position, finish))
            .cloned()
    }

    fn put_forced(
        &self,
        geometry: &Geometry,
        position: Pegs,
        finish: Finish,
        forced: Option<ForcedView>,
    ) {
        self.keep(geometry, |known, place| {
            if known.forced.len() >= MAX_FORCED {
                known.forced.clear();
            }
            known
                .forced
                .insert(fate_key(place, position, finish), forced);
        });
    }

    /// How many fates are kept.
    pub(crate) fn len(&self) -> usize {
        self.known.lock().map_or(0, |k| k.fates.len())
    }
}

/// Why a jump loses when the winning set says so.
const LOST: &str = "no way on from there reaches the finish";

/// A reason, as a player would say it.
pub(crate) fn plain_reason(reason: pegsol::Reason) -> &'static str {
    match reason {
        pegsol::Reason::Class => {
            "the pegs are split the wrong way among the board's three-colouring (position class)"
        }
        pegsol::Reason::Pagoda => {
            "too few pegs are left in the places the finish needs (a pagoda count)"
        }
        pegsol::Reason::Exhausted => "every way on was tried and none reaches the finish",
        pegsol::Reason::Counted => {
            "every position reachable from here was counted and none reaches the finish"
        }
    }
}

impl AnalyseAnswer {
    /// Each legal jump's fate: looked up in `exact` (the winning set of the game the position
    /// was reached in) when there is one, else in `memo` (fates decided before), else solved
    /// on its own, in parallel, each within `budget` split among those left; what is decided
    /// goes into `memo`. The answer, and whether some fate was left unknown for want of time.
    pub(crate) fn of(
        problem: &Problem,
        exact: Option<&WinningSet>,
        memo: Option<&FateMemo>,
        limits: &Limits,
        budget: Duration,
    ) -> Result<(AnalyseAnswer, bool)> {
        let board = problem.board();
        let start: pegsol::Pegs = problem.start();
        let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(start)).collect();
        let geometry = memo.map(|_| FateMemo::geometry(board));
        let remembered: Vec<Option<Fate>> = legal
            .iter()
            .map(|j| match (memo, &geometry) {
                (Some(m), Some(g)) => m.get(g, j.apply(start), problem.finish()),
                _ => None,
            })
            .collect();
        let todo = remembered.iter().filter(|f| f.is_none()).count();
        let share = (budget / todo.max(1) as u32 * 2).max(Duration::from_millis(5));
        let fates: Vec<(MoveFate, bool)> = legal
            .par_iter()
            .zip(&remembered)
            .map(|(j, remembered)| {
                let (fate, why, ran_out) = match (exact, remembered) {
                    (Some(set), _) if set.wins(j.apply(start)) => ("wins", None, false),
                    (Some(_), _) => ("loses", Some(LOST), false),
                    (None, Some((fate, why))) => (*fate, *why, false),
                    (None, None) => {
                        let child = Problem::new(
                            problem.shared_board().clone(),
                            j.apply(start),
                            problem.finish(),
                        );
                        let limits = Limits {
                            timeout: Some(share.min(budget)),
                            ..limits.clone()
                        };
                        let decided = match child.and_then(|child| pegsol::solve(&child, &limits)) {
                            Ok(r) => match r.outcome {
                                Outcome::Solved { .. } => ("wins", None, false),
                                Outcome::Impossible(r) => ("loses", Some(plain_reason(r)), false),
                                Outcome::Undecided(b) => ("unknown", None, b == Budget::Time),
                            },
                            // A finish of more pegs than the child has: this jump loses it.
                            Err(pegsol::Error::FinishTooLarge { .. }) => {
                                ("loses", Some("too few pegs are left for the finish"), false)
                            }
                            Err(e) => return Err(e.into()),
                        };
                        if let (Some(m), Some(g), "wins" | "loses") = (memo, &geometry, decided.0) {
                            m.put(g, j.apply(start), problem.finish(), (decided.0, decided.1));
                        }
                        decided
                    }
                };
                Ok((
                    MoveFate {
                        jump: format!("{}-{}", board.label(j.from()), board.label(j.to())),
                        from: board.label(j.from()),
                        over: board.label(j.over()),
                        to: board.label(j.to()),
                        fate,
                        why,
                    },
                    ran_out,
                ))
            })
            .collect::<Result<_>>()?;
        let ran_out = fates.iter().any(|f| f.1);
        let moves: Vec<MoveFate> = fates.into_iter().map(|f| f.0).collect();
        let status = if problem.targets().contains(&start) {
            "won"
        } else if moves.is_empty() {
            "stuck"
        } else if moves.iter().any(|m| m.fate == "wins") {
            "winnable"
        } else if moves.iter().all(|m| m.fate == "loses") {
            "lost"
        } else {
            "unknown"
        };
        Ok((
            AnalyseAnswer {
                board: board.name().to_string(),
                empty: board.labels(board.holes().minus(start)),
                finish: FinishView::of(board, problem.finish()),
                pegs: start.count(),
                status,
                exact: exact.is_some(),
                random_win: None,
                forced: None,
                moves,
            },
            ran_out,
        ))
    }
}

impl AnalyseAnswer {
    /// The answer with the odds that random play wins from its position, from the winning
    /// set `exact` (left `None` without one). The set's table of odds is made on first use.
    pub(crate) fn with_odds(
        mut self,
        problem: &Problem,
        exact: Option<&WinningSet>,
    ) -> AnalyseAnswer {
        let start: Pegs = problem.start();
        self.random_win = exact.map(|set| set.random_win(start));
        self
    }

    /// The answer with what every winning line from its position passes through, from the
    /// winning set `exact` within `limits` (left `None` without a set or past the limits);
    /// looked up in `memo` first, and kept there, found or not.
    pub(crate) fn with_forced(
        mut self,
        problem: &Problem,
        exact: Option<&WinningSet>,
        memo: Option<&FateMemo>,
        limits: &Limits,
    ) -> AnalyseAnswer {
        let Some(set) = exact else {
            return self;
        };
        let start: Pegs = problem.start();
        let geometry = memo.map(|_| FateMemo::geometry(problem.board()));
        if let (Some(m), Some(g)) = (memo, &geometry) {
            if let Some(known) = m.forced(g, start, problem.finish()) {
                self.forced = known;
                return self;
            }
        }
        self.forced = set
            .forced(start, limits)
            .map(|f| ForcedView::of(problem.board(), &f));
        if let (Some(m), Some(g)) = (memo, &geometry) {
            m.put_forced(g, start, problem.finish(), self.forced.clone());
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position analysed once is answered from the memo: with no time at all the fates are
    /// the ones decided before, where without the memo they are unknown.
    #[test]
    fn decided_fates_are_remembered_and_only_those() {
        // The menu's French game, c1 empty to one peg on e4: every opening jump needs a search.
        let board = Board::builtin("french").unwrap();
        let start = board.holes().without(board.hole("c1").unwrap());
        let finish = Finish::Holes(Pegs::single(board.hole("e4").unwrap()));
        let problem = Problem::new(board, start, finish).unwrap();
        let memo = FateMemo::new();
        let (first, _) = AnalyseAnswer::of(
            &problem,
            None,
            Some(&memo),
            &Limits::default(),
            Duration::from_secs(10),
        )
        .unwrap();
        let decided = first.moves.iter().filter(|m| m.fate != "unknown").count();
        assert!(decided > 0);
        assert_eq!(memo.len(), decided);
        let none = Limits {
            timeout: Some(Duration::ZERO),
            ..Limits::default()
        };
        let (again, _) =
            AnalyseAnswer::of(&problem, None, Some(&memo), &none, Duration::ZERO).unwrap();
        assert_eq!(again, first);
        let (fresh, ran_out) =
            AnalyseAnswer::of(&problem, None, None, &none, Duration::ZERO).unwrap();
        assert!(
            ran_out && fresh.moves.iter().all(|m| m.fate == "unknown"),
            "{fresh:?}"
        );
        // Another finish is another question: nothing remembered for it.
        let other = Problem::new(
            Board::builtin("french").unwrap(),
            problem.start(),
            Finish::AnyOne,
        )
        .unwrap();
        let (elsewhere, _) =
            AnalyseAnswer::of(&other, None, Some(&memo), &none, Duration::ZERO).unwrap();
        assert!(
            elsewhere.moves.iter().all(|m| m.fate == "unknown"),
            "{elsewhere:?}"
        );
    }

    /// The forced positions are found once and then looked up, found or not: with no time
    /// left the memo still answers, where without it nothing is found.
    #[test]
    fn forced_positions_are_remembered() {
        let board = Board::builtin("triangle5").unwrap();
        let start = board.holes().without(board.hole("a1").unwrap());
        let problem = Problem::new(board, start, Finish::AnyOne).unwrap();
        let set = WinningSet::of(&problem, &Limits::default())
            .unwrap()
            .unwrap();
        let memo = FateMemo::new();
        let none = Limits {
            timeout: Some(Duration::ZERO),
            ..Limits::default()
        };
        let (blank, _) =
            AnalyseAnswer::of(&problem, Some(&set), None, &none, Duration::ZERO).unwrap();
        let found =
            blank
                .clone()
                .with_forced(&problem, Some(&set), Some(&memo), &Limits::default());
        let forced = found.forced.clone().unwrap();
        assert_eq!(forced.counts.len(), 14);
        let again = blank
            .clone()
            .with_forced(&problem, Some(&set), Some(&memo), &none);
        assert_eq!(again.forced, Some(forced));
        let fresh = blank.with_forced(&problem, Some(&set), None, &none);
        assert_eq!(fresh.forced, None);
    }

    /// Fates are shared by a board only with itself: another board of as many holes (the
    /// same position bits, the same finish) knows nothing of them, even one whose holes are
    /// the same cells on another lattice.
    #[test]
    fn fates_belong_to_their_board() {
        let memo = FateMemo::new();
        let a = Board::builtin("rect:3x4").unwrap();
        let b = Board::builtin("rect:4x3").unwrap();
        let c = Board::parse("c", "lattice: diagonal\noooo\noooo\noooo\n").unwrap();
        let position = a.holes::<[u64; 4]>().without(pegsol::Hole::at(0));
        let finish = Finish::AnyOne;
        let (ga, gb, gc) = (
            FateMemo::geometry(&a),
            FateMemo::geometry(&b),
            FateMemo::geometry(&c),
        );
        assert_eq!(a.hole_count(), b.hole_count());
        assert_eq!(ga.1, gc.1);
        memo.put(&ga, position, finish, ("wins", None));
        assert_eq!(memo.get(&ga, position, finish), Some(("wins", None)));
        assert_eq!(memo.get(&gb, position, finish), None);
        assert_eq!(memo.get(&gc, position, finish), None);
        assert_eq!(memo.get(&ga, position, Finish::Pegs(2)), None);
        assert_eq!(memo.len(), 1);
    }
}
