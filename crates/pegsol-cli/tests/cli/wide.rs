//! Boards past 64 holes: every command, the same answers as on 33 holes, certificates.

use super::*;

#[test]
fn boards_past_64_holes_solve_show_and_replay() {
    // The 66-hole triangle: two words a position; the solution replays through the CLI too.
    let o = pegsol(&[&["solve"][..], &TRIANGLE_11_ANY].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["holes"], 66);
    // The one solver's answer, the same keys as on 33 holes.
    assert!(
        v["stats"]["nodes"].is_u64() && v["class"].is_string(),
        "{v}"
    );
    assert_eq!(v["classes"], 4);
    let jumps: Vec<&str> = v["jumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    assert_eq!(jumps.len(), 64);
    assert_eq!(v["final"].as_array().unwrap().len(), 1);
    let o = pegsol(&[
        "replay",
        "triangle:11",
        "--empty",
        "a1",
        &jumps.join(" "),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["pegs"], 1);
    assert_eq!(json(&o)["final"], v["final"]);
    // Moves as the 64-hole commands write them, read back.
    let moves: Vec<&str> = v["move_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    let o = pegsol(&[
        "replay",
        "triangle:11",
        "--empty",
        "a1",
        &moves.join(" "),
        "--json",
    ]);
    assert_eq!(json(&o)["pegs"], 1);
    // 256 holes: four words; the class test answers at once.
    let o = pegsol(&["show", "rect:16x16", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["holes"], 256);
    // The answer of `show` on 33 holes, with the same keys.
    let (mut small, mut large) = (Default::default(), Default::default());
    key_paths(
        &json(&pegsol(&["show", "english", "--json"])),
        "",
        &mut small,
    );
    key_paths(&json(&o), "", &mut large);
    assert_eq!(small, large);
    let o = pegsol(&["solve", "rect:16x16", "--finish", "b1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("impossible: position class"),
        "{}",
        stdout(&o)
    );
    // An illegal jump is named, as on small boards.
    fails_with(
        &["replay", "rect:9x9", "--empty", "e5", "e3-e5 e3-e5"],
        "jump 2 (e3-e5) is illegal",
    );
    // Ends and catalog: two pegs on the 9x9 square end on c5 or f5; from one vacancy on a
    // line of 65 holes no single peg can be left.
    let rows: Vec<&str> = (0..9)
        .map(|r| if r == 4 { "...oo...." } else { "........." })
        .collect();
    let path = temp_board("two.txt", &(rows.join("\n") + "\n"));
    let o = pegsol(&["ends", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ends: Vec<Value> = json(&o)["ends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["hole"].clone())
        .collect();
    assert_eq!(ends, ["c5", "f5"]);
    let path = temp_board("line.txt", &("o".repeat(65) + "\n"));
    let o = pegsol(&[
        "catalog",
        path.to_str().unwrap(),
        "--finish",
        "any",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["summary"]["pairs"], 65);
    assert_eq!(v["summary"]["impossible"], 65);
    assert_eq!(v["vacancies"].as_array().unwrap().len(), 33);
    // The catalog's drawing past 64 holes: one tile per vacancy class of the 66-hole triangle.
    let svg = std::env::temp_dir().join(format!("pegsol-t11-{}.svg", std::process::id()));
    let o = pegsol(&[
        "catalog",
        "triangle:11",
        "--finish",
        "any",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.trim_end().ends_with("</svg>"));
    assert_eq!(
        drawn.matches("a1 empty").count(),
        1,
        "one tile for the corner class"
    );
    let _ = std::fs::remove_file(&svg);
    // The 257th hole of a file is named by line and column.
    let path = temp_board(
        "big.txt",
        &format!("{}\n{}\n", "o".repeat(200), "o".repeat(60)),
    );
    fails_with(
        &["show", path.to_str().unwrap()],
        "line 2, column 57: this is hole number 257, but a board holds at most 256 holes",
    );
}

/// Count, fewest moves, shortest and the SVG strip on boards past 64 holes, and the options
/// that stay with the 64-hole engines refused by name.
#[test]
fn boards_past_64_holes_count_find_the_fewest_moves_and_draw() {
    // A diamond of twelve pegs round e5 on the 9x9 square (81 holes, two words).
    let mut rows = vec![".........".to_string(); 9];
    rows[2] = "....o....".into();
    rows[3] = "...ooo...".into();
    rows[4] = "..oo.oo..".into();
    rows[5] = "...ooo...".into();
    rows[6] = "....o....".into();
    let path = temp_board("cross.txt", &(rows.join("\n") + "\n"));
    let board = path.to_str().unwrap();
    let o = pegsol(&["count", board, "--finish", "any", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["holes"], 81);
    assert_eq!(v["status"], "counted");
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels[0]["pegs"], 12);
    assert_eq!(v["symmetries"], 8);
    let paths: u128 = levels
        .iter()
        .filter(|l| l["pegs"] == 1)
        .map(|l| l["paths"].as_u64().unwrap() as u128)
        .sum();
    assert_eq!(v["solutions"].as_u64().unwrap() as u128, paths);
    // The figure of this build (the method is checked against brute force in the library).
    assert_eq!(v["solutions"], 53056);
    // To one hole, from both ends: the solutions of the whole count to that finish.
    let whole = json(&pegsol(&["count", board, "--finish", "e5", "--json"]));
    let o = pegsol(&["count", board, "--finish", "e5", "--solutions", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let met = json(&o);
    assert_eq!(met["method"], "meeting in the middle");
    assert_eq!(met["solutions"], whole["solutions"]);
    assert_eq!(
        met["winning_positions"], whole["winning_positions"],
        "{whole}"
    );
    assert!(met["solutions"].as_u64().unwrap() > 0);
    let svg = std::env::temp_dir().join(format!("pegsol-wide-{}.svg", std::process::id()));
    let o = pegsol(&[
        "solve",
        board,
        "--finish",
        "any",
        "--fewest-moves",
        "--svg",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["optimal"], true);
    let moves = v["moves"].as_u64().unwrap();
    assert_eq!((moves, v["lower_bound"].as_u64()), (4, Some(4)));
    assert_eq!(v["jumps"].as_array().unwrap().len(), 11);
    // One board per move and the start, each with all 81 holes.
    let drawing = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert_eq!(
        drawing.matches("<g transform=\"translate(0,").count() as u64,
        moves + 1
    );
    assert_eq!(drawing.matches("<circle").count() as u64, 81 * (moves + 1));
    // The moves replay through the CLI.
    let list: Vec<&str> = v["move_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let o = pegsol(&["replay", board, &list.join(" "), "--json"]);
    assert_eq!(json(&o)["pegs"], 1);
    // The basic game of the 66-hole triangle in a small budget: a proven lower bound, and
    // an upper bound with the line that gives it, the whole command within its timeout (the
    // proof and the line share it; 2 s of slack for a busy machine).
    let began = std::time::Instant::now();
    let o = pegsol(&[
        "shortest",
        "triangle:11",
        "--max-memory",
        "256",
        "--timeout",
        "5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(began.elapsed().as_secs_f64() < 7.0, "{:?}", began.elapsed());
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    let (lower, upper) = (
        v["lower_bound"].as_u64().unwrap(),
        v["upper_bound"].as_u64().unwrap(),
    );
    assert!(lower >= 1 && lower <= upper, "{lower} {upper}");
    assert_eq!(v["moves"].as_u64(), Some(upper));
    assert_eq!(v["jumps"].as_array().unwrap().len(), 64);
    // A count past its memory is undecided with its finished levels.
    let o = pegsol(&["count", "rect:9x9", "--empty", "e5", "--max-memory", "16"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).contains("raise --max-memory"), "{}", stdout(&o));
    // With --spill the same count fits in 4 MB: levels go to disk, and the figures are the
    // same as in memory (the time and memory fields aside).
    let spill = std::env::temp_dir().join(format!("pegsol-wide-spill-{}", std::process::id()));
    std::fs::create_dir_all(&spill).unwrap();
    let mut block = vec![".........".to_string(); 9];
    for row in &mut block[2..6] {
        *row = "..oooo...".into();
    }
    block[3] = "..o.oo...".into();
    let block = temp_board("block.txt", &(block.join("\n") + "\n"));
    let block = block.to_str().unwrap();
    let figures = |o: &Output| {
        let mut v = json(o);
        for f in ["millis", "peak_memory_mb"] {
            v.as_object_mut().unwrap().remove(f);
        }
        v
    };
    let free = pegsol(&["count", block, "--finish", "any:2", "--json"]);
    assert_eq!(free.status.code(), Some(0), "{}", stderr(&free));
    let tight = pegsol(&["count", block, "--finish", "any:2", "--max-memory", "4"]);
    assert_eq!(tight.status.code(), Some(3), "{}", stderr(&tight));
    assert!(stdout(&tight).contains("--spill DIR"), "{}", stdout(&tight));
    let spilled = pegsol(&[
        "count",
        block,
        "--finish",
        "any:2",
        "--max-memory",
        "4",
        "--spill",
        spill.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(spilled.status.code(), Some(0), "{}", stderr(&spilled));
    assert_eq!(figures(&spilled), figures(&free));
    assert_eq!(figures(&free)["solutions"], 311_206_372u64);
    assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
    fails_with(
        &["count", "rect:9x9", "--spill", "/no/such/dir"],
        "--spill /no/such/dir: no such directory",
    );
    // Pagoda cuts past 64 holes: what concerns winning play is exact.
    let cut = json(&pegsol(&[
        "count", block, "--finish", "any:2", "--pagoda", "--json",
    ]));
    assert_eq!(cut["pagoda_pruned"], true);
    for figure in ["solutions", "winning_positions"] {
        assert_eq!(cut[figure], figures(&free)[figure], "{figure}");
    }
    assert!(cut["positions"].as_u64() <= figures(&free)["positions"].as_u64());
    // On two workers of the count's dataflow: the same figures.
    let workers = pegsol(&[
        "count",
        block,
        "--finish",
        "any:2",
        "--workers",
        "2",
        "--json",
    ]);
    assert_eq!(workers.status.code(), Some(0), "{}", stderr(&workers));
    let (mut a, mut b) = (figures(&workers), figures(&free));
    for v in [&mut a, &mut b] {
        for f in [
            "threads",
            "workers",
            "records_exchanged",
            "bytes_exchanged",
            "method",
        ] {
            v.as_object_mut().unwrap().remove(f);
        }
    }
    assert_eq!(a, b);
    // `show --pagodas` past 64 holes: the named functions are of the board's shape, so a
    // square has none, as on 49 holes.
    let o = pegsol(&["show", "rect:9x9", "--pagodas"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no named pagoda functions"),
        "{}",
        stdout(&o)
    );
}

/// `check` on a board past 64 holes: the class proof, checked here from the holes'
/// coordinates (every set meets every jump in 0 or 2 holes, and each finish has the other
/// parity on its set); a solvable problem's line; the file options refused by name.
#[test]
fn check_on_boards_past_64_holes_gives_a_class_proof_that_checks() {
    let o = pegsol(&[
        "check",
        "rect:10x10",
        "--empty",
        "e5",
        "--finish",
        "any",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "refuted");
    let cell = |l: &str| {
        let col = i64::from(l.as_bytes()[0] - b'a');
        let row: i64 = l[1..].parse::<i64>().unwrap() - 1;
        (row, col)
    };
    let holes: Vec<(i64, i64)> = (0..10).flat_map(|r| (0..10).map(move |c| (r, c))).collect();
    let on = |&(r, c): &(i64, i64)| (0..10).contains(&r) && (0..10).contains(&c);
    let sets: Vec<std::collections::HashSet<(i64, i64)>> = v["certificate"]["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["holes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| cell(h.as_str().unwrap()))
                .collect()
        })
        .collect();
    for (s, view) in sets
        .iter()
        .zip(v["certificate"]["sets"].as_array().unwrap())
    {
        for &(r, c) in &holes {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let line = [(r, c), (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)];
                if line.iter().all(on) {
                    let met = line.iter().filter(|h| s.contains(h)).count();
                    assert!(met == 0 || met == 2, "{line:?}");
                }
            }
        }
        // The start: every hole but e5.
        let start = s.iter().filter(|&&h| h != cell("e5")).count() as u64;
        assert_eq!(view["start_count"].as_u64(), Some(start));
    }
    let finishes = v["certificate"]["finishes"].as_array().unwrap();
    assert_eq!(finishes.len(), 100);
    for f in finishes {
        let hole = cell(f["finish"][0].as_str().unwrap());
        let set = &sets[f["set"].as_u64().unwrap() as usize];
        let start = set.iter().filter(|&&h| h != cell("e5")).count();
        assert_ne!(usize::from(set.contains(&hole)) % 2, start % 2, "{f}");
    }
    let o = pegsol(&[
        "check",
        "triangle:11",
        "--empty",
        "a1",
        "--finish",
        "any",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["status"], "solvable");
    assert_eq!(json(&o)["jumps"].as_array().unwrap().len(), 64);
}

/// A picture of `rows` x `cols` holes on `lattice` (some cut out by `seed`, to vary the
/// shape) with pegs on `pegs` (row, column) and the other holes empty.
fn wide_picture(
    lattice: &str,
    rows: usize,
    cols: usize,
    seed: u64,
    pegs: &[(usize, usize)],
) -> String {
    let mut text = format!("lattice: {lattice}\ncolumns: exact\n");
    for r in 0..rows {
        let line: String = (0..cols)
            .map(|c| {
                let cut = seed != 0 && (r * 31 + c * 17 + seed as usize).is_multiple_of(11);
                if pegs.contains(&(r, c)) {
                    'o'
                } else if cut {
                    ' '
                } else {
                    '.'
                }
            })
            .collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// Certificates on boards past 64 holes: written by `check` and by `solve`, verified by
/// `pegsol verify` and by the Python checker (neither shares the solver's code), and a
/// tampered file rejected. Random boards of 65 to 120 holes with a few pegs, to one peg,
/// any two pegs or one far hole.
#[test]
fn certificates_past_64_holes_verify_independently_and_tampering_is_caught() {
    let (python, script) = (python(), PY_CHECKER);
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 1..=36u64 {
        let lattice = ["orthogonal", "triangular", "diagonal"][(seed / 3 % 3) as usize];
        let (rows, cols) = [(9, 9), (8, 11), (10, 12), (6, 20)][(seed % 4) as usize];
        let (r, c) = (
            (seed as usize * 5) % (rows - 2),
            (seed as usize * 7) % (cols - 3),
        );
        let pegs: Vec<(usize, usize)> = match seed / 9 % 4 {
            0 => vec![(r, c), (r, c + 1)],
            1 => vec![(r, c), (r, c + 1), (r + 1, c + 1)],
            2 => vec![(r, c), (r, c + 2)],
            _ => vec![(r, c), (r, c + 1), (r, c + 3)],
        };
        let picture = wide_picture(lattice, rows, cols, seed, &pegs);
        let board = temp_board(&format!("wide-{seed}.txt"), &picture);
        let board = board.to_str().unwrap();
        // A far corner, kept in the picture (no cut falls on it: checked by the hole count).
        let far = format!("{}{}", (b'a' + (cols - 1) as u8) as char, rows);
        let finish = ["any", "any:2", far.as_str()][(seed % 3) as usize];
        let cert =
            std::env::temp_dir().join(format!("pegsol-wcert-{}-{seed}.json", std::process::id()));
        let cert_s = cert.to_str().unwrap();
        let o = pegsol(&[
            "check",
            board,
            "--finish",
            finish,
            "--json",
            "--certificate",
            cert_s,
        ]);
        if o.status.code() == Some(2) {
            assert!(
                stderr(&o).contains("no hole") || stderr(&o).contains("more pegs"),
                "{}",
                stderr(&o)
            );
            continue;
        }
        let v = json(&o);
        let kind = v["certificate"]["kind"]
            .as_str()
            .unwrap_or("none")
            .to_string();
        *kinds
            .entry(format!("{} {kind}", v["status"].as_str().unwrap()))
            .or_insert(0) += 1;
        if v["certificate"].is_null() {
            assert!(
                !cert.exists(),
                "{board}: a file with no proof in the answer"
            );
            continue;
        }
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(v["certificate"]["file"], cert_s);
        let checked = pegsol(&["verify", cert_s, "--json"]);
        assert_eq!(
            checked.status.code(),
            Some(0),
            "{board}: {}",
            stdout(&checked)
        );
        assert_eq!(json(&checked)["kind"], kind.as_str());
        if python {
            let py = python_command().args([script, cert_s]).output().unwrap();
            assert_eq!(py.status.code(), Some(0), "{board}: {}", stdout(&py));
        }
        let original: Value =
            serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
        // A search set without its last member is not closed (the member was added as a
        // new child of an earlier one): rejected by both checkers.
        let mut c = original.clone();
        let positions = c["positions"].as_array_mut();
        if let Some(list) = positions.filter(|l| l.len() > 1) {
            list.pop();
            std::fs::write(&cert, c.to_string()).unwrap();
            let (rust, py) = verify_both(cert_s, python.then_some(script));
            assert_eq!(rust.status.code(), Some(1), "{board}: {}", stdout(&rust));
            if let Some(py) = py {
                assert_ne!(py.status.code(), Some(0), "{board}: {}", stdout(&py));
            }
        }
        // Claiming that the start cannot reach itself is false: rejected whatever the kind.
        let mut c = original;
        c["finishes"] = Value::from(vec![c["start"].clone()]);
        std::fs::write(&cert, c.to_string()).unwrap();
        let tampered = pegsol(&["verify", cert_s]);
        assert_eq!(
            tampered.status.code(),
            Some(1),
            "{board}: {}",
            stdout(&tampered)
        );
        let _ = std::fs::remove_file(&cert);
    }
    println!("{kinds:?}");
    for wanted in [
        "refuted class",
        "refuted pagoda",
        "refuted search",
        "solvable none",
    ] {
        assert!(
            kinds.get(wanted).copied().unwrap_or(0) >= 2,
            "{wanted}: {kinds:?}"
        );
    }

    // `solve --certificate` on the 9x9 square: two pegs in a corner never reach i7.
    let two = temp_board(
        "two-pegs-9x9.txt",
        &wide_picture("orthogonal", 9, 9, 0, &[(0, 0), (0, 1)]),
    );
    let cert = std::env::temp_dir().join(format!("pegsol-wsolve-{}.json", std::process::id()));
    let cert_s = cert.to_str().unwrap();
    let o = pegsol(&[
        "solve",
        two.to_str().unwrap(),
        "--finish",
        "i7",
        "--certificate",
        cert_s,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "impossible");
    assert_eq!(v["certificate"]["kind"], "pagoda", "{v}");
    let checked = pegsol(&["verify", cert_s]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
    assert!(stdout(&checked).contains("verified (pagoda, a board of 81 holes"));
    let _ = std::fs::remove_file(&cert);

    // `--pagoda FILE` on a wide board: the constant function is valid and refutes nothing;
    // a lone weight breaks the jump into it, named.
    let ones = temp_board("ones-9x9.txt", &"1 1 1 1 1 1 1 1 1\n".repeat(9));
    let o = pegsol(&[
        "check",
        two.to_str().unwrap(),
        "--finish",
        "i7",
        "--pagoda",
        ones.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("a valid pagoda function"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("does not refute"), "{}", stdout(&o));
    let mut lone = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    lone.replace_range(0..1, "1");
    let lone = temp_board("lone-9x9.txt", &lone);
    fails_with(
        &[
            "check",
            two.to_str().unwrap(),
            "--finish",
            "i7",
            "--pagoda",
            lone.to_str().unwrap(),
        ],
        "not a pagoda function: jump c1-a1 breaks it",
    );
}

/// The 66-hole triangle from a corner to one peg anywhere, answered in JSON: a command's
/// arguments after its name.
const TRIANGLE_11_ANY: [&str; 6] = ["triangle:11", "--empty", "a1", "--finish", "any", "--json"];

/// The keys of a JSON object, and of the objects under it, as `parent.key` paths; the
/// objects of a list as `list[].key` (every item's keys, so a list of objects of two shapes
/// shows both).
fn key_paths(v: &Value, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let path = format!("{prefix}{k}");
                key_paths(child, &format!("{path}."), out);
                out.insert(path);
            }
        }
        Value::Array(items) => {
            let list = format!("{}[].", prefix.trim_end_matches('.'));
            for item in items {
                key_paths(item, &list, out);
            }
        }
        _ => {}
    }
}

/// One answer per command whatever the board's size: `solve` (with `--fewest-moves` too),
/// `shortest`, `count`, `hint`, `ends`, `check`, `catalog`, `show` and `replay` on boards of
/// up to 64 holes and past them (solved, impossible, undecided and hinted alike) give the same
/// keys, and the web API the same objects.
#[test]
fn every_command_answers_alike_on_33_and_66_holes() {
    let keys = |args: &[&str]| {
        let o = pegsol(args);
        let mut k = std::collections::BTreeSet::new();
        key_paths(&json(&o), "", &mut k);
        k
    };
    let large = |command: &str| keys(&[&[command][..], &TRIANGLE_11_ANY].concat());
    let solved = large("solve");
    assert_eq!(keys(&["solve", "english", "--json"]), solved);
    assert!(
        solved.contains("stats.nodes") && solved.contains("class"),
        "{solved:?}"
    );
    let small = keys(&["solve", "french", "--finish", "any", "--json"]);
    assert_eq!(
        small,
        keys(&["solve", "rect:16x16", "--finish", "b1", "--json"])
    );
    assert_eq!(keys(&["hint", "english", "--json"]), large("hint"));
    // The rest, each a pair of the same kind of answer on the two sizes.
    // A few pegs on the 9x9 square, for a count past 64 holes that ends at once.
    let few = temp_board(
        "few-9x9.txt",
        &wide_picture("orthogonal", 9, 9, 0, &[(3, 3), (3, 4), (4, 4), (4, 5)]),
    );
    let few = few.to_str().unwrap();
    let pairs: [(&[&str], &[&str]); 11] = [
        (
            &["solve", "triangle5", "--fewest-moves"],
            &[
                "solve",
                "triangle:11",
                "--empty",
                "a1",
                "--finish",
                "any",
                "--fewest-moves",
                "--timeout",
                "2",
                "--max-memory",
                "256",
            ],
        ),
        (
            &["shortest", "triangle5"],
            &[
                "shortest",
                "triangle:11",
                "--timeout",
                "2",
                "--max-memory",
                "256",
            ],
        ),
        (&["count", "triangle:5", "--empty", "a1"], &["count", few]),
        (
            &["count", "triangle5", "--solutions"],
            &["count", few, "--finish", "e5", "--solutions"],
        ),
        (
            &["ends", "english"],
            &["ends", "triangle:11", "--empty", "a1"],
        ),
        (
            &["check", "english"],
            &["check", "triangle:11", "--empty", "a1", "--finish", "any"],
        ),
        (
            &["check", "english", "--finish", "c4"],
            &["check", "triangle:11", "--empty", "a1", "--finish", "b2"],
        ),
        (
            &["catalog", "english", "--finish", "any"],
            &["catalog", "triangle:11", "--finish", "any"],
        ),
        (
            &["show", "english"],
            &["show", "triangle:11", "--empty", "a1"],
        ),
        (
            &["show", "english", "--pagodas"],
            &["show", "triangle:11", "--empty", "a1", "--pagodas"],
        ),
        (
            &["replay", "english", "d2-d4"],
            &["replay", "triangle:11", "--empty", "a1", "a3-a1"],
        ),
    ];
    for (small, large) in pairs {
        let json_of = |args: &[&str]| {
            let mut a = args.to_vec();
            if !a.contains(&"--json") {
                a.push("--json");
            }
            keys(&a)
        };
        let (a, b) = (json_of(small), json_of(large));
        assert!(!a.is_empty(), "{small:?}");
        assert_eq!(a, b, "{small:?} against {large:?}");
    }
    let server = common::Server::start("2");
    // Two pegs on a 6x11 rectangle, pasted as a picture: every hole decided at once (the
    // 66-hole triangle's ends take more than this server's 2 s).
    let two = serde_json::json!({
        "board": format!("{}...oo......\n{}", "...........\n".repeat(2), "...........\n".repeat(3))
    })
    .to_string();
    for path in ["/api/solve", "/api/hint", "/api/check", "/api/ends"] {
        let (_, small) = server.post(path, r#"{"board": "english"}"#);
        let (_, large) = if path == "/api/ends" {
            server.post(path, &two)
        } else {
            server.post(
                path,
                r#"{"board": "triangle:11", "empty": ["a1"], "finish": "any"}"#,
            )
        };
        let (mut a, mut b) = (Default::default(), Default::default());
        key_paths(&small, "", &mut a);
        key_paths(&large, "", &mut b);
        assert_eq!(a, b, "{path}");
    }
}
