//! Playing from a position reached by play: `--after` on solve, check, fewest moves and the
//! wide boards, and `pegsol hint`, whose every fate is checked against the solver.

use super::common::{pegsol, stderr, stdout};
use serde_json::Value;

fn json(args: &[&str]) -> (Option<i32>, Value) {
    let o = pegsol(args);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|_| panic!("{args:?}: {}{}", stdout(&o), stderr(&o)));
    (o.status.code(), v)
}

#[test]
fn after_starts_from_the_position_a_line_reaches() {
    let (code, v) = json(&["solve", "english", "--after", "d2-d4 f3-d3", "--json"]);
    assert_eq!(code, Some(0), "{v}");
    // The game's finish stays d4; the start is the one the two jumps reach.
    assert_eq!(v["final"][0], "d4", "{v}");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 29, "{v}");
    let (_, same) = json(&[
        "solve", "english", "--empty", "d2,e3,f3", "--finish", "d4", "--json",
    ]);
    assert_eq!(v["jumps"], same["jumps"]);
    // Fewest moves and check take it too (fewest moves from eight jumps in: seconds, where
    // two jumps in take ten).
    let (code, v) = json(&[
        "solve",
        "english",
        "--after",
        "d2-d4 b3-d3 c1-c3 e1-c1 d3-b3 a3-c3 e3-e1 g3-e3",
        "--fewest-moves",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (&v["optimal"], &v["upper_bound"]),
        (&true.into(), &16.into()),
        "{v}"
    );
    let o = pegsol(&["check", "english", "--after", "d2-d4", "--finish", "a1"]);
    assert_eq!(o.status.code(), Some(2), "no hole a1: {}", stderr(&o));
    let (code, _) = json(&["check", "english", "--after", "d2-d4 f3-d3", "--json"]);
    assert_eq!(code, Some(0));
    // A board past 64 holes.
    let (code, v) = json(&[
        "solve", "rect:9x9", "--empty", "e5", "--after", "e3-e5", "--json",
    ]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["final"][0], "e5", "{v}");
}

#[test]
fn an_illegal_jump_after_is_a_clear_error() {
    for (line, message) in [
        (
            "d2-d4 d2-d4",
            "--after: jump 2 (d2-d4) is illegal: no peg on d2",
        ),
        (
            "d2-d4 b4-d4",
            "--after: jump 2 (b4-d4) is illegal: d4 is not empty",
        ),
        ("d2-d4 f2-f4", "--after: no hole \"f2\""),
        ("d2-d5", "--after"),
    ] {
        let o = pegsol(&["solve", "english", "--after", line]);
        assert_eq!(o.status.code(), Some(2), "{line}");
        assert!(stderr(&o).contains(message), "{line}: {}", stderr(&o));
        let o = pegsol(&["hint", "english", "--after", line]);
        assert_eq!(o.status.code(), Some(2), "{line}");
    }
}

/// Random lines of play on three boards; at each position `hint` gives every legal jump's
/// fate, and each is what the solver says of the position after that jump.
#[test]
fn every_hint_is_what_the_solver_says() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut wins, mut loses) = (0, 0);
    for (board_name, plays) in [("english", 12), ("triangle5", 4), ("french", 10)] {
        let board = pegsol::Board::builtin(board_name).unwrap();
        for _ in 0..3 {
            let mut pegs: pegsol::Bits = board.start().unwrap();
            let mut line: Vec<String> = Vec::new();
            for _ in 0..plays {
                let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(pegs)).collect();
                if legal.is_empty() {
                    break;
                }
                let j = legal[(next() % legal.len() as u64) as usize];
                pegs = j.apply(pegs);
                line.push(format!("{}-{}", board.label(j.from()), board.label(j.to())));
            }
            let after = line.join(" ");
            let (code, v) = json(&[
                "hint", board_name, "--after", &after, "--finish", "any", "--json",
            ]);
            for m in v["moves"].as_array().unwrap() {
                let jump = m["jump"].as_str().unwrap();
                let o = pegsol(&[
                    "solve",
                    board_name,
                    "--after",
                    &format!("{after} {jump}"),
                    "--finish",
                    "any",
                ]);
                match m["fate"].as_str().unwrap() {
                    "wins" => {
                        wins += 1;
                        assert_eq!(o.status.code(), Some(0), "{board_name} {after} {jump}");
                    }
                    "loses" => {
                        loses += 1;
                        assert_eq!(o.status.code(), Some(1), "{board_name} {after} {jump}");
                    }
                    other => panic!("{board_name} {after} {jump}: {other}"),
                }
            }
            let expected = match v["status"].as_str().unwrap() {
                "winnable" | "won" => 0,
                _ => 1,
            };
            assert_eq!(code, Some(expected), "{v}");
        }
    }
    assert!(
        wins >= 5 && loses >= 5,
        "{wins} winning and {loses} losing jumps"
    );
}

