//! Certificate files: a proof of impossibility as JSON that code sharing nothing with the
//! solver can check (`pegsol verify`, or the Python script in `docs/`). The format is in
//! `docs/certificates.md`.

use std::path::Path;

use anyhow::{Context, Result};
use pegsol::check::Certificate;
use pegsol::{Bits, Board, Finish, Pagoda, Problem};
use serde_json::{json, Value};

/// The format's name and version, as the file's first two fields say.
pub(crate) const FORMAT: &str = "pegsol certificate";
pub(crate) const VERSION: u64 = 1;

/// A position as hexadecimal: bit `i` is hole `i` in reading order.
pub(crate) fn hex(p: Bits) -> String {
    format!("{:x}", p.raw())
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
        "claim": "no line of play leads from the start to a finish",
        "board": board.to_picture(problem.start()),
        "holes": board.labels(board.holes()),
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
            v["positions"] = json!(s.positions.iter().map(|&p| hex(p)).collect::<Vec<_>>());
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
