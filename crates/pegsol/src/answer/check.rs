//! The answer of `check`: a proof of impossibility as a person reads it, or the line when
//! there is one; and the certificate file a program shares nothing with the solver to check.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{FinishView, Line};
use crate::check::{Certificate, Decision};
use crate::{Board, Finish, Outcome, Pagoda, Pegs, Problem};

/// A weight or total in lowest terms: an integer, or a string such as `"3/2"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Fraction {
    /// A whole number.
    Whole(i64),
    /// `"p/q"`, in lowest terms, `q > 1`.
    Ratio(String),
}

impl Fraction {
    /// `value / den` in lowest terms (`den >= 1`).
    #[must_use]
    pub fn of(value: i64, den: i64) -> Fraction {
        let g = gcd(value, den);
        if den / g == 1 {
            Fraction::Whole(value / g)
        } else {
            Fraction::Ratio(format!("{}/{}", value / g, den / g))
        }
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fraction::Whole(n) => write!(f, "{n}"),
            Fraction::Ratio(r) => f.write_str(r),
        }
    }
}

/// Greatest common divisor, at least 1.
fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

/// A pagoda function's weights by hole label (sorted by label), each over `den`.
pub type Weights = BTreeMap<String, Fraction>;

/// The weights of `p` on `board`, each over `den`.
#[must_use]
pub fn weights(board: &Board, p: &Pagoda, den: i64) -> Weights {
    board
        .each_hole()
        .map(|h| (board.label(h), Fraction::of(p.weight(h), den)))
        .collect()
}

/// An invariant hole set of a class certificate, with the start's pegs on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetView {
    /// The set's holes.
    pub holes: Vec<String>,
    /// The start's pegs on it.
    pub start_count: u32,
}

/// A finish of a class certificate: the set that separates it, and its pegs on it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeparatedView {
    /// The finish's pegs.
    pub finish: Vec<String>,
    /// The index of the set.
    pub set: usize,
    /// The finish's pegs on it.
    pub count: u32,
}

/// A certificate, as a person reads it (`kind` says which).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ProofView {
    /// Parity on hole sets that every jump meets in 0 or 2 holes.
    Class {
        /// The sets.
        sets: Vec<SetView>,
        /// Each finish and the set that separates it from the start.
        finishes: Vec<SeparatedView>,
    },
    /// Weights whose total never rises, lower at the start than at every finish.
    Pagoda {
        /// The weights.
        weights: Weights,
        /// The start's total.
        start_total: i64,
        /// The least finish's total.
        finish_total: i64,
    },
    /// A set of positions closed under jumps that holds the start and no finish.
    Search {
        /// Its members.
        positions: usize,
        /// Whether it is about the dual game.
        dual: bool,
        /// The order of the symmetry group it is closed under.
        symmetries: usize,
        /// The pagoda functions that cut.
        pagodas: Vec<Weights>,
    },
}

impl ProofView {
    /// The view of `c` on `board`.
    #[must_use]
    pub fn of(board: &Board, c: &Certificate) -> ProofView {
        match c {
            Certificate::Class {
                sets,
                start_counts,
                finishes,
            } => ProofView::Class {
                sets: sets
                    .iter()
                    .zip(start_counts)
                    .map(|(s, &c)| SetView {
                        holes: board.labels(*s),
                        start_count: c,
                    })
                    .collect(),
                finishes: finishes
                    .iter()
                    .map(|&(f, k, c)| SeparatedView {
                        finish: board.labels(f),
                        set: k,
                        count: c,
                    })
                    .collect(),
            },
            Certificate::Pagoda {
                pagoda,
                start_total,
                finish_total,
            } => ProofView::Pagoda {
                weights: weights(board, pagoda, 1),
                start_total: *start_total,
                finish_total: *finish_total,
            },
            Certificate::Search(s) => ProofView::Search {
                positions: s.positions.len(),
                dual: s.dual,
                symmetries: s.symmetries.len() + 1,
                pagodas: s.pagodas.iter().map(|p| weights(board, p, 1)).collect(),
            },
        }
    }
}

