//! The answer of `catalog`: every (vacancy, finish) pair of a board, up to symmetry, each
//! solved with a replayed line or proved impossible.

use serde::Serialize;

use super::{checked, reason, FinishView};
use crate::catalog::{Catalog, Entry};
use crate::{notation, Board, Outcome, Reason, Result};

/// One representative pair. Fields are declared in the order they are written
/// (alphabetical, as the CLI has always written them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntryView {
    /// The kind of its certificate, when impossible with one.
    pub certificate: Option<&'static str>,
    /// The vacancy.
    pub empty: Vec<String>,
    /// How many pairs it stands for, its own included.
    pub equivalent: u64,
    /// The last position of its line.
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    /// The finish hole, or `"any"`.
    pub finish: FinishView,
    /// Its line (empty unless solved).
    pub jumps: Vec<String>,
    /// Wall-clock milliseconds.
    pub millis: u64,
    /// The moves of its line.
    pub moves: Option<usize>,
    /// Why impossible or undecided.
    pub reason: Option<String>,
    /// `solved`, `impossible` or `undecided`.
    pub status: &'static str,
}

/// Impossible pairs by the kind of their proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProofCounts {
    /// Position classes.
    pub class: u64,
    /// An exhaustive count of what can be won, which found no solution (no certificate).
    pub count: u64,
    /// The dual problem's impossibility (whatever its proof).
    pub dual: u64,
    /// A search that left no certificate.
    pub exhausted: u64,
    /// A pagoda function.
    pub pagoda: u64,
    /// A search certificate.
    pub search: u64,
}

/// Pairs over the whole board, symmetry expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SummaryView {
    /// Proved impossible.
    pub impossible: u64,
    /// Every pair.
    pub pairs: u64,
    /// Solved.
    pub solvable: u64,
    /// Not decided within the budget.
    pub undecided: u64,
}

/// A vacancy class: its representative and its members.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VacancyView {
    /// The representative.
    pub empty: String,
    /// Every vacancy of the class.
    pub members: Vec<String>,
}

/// The catalog of a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CatalogAnswer {
    /// The board's name.
    pub board: String,
    /// Its number of holes.
    pub holes: usize,
    /// Its lattice's name.
    pub lattice: &'static str,
    /// The representative pairs.
    pub problems: Vec<EntryView>,
    /// Impossible pairs by proof.
    pub proofs: ProofCounts,
    /// The counts over every pair.
    pub summary: SummaryView,
    /// The order of the board's symmetry group.
    pub symmetries: usize,
    /// The vacancy classes.
    pub vacancies: Vec<VacancyView>,
}

/// The kind of proof of an impossible entry: its certificate's, `dual` where its dual
/// problem's answer decided it, `count` for an exhaustive count, or `exhausted` for a search
/// that left none.
#[must_use]
pub fn proof_kind(e: &Entry) -> &'static str {
    if e.dual.is_some() {
        return "dual";
    }
    match (&e.certificate, &e.outcome) {
        (Some(c), _) => c.kind(),
        (None, Outcome::Impossible(Reason::Class)) => "class",
        (None, Outcome::Impossible(Reason::Pagoda)) => "pagoda",
        (None, Outcome::Impossible(Reason::Counted)) => "count",
        _ => "exhausted",
    }
}

fn status(o: &Outcome) -> &'static str {
    match o {
        Outcome::Solved { .. } => "solved",
        Outcome::Impossible(_) => "impossible",
        Outcome::Undecided(_) => "undecided",
    }
}

/// Why an entry is impossible or undecided: the certificate's reason where there is one, and
/// for one decided by its dual, the dual and its reason.
fn entry_reason(board: &Board, c: &Catalog, e: &Entry) -> Option<String> {
    if let (Some((v, f)), Outcome::Impossible(_)) = (e.dual, &e.outcome) {
        let why = c
            .entries
            .iter()
            .find(|d| d.empty == v && d.finish == Some(f) && d.dual.is_none())
            .and_then(|d| entry_reason(board, c, d))
            .unwrap_or_default();
        return Some(format!(
            "its dual, {} -> {} up to symmetry, is impossible: {why}",
            board.label(v),
            board.label(f)
        ));
    }
    match (&e.outcome, &e.certificate) {
        (Outcome::Solved { .. }, _) => None,
        (Outcome::Impossible(_), Some(c)) => Some(reason(c)),
        (Outcome::Impossible(r), None) => Some(r.to_string()),
        (Outcome::Undecided(b), _) => Some(format!("{b} budget")),
    }
}

impl CatalogAnswer {
    /// The answer of catalog `c` of `board`, after replaying every line once more.
    pub fn of(board: &Board, c: &Catalog) -> Result<CatalogAnswer> {
        let mut problems = Vec::with_capacity(c.entries.len());
        for e in &c.entries {
            let (jumps, last): (&[crate::Jump], _) = match &e.outcome {
                Outcome::Solved { jumps, finish } => {
                    checked(board, board.holes().without(e.empty), jumps, *finish)?;
                    (jumps, Some(board.labels(*finish)))
                }
                _ => (&[], None),
            };
            problems.push(EntryView {
                certificate: e.certificate.as_ref().map(|c| c.kind()),
                empty: vec![board.label(e.empty)],
                equivalent: e.equivalent,
                last,
                finish: match e.finish {
                    Some(f) => FinishView::Holes(vec![board.label(f)]),
                    None => FinishView::Anywhere("any".to_string()),
                },
                jumps: jumps
                    .iter()
                    .map(|&j| notation::jump_text(board, j))
                    .collect(),
                millis: e.stats.millis,
                moves: (!jumps.is_empty()).then(|| notation::move_texts(board, jumps).len()),
                reason: entry_reason(board, c, e),
                status: status(&e.outcome),
            });
        }
        let by = |kind: &str| -> u64 {
            c.entries
                .iter()
                .filter(|e| matches!(e.outcome, Outcome::Impossible(_)) && proof_kind(e) == kind)
                .map(|e| e.equivalent)
                .sum()
        };
        let s = c.summary();
        Ok(CatalogAnswer {
            board: board.name().to_string(),
            holes: board.hole_count(),
            lattice: board.lattice().name(),
            problems,
            proofs: ProofCounts {
                class: by("class"),
                count: by("count"),
                dual: by("dual"),
                exhausted: by("exhausted"),
                pagoda: by("pagoda"),
                search: by("search"),
            },
            summary: SummaryView {
                impossible: s.impossible,
                pairs: s.pairs,
                solvable: s.solvable,
                undecided: s.undecided,
            },
            symmetries: board.symmetries().len(),
            vacancies: c
                .vacancies
                .iter()
                .map(|v| VacancyView {
                    empty: board.label(v.hole),
                    members: v.members.iter().map(|&h| board.label(h)).collect(),
                })
                .collect(),
        })
    }

    /// `undecided` when a pair is, else `impossible` when none is solvable, else `solved`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        if self.summary.undecided > 0 {
            "undecided"
        } else if self.summary.solvable == 0 {
            "impossible"
        } else {
            "solved"
        }
    }
}
