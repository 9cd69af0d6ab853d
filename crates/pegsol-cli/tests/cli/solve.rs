//! `solve`, `ends`, `catalog`, `show`, `army` and board files: answers, JSON and drawings.

use super::*;

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

/// The smallest army for `row` of `lattice`: `men` men, minimal, each on or below the
/// line, and a line of `men - 1` jumps.
fn army_row(lattice: &str, row: &str, men: usize) {
    let o = pegsol(&["army", "--row", row, "--lattice", lattice, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{lattice} row {row}");
    let v = json(&o);
    assert_eq!(v["lattice"], lattice);
    assert_eq!(v["men"], men, "row {row}");
    assert_eq!(v["minimal"], true);
    assert_eq!(v["army"].as_array().unwrap().len(), men);
    assert_eq!(v["jumps"].as_array().unwrap().len(), men - 1);
    assert!(v["army"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c[1].as_i64().unwrap() <= 0));
}

/// The diagonal lattice's row 6 (OEIS A125730): 23 men, found and proved minimal in the
/// window in about 45 s.
#[test]
#[ignore = "soak test: CI runs these with `-- --ignored soak_`"]
fn soak_army_diagonal_row_six() {
    army_row("diagonal", "6", 23);
}

#[test]
fn army_rows_and_conways_proof() {
    for (row, men) in [("1", 2), ("2", 4), ("3", 8), ("4", 20)] {
        army_row("orthogonal", row, men);
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
            "40",
        ],
        "more than 512",
    );
    let o = pegsol(&["army", "--row", "4", "--timeout", "0.2"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("undecided within budget"));
    fails_with(&["army", "--row", "0"], "--row");
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
fn catalog_falls_back_on_the_exhaustive_count() {
    // A search budget too short to decide the pairs that need a certificate on Hexagon(3):
    // what search and proof leave undecided, the count settles, with the count as reason.
    let o = pegsol(&[
        "catalog",
        "hexagon3",
        "--timeout",
        "0.001",
        "--count-timeout",
        "60",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(
        v["summary"],
        serde_json::json!({"pairs": 361, "solvable": 0, "impossible": 361, "undecided": 0})
    );
    let proofs = &v["proofs"];
    let by = |k: &str| proofs[k].as_u64().unwrap();
    assert_eq!(
        by("class") + by("pagoda") + by("search") + by("exhausted") + by("count") + by("dual"),
        361
    );
    // A pair whose dual was counted first is decided by that dual: the reason says which.
    let problems = v["problems"].as_array().unwrap();
    let by_dual: u64 = problems
        .iter()
        .filter(|p| p["reason"].as_str().unwrap_or("").starts_with("its dual, "))
        .map(|p| p["equivalent"].as_u64().unwrap())
        .sum();
    assert_eq!(by_dual, by("dual"));
    assert!(by("count") > 0 && by("dual") > 0, "{proofs}");
    let counted: Vec<_> = problems
        .iter()
        .filter(|p| p["reason"] == "exhaustive count")
        .collect();
    let pairs: u64 = counted
        .iter()
        .map(|p| p["equivalent"].as_u64().unwrap())
        .sum();
    assert_eq!(pairs, by("count"));
    assert!(counted.iter().all(|p| p["certificate"].is_null()));
    // Without the count, the same budget leaves pairs undecided, unless the search was quick
    // enough after all; a bad budget is refused.
    let o = pegsol(&[
        "catalog",
        "hexagon3",
        "--timeout",
        "0.001",
        "--count-timeout",
        "0",
        "--json",
    ]);
    assert_eq!(json(&o)["proofs"]["count"], 0);
    let o = pegsol(&["catalog", "hexagon3", "--count-timeout", "inf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--count-timeout"), "{}", stderr(&o));
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
