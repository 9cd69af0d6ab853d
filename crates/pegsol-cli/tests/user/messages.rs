//! What the CLI says where a first-time user stumbles: a misspelt board, the boards table,
//! weights that prove nothing, a drawing that cannot be made, and each command's help.

use super::common::{pegsol, stderr, stdout};

#[test]
fn a_misspelt_board_gets_the_name_it_was_meant_to_be() {
    for (typed, meant) in [
        ("engish", "english"),
        ("Frnech", "french"),
        ("wieglab", "wiegleb"),
        ("english-diagnal", "english-diagonal"),
        ("tringle:7", "triangle:7"),
        ("hexgon5", "hexagon5"),
        ("rec:4x4", "rect:4x4"),
    ] {
        let o = pegsol(&["solve", typed]);
        assert_eq!(o.status.code(), Some(2), "{typed}");
        assert!(
            stderr(&o).contains(&format!("did you mean {meant}?")),
            "{typed}: {}",
            stderr(&o)
        );
    }
    // Nothing near: the general hint.
    let o = pegsol(&["solve", "zzzzzz"]);
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(stderr(&o).contains("pegsol boards"), "{}", stderr(&o));
}

#[test]
fn the_boards_table_keeps_its_columns() {
    let o = pegsol(&["boards"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert!(rows.len() >= 10, "{text}");
    // Every row has its lattice at the header's column.
    let at = rows[0].find("lattice").unwrap();
    for row in &rows[1..] {
        let lattice = &row[at..];
        assert!(
            ["orthogonal", "triangular", "diagonal"]
                .iter()
                .any(|l| lattice.starts_with(l)),
            "{row:?}\n{text}"
        );
    }
}

#[test]
fn weights_that_refute_nothing_leave_the_problem_open() {
    let dir = std::env::temp_dir().join(format!("pegsol-messages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ones = dir.join("ones.txt");
    std::fs::write(&ones, "1 1 1 1 1\n").unwrap();
    let o = pegsol(&[
        "check",
        "rect:1x5",
        "--empty",
        "c1,d1,e1",
        "--finish",
        "e1",
        "--pagoda",
        ones.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stdout(&o).contains("does not refute"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_drawing_of_no_solution_is_not_written_and_says_so() {
    let path = std::env::temp_dir().join(format!("pegsol-french-{}.svg", std::process::id()));
    let o = pegsol(&["solve", "french", "--svg", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!path.exists());
    assert!(
        stderr(&o).contains("no drawing written") && stderr(&o).contains("no solution"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn only_ends_says_its_time_budget_is_per_hole() {
    for command in ["solve", "check", "shortest"] {
        let help = stdout(&pegsol(&[command, "--help"]));
        assert!(!help.contains("per hole"), "{command}: {help}");
        assert!(help.contains("--timeout"), "{command}: {help}");
    }
    let help = stdout(&pegsol(&["ends", "--help"]));
    assert!(help.contains("for each end hole"), "{help}");
}

/// A finish that the position class rules out comes with what to try instead, and what it
/// offers is not itself ruled out: each suggested line runs to a solution here.
#[test]
fn a_finish_the_class_rules_out_suggests_finishes_that_work() {
    for (args, offered) in [
        (
            vec!["french"],
            vec!["--finish any:2", "--empty c1 --finish any"],
        ),
        (
            vec!["french", "--empty", "c1", "--finish", "d4"],
            vec!["--finish e1", "--finish any"],
        ),
        (
            vec!["english", "--finish", "c3"],
            vec!["--finish d1", "--finish any"],
        ),
    ] {
        let mut solve = vec!["solve"];
        solve.extend(&args);
        let o = pegsol(&solve);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let text = stdout(&o);
        assert!(text.contains("try instead"), "{args:?}: {text}");
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  --"))
            .map(|l| l.split("   (").next().unwrap().trim())
            .collect();
        assert_eq!(lines, offered, "{args:?}: {text}");
        for line in lines {
            // The suggestion replaces the finish (and the vacancy, when it names one).
            let mut again = vec!["solve", args[0]];
            if !line.contains("--empty") {
                again.extend(args[1..].chunks(2).filter(|p| p[0] != "--finish").flatten());
            }
            again.extend(line.split(' '));
            let o = pegsol(&again);
            assert_eq!(o.status.code(), Some(0), "{again:?}: {}", stdout(&o));
        }
    }
    // A problem the class does not decide gets no such lines.
    let o = pegsol(&["solve", "triangle5", "--empty", "b3", "--finish", "b3"]);
    assert!(!stdout(&o).contains("try instead"), "{}", stdout(&o));
}

/// One memory budget by default across the commands (the count's was 8192 MB).
#[test]
fn every_memory_budget_defaults_to_4096_mb() {
    let mut seen = 0;
    for command in [
        "solve", "shortest", "catalog", "ends", "count", "check", "army", "hint",
    ] {
        let help = stdout(&pegsol(&[command, "--help"]));
        let Some(at) = help.find("--max-memory") else {
            continue;
        };
        let option = &help[at..];
        let end = option.find("\n  -").unwrap_or(option.len());
        assert!(
            option[..end].contains("[default: 4096]"),
            "{command}: {}",
            &option[..end]
        );
        seen += 1;
    }
    assert!(seen >= 6, "{seen} commands take --max-memory");
}