/// `hint --odds` answers from the winning set of the position (every fate exact) with the
/// odds that random jumps win, the same from a position the line reaches and from that
/// position given as the start; without it, no winning set and no odds.
#[test]
fn hint_gives_the_odds_of_random_play_when_asked() {
    let json = |args: &[&str]| -> Value {
        let o = pegsol(args);
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let after = json(&[
        "hint",
        "triangle5",
        "--empty",
        "a1",
        "--after",
        "c3-a1",
        "--finish",
        "any",
        "--odds",
        "--json",
    ]);
    let p = after["random_win"].as_f64().unwrap();
    assert!(after["exact"] == true && p > 0.0 && p < 1.0, "{after}");
    let same = json(&[
        "hint",
        "triangle5",
        "--empty",
        "b2,c3",
        "--finish",
        "any",
        "--odds",
        "--json",
    ]);
    assert_eq!(same["random_win"].as_f64().unwrap(), p);
    let plain = json(&[
        "hint",
        "triangle5",
        "--empty",
        "a1",
        "--after",
        "c3-a1",
        "--finish",
        "any",
        "--json",
    ]);
    assert!(
        plain["random_win"].is_null() && plain["exact"] == false,
        "{plain}"
    );
    let text = stdout(&pegsol(&["hint", "english", "--odds"]));
    assert!(
        text.contains("a player who jumps at random wins from here 1 time in 74,135,472"),
        "{text}"
    );
}

/// `hint --forced`: late in a solution of the English board only one line wins, and hint
/// names it jump by jump (each replayed here to the finish); the forced positions and
/// counts are the same from the position reached by a line and from that position given as
/// the start; with neither `--forced` nor `--odds` no set is built and nothing is forced.
#[test]
fn hint_names_what_every_winning_line_must_pass_through() {
    let json = |args: &[&str]| -> Value {
        let o = pegsol(args);
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let solved = json(&["solve", "english", "--json"]);
    let line: Vec<&str> = solved["jumps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    let played = line[..25].join(" ");
    let after = json(&["hint", "english", "--after", &played, "--forced", "--json"]);
    let forced = &after["forced"];
    let opening: Vec<&str> = forced["opening"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    // Six pegs left, one jump each to one peg on d4: every level holds one position.
    assert_eq!(opening.len(), 6, "{forced}");
    assert_eq!(forced["counts"], serde_json::json!([1, 1, 1, 1, 1, 1, 1]));
    let whole = format!("{played} {}", opening.join(" "));
    let replayed = json(&["replay", "english", &whole, "--json"]);
    assert_eq!(replayed["final"], serde_json::json!(["d4"]), "{replayed}");
    let positions = forced["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 6);
    assert_eq!(positions[5]["pegs"], serde_json::json!(["d4"]));
    assert_eq!(positions[0]["jump"], serde_json::json!(opening[0]));
    // The same from that position given as the start (its empty holes as hint names them).
    let empty: Vec<&str> = after["empty"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let given = json(&[
        "hint",
        "english",
        "--empty",
        &empty.join(","),
        "--finish",
        "d4",
        "--forced",
        "--json",
    ]);
    assert_eq!(given["forced"], after["forced"]);
    // At the start nothing but the finish is forced, and the counts mirror each other (the
    // central game is its own dual).
    let start = json(&["hint", "english", "--forced", "--json"]);
    let counts: Vec<u64> = start["forced"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts.len(), 32);
    assert_eq!(counts[..4], [1, 4, 12, 60]);
    assert!(counts.iter().eq(counts.iter().rev()), "{counts:?}");
    assert_eq!(start["forced"]["opening"], serde_json::json!([]));
    assert!(start["random_win"].is_null(), "{start}");
    let plain = json(&["hint", "english", "--after", &played, "--json"]);
    assert!(
        plain["forced"].is_null() && plain["exact"] == false,
        "{plain}"
    );
    let text = stdout(&pegsol(&[
        "hint", "english", "--after", &played, "--forced",
    ]));
    assert!(
        text.contains(&format!(
            "every winning line goes on with: {}",
            opening.join(" ")
        )) && text.contains("winning positions ahead, by jumps from here: 1, 1, 1, 1, 1, 1, 1"),
        "{text}"
    );
}
