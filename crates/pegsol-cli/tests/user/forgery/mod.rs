//! The forgery suite: certificate files that claim false things, or are malformed, in every
//! way we could think of, run through both independent checkers (`pegsol verify` and
//! `docs/verify_certificate.py`); every one must be rejected, with exit 1 or 2 and no
//! traceback. The genuine certificates they are made from must be accepted by both.
//!
//! A claim called false here is checked to be false: `pegsol solve` finds a line for it, and
//! the line is replayed here by the library. The forgeries are made by kind in `proofs`
//! (false claims) and `format` (malformed files); `readers` holds the checkers' limits.

mod format;
mod proofs;
mod readers;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::common::{pegsol, python, replay_line, verify_both, PY_CHECKER};

use serde_json::{json, Value};

/// Forged files: what is false or malformed in each, and its bytes.
type Forged = Vec<(String, Vec<u8>)>;

/// Adds the certificate `c` as a forgery called `name`.
fn add(forged: &mut Forged, name: &str, c: &Value) {
    forged.push((name.to_string(), c.to_string().into_bytes()));
}

/// The genuine certificates the forgeries are made from, with what several kinds share.
struct Genuine {
    dir: PathBuf,
    english_a3: Value,
    pagoda: Value,
    search: Value,
    dual: Value,
    wide: Value,
    wide_pagoda: Value,
    /// The English board's picture, from the a3 certificate.
    english_board: String,
    /// The centre's index in the certificates' hole order.
    d4: usize,
    /// The central game's start (every hole but d4), as the format writes it.
    central_start: String,
}

