//! Bad input (exit 2, named and placed) and budgets (exit 3, said why), from the first step.

use super::*;

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
