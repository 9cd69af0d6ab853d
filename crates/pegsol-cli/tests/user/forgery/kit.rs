//! What the forgeries are made from and run through: the genuine certificates, both
//! checkers' verdicts, and positions written as the format writes them.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{pegsol, replay_line, verify_both, PY_CHECKER};

use serde_json::{json, Value};

/// Forged files: what is false or malformed in each, and its bytes.
pub(super) type Forged = Vec<(String, Vec<u8>)>;

/// Adds the certificate `c` as a forgery called `name`.
pub(super) fn add(forged: &mut Forged, name: &str, c: &Value) {
    forged.push((name.to_string(), c.to_string().into_bytes()));
}

/// The genuine certificates the forgeries are made from, with what several kinds share.
pub(super) struct Genuine {
    pub(super) dir: PathBuf,
    pub(super) english_a3: Value,
    pub(super) pagoda: Value,
    pub(super) search: Value,
    pub(super) dual: Value,
    pub(super) wide: Value,
    pub(super) wide_pagoda: Value,
    /// The English board's picture, from the a3 certificate.
    pub(super) english_board: String,
    /// The centre's index in the certificates' hole order.
    pub(super) d4: usize,
    /// The central game's start (every hole but d4), as the format writes it.
    pub(super) central_start: String,
}

impl Genuine {
    /// A certificate of `kind` for the English central game (d4 empty, one peg on d4), which
    /// is solvable: made from the a3 certificate (same board and holes), without its sets.
    pub(super) fn central(&self, kind: &str) -> Value {
        let mut c = self.english_a3.clone();
        c["start"] = json!(self.central_start);
        c["finishes"] = json!([hex(&[self.d4])]);
        c["kind"] = json!(kind);
        let o = c.as_object_mut().unwrap();
        o.remove("sets");
        c
    }
}

pub(super) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

pub(super) fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pegsol-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Both checkers' verdicts on the file at `path`: (exit code, output) each.
pub(super) fn both(path: &Path, python: bool) -> [(Option<i32>, String); 2] {
    // PEGSOL_PY_CHECKER runs the suite against another script (an older checker, to see that
    // the suite catches what it let through).
    let script = std::env::var("PEGSOL_PY_CHECKER").unwrap_or_else(|_| PY_CHECKER.to_string());
    let (rust, py) = verify_both(path.to_str().unwrap(), python.then_some(script.as_str()));
    let py = py.map_or((Some(1), String::new()), |o| (o.status.code(), text(&o)));
    [(rust.status.code(), text(&rust)), py]
}

/// A genuine certificate written by `pegsol args --certificate FILE`, as JSON.
pub(super) fn genuine(dir: &Path, name: &str, args: &[&str], kind: &str) -> Value {
    let path = dir.join(format!("{name}.json"));
    let mut all = args.to_vec();
    all.extend(["--certificate", path.to_str().unwrap()]);
    let o = pegsol(&all);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["kind"], kind, "{args:?}");
    v
}

/// Hole `label`'s index in a certificate's reading order.
pub(super) fn hole(c: &Value, label: &str) -> usize {
    c["holes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|h| h == label)
        .unwrap_or_else(|| panic!("no hole {label}"))
}

/// A position of holes (by index) as the format writes it.
pub(super) fn hex(holes: &[usize]) -> String {
    let mut words = [0u64; 5];
    for &h in holes {
        words[h / 64] |= 1 << (h % 64);
    }
    let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
    let mut out = format!("{:x}", words[top]);
    for w in words[..top].iter().rev() {
        out.push_str(&format!("{w:016x}"));
    }
    out
}

/// Every hole but these.
pub(super) fn all_but(n: usize, out: &[usize]) -> Vec<usize> {
    (0..n).filter(|h| !out.contains(h)).collect()
}

/// Checks that the problem (board picture, start, one finish hole) is solvable: `pegsol solve`
/// finds a line, replayed here by the library.
pub(super) fn solvable(dir: &Path, board: &str, empty: &str, finish: &str) {
    let path = dir.join("solvable-board.txt");
    std::fs::write(&path, board).unwrap();
    let o = pegsol(&[
        "solve",
        path.to_str().unwrap(),
        "--empty",
        empty,
        "--finish",
        finish,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let b = pegsol::Board::parse("b", board).unwrap();
    let mut start = b.holes();
    for e in empty.split(',') {
        start = start.without(b.hole(e).unwrap());
    }
    let end = replay_line(&b, start, &v["jumps"]);
    let want: Vec<String> = finish.split(',').map(str::to_string).collect();
    assert_eq!(b.labels(end), want);
}