/// A certificate and the file it was written to, if it was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CertificateView {
    /// The proof.
    #[serde(flatten)]
    pub proof: ProofView,
    /// The file, when one was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// Why a problem is impossible, in a form a person or a short program can check, or its line
/// (the line is empty unless it is solvable).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckAnswer {
    /// The board's name.
    pub board: String,
    /// The start's empty holes.
    pub empty: Vec<String>,
    /// The finish.
    pub finish: FinishView,
    /// `refuted`, `solvable` or `open`.
    pub status: &'static str,
    /// The proof in words, or the budget that ran out.
    pub reason: Option<String>,
    /// The certificate, when refuted with one.
    pub certificate: Option<CertificateView>,
    /// The line, when solvable.
    #[serde(flatten)]
    pub line: Line,
}

impl CheckAnswer {
    /// The answer to `problem` from decision `d` (its line already replayed, its certificate
    /// already rechecked); `file` is where the certificate was written, if it was.
    #[must_use]
    pub fn of(problem: &Problem, d: &Decision, file: Option<String>) -> CheckAnswer {
        let board = problem.board();
        let (status, reason) = match (&d.outcome, &d.certificate) {
            (Outcome::Solved { .. }, _) => ("solvable", None),
            (Outcome::Impossible(_), Some(c)) => ("refuted", Some(reason(c))),
            (Outcome::Impossible(r), None) => (
                "refuted",
                Some(format!(
                    "{r}, with no certificate within the budget (raise the timeout or the memory budget for one)"
                )),
            ),
            (Outcome::Undecided(b), _) => ("open", Some(format!("{b} budget"))),
        };
        CheckAnswer {
            board: board.name().to_string(),
            empty: board.labels(problem.empty_holes()),
            finish: FinishView::of(board, problem.finish()),
            status,
            reason,
            certificate: d.certificate.as_ref().map(|c| CertificateView {
                proof: ProofView::of(board, c),
                file,
            }),
            line: match &d.outcome {
                Outcome::Solved { jumps, .. } => Line::of(board, jumps),
                _ => Line::default(),
            },
        }
    }
}

/// The reason a certificate gives, in words.
#[must_use]
pub fn reason(c: &Certificate) -> String {
    match c {
        Certificate::Class { .. } | Certificate::Pagoda { .. } => kind_reason(c.kind()),
        Certificate::Search(s) => format!(
            "search certificate ({} position{}, {} pagoda function{}{})",
            s.positions.len(),
            if s.positions.len() == 1 { "" } else { "s" },
            s.pagodas.len(),
            if s.pagodas.len() == 1 { "" } else { "s" },
            if s.dual { ", dual game" } else { "" }
        ),
    }
}

/// The reason a proof of kind `class` or `pagoda` gives, in words.
#[must_use]
pub fn kind_reason(kind: &str) -> String {
    match kind {
        "class" => "position class".to_string(),
        "pagoda" => "pagoda function".to_string(),
        other => other.to_string(),
    }
}

/// The format's name and version, as a certificate file's first fields say.
pub const FORMAT: &str = "pegsol certificate";
/// The format's version.
pub const VERSION: u64 = 1;
/// What every certificate claims of its start and finishes.
pub const CLAIM: &str = "no line of play leads from the start to a finish";

/// The finishes of a certificate file: positions, or a number of pegs anywhere.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FinishesFile {
    /// These positions, in hexadecimal.
    Positions(Vec<String>),
    /// Any position of this many pegs.
    Pegs {
        /// The pegs.
        pegs: u32,
    },
}

