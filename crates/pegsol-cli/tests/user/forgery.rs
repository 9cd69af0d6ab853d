//! The forgery suite: certificate files that claim false things, or are malformed, in every
//! way we could think of, run through both independent checkers (`pegsol verify` and
//! `docs/verify_certificate.py`); every one must be rejected, with exit 1 or 2 and no
//! traceback. The genuine certificates they are made from must be accepted by both.
//!
//! A claim called false here is checked to be false: `pegsol solve` finds a line for it, and
//! the line is replayed here by the library.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::common::{pegsol, python, python_command, replay_line, verify_both, PY_CHECKER};

use serde_json::{json, Value};

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
    // forged. Its file is made from the a3 certificate: same board, holes and one set.
    let english_board = english_a3["board"].as_str().unwrap().to_string();
    solvable(&dir, &english_board, "d4", "d4");
    let d4 = hole(&english_a3, "d4");
    let central_start = hex(&all_but(33, &[d4]));
    let central = |kind: &str| {
        let mut c = english_a3.clone();
        c["start"] = json!(central_start);
        c["finishes"] = json!([hex(&[d4])]);
        c["kind"] = json!(kind);
        let o = c.as_object_mut().unwrap();
        o.remove("sets");
        c
    };
    let mut forged: Vec<(String, Vec<u8>)> = Vec::new();
    let add = |forged: &mut Vec<(String, Vec<u8>)>, name: &str, c: &Value| {
        forged.push((name.to_string(), c.to_string().into_bytes()));
    };

    // Class proofs of the central game.
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    add(
        &mut forged,
        "class: a true invariant set that does not separate",
        &c,
    );
    c["sets"] = json!([hex(&[d4])]);
    add(&mut forged, "class: a set that meets jumps oddly", &c);
    c["sets"] = json!([]);
    add(&mut forged, "class: no sets", &c);
    // A phantom hole past the board: in no jump, so the set {40} meets every jump evenly.
    c["sets"] = json!([hex(&[40])]);
    c["finishes"] = json!([hex(&[d4, 40])]);
    add(
        &mut forged,
        "class: a finish with a phantom peg past the board",
        &c,
    );
    let mut c = central("class");
    c["sets"] = json!([hex(&[40])]);
    c["start"] = json!(hex(&[&all_but(33, &[d4])[..], &[40]].concat()));
    add(
        &mut forged,
        "class: a start with a phantom peg past the board",
        &c,
    );
    c["start"] = json!(format!("1{}{central_start}", "0".repeat(290)));
    add(
        &mut forged,
        "class: a start with a phantom peg 300 digits up",
        &c,
    );
    // Any one peg: the a3 set separates some single pegs from the start, not d4.
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    c["finishes"] = json!({"pegs": 1});
    add(
        &mut forged,
        "class: any one peg, separated on some holes only",
        &c,
    );
    // Positions that are not plain hexadecimal.
    for (what, bad) in [
        ("negative", "-1".to_string()),
        ("0x prefix", format!("0x{:x}", 1u64 << d4)),
        ("plus sign", format!("+{:x}", 1u64 << d4)),
        ("leading space", format!(" {:x}", 1u64 << d4)),
        ("underscore", "1_0000".to_string()),
        ("empty", String::new()),
        ("arabic-indic digit", "\u{661}".to_string()),
    ] {
        let mut c = central("class");
        c["sets"] = json!([hex(&[40])]);
        c["finishes"] = json!([bad]);
        add(&mut forged, &format!("class: a finish written {what}"), &c);
    }
    let mut c = central("class");
    c["sets"] = english_a3["sets"].clone();
    c["finishes"] = json!([1u64 << d4]);
    add(&mut forged, "class: a finish as a number", &c);

    // Pagoda proofs of the central game.
    let mut only_d4 = vec![0i64; 33];
    only_d4[d4] = 1;
    let mut c = central("pagoda");
    c["pagodas"] = json!([only_d4]);
    add(
        &mut forged,
        "pagoda: weights that break the jumps into d4",
        &c,
    );
    for (what, raw) in [
        ("floats", "1.0"),
        ("a float minus zero", "-0.0"),
        ("an exponent", "1e0"),
        ("NaN", "NaN"),
        ("Infinity", "Infinity"),
        ("a weight past 2^48", "281474976710657"),
        ("a weight past 2^64", "18446744073709551617"),
        ("a weight of 300 digits", &"9".repeat(300)),
        ("true", "true"),
        ("a string", "\"1\""),
    ] {
        let mut w: Vec<String> = only_d4.iter().map(ToString::to_string).collect();
        w[d4] = raw.to_string();
        w[0] = raw.to_string();
        let mut c = central("pagoda");
        c["pagodas"] = json!("PLACEHOLDER");
        let text = c
            .to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")));
        forged.push((
            format!("pagoda: {what} among the weights"),
            text.into_bytes(),
        ));
    }
    // Rounding at 2^53: in floats 2^53 + 1 == 2^53, so these weights "satisfy" the jump
    // from c4 over d4... and put the start below the finish. As integers they break a jump.
    let mut w: Vec<String> = vec!["0".to_string(); 33];
    w[d4] = "9007199254740993.0".to_string();
    w[hole(&english_a3, "c4")] = "9007199254740992.0".to_string();
    let mut c = central("pagoda");
    c["pagodas"] = json!("PLACEHOLDER");
    forged.push((
        "pagoda: floats that round at 2^53".to_string(),
        c.to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")))
            .into_bytes(),
    ));
    // The genuine pagoda proof, its integers written in forms the format forbids.
    let weights_text = pagoda["pagodas"].to_string();
    for (what, from, to) in [
        ("floats", ",", ".0,"),
        ("a minus zero", ",0,", ",-0.0,"),
        ("exponents", ",1,", ",1e0,"),
    ] {
        assert!(weights_text.contains(from), "{what}");
        let text = pagoda
            .to_string()
            .replacen(&weights_text, &weights_text.replace(from, to), 1);
        forged.push((
            format!("pagoda: the genuine weights as {what}"),
            text.into_bytes(),
        ));
    }
    // Any one peg, with NaN among the weights: a float sort picks the "lightest" holes
    // wrongly.
    let mut w: Vec<String> = vec!["1".to_string(); 33];
    w[d4] = "NaN".to_string();
    w[0] = "NaN".to_string();
    let mut c = central("pagoda");
    c["finishes"] = json!({"pegs": 1});
    c["pagodas"] = json!("PLACEHOLDER");
    forged.push((
        "pagoda: NaN among the weights, any one peg".to_string(),
        c.to_string()
            .replace("\"PLACEHOLDER\"", &format!("[[{}]]", w.join(",")))
            .into_bytes(),
    ));
    let mut c = pagoda.clone();
    c["pagodas"][0].as_array_mut().unwrap().pop();
    add(&mut forged, "pagoda: a weight list one short", &c);
    c["pagodas"] = json!([]);
    add(&mut forged, "pagoda: no function", &c);
    c["pagodas"] = json!([pagoda["pagodas"][0], pagoda["pagodas"][0]]);
    add(&mut forged, "pagoda: two functions", &c);
    c["pagodas"] = json!([[]]);
    add(&mut forged, "pagoda: an empty weight list", &c);
    let mut c = pagoda.clone();
    c["finishes"] = json!([]);
    add(&mut forged, "pagoda: an empty finish list", &c);
    // The genuine pagoda function, with the start moved onto the finish: false.
    let mut c = pagoda.clone();
    c["start"] = c["finishes"][0].clone();
    add(&mut forged, "pagoda: the start is the finish", &c);

    // Search proofs of the central game. With finishes of 1 and 31 pegs, a checker that
    // takes the 31 as "the" finish count calls every child of the start (31 pegs, none a
    // finish) dead: the set {start} looks closed.
    let far: Vec<usize> = all_but(33, &[d4, hole(&english_a3, "c1")]);
    let mut c = central("search");
    c["finishes"] = json!([hex(&far), hex(&[d4])]);
    c["dual"] = json!(false);
    c["symmetries"] = json!([]);
    c["pagodas"] = json!([]);
    c["positions"] = json!([central_start]);
    add(
        &mut forged,
        "search: finishes of 31 and 1 pegs, the 31 first",
        &c,
    );
    c["finishes"] = json!([hex(&[d4]), hex(&far)]);
    add(
        &mut forged,
        "search: finishes of 1 and 31 pegs, the 1 first",
        &c,
    );

    // The genuine search certificates, tampered.
    for (name, base) in [("search", &search), ("dual", &dual)] {
        let mut c = base.clone();
        c["positions"].as_array_mut().unwrap().pop();
        add(&mut forged, &format!("{name}: a member dropped"), &c);
        let mut c = base.clone();
        c["positions"].as_array_mut().unwrap().remove(0);
        add(&mut forged, &format!("{name}: the start dropped"), &c);
        // The finish of the game the set is about (the dual game's is the complement of the
        // start).
        let mut c = base.clone();
        let f = if base["dual"] == true {
            let start = u64::from_str_radix(c["start"].as_str().unwrap(), 16).unwrap();
            json!(format!("{:x}", start ^ 0x7fff))
        } else {
            c["finishes"][0].clone()
        };
        c["positions"].as_array_mut().unwrap().push(f);
        add(
            &mut forged,
            &format!("{name}: a finish among the members"),
            &c,
        );
        let mut c = base.clone();
        let mut perm: Vec<u64> = (0..15).collect();
        perm.swap(0, 1);
        c["symmetries"] = json!([perm]);
        add(
            &mut forged,
            &format!("{name}: a permutation that is no symmetry"),
            &c,
        );
        let mut c = base.clone();
        c["symmetries"] = json!([(0..14).collect::<Vec<u64>>()]);
        add(&mut forged, &format!("{name}: a permutation one short"), &c);
        c["symmetries"] = json!([[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]);
        add(
            &mut forged,
            &format!("{name}: a permutation with a repeat"),
            &c,
        );
        c["symmetries"] = json!([(1..16).collect::<Vec<u64>>()]);
        add(
            &mut forged,
            &format!("{name}: a permutation past the holes"),
            &c,
        );
        let mut c = base.clone();
        c["symmetries"] = json!("PLACEHOLDER");
        let bools = std::iter::once("false".to_string())
            .chain(std::iter::once("true".to_string()))
            .chain((2..15).map(|i| i.to_string()))
            .collect::<Vec<_>>()
            .join(",");
        forged.push((
            format!("{name}: true and false as hole indices"),
            c.to_string()
                .replace("\"PLACEHOLDER\"", &format!("[[{bools}]]"))
                .into_bytes(),
        ));
        let mut c = base.clone();
        c["dual"] = json!(if base["dual"] == true {
            "false"
        } else {
            "true"
        });
        add(&mut forged, &format!("{name}: dual as a string"), &c);
        c["dual"] = json!(0);
        add(&mut forged, &format!("{name}: dual as a number"), &c);
        c.as_object_mut().unwrap().remove("dual");
        add(&mut forged, &format!("{name}: dual missing"), &c);
        // (b3 to b3 is its own dual game: flipping is no forgery there.)
        if base["dual"] == true {
            let mut c = base.clone();
            c["dual"] = json!(false);
            add(&mut forged, &format!("{name}: dual flipped"), &c);
        }
        // A finish one jump from the start: false whatever the set says.
        let mut c = base.clone();
        let b = pegsol::Board::parse("t", c["board"].as_str().unwrap()).unwrap();
        let start = pegsol::Bits(u64::from_str_radix(c["start"].as_str().unwrap(), 16).unwrap());
        let child = b
            .jumps()
            .iter()
            .find(|j| j.is_legal(start))
            .map(|j| j.apply(start).raw())
            .unwrap();
        c["finishes"] = json!([format!("{child:x}")]);
        add(
            &mut forged,
            &format!("{name}: the finish one jump from the start"),
            &c,
        );
        if let Some(w) = c["pagodas"].as_array_mut().and_then(|p| p.first_mut()) {
            w[0] = json!(1_000_000);
            add(
                &mut forged,
                &format!("{name}: a pagoda function that breaks a jump"),
                &c,
            );
        }
    }

    // Fields and their types.
    let fields = |forged: &mut Vec<(String, Vec<u8>)>, name: &str, change: &dyn Fn(&mut Value)| {
        let mut c = english_a3.clone();
        change(&mut c);
        forged.push((format!("field: {name}"), c.to_string().into_bytes()));
    };
    fields(&mut forged, "version 1.0", &|c| c["version"] = json!(1.0));
    fields(&mut forged, "version true", &|c| c["version"] = json!(true));
    fields(&mut forged, "version \"1\"", &|c| c["version"] = json!("1"));
    fields(&mut forged, "version 2", &|c| c["version"] = json!(2));
    fields(&mut forged, "another format", &|c| {
        c["format"] = json!("pegsol proof")
    });
    fields(&mut forged, "another claim", &|c| {
        c["claim"] = json!("the start reaches every finish");
    });
    fields(&mut forged, "no claim", &|c| {
        c.as_object_mut().unwrap().remove("claim");
    });
    fields(&mut forged, "kind Class", &|c| c["kind"] = json!("Class"));
    fields(&mut forged, "kind a list", &|c| {
        c["kind"] = json!(["class"])
    });
    fields(&mut forged, "no kind", &|c| {
        c.as_object_mut().unwrap().remove("kind");
    });
    fields(&mut forged, "an unknown field", &|c| {
        c["note"] = json!("trust me")
    });
    fields(&mut forged, "another kind's field", &|c| {
        c["pagodas"] = json!([])
    });
    fields(&mut forged, "no sets", &|c| {
        c.as_object_mut().unwrap().remove("sets");
    });
    fields(&mut forged, "sets not a list", &|c| {
        c["sets"] = c["sets"][0].clone()
    });
    fields(&mut forged, "holes one short", &|c| {
        c["holes"].as_array_mut().unwrap().pop();
    });
    fields(&mut forged, "holes as numbers", &|c| {
        c["holes"] = json!((0..33).collect::<Vec<u32>>())
    });
    fields(&mut forged, "board a number", &|c| c["board"] = json!(7));
    fields(&mut forged, "finishes a string", &|c| {
        c["finishes"] = c["finishes"][0].clone()
    });
    fields(&mut forged, "finishes empty", &|c| {
        c["finishes"] = json!([])
    });
    fields(&mut forged, "pegs 1.0", &|c| {
        c["finishes"] = json!({"pegs": 1.0})
    });
    fields(&mut forged, "pegs true", &|c| {
        c["finishes"] = json!({"pegs": true})
    });
    fields(&mut forged, "pegs -1", &|c| {
        c["finishes"] = json!({"pegs": -1})
    });
    fields(&mut forged, "pegs past the holes", &|c| {
        c["finishes"] = json!({"pegs": 34})
    });
    fields(&mut forged, "pegs with another key", &|c| {
        c["finishes"] = json!({"pegs": 1, "holes": 2});
    });
    fields(&mut forged, "pegs as a string", &|c| {
        c["finishes"] = json!({"pegs": "1"})
    });

    // Board pictures. The first ones read as another board to a careless line reader: the
    // English board with an empty row after each row, where no jump is vertical (its central
    // game is impossible). A true proof for that board, given the English board's rows.
    let rows: Vec<&str> = english_board.lines().collect();
    let spread = dir.join("spread.txt");
    std::fs::write(&spread, rows.join("\n\n") + "\n").unwrap();
    for (what, sep) in [
        ("\\r\\r\\n line ends", "\r\r\n"),
        ("\\r line ends", "\r"),
        ("\\u2028 line ends", "\u{2028}"),
        ("\\x0c line ends", "\u{c}"),
        ("\\x85 line ends", "\u{85}"),
        ("\\x1e line ends", "\u{1e}"),
    ] {
        let mut c = genuine(
            &dir,
            "spread",
            &["check", spread.to_str().unwrap()],
            "class",
        );
        c["board"] = json!(rows.join(sep) + sep);
        add(&mut forged, &format!("board: {what}"), &c);
    }
    let board_change = |picture: &str| {
        let mut c = english_a3.clone();
        c["board"] = json!(picture);
        c
    };
    for (what, picture) in [
        (
            "spaced cells that overlap",
            format!("columns: spaced\n{english_board}"),
        ),
        (
            "a repeated header",
            format!("lattice: orthogonal\nlattice: diagonal\n{english_board}"),
        ),
        ("columns: foo", format!("columns: foo\n{english_board}")),
        (
            "lattice: hexagonal",
            format!("lattice: hexagonal\n{english_board}"),
        ),
        (
            "a no-break space after the lattice",
            format!("lattice: diagonal\u{a0}\n{english_board}"),
        ),
        (
            "a tab among the cells",
            english_board.replacen("ooo", "o\too", 1),
        ),
        (
            "a zero among the cells",
            english_board.replacen("ooo", "o0o", 1),
        ),
        ("no holes", "   \n".to_string()),
        ("257 holes", "o".repeat(257)),
    ] {
        add(
            &mut forged,
            &format!("board: {what}"),
            &board_change(&picture),
        );
    }

    // Files that are not JSON certificates at all.
    let good = english_a3.to_string();
    let raw = |forged: &mut Vec<(String, Vec<u8>)>, name: &str, bytes: Vec<u8>| {
        forged.push((format!("file: {name}"), bytes));
    };
    raw(&mut forged, "empty", Vec::new());
    raw(
        &mut forged,
        "a byte order mark",
        [b"\xef\xbb\xbf".as_slice(), good.as_bytes()].concat(),
    );
    raw(&mut forged, "not UTF-8", {
        let mut b = good.clone().into_bytes();
        let at = good.find("no line").unwrap();
        b[at] = 0xff;
        b
    });
    raw(
        &mut forged,
        "trailing text",
        format!("{good} {{}}").into_bytes(),
    );
    raw(&mut forged, "a list", format!("[{good}]").into_bytes());
    raw(
        &mut forged,
        "nested ten thousand deep",
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes(),
    );
    raw(
        &mut forged,
        "a field given twice",
        good.replacen(
            "\"kind\":\"class\"",
            "\"kind\":\"pagoda\",\"kind\":\"class\"",
            1,
        )
        .into_bytes(),
    );
    raw(&mut forged, "the finishes given twice", {
        let f = english_a3["finishes"].to_string();
        good.replacen(
            &format!("\"finishes\":{f}"),
            &format!("\"finishes\":{f},\"finishes\":[\"{central_start}\"]"),
            1,
        )
        .into_bytes()
    });

    // Boards past 64 holes.
    let mut c = wide.clone();
    c["sets"] = json!([hex(&[70])]);
    c["finishes"] = json!([hex(&[65, 70])]);
    add(
        &mut forged,
        "wide: a finish with a phantom peg past 66 holes",
        &c,
    );
    let mut c = wide.clone();
    c["start"] = c["finishes"][0].clone();
    add(&mut forged, "wide: the start is the finish", &c);
    let mut c = wide_pagoda.clone();
    c["pagodas"][0][0] = json!(-1_000_000);
    c["pagodas"][0][80] = json!(1_000_000);
    add(
        &mut forged,
        "wide: a pagoda function that breaks a jump",
        &c,
    );
    let mut c = wide_pagoda.clone();
    c["finishes"] = json!({"pegs": 2});
    add(
        &mut forged,
        "wide: two pegs anywhere, which the start is",
        &c,
    );

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
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pegsol verify` keeps its memory within a small multiple of the file: 2,000 symmetries
/// of a 256-hole board (2.3 MB of JSON) took 556 MB when each had its byte tables. Here
/// 4,000 of them, 3.7 MB.
#[cfg(target_os = "linux")]
#[test]
fn verify_memory_is_a_small_multiple_of_the_file() {
    let dir = scratch("verify-memory");
    let n = 256;
    let mut board = String::from("o.o.............\n");
    board.push_str(&format!("{}\n", ".".repeat(16)).repeat(15));
    let holes: Vec<String> = (0..16)
        .flat_map(|r| (0..16).map(move |c| format!("{}{}", (b'a' + c) as char, r + 1)))
        .collect();
    // Two pegs with no jump between them never make one: the set {start} is closed.
    let cert = json!({
        "format": "pegsol certificate",
        "version": 1,
        "claim": "no line of play leads from the start to a finish",
        "board": board,
        "holes": holes,
        "start": "5",
        "finishes": [hex(&[255])],
        "kind": "search",
        "dual": false,
        "symmetries": vec![(0..n).collect::<Vec<u32>>(); 4000],
        "pagodas": [],
        "positions": ["5"],
    });
    let path = dir.join("symmetries.json");
    let body = cert.to_string();
    std::fs::write(&path, &body).unwrap();
    drop(cert);
    // The checker's own peak (VmHWM): a fork's or the test process's memory is not in it.
    let o = pegsol(&["verify", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let peak = (v["peak_memory_mb"].as_u64().unwrap() as usize) << 20;
    let file = body.len();
    eprintln!("file {file} bytes, peak {peak} bytes");
    assert!(
        peak < 8 * file,
        "verify peaked at {peak} bytes on a file of {file}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Python checker reads every board picture as pegsol does: the same holes and lattice,
/// or an error in both, for the same bytes, on every kind of line end, blank and header,
/// and on random pictures made of the characters where readers tend to differ.
#[test]
fn both_board_readers_give_the_same_holes_for_the_same_bytes() {
    if !python() {
        return;
    }
    let english = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
    let mut pictures: Vec<String> = Vec::new();
    for end in [
        "\n", "\r\n", "\r", "\r\r\n", "\n\r", "\u{2028}", "\u{c}", "\u{b}", "\u{85}", "\u{1c}",
    ] {
        pictures.push(english.replace('\n', end));
        pictures.push(english.replacen('\n', end, 2));
        pictures.push(format!("lattice: diagonal{end}{english}"));
    }
    for header in [
        "lattice: triangular",
        "\tlattice:\tTriangular \t",
        "LATTICE: diagonal",
        "lattice: diagonal\u{a0}",
        "lattice: hexagonal",
        "lattice : orthogonal",
        "columns: spaced",
        "columns: exact",
        "columns: Spaced",
        "lattice: diagonal\nlattice: diagonal",
        "columns: exact\ncolumns: spaced",
        "\n \t\nlattice: diagonal\n\n",
        "note: hello",
    ] {
        pictures.push(format!("{header}\n{english}"));
    }
    for spaced in [
        "o o o\n o . o\n",
        "columns: spaced\nooooo\n",
        "columns: spaced\n.o\n",
        "columns: spaced\no o\n o o\n",
        "columns: exact\no o o\n",
        "o  o\n",
        "o\to\n",
        "",
        " \n\t\n",
        "ooo\r",
        "ooo\n\n\nooo\n",
    ] {
        pictures.push(spaced.to_string());
    }
    pictures.push("o".repeat(256));
    pictures.push("o".repeat(257));
    // Random pictures over the characters that matter, some after a header.
    let plain = ['o', 'O', '.', ' ', ' ', 'o', 'o', '.', '\n', '\n'];
    let odd = ['\r', '\t', '\u{2028}', '\u{c}', '\u{85}', ':', '\r'];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..3000 {
        let len = 1 + next() % 40;
        let mut p: String = (0..len)
            .map(|_| match next() % 60 {
                0..=1 => odd[(next() % odd.len() as u64) as usize],
                _ => plain[(next() % plain.len() as u64) as usize],
            })
            .collect();
        if k % 3 == 0 {
            p = format!(
                "{}\n{p}",
                ["columns: spaced", "lattice: triangular", "columns: exact"][k % 9 / 3]
            );
        }
        pictures.push(p);
    }
    // Python's reading of each picture, through the checker's own parse_board.
    let driver = format!(
        r#"
import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("checker", {PY_CHECKER:?})
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)
out = []
for picture in json.load(sys.stdin):
    try:
        cells, lattice = checker.parse_board(picture)
        out.append([lattice, [list(c) for c in cells]])
    except checker.Malformed:
        out.append(None)
print(json.dumps(out))
"#
    );
    // No __pycache__ left in docs/ by the import.
    let mut child = python_command()
        .args(["-B", "-c", &driver])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(json!(pictures).to_string().as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let python: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    let (mut read, mut refused) = (0, 0);
    for (picture, py) in pictures.iter().zip(&python) {
        let rust = match pegsol::Shape::parse("p", picture) {
            Ok(shape) => {
                read += 1;
                json!([shape.lattice().name(), shape.cells()])
            }
            Err(_) => {
                refused += 1;
                Value::Null
            }
        };
        assert_eq!(&rust, py, "{picture:?}");
    }
    assert!(
        read > 300 && refused > 300,
        "{read} read, {refused} refused"
    );
}
