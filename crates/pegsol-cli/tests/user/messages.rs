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
