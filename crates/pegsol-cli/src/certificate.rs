//! Certificate files: a proof of impossibility as JSON that code sharing nothing with the
//! solver can check (`pegsol verify`, or the Python script in `docs/`). The format is in
//! `docs/certificates.md`.

use std::path::Path;

use anyhow::{Context, Result};
use pegsol::check::Certificate;
use pegsol::{Board, Finish, Pagoda, Pegs, Problem};
use serde_json::{json, Value};

/// The format's name and version, as the file's first two fields say.
pub(crate) const FORMAT: &str = "pegsol certificate";
pub(crate) const VERSION: u64 = 1;
/// What every certificate claims of its start and finishes.
pub(crate) const CLAIM: &str = "no line of play leads from the start to a finish";

/// A position as one hexadecimal number: bit `i` is hole `i` in reading order, as many bits
/// as the board has holes.
pub(crate) fn hex(p: Pegs) -> String {
    let words = p.0;
    let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
    let mut out = format!("{:x}", words[top]);
    for w in words[..top].iter().rev() {
        out.push_str(&format!("{w:016x}"));
    }
    out
}

fn weights(p: &Pagoda) -> Value {
    json!(p.weights())
}

/// The certificate `c` for `problem` in the file format.
pub(crate) fn value(problem: &Problem, c: &Certificate) -> Value {
    let board: &Board = problem.board();
    let finishes = match problem.finish() {
        Finish::Holes(f) => json!([hex(f)]),
        Finish::AnyOne => json!({"pegs": 1}),
        Finish::Pegs(n) => json!({"pegs": n}),
    };
    let mut v = json!({
        "format": FORMAT,
        "version": VERSION,
        "claim": CLAIM,
        "board": board.to_picture(problem.start::<[u64; 4]>()),
        "holes": board.labels(board.holes::<[u64; 4]>()),
        "start": hex(problem.start()),
        "finishes": finishes,
        "kind": c.kind(),
    });
    match c {
        Certificate::Class { sets, .. } => {
            v["sets"] = json!(sets.iter().map(|&s| hex(s)).collect::<Vec<_>>());
        }
        Certificate::Pagoda { pagoda, .. } => v["pagodas"] = json!([weights(pagoda)]),
        Certificate::Search(s) => {
            v["dual"] = json!(s.dual);
            v["symmetries"] = json!(s
                .symmetries
                .iter()
                .map(|perm| perm.iter().map(|h| h.index()).collect::<Vec<_>>())
                .collect::<Vec<_>>());
            v["pagodas"] = json!(s.pagodas.iter().map(weights).collect::<Vec<_>>());
            v["positions"] = json!(s.positions.iter().map(hex).collect::<Vec<_>>());
        }
    }
    v
}

/// Writes the certificate file.
pub(crate) fn write(path: &Path, problem: &Problem, c: &Certificate) -> Result<()> {
    let text = serde_json::to_string(&value(problem, c))?;
    std::fs::write(path, text + "\n")
        .with_context(|| format!("cannot write the certificate to {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_positions_are_written_as_one_number() {
        assert_eq!(hex(Pegs::EMPTY), "0");
        assert_eq!(hex(Pegs::single(pegsol::Hole::at(0))), "1");
        assert_eq!(
            hex(Pegs::single(pegsol::Hole::at(64))),
            format!("1{}", "0".repeat(16))
        );
        assert_eq!(
            hex(Pegs::single(pegsol::Hole::at(255)).with(pegsol::Hole::at(4))),
            format!("8{}10", "0".repeat(61))
        );
        assert_eq!(hex(Pegs::single(pegsol::Hole::at(63))), "8000000000000000");
    }
}
