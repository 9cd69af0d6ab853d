//! The forgery suite: certificate files that claim false things, or are malformed, in every
//! way we could think of, run through both independent checkers (`pegsol verify` and
//! `docs/verify_certificate.py`); every one must be rejected, with exit 1 or 2 and no
//! traceback. The genuine certificates they are made from must be accepted by both.
//!
//! A claim called false here is checked to be false: `pegsol solve` finds a line for it, and
//! the line is replayed here by the library. The forgeries are made by kind in `proofs`
//! (false claims) and `format` (malformed files); `readers` holds the checkers' limits.

mod format;
mod kit;
mod proofs;
mod readers;

use std::collections::BTreeMap;

use super::common::python;
use kit::{all_but, both, genuine, hex, hole, scratch, solvable, Forged, Genuine};

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
