//! `solve --fewest-moves` and `shortest`: proofs, bounds and budgets.

use super::*;

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
    // corner pegs (the English board's Merson regions; or the meeting's levels) the lower one.
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
    // A tiny budget: exit 3 with a proven lower bound (one side grows alone once the other
    // does not fit), and a beam's line for an upper bound.
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
    let (lower, upper) = (
        v["lower_bound"].as_u64().unwrap(),
        v["upper_bound"].as_u64().unwrap(),
    );
    // The fewest is 12 (Bell): the bounds hold it between them, and the starts' corners and
    // edge pairs alone prove 7.
    assert!((7..=12).contains(&lower) && upper >= 12, "{lower} {upper}");
    // On side 11 the regions, and the searches they prune, prove at least 15 at once (13
    // before the searches were pruned), where the search within 1 MB alone proves far less.
    let o = pegsol(&[
        "shortest",
        "triangle:11",
        "--max-memory",
        "1",
        "--timeout",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let text = stdout(&o);
    let lower: u32 = text
        .split("proven lower bound: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!((15..=28).contains(&lower), "{text}");
    let text = stdout(&pegsol(&[
        "shortest",
        "triangle7",
        "--max-memory",
        "1",
        "--timeout",
        "5",
    ]));
    assert!(text.contains("proven lower bound"), "{text}");
    assert!(text.contains("upper bound: "), "{text}");
    fails_with(&["shortest", "triangle5", "--empty", "z9"], "--empty");
    fails_with(&["shortest", "nosuchboard"], "unknown board");
    fails_with(&["shortest", "triangle5", "--finish", "any:0"], "finish");
}
