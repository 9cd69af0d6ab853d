//! `count`: whole-game figures, pagoda pruning, spilling to disk and its scratch files, solutions.

use super::*;

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
    // Eight counts, each signalled at another moment of its spilling (as soon as its
    // directory appears, then at moments spread over the next 0.4 s, while run files are
    // being written and merged), SIGTERM and SIGINT in turn: every one exits 143 or 130 and
    // leaves nothing.
    for round in 0..8u64 {
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
        std::thread::sleep(std::time::Duration::from_millis(round * 97 % 400));
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

/// A meeting that does not fit --max-memory is undecided, with the advice to give --spill;
/// with it the whole count on disk answers, with the meeting's figures.
#[test]
fn count_solutions_spilled_where_the_meeting_does_not_fit() {
    let args = [
        "count",
        "triangle:6",
        "--empty",
        "c3",
        "--finish",
        "c3",
        "--solutions",
        "--json",
        "--max-memory",
        "1",
    ];
    let o = pegsol(&args);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["status"], "undecided");
    assert!(
        v["message"].as_str().unwrap().contains("--spill DIR"),
        "{v}"
    );
    let dir = std::env::temp_dir().join(format!("pegsol-solutions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut spilled = args.to_vec();
    spilled.extend(["--spill", dir.to_str().unwrap()]);
    let o = pegsol(&spilled);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json(&o);
    // The meeting's figures with room enough (`count triangle:6 --empty c3 --finish c3
    // --solutions`).
    assert_eq!(v["solutions"], 15_277_596_420u64);
    assert_eq!(v["winning_positions"], 159_456);
    assert_eq!(v["winning_positions_up_to_symmetry"], 159_456);
    assert_eq!(
        v["method"],
        "the whole count on disk, cut by pagoda functions"
    );
    // The spill files are gone.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
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