impl Genuine {
    /// A certificate of `kind` for the English central game (d4 empty, one peg on d4), which
    /// is solvable: made from the a3 certificate (same board and holes), without its sets.
    fn central(&self, kind: &str) -> Value {
        let mut c = self.english_a3.clone();
        c["start"] = json!(self.central_start);
        c["finishes"] = json!([hex(&[self.d4])]);
        c["kind"] = json!(kind);
        let o = c.as_object_mut().unwrap();
        o.remove("sets");
        c
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pegsol-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Both checkers' verdicts on the file at `path`: (exit code, output) each.
fn both(path: &Path, python: bool) -> [(Option<i32>, String); 2] {
    // PEGSOL_PY_CHECKER runs the suite against another script (an older checker, to see that
    // the suite catches what it let through).
    let script = std::env::var("PEGSOL_PY_CHECKER").unwrap_or_else(|_| PY_CHECKER.to_string());
    let (rust, py) = verify_both(path.to_str().unwrap(), python.then_some(script.as_str()));
    let py = py.map_or((Some(1), String::new()), |o| (o.status.code(), text(&o)));
    [(rust.status.code(), text(&rust)), py]
}

/// A genuine certificate written by `pegsol args --certificate FILE`, as JSON.
fn genuine(dir: &Path, name: &str, args: &[&str], kind: &str) -> Value {
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
fn hole(c: &Value, label: &str) -> usize {
    c["holes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|h| h == label)
        .unwrap_or_else(|| panic!("no hole {label}"))
}

/// A position of holes (by index) as the format writes it.
fn hex(holes: &[usize]) -> String {
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
fn all_but(n: usize, out: &[usize]) -> Vec<usize> {
    (0..n).filter(|h| !out.contains(h)).collect()
}

/// Checks that the problem (board picture, start, one finish hole) is solvable: `pegsol solve`
/// finds a line, replayed here by the library.
fn solvable(dir: &Path, board: &str, empty: &str, finish: &str) {
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

#[test]
fn both_checkers_reject_every_forgery_and_accept_every_genuine_certificate() {
    let python = python();
    let dir = scratch("forgery");
    // Genuine certificates of every kind, on boards of 15 to 81 holes.
    let french = genuine(&dir, "french", &["check", "french"], "class");
    let french_any = genuine(
        &dir,
        "french-any",
        &["check", "french", "--finish", "any"],
        "class",
    );
    let english_a3 = genuine(
        &dir,
        "english-a3",
        &["check", "english", "--empty", "a3", "--finish", "d4"],
        "class",
    );
    let pagoda = genuine(
        &dir,
        "pagoda",
        &[
            "check",
            "english",
            "--empty",
            "c1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3,a4,b4,c4,d4,e4,f4,g4",
            "--finish",
            "d2",
        ],
        "pagoda",
    );
    let search = genuine(
        &dir,
        "search",
        &["check", "triangle5", "--empty", "b3", "--finish", "b3"],
        "search",
    );
    let dual = genuine(
        &dir,
        "dual",
        &["check", "triangle5", "--empty", "a1", "--finish", "b3"],
        "search",
    );
    let wide = genuine(
        &dir,
        "wide",
        &["check", "triangle:11", "--empty", "a1", "--finish", "k11"],
        "class",
    );
    let two = dir.join("two-pegs-9x9.txt");
    let mut picture = String::from("oo.......\n");
    picture.push_str(&".........\n".repeat(8));
    std::fs::write(&two, &picture).unwrap();
    let wide_pagoda = genuine(
        &dir,
        "wide-pagoda",
        &["solve", two.to_str().unwrap(), "--finish", "i7"],
        "pagoda",
    );
    assert!(search["dual"] == false && dual["dual"] == true);
    let genuine_files = [
        ("french", &french),
        ("french-any", &french_any),
        ("english-a3", &english_a3),
        ("pagoda", &pagoda),
        ("search", &search),
        ("dual", &dual),
        ("wide", &wide),
        ("wide-pagoda", &wide_pagoda),
    ];
    for (name, c) in genuine_files {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, c.to_string()).unwrap();
        for (who, (code, out)) in ["pegsol verify", "python"].iter().zip(both(&path, python)) {
            assert_eq!(code, Some(0), "{who} on genuine {name}: {out}");
        }
    }

    // The English central game (d4 empty, one peg on d4) is solvable: any proof of it is
    // forged.
    let english_board = english_a3["board"].as_str().unwrap().to_string();
    solvable(&dir, &english_board, "d4", "d4");
    let d4 = hole(&english_a3, "d4");
    let g = Genuine {
        central_start: hex(&all_but(33, &[d4])),
        d4,
        english_board,
        english_a3,
        pagoda,
        search,
        dual,
        wide,
        wide_pagoda,
        dir,
    };
    let forged: Forged = [
        proofs::class,
        proofs::pagoda,
        proofs::search,
        format::fields,
        format::boards,
        format::files,
        format::wide,
    ]
    .iter()
    .flat_map(|kind| kind(&g))
    .collect();
    let dir = &g.dir;
    assert!(forged.len() >= 100, "{} forgeries", forged.len());
    // Two threads over the files: the test is mostly waiting on the checkers' processes.
    let verdicts: Vec<(&str, Option<i32>, String, &String)> = std::thread::scope(|scope| {
        let (forged, dir) = (&forged, &dir);
        let threads: Vec<_> = (0..2)
            .map(|t| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for (k, (name, bytes)) in forged.iter().enumerate().filter(|(k, _)| k % 2 == t)
                    {
                        let path = dir.join(format!("forged-{k}.json"));
                        std::fs::write(&path, bytes).unwrap();
                        for (who, (code, text)) in ["pegsol verify", "python"]
                            .into_iter()
                            .zip(both(&path, python))
                        {
                            out.push((who, code, text, name));
                        }
                    }
                    out
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut accepted = Vec::new();
    let mut by_code = BTreeMap::new();
    for (who, code, out, name) in verdicts {
        *by_code.entry((who, code)).or_insert(0) += 1;
        let clean = matches!(code, Some(1 | 2))
            && !out.contains("verified")
            && !out.contains("Traceback")
            && !out.contains("panicked");
        if !clean {
            accepted.push(format!("{who} on {name:?}: exit {code:?}: {out}"));
        }
    }
    assert!(accepted.is_empty(), "{}", accepted.join("\n"));
    eprintln!("{} forgeries, all rejected: {by_code:?}", forged.len());
    let _ = std::fs::remove_dir_all(dir);
}