/// A certificate file (`docs/certificates.md`): what a checker sharing no code with the
/// solver reads. Its fields are declared in the order they are written (alphabetical).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CertificateFile {
    /// The board's picture, with the start's pegs.
    pub board: String,
    /// [`CLAIM`].
    pub claim: &'static str,
    /// A search certificate's: whether it is about the dual game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dual: Option<bool>,
    /// The finishes.
    pub finishes: FinishesFile,
    /// [`FORMAT`].
    pub format: &'static str,
    /// The holes' labels, in reading order.
    pub holes: Vec<String>,
    /// `class`, `pagoda` or `search`.
    pub kind: &'static str,
    /// The pagoda functions' weights, hole by hole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagodas: Option<Vec<Vec<i64>>>,
    /// A search certificate's members, in hexadecimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<String>>,
    /// A class certificate's sets, in hexadecimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sets: Option<Vec<String>>,
    /// The start, in hexadecimal.
    pub start: String,
    /// A search certificate's symmetries, as hole permutations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetries: Option<Vec<Vec<usize>>>,
    /// [`VERSION`].
    pub version: u64,
}

/// A position as one hexadecimal number: bit `i` is hole `i` in reading order, as many bits
/// as the board has holes.
#[must_use]
pub fn hex(p: Pegs) -> String {
    let words = p.0;
    let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
    let mut out = format!("{:x}", words[top]);
    for w in words[..top].iter().rev() {
        out.push_str(&format!("{w:016x}"));
    }
    out
}

impl CertificateFile {
    /// The file of certificate `c` for `problem`.
    #[must_use]
    pub fn of(problem: &Problem, c: &Certificate) -> CertificateFile {
        let board: &Board = problem.board();
        let mut file = CertificateFile {
            board: board.to_picture(problem.start::<[u64; 4]>()),
            claim: CLAIM,
            dual: None,
            finishes: match problem.finish() {
                Finish::Holes(f) => FinishesFile::Positions(vec![hex(f)]),
                Finish::AnyOne => FinishesFile::Pegs { pegs: 1 },
                Finish::Pegs(n) => FinishesFile::Pegs { pegs: n },
            },
            format: FORMAT,
            holes: board.labels(board.holes::<[u64; 4]>()),
            kind: c.kind(),
            pagodas: None,
            positions: None,
            sets: None,
            start: hex(problem.start()),
            symmetries: None,
            version: VERSION,
        };
        match c {
            Certificate::Class { sets, .. } => {
                file.sets = Some(sets.iter().map(|&s| hex(s)).collect());
            }
            Certificate::Pagoda { pagoda, .. } => {
                file.pagodas = Some(vec![pagoda.weights().to_vec()]);
            }
            Certificate::Search(s) => {
                file.dual = Some(s.dual);
                file.symmetries = Some(
                    s.symmetries
                        .iter()
                        .map(|perm| perm.iter().map(|h| h.index()).collect())
                        .collect(),
                );
                file.pagodas = Some(s.pagodas.iter().map(|p| p.weights().to_vec()).collect());
                file.positions = Some(s.positions.iter().map(hex).collect());
            }
        }
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_positions_are_written_as_one_number() {
        assert_eq!(hex(Pegs::EMPTY), "0");
        assert_eq!(hex(Pegs::single(crate::Hole::at(0))), "1");
        assert_eq!(
            hex(Pegs::single(crate::Hole::at(64))),
            format!("1{}", "0".repeat(16))
        );
        assert_eq!(
            hex(Pegs::single(crate::Hole::at(255)).with(crate::Hole::at(4))),
            format!("8{}10", "0".repeat(61))
        );
        assert_eq!(hex(Pegs::single(crate::Hole::at(63))), "8000000000000000");
    }

    #[test]
    fn fractions_are_in_lowest_terms() {
        assert_eq!(Fraction::of(6, 4), Fraction::Ratio("3/2".into()));
        assert_eq!(Fraction::of(-4, 2), Fraction::Whole(-2));
        assert_eq!(Fraction::of(0, 7), Fraction::Whole(0));
        assert_eq!(Fraction::of(-1, 2).to_string(), "-1/2");
    }
}
