//! `line`: one-dimensional solitaire from arguments and from stdin.

use super::*;

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
