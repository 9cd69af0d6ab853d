//! The `pegsol` binary end to end: outputs, JSON shape, exit codes and error messages.

use std::io::Write;
use std::process::{Command, Output};

use serde_json::Value;

mod common;

use common::{pegsol, python, replay_line, stderr, stdout, verify_both, PY_CHECKER};

/// Runs `pegsol args` and checks it fails as bad input (exit 2) with `message` on stderr.
fn fails_with(args: &[&str], message: &str) {
    let o = pegsol(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON object")
}

fn temp_board(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pegsol-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    path
}

#[test]
fn solve_english_prints_31_jumps_and_the_final_board() {
    let o = pegsol(&["solve", "english"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("solved: 31 jumps"), "{out}");
    assert!(out.contains("position class"), "{out}");
    assert!(out.contains("4 . . . o . . ."), "{out}");
}

#[test]
fn solve_json_has_every_field() {
    let o = pegsol(&["solve", "english", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["board"], "english");
    assert_eq!(v["empty"], serde_json::json!(["d4"]));
    assert_eq!(v["finish"], serde_json::json!(["d4"]));
    assert_eq!(v["status"], "solved");
    assert!(v["reason"].is_null());
    assert_eq!(v["jumps"].as_array().unwrap().len(), 31);
    let moves = v["moves"].as_u64().unwrap();
    assert!((18..=31).contains(&moves));
    assert_eq!(v["move_list"].as_array().unwrap().len() as u64, moves);
    for key in ["nodes", "dead", "millis"] {
        assert!(v["stats"][key].is_u64(), "{key}");
    }
    // The printed jumps replay through the CLI's own checker to the finish.
    let line: Vec<String> = v["jumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap().to_string())
        .collect();
    let r = pegsol(&["replay", "english", &line.join(" "), "--json"]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(json(&r)["final"], serde_json::json!(["d4"]));
}

#[test]
fn every_english_finish_is_solved() {
    for finish in ["d4", "d1", "a4", "g4", "d7"] {
        let o = pegsol(&["solve", "english", "--finish", finish, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{finish}");
        assert_eq!(json(&o)["final"], serde_json::json!([finish]));
    }
}

#[test]
fn french_is_impossible_by_class() {
    let o = pegsol(&["solve", "french", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["status"], "impossible");
    assert_eq!(v["reason"], "position class");
    let o = pegsol(&["ends", "french", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["ends"].as_array().unwrap().len(), 0);
    assert_eq!(v["impossible"].as_array().unwrap().len(), 37);
}

#[test]
fn ends_english_lists_exactly_the_five_holes() {
    let o = pegsol(&["ends", "english", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    let ends: Vec<&str> = v["ends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["hole"].as_str().unwrap())
        .collect();
    assert_eq!(ends, ["d1", "a4", "d4", "g4", "d7"]);
    for e in v["ends"].as_array().unwrap() {
        assert_eq!(e["jumps"].as_array().unwrap().len(), 31);
    }
    let impossible = v["impossible"].as_array().unwrap();
    assert_eq!(impossible.len(), 28);
    assert!(impossible.iter().all(|i| i["reason"] == "position class"));
}

#[test]
fn board_files_in_both_picture_styles() {
    let seed =
        "    o o o\n    o o o\no o o o o o o\no o o . o o o\no o o o o o o\n    o o o\n    o o o\n";
    let path = temp_board("seed.txt", seed);
    let o = pegsol(&["solve", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["finish"], serde_json::json!(["d4"]));
    // Two vacancies, finish anywhere by default.
    let path = temp_board("small.txt", "ooo\no.o\noo.\n");
    let o = pegsol(&["solve", path.to_str().unwrap(), "--json"]);
    let v = json(&o);
    assert_eq!(v["finish"], "any");
    assert!(o.status.code() == Some(0) || o.status.code() == Some(1));
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["solve".into(), "nosuchboard".into()], "unknown board"),
        (
            vec![
                "solve".into(),
                "english".into(),
                "--empty".into(),
                "z9".into(),
            ],
            "no hole \"z9\"",
        ),
        (
            vec![
                "solve".into(),
                "english".into(),
                "--finish".into(),
                "4d".into(),
            ],
            "bad hole label",
        ),
        (vec!["solve".into(), "rect:16x17".into()], "bad rectangle"),
        (
            vec!["count".into(), "rect:9x9".into(), "--solutions".into()],
            "board rect:9x9 has 81 holes: --solutions takes boards of up to 64 holes",
        ),
        (
            vec![
                "solve".into(),
                "english".into(),
                "--finish".into(),
                "".into(),
            ],
            "names no holes",
        ),
        (
            vec![
                "solve".into(),
                "english".into(),
                "--timeout".into(),
                "0".into(),
            ],
            "--timeout must be a positive",
        ),
        (
            vec!["replay".into(), "english".into(), "d2-d4 d2-d4".into()],
            "jump 2 (d2-d4) is illegal",
        ),
        (vec!["bogus".into()], "unrecognized subcommand"),
        (
            vec![
                "count".into(),
                "triangle5".into(),
                "--threads".into(),
                "0".into(),
            ],
            "0 is not in 1..=1024",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_with(&args, message);
    }
    let path = temp_board("bad.txt", "ooo\noo#\n");
    fails_with(&["solve", path.to_str().unwrap()], "line 2, column 3");
    let path = temp_board("empty.txt", "   \n");
    fails_with(&["show", path.to_str().unwrap()], "no holes");
}

#[test]
fn budgets_give_exit_3_and_say_why() {
    // 1 MB: too little for the 45-hole board's game (the French board's c1 to e4, asked here
    // before, now fits: the guided search's first width finds it).
    let o = pegsol(&["solve", "wiegleb", "--max-memory", "1"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("undecided within budget"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("--max-memory"));
    // The 45-hole board from e1 back to e1: no answer is known, and none comes in 50 ms.
    let o = pegsol(&[
        "solve",
        "wiegleb",
        "--empty",
        "e1",
        "--finish",
        "e1",
        "--timeout",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    assert_eq!(v["reason"], "time budget");
}

#[test]
fn boards_and_show() {
    let o = pegsol(&["boards"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for name in ["english", "french", "wiegleb", "diamond", "rect:RxC"] {
        assert!(out.contains(name), "{name}");
    }
    let v = json(&pegsol(&["boards", "--json"]));
    let english = &v["boards"][0];
    assert_eq!(english["holes"], "33");
    assert_eq!(english["vacancy"], serde_json::json!(["d4"]));
    let v = json(&pegsol(&["show", "english", "--json"]));
    assert_eq!(v["classes"], 16);
    assert_eq!(v["symmetries"], 8);
    assert_eq!(v["invariants"].as_array().unwrap().len(), 4);
}

#[test]
fn line_solves_and_explains() {
    let v = json(&pegsol(&["line", "11110", "--json"]));
    assert_eq!(v["config_length"], 5);
    assert_eq!(v["min_pegs"], 2);
    assert_eq!(v["solvable"], false);
    assert_eq!(v["pieces"], serde_json::json!([[0, 2], [2, 5]]));
    assert_eq!(v["jumps"].as_array().unwrap().len(), 2);
    let v = json(&pegsol(&["line", "0001011000", "--json"]));
    assert_eq!(v["min_pegs"], 1);
    assert_eq!(v["solvable"], true);
    let o = pegsol(&["line", "1011011"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("reduces to 2 peg(s)"));
    let o = pegsol(&["line", "--regex"]);
    assert_eq!(stdout(&o).trim(), pegsol::one_dimensional::REGEX);
}

#[test]
fn line_reads_stdin_and_summarises() {
    use std::process::Stdio;
    let config: String = (0..200_000)
        .map(|i| if i % 3 == 2 { '0' } else { '1' })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegsol"))
        .args(["line", "-", "--json", "--summary"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(config.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["config_length"], 200_000);
    assert!(v.get("jumps").is_none());
    assert!(v["min_pegs"].as_u64().unwrap() >= 1);
}

#[test]
fn line_bad_input_names_the_position() {
    fails_with(&["line", "10x1"], "index 2");
    fails_with(&["line", ""], "empty configuration");
}

#[test]
fn count_triangle_json() {
    let o = pegsol(&[
        "count",
        "triangle:5",
        "--empty",
        "a1",
        "--finish",
        "any",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["solutions"], 29760);
    assert_eq!(v["levels"].as_array().unwrap().len(), 14);
    assert_eq!(v["levels"][0]["positions"], 1);
    for key in [
        "positions",
        "positions_up_to_symmetry",
        "winning_positions",
        "winning_positions_up_to_symmetry",
        "games",
        "millis",
        "peak_memory_mb",
        "threads",
    ] {
        assert!(v[key].is_u64(), "{key}");
    }
    // The thread count asked for is the one used and reported.
    let o = pegsol(&["count", "triangle5", "--threads", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).trim_end().ends_with(", 1 thread"),
        "{}",
        stdout(&o)
    );
    let o = pegsol(&["count", "triangle5", "--threads", "3", "--json"]);
    assert_eq!(json(&o)["threads"], 3);
    let o = pegsol(&["count", "english", "--max-memory", "1"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stdout(&o).contains("undecided within budget"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_explains_and_verifies() {
    // The French centre start against any single peg: refuted by class, counts shown.
    let o = pegsol(&["check", "french", "--finish", "any", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["status"], "refuted");
    assert_eq!(v["certificate"]["kind"], "class");
    assert_eq!(v["certificate"]["finishes"].as_array().unwrap().len(), 37);
    // The English centre game is not refuted: the proof search reaches the finish.
    let o = pegsol(&["check", "english", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["status"], "solvable");
    // One the budget cannot decide is open, exit 3.
    let o = pegsol(&[
        "check",
        "wiegleb",
        "--empty",
        "e1",
        "--finish",
        "e1",
        "--timeout",
        "0.5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&o)["status"], "open");
    // Pegs on the bottom rows cannot leave one peg far up (d2): the classes allow it, a
    // pagoda function with exact integer weights refutes it.
    let o = pegsol(&[
        "check",
        "english",
        "--empty",
        "c1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3,a4,b4,c4,d4,e4,f4,g4",
        "--finish",
        "d2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["certificate"]["kind"], "pagoda");
    let s = v["certificate"]["start_total"].as_i64().unwrap();
    let f = v["certificate"]["finish_total"].as_i64().unwrap();
    assert!(s < f);
    assert_eq!(v["certificate"]["weights"].as_object().unwrap().len(), 33);
    // A user's weights: a valid Fibonacci row refutes; a broken one names the jump.
    let good = temp_board("good.txt", "1 1 2 3 5\n");
    let o = pegsol(&[
        "check",
        "rect:1x5",
        "--empty",
        "c1,d1,e1",
        "--finish",
        "e1",
        "--pagoda",
        good.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("start total 2, finish total 5"));
    let bad = temp_board("bad_weights.txt", "1 1 3 3 5\n");
    fails_with(
        &[
            "check",
            "rect:1x5",
            "--empty",
            "c1,d1,e1",
            "--finish",
            "e1",
            "--pagoda",
            bad.to_str().unwrap(),
        ],
        "jump a1-c1 breaks it",
    );
    let short = temp_board("short_weights.txt", "1 1/2 x\n");
    fails_with(
        &["check", "rect:1x5", "--pagoda", short.to_str().unwrap()],
        "one weight per hole",
    );
}

#[test]
fn fewest_moves_json_and_text() {
    let o = pegsol(&[
        "solve",
        "triangle5",
        "--empty",
        "c3",
        "--finish",
        "any",
        "--fewest-moves",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["moves"], 9);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["lower_bound"], 9);
    let list = v["move_list"].as_array().unwrap();
    assert_eq!(list.len(), 9);
    // Each move names the holes its peg visits ("a1-c1-c3"); together they make the 13 jumps.
    let jumps: usize = list
        .iter()
        .map(|m| m.as_str().unwrap().split('-').count() - 1)
        .sum();
    assert_eq!(jumps, 13);
    assert_eq!(v["jumps"].as_array().unwrap().len(), 13);

    let o = pegsol(&["solve", "triangle5", "--empty", "a1", "--fewest-moves"]);
    let text = stdout(&o);
    // a1 to a1 on the 15-hole triangle is solvable (the complement problem).
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("proven optimal"), "{text}");
    assert!(text.contains("replayed and checked"), "{text}");
}

#[test]
fn fewest_moves_within_a_budget_reports_both_bounds() {
    // Too little time for the proof: the first solution is the upper bound and the eight
    // corner pegs (or the meeting's levels) the lower one.
    let o = pegsol(&[
        "solve",
        "english",
        "--fewest-moves",
        "--timeout",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    assert_eq!(v["optimal"], false);
    // Corner pegs give 8; the levels searched from both ends before the budget ran out may
    // give more, but never past the optimum.
    let lower = v["lower_bound"].as_u64().unwrap();
    assert!((8..=18).contains(&lower), "{lower}");
    let moves = v["moves"].as_u64().unwrap();
    assert!(moves >= 18, "{moves}");
    assert_eq!(v["move_list"].as_array().unwrap().len() as u64, moves);

    let o = pegsol(&["solve", "french", "--fewest-moves"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("impossible: position class"));
}

#[test]
fn solve_svg_writes_a_strip_of_boards() {
    let path = std::env::temp_dir().join(format!("pegsol-strip-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let o = pegsol(&[
        "solve",
        "triangle5",
        "--finish",
        "any",
        "--fewest-moves",
        "--svg",
        p,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    // The start and one frame per move (10 moves from a1), 15 holes each.
    assert_eq!(svg.matches("<circle").count(), 11 * 15);
    assert!(svg.contains(">10. "));
    let o = pegsol(&["solve", "english", "--svg", "/nonexistent-dir/x.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write /nonexistent-dir/x.svg"));
}

#[test]
fn army_rows_and_conways_proof() {
    for (row, men) in [("1", 2), ("2", 4), ("3", 8), ("4", 20)] {
        let o = pegsol(&["army", "--row", row, "--json"]);
        assert_eq!(o.status.code(), Some(0), "row {row}");
        let v = json(&o);
        assert_eq!(v["men"], men, "row {row}");
        assert_eq!(v["minimal"], true);
        assert_eq!(v["army"].as_array().unwrap().len(), men);
        assert_eq!(v["jumps"].as_array().unwrap().len(), men - 1);
        // Every man starts on or below the line.
        assert!(v["army"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c[1].as_i64().unwrap() <= 0));
    }
    let o = pegsol(&["army", "--row", "5"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.contains("impossible for any finite army"), "{text}");
    assert!(text.contains("= 1 = 1.000000 (exactly 1)"), "{text}");
    // The other lattices: the published minima of their first rows (OEIS A125730 and
    // A014227), and the pagoda proof past their last row.
    for (lattice, minima, out_of_reach) in [
        ("diagonal", [2, 3, 5, 8], "9"),
        ("triangular", [2, 3, 5, 9], "8"),
    ] {
        for (row, men) in (1..).zip(minima) {
            let row = row.to_string();
            let o = pegsol(&["army", "--row", &row, "--lattice", lattice, "--json"]);
            assert_eq!(o.status.code(), Some(0), "{lattice} row {row}");
            let v = json(&o);
            assert_eq!(
                (v["men"].as_u64(), &v["minimal"]),
                (Some(men), &Value::Bool(true))
            );
            assert_eq!(v["lattice"], lattice);
        }
        let o = pegsol(&[
            "army",
            "--row",
            out_of_reach,
            "--lattice",
            lattice,
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(1), "{lattice}");
        let v = json(&o);
        assert_eq!(v["status"], "impossible");
        assert!(v["proof"].as_str().unwrap().contains("less than 1"));
    }
    fails_with(
        &["army", "--row", "3", "--lattice", "hexagonal"],
        "unknown lattice",
    );
    fails_with(
        &[
            "army",
            "--row",
            "3",
            "--lattice",
            "diagonal",
            "--width",
            "30",
        ],
        "more than 256",
    );
    let o = pegsol(&["army", "--row", "4", "--timeout", "0.2"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("undecided within budget"));
    fails_with(&["army", "--row", "0"], "--row");
}

#[test]
fn count_with_pagoda_pruning_keeps_the_winning_figures() {
    // The second game finishes at its start's complement: its winning set comes from mirror
    // levels, which pruning must not change either.
    for (board, empty, finish) in [("rect:5x5", "c1", "c5"), ("rect:4x6", "b2", "b2")] {
        let args = [
            "count", board, "--empty", empty, "--finish", finish, "--json",
        ];
        let full = json(&pegsol(&args));
        let mut pruned_args = args.to_vec();
        pruned_args.push("--pagoda");
        let pruned = json(&pegsol(&pruned_args));
        assert_eq!(pruned["pagoda_pruned"], true);
        for key in [
            "solutions",
            "winning_positions",
            "winning_positions_up_to_symmetry",
        ] {
            assert_eq!(full[key], pruned[key], "{board} {key}");
        }
        assert!(full["solutions"].as_u64().unwrap() > 0, "{board}");
        assert!(
            pruned["positions"].as_u64().unwrap() < full["positions"].as_u64().unwrap(),
            "{board}"
        );
    }
}

#[test]
fn finish_with_n_pegs_anywhere() {
    // The French board from the centre cannot end with one peg, but can with two.
    let o = pegsol(&["solve", "french", "--finish", "any", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let o = pegsol(&["solve", "french", "--finish", "any:2", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["finish"], "any:2");
    assert_eq!(v["final"].as_array().unwrap().len(), 2);
    assert_eq!(v["jumps"].as_array().unwrap().len(), 34);
    fails_with(
        &["solve", "french", "--finish", "any:0"],
        "finish names no holes",
    );
    fails_with(
        &["solve", "french", "--finish", "any:x"],
        "any:N needs a number",
    );
    fails_with(
        &["solve", "french", "--finish", "any:9"],
        "too many positions",
    );
}

#[test]
fn count_spills_to_disk_within_a_small_budget() {
    let dir = std::env::temp_dir().join(format!("pegsol-spill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = [
        "count",
        "triangle6",
        "--empty",
        "c3",
        "--finish",
        "any",
        "--json",
    ];
    let full = json(&pegsol(&base));
    assert_eq!(full["status"], "counted");
    // Without --spill a 1 MB budget is not enough: exit 3 with advice.
    let mut small = base.to_vec();
    small.extend(["--max-memory", "1"]);
    let o = pegsol(&small);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("--spill DIR"), "{}", stdout(&o));
    // It says why, as JSON, with the levels it finished: the same as the full count's.
    let v = json(&o);
    assert_eq!(v["reason"], "memory budget");
    let done = v["levels_finished"].as_array().expect("levels_finished");
    assert!(!done.is_empty() && done.len() < full["levels"].as_array().unwrap().len());
    for (l, f) in done.iter().zip(full["levels"].as_array().unwrap()) {
        for key in ["jumps", "positions", "classes", "dead_ends", "paths"] {
            assert_eq!(l[key], f[key], "{key}");
        }
    }
    let mut spilled = small.clone();
    spilled.extend(["--spill", dir.to_str().unwrap()]);
    let o = pegsol(&spilled);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    for key in [
        "levels",
        "positions",
        "winning_positions",
        "solutions",
        "games",
    ] {
        assert_eq!(v[key], full[key], "{key}");
    }
    // The scratch files are gone.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir(&dir).ok();
    fails_with(
        &["count", "triangle5", "--spill", "/nonexistent-pegsol-dir"],
        "no such directory",
    );
    // A time budget stops at a level boundary and says how far the count got.
    let o = pegsol(&["count", "english", "--timeout", "0.2"]);
    assert_eq!(o.status.code(), Some(3));
    let text = stdout(&o);
    assert!(text.contains("the time budget ran out"), "{text}");
    assert!(text.contains("were finished: level"), "{text}");
    // Every finished level's forward figures are printed, from the start on.
    assert!(text.contains("their forward figures"), "{text}");
    assert!(
        text.contains(
            "\n    0   32              1            1            0                          1\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "\n    2   30             12            2            0                         12\n"
        ),
        "{text}"
    );
    // The same as JSON, with why it stopped.
    let o = pegsol(&["count", "english", "--timeout", "0.2", "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    assert_eq!(v["reason"], "time budget");
    let done = v["levels_finished"].as_array().expect("levels_finished");
    // Positions after 0 to 4 jumps, as far as the count got.
    for (l, want) in done.iter().zip([1u64, 4, 12, 60, 296]) {
        assert_eq!(l["positions"].as_u64(), Some(want), "{l}");
        assert!(
            l.get("winning").is_none(),
            "winning is unknown until every level is: {l}"
        );
    }
    assert!(!done.is_empty(), "{v}");
    fails_with(
        &["count", "english", "--timeout", "0"],
        "--timeout must be a positive number",
    );
}

#[test]
fn shortest_basic_game_of_the_15_hole_triangle() {
    let o = pegsol(&["shortest", "triangle5", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["starts"], "every single vacancy");
    assert_eq!(
        (v["moves"].as_u64(), v["lower_bound"].as_u64()),
        (Some(9), Some(9))
    );
    assert_eq!(v["optimal"], true);
    assert_eq!(v["move_list"].as_array().unwrap().len(), 9);
    assert_eq!(v["jumps"].as_array().unwrap().len(), 13);
    assert_eq!(v["final"].as_array().unwrap().len(), 1);
    let depths = v["depths"].as_array().unwrap();
    assert_eq!(
        depths[0].as_u64().unwrap() + depths[1].as_u64().unwrap() + 1,
        9
    );
    // The printed line replays from the printed vacancy to the printed final hole.
    let empty = v["empty"][0].as_str().unwrap();
    let jumps: Vec<&str> = v["jumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    let r = pegsol(&[
        "replay",
        "triangle5",
        "--empty",
        empty,
        &jumps.join(" "),
        "--json",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(json(&r)["final"], v["final"]);

    let text = stdout(&pegsol(&["shortest", "triangle6"]));
    assert!(
        text.contains("9 moves (19 jumps), proven optimal"),
        "{text}"
    );
    assert!(
        text.contains("final position (replayed and checked)"),
        "{text}"
    );
}

#[test]
fn shortest_single_problems_budgets_and_errors() {
    // One problem: the 15-hole corner start to the corner needs 10 moves (Bell's catalog).
    let v = json(&pegsol(&[
        "shortest",
        "triangle5",
        "--empty",
        "a1",
        "--finish",
        "a1",
        "--json",
    ]));
    assert_eq!(
        (v["moves"].as_u64(), v["empty"][0].as_str()),
        (Some(10), Some("a1"))
    );
    // Impossible: b3 empty cannot finish on a1 (position class), and both searches run dry.
    let o = pegsol(&["shortest", "triangle5", "--empty", "b3", "--finish", "a1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("impossible"), "{}", stdout(&o));
    // A tiny budget: exit 3 with a proven lower bound (the meeting on wide positions goes
    // on where this one stops, and its beam gives an upper bound with its line).
    let o = pegsol(&[
        "shortest",
        "triangle7",
        "--max-memory",
        "1",
        "--timeout",
        "5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    assert!(v["lower_bound"].as_u64().unwrap() >= 2);
    let text = stdout(&pegsol(&[
        "shortest",
        "triangle7",
        "--max-memory",
        "1",
        "--timeout",
        "5",
    ]));
    assert!(
        text.contains("the meeting on wide positions goes on"),
        "{text}"
    );
    fails_with(&["shortest", "triangle5", "--empty", "z9"], "--empty");
    fails_with(&["shortest", "nosuchboard"], "unknown board");
    fails_with(&["shortest", "triangle5", "--finish", "any:0"], "finish");
}

/// Runs `pegsol args` in the directory `dir`.
fn pegsol_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pegsol"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

#[test]
fn built_in_names_win_over_files_and_file_errors_are_precise() {
    let dir = std::env::temp_dir().join(format!("pegsol-names-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("boards")).unwrap();
    // A file called `english` here is not the English board unless written as a path.
    std::fs::write(dir.join("english"), "ooo.\n").unwrap();
    std::fs::write(dir.join("mine"), "ooo.\n").unwrap();
    let o = pegsol_in(&dir, &["show", "english", "--json"]);
    assert_eq!(json(&o)["holes"], 33);
    let o = pegsol_in(&dir, &["show", "./english", "--json"]);
    assert_eq!(json(&o)["holes"], 4, "{}", stderr(&o));
    let o = pegsol_in(&dir, &["show", "mine"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("write ./mine"), "{}", stderr(&o));
    let o = pegsol_in(&dir, &["show", "boards/"]);
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    fails_with(&["show", "/dev/null"], "no holes");
    fails_with(
        &["show", "./no-such-file.txt"],
        "cannot read board file ./no-such-file.txt",
    );
    fails_with(&["show", "nosuchboard"], "unknown board \"nosuchboard\"");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn precise_messages_for_jumps_repeats_and_headers() {
    fails_with(&["replay", "english", "d2-d3"], "d3 is next to d2");
    fails_with(&["replay", "english", "d2-f4"], "not two holes apart");
    fails_with(
        &["solve", "english", "--empty", "d4,d4"],
        "hole d4 is named twice",
    );
    fails_with(&["solve", "english", "--finish", "d4 d4"], "named twice");
    let twice = temp_board(
        "twice.txt",
        "lattice: diagonal\nlattice: orthogonal\nooo.\n",
    );
    fails_with(
        &["show", twice.to_str().unwrap()],
        "a second 'lattice:' header",
    );
}

#[test]
fn a_drawing_that_cannot_be_written_does_not_lose_the_answer() {
    let o = pegsol(&["solve", "english", "--svg", "/no/such/dir/s.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("solved: 31 jumps"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("only the drawing is missing"),
        "{}",
        stderr(&o)
    );
    let o = pegsol(&["solve", "english", "--json", "--svg", "/no/such/dir/s.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(json(&o)["status"], "solved");
}

#[test]
fn budgets_hold_from_the_first_step_on_any_box() {
    // Four holes at the corners of a 4096 x 4096 box, and 64 holes spread over one.
    let mut rows = vec![String::new(); 4096];
    rows[0] = format!("oo.{}o", " ".repeat(4090));
    rows[4095] = format!("o{}.", " ".repeat(4094));
    let corners = temp_board("corners.txt", &(rows.join("\n") + "\n"));
    let mut grid = vec![String::new(); 4096];
    for k in 0..64usize {
        let (r, c) = ((k * 2654435761) % 4096, (k * 40503) % 4096);
        let line = &mut grid[r];
        if line.len() <= c {
            line.push_str(&" ".repeat(c - line.len()));
            line.push(if k == 0 { '.' } else { 'o' });
        }
    }
    let spread = temp_board("spread.txt", &(grid.join("\n") + "\n"));
    let corners = corners.to_str().unwrap();
    let spread = spread.to_str().unwrap();
    for args in [
        vec!["solve", corners, "--finish", "any", "--timeout", "1"],
        vec!["solve", spread, "--finish", "any", "--timeout", "1"],
        vec!["ends", corners, "--timeout", "1"],
        vec!["check", spread, "--finish", "any"],
        vec!["show", spread],
        vec!["count", corners, "--finish", "any", "--timeout", "1"],
        vec!["solve", "wiegleb", "--timeout", "1"],
        vec![
            "solve",
            "diamond",
            "--empty",
            "e3",
            "--finish",
            "any",
            "--timeout",
            "1",
        ],
    ] {
        let began = std::time::Instant::now();
        let o = pegsol(&args);
        let took = began.elapsed();
        assert!(
            o.status.code().is_some_and(|c| c <= 3),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(
            took < std::time::Duration::from_secs(2),
            "{args:?} took {took:?}"
        );
    }
    // The drawings are of the holes, not the box: `show` draws the board and each class
    // set, each in at most 3 lines per hole, not 4096.
    let drawn = stdout(&pegsol(&["show", spread]));
    assert!(
        drawn.lines().count() < 66 * 200,
        "{} lines",
        drawn.lines().count()
    );
}

#[test]
fn line_json_streams_a_long_configuration() {
    let cells: String = (0..200_000u64)
        .map(|i| if (i * 2654435761) % 7 < 4 { '1' } else { '0' })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegsol"))
        .args(["line", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(cells.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    let cells: Vec<bool> = cells.bytes().map(|b| b == b'1').collect();
    let jumps: Vec<(usize, usize)> = v["jumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let (a, b) = j.as_str().unwrap().split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let left = pegsol::one_dimensional::replay_line(&cells, &jumps).unwrap();
    assert_eq!(v["min_pegs"].as_u64(), Some(left as u64));
    assert_eq!(v["pieces"].as_array().unwrap().len(), left);
}

/// Every file and directory under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

#[test]
fn scratch_files_go_on_sigterm_and_stale_ones_at_the_next_start() {
    let dir = std::env::temp_dir().join(format!("pegsol-sigterm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spill = dir.to_str().unwrap();
    // Twenty counts, each signalled at another moment of its spilling (as soon as its
    // directory appears, then later and later, while run files are being written and
    // merged), SIGTERM and SIGINT in turn: every one exits 143 or 130 and leaves nothing.
    for round in 0..20u64 {
        let (signal, code) = if round % 2 == 0 {
            ("-TERM", 143)
        } else {
            ("-INT", 130)
        };
        let child = Command::new(env!("CARGO_BIN_EXE_pegsol"))
            .args(["count", "french", "--max-memory", "200", "--spill", spill])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let began = std::time::Instant::now();
        while std::fs::read_dir(&dir).unwrap().count() == 0 {
            assert!(began.elapsed().as_secs() < 60, "the count never spilled");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(round * 37 % 400));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(code), "round {round}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("interrupted: 1 scratch directory removed"),
            "round {round}: {}",
            stderr(&o)
        );
        let left: Vec<_> = walk(&dir);
        assert!(
            left.is_empty(),
            "round {round}: scratch left behind: {left:?}"
        );
    }
    // A directory left by a process that no longer runs goes at the next count's start.
    let stale = dir.join(format!("{}4999999-1", pegsol::count::SCRATCH_PREFIX));
    std::fs::create_dir_all(&stale).unwrap();
    let o = pegsol(&["count", "triangle5", "--spill", spill]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        !stale.exists(),
        "the stale scratch directory is still there"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn catalog_of_the_english_board() {
    let o = pegsol(&["catalog", "english", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(
        v["summary"],
        serde_json::json!({"pairs": 1089, "solvable": 125, "impossible": 964, "undecided": 0})
    );
    let problems = v["problems"].as_array().unwrap();
    let pairs: u64 = problems
        .iter()
        .map(|p| p["equivalent"].as_u64().unwrap())
        .sum();
    assert_eq!(pairs, 1089);
    // Every solution replays from its vacancy to its finish.
    let board = pegsol::Board::builtin("english").unwrap();
    for p in problems.iter().filter(|p| p["status"] == "solved") {
        let empty = p["empty"][0].as_str().unwrap();
        let start = board.holes().without(board.hole(empty).unwrap());
        let end = replay_line(&board, start, &p["jumps"]);
        assert_eq!(board.labels(end), [p["finish"][0].as_str().unwrap()]);
    }
    let text = stdout(&pegsol(&["catalog", "english", "--finish", "any"]));
    assert!(text.contains("33 pairs: 33 solvable"), "{text}");
}

#[test]
fn the_wiegleb_central_game_is_solved() {
    let o = pegsol(&["solve", "wiegleb", "--json", "--timeout", "30"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 43);
    assert_eq!(v["final"], serde_json::json!(["e5"]));
}

/// A random small board as a picture, with a start drawn, from `seed`.
fn random_picture(seed: u64) -> String {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let lattice = ["orthogonal", "diagonal", "triangular"][(next() % 3) as usize];
    let (rows, cols) = (2 + (next() % 3) as usize, 3 + (next() % 3) as usize);
    let mut grid = vec![vec!['o'; cols]; rows];
    for _ in 0..next() % 3 {
        grid[(next() % rows as u64) as usize][(next() % cols as u64) as usize] = ' ';
    }
    for _ in 0..1 + next() % 2 {
        let (r, c) = (
            (next() % rows as u64) as usize,
            (next() % cols as u64) as usize,
        );
        if grid[r][c] == 'o' {
            grid[r][c] = '.';
        }
    }
    let mut text = format!("lattice: {lattice}\ncolumns: exact\n");
    for row in grid {
        text.push_str(row.iter().collect::<String>().trim_end());
        text.push('\n');
    }
    text
}

#[test]
fn every_certificate_verifies_independently_and_tampering_is_caught() {
    let (python, script) = (python(), PY_CHECKER);
    // One seed's verdict: the certificate's kind when refuted, None when solvable or skipped.
    let one = |seed: u64| -> Option<Option<String>> {
        let board = temp_board(
            &format!("random-{seed}.txt"),
            &random_picture(seed * 7919 + 1),
        );
        let board = board.to_str().unwrap();
        let finish = ["any", "any:2"][(seed % 2) as usize];
        let cert =
            std::env::temp_dir().join(format!("pegsol-cert-{}-{seed}.json", std::process::id()));
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
            return None; // a start with too few pegs for the finish
        }
        let v = json(&o);
        let verdict = match v["status"].as_str().unwrap() {
            "refuted" => {
                // Both checkers at once: each is a process of its own.
                let (rust, py) = verify_both(cert_s, python.then_some(script));
                assert_eq!(rust.status.code(), Some(0), "{board}: {}", stdout(&rust));
                if let Some(py) = py {
                    assert_eq!(py.status.code(), Some(0), "{board}: {}", stdout(&py));
                }
                // The same file claiming that the start cannot reach itself: false, so every
                // kind of certificate must be rejected.
                let mut c: Value =
                    serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
                c["finishes"] = Value::from(vec![c["start"].clone()]);
                std::fs::write(&cert, c.to_string()).unwrap();
                let (rust, py) = verify_both(cert_s, python.then_some(script));
                assert_eq!(rust.status.code(), Some(1), "{board}: {}", stdout(&rust));
                if let Some(py) = py {
                    assert_eq!(py.status.code(), Some(1), "{board}: {}", stdout(&py));
                }
                Some(Some(v["certificate"]["kind"].as_str().unwrap().to_string()))
            }
            "solvable" => Some(None),
            other => panic!("{board}: {other}: {v}"),
        };
        let _ = std::fs::remove_file(&cert);
        verdict
    };
    // Three threads over the seeds: the test is mostly waiting on the processes it starts.
    let verdicts: Vec<Option<Option<String>>> = std::thread::scope(|scope| {
        let one = &one;
        let threads: Vec<_> = (0..3u64)
            .map(|t| {
                scope.spawn(move || {
                    (0..240u64)
                        .filter(|s| s % 3 == t)
                        .map(one)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let (mut refuted, mut solvable, mut kinds) = (0, 0, std::collections::BTreeMap::new());
    for verdict in verdicts.into_iter().flatten() {
        match verdict {
            Some(kind) => {
                refuted += 1;
                *kinds.entry(kind).or_insert(0) += 1;
            }
            None => solvable += 1,
        }
    }
    println!("{refuted} refuted ({kinds:?}), {solvable} solvable");
    assert!(
        refuted > 50 && solvable > 20,
        "{refuted} refuted, {solvable} solvable"
    );
    assert!(kinds.len() >= 2, "{kinds:?}");
}

#[test]
fn a_search_certificate_from_solve_and_bells_resource_count() {
    // The 15-hole triangle, b3 empty, one peg on b3: impossible, but neither by class nor by
    // one pagoda function; solve proves it and writes the set that shows it.
    let cert = std::env::temp_dir().join(format!("pegsol-b3-{}.json", std::process::id()));
    let cert_s = cert.to_str().unwrap();
    let o = pegsol(&[
        "solve",
        "triangle5",
        "--empty",
        "b3",
        "--finish",
        "b3",
        "--certificate",
        cert_s,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("search certificate"), "{}", stdout(&o));
    let v = json(&pegsol(&["verify", cert_s, "--json"]));
    assert_eq!(v["status"], "verified", "{v}");
    // Remove a position: the set is no longer closed.
    let mut c: Value = serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    c["positions"].as_array_mut().unwrap().pop();
    std::fs::write(&cert, c.to_string()).unwrap();
    let o = pegsol(&["verify", cert_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not closed"), "{}", stdout(&o));
    let _ = std::fs::remove_file(&cert);
    // George Bell's resource count for the 45-hole board, as his page gives it.
    let weights = temp_board(
        "bell.txt",
        "-1 0 -1\n1 0 1\n0 0 0\n-1 1 0 1 0 1 0 1 -1\n0 0 0 0 0 0 0 0 0\n-1 1 0 1 0 1 0 1 -1\n0 0 0\n1 0 1\n-1 0 -1\n",
    );
    let o = pegsol(&["check", "wiegleb", "--pagoda", weights.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("a valid pagoda function"),
        "{}",
        stdout(&o)
    );
    let o = pegsol(&["show", "wiegleb", "--pagodas", "--json"]);
    assert_eq!(json(&o)["pagodas"][0]["weights"]["d1"], -1);
}

#[test]
fn count_solutions_by_meeting() {
    let o = pegsol(&[
        "count",
        "triangle5",
        "--empty",
        "a1",
        "--finish",
        "a1",
        "--solutions",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["solutions"], 6816);
    assert_eq!(v["winning_positions"], 370);
    assert_eq!(v["method"], "meeting in the middle");
    // One peg anywhere is several finishes: the whole count answers that.
    let o = pegsol(&["count", "triangle5", "--finish", "any", "--solutions"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one position"));
}

#[test]
fn solutions_of_every_vacancy() {
    let o = pegsol(&[
        "count",
        "triangle5",
        "--solutions",
        "--every-vacancy",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    let rows = v["rows"].as_array().unwrap();
    let of = |e: &str, f: &str| {
        rows.iter()
            .find(|r| r["empty"] == e && r["finish"] == f)
            .unwrap_or_else(|| panic!("no row {e} {f}"))["solutions"]
            .as_u64()
            .unwrap()
    };
    // From the corner a1: a1, a4 and its mirror d4, c5 (b3 is never reached); together the
    // published 29,760 solutions to one peg anywhere.
    assert_eq!(of("a1", "a1") + 2 * of("a1", "a4") + of("a1", "c5"), 29_760);
    assert_eq!(of("a1", "b3"), 0);
    let a1 = v["vacancies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["empty"] == "a1")
        .unwrap();
    assert_eq!(a1["solutions"], 29_760);
    assert_eq!(a1["members"], serde_json::json!(["a1", "a5", "e5"]));
    // The meeting in the middle agrees on a pair of the table.
    let o = pegsol(&[
        "count",
        "triangle5",
        "--empty",
        "a1",
        "--finish",
        "c5",
        "--solutions",
        "--json",
    ]);
    assert_eq!(json(&o)["solutions"].as_u64(), Some(of("a1", "c5")));
}

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
    // an upper bound with the line that gives it.
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
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    let (lower, upper) = (
        v["lower_bound"].as_u64().unwrap(),
        v["upper_bound"].as_u64().unwrap(),
    );
    assert!(lower >= 1 && lower <= upper, "{lower} {upper}");
    assert_eq!(v["moves"].as_u64(), Some(upper));
    assert_eq!(v["jumps"].as_array().unwrap().len(), 64);
    // A count past its memory is undecided with its finished levels; what stays 64-hole only
    // is refused by name.
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
    fails_with(
        &["count", "rect:9x9", "--pagoda"],
        "--pagoda takes boards of up to 64 holes",
    );
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
            let py = Command::new("python3")
                .args([script, cert_s])
                .output()
                .unwrap();
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
            let tampered = pegsol(&["verify", cert_s]);
            assert_eq!(
                tampered.status.code(),
                Some(1),
                "{board}: {}",
                stdout(&tampered)
            );
            if python {
                let py = Command::new("python3")
                    .args([script, cert_s])
                    .output()
                    .unwrap();
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

/// One answer per command whatever the board's size: `solve`, `hint`, `ends`, `check`,
/// `catalog`, `show` and `replay` on 33 and on 66 holes (solved, impossible and hinted alike)
/// give the same keys, and the web API the same objects.
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
    let pairs: [(&[&str], &[&str]); 7] = [
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
