//! The checkers' own limits: `pegsol verify`'s memory, and the two board readers agreeing.

use serde_json::{json, Value};

use super::kit::{hex, scratch, text};
use crate::common::{pegsol, python, python_command, PY_CHECKER};

/// `pegsol verify` keeps its memory within a small multiple of the file: 2,000 symmetries
/// of a 256-hole board (2.3 MB of JSON) took 556 MB when each had its byte tables. Here
/// 4,000 of them, 3.7 MB.
#[cfg(target_os = "linux")]
#[test]
fn verify_memory_is_a_small_multiple_of_the_file() {
    let dir = scratch("verify-memory");
    let n = 256;
    let mut board = String::from("o.o.............\n");
    board.push_str(&format!("{}\n", ".".repeat(16)).repeat(15));
    let holes: Vec<String> = (0..16)
        .flat_map(|r| (0..16).map(move |c| format!("{}{}", (b'a' + c) as char, r + 1)))
        .collect();
    // Two pegs with no jump between them never make one: the set {start} is closed.
    let cert = json!({
        "format": "pegsol certificate",
        "version": 1,
        "claim": "no line of play leads from the start to a finish",
        "board": board,
        "holes": holes,
        "start": "5",
        "finishes": [hex(&[255])],
        "kind": "search",
        "dual": false,
        "symmetries": vec![(0..n).collect::<Vec<u32>>(); 4000],
        "pagodas": [],
        "positions": ["5"],
    });
    let path = dir.join("symmetries.json");
    let body = cert.to_string();
    std::fs::write(&path, &body).unwrap();
    drop(cert);
    // The checker's own peak (VmHWM): a fork's or the test process's memory is not in it.
    let o = pegsol(&["verify", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let peak = (v["peak_memory_mb"].as_u64().unwrap() as usize) << 20;
    let file = body.len();
    eprintln!("file {file} bytes, peak {peak} bytes");
    assert!(
        peak < 8 * file,
        "verify peaked at {peak} bytes on a file of {file}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Python checker reads every board picture as pegsol does: the same holes and lattice,
/// or an error in both, for the same bytes, on every kind of line end, blank and header,
/// and on random pictures made of the characters where readers tend to differ.
#[test]
fn both_board_readers_give_the_same_holes_for_the_same_bytes() {
    if !python() {
        return;
    }
    let english = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
    let mut pictures: Vec<String> = Vec::new();
    for end in [
        "\n", "\r\n", "\r", "\r\r\n", "\n\r", "\u{2028}", "\u{c}", "\u{b}", "\u{85}", "\u{1c}",
    ] {
        pictures.push(english.replace('\n', end));
        pictures.push(english.replacen('\n', end, 2));
        pictures.push(format!("lattice: diagonal{end}{english}"));
    }
    for header in [
        "lattice: triangular",
        "\tlattice:\tTriangular \t",
        "LATTICE: diagonal",
        "lattice: diagonal\u{a0}",
        "lattice: hexagonal",
        "lattice : orthogonal",
        "columns: spaced",
        "columns: exact",
        "columns: Spaced",
        "lattice: diagonal\nlattice: diagonal",
        "columns: exact\ncolumns: spaced",
        "\n \t\nlattice: diagonal\n\n",
        "note: hello",
    ] {
        pictures.push(format!("{header}\n{english}"));
    }
    for spaced in [
        "o o o\n o . o\n",
        "columns: spaced\nooooo\n",
        "columns: spaced\n.o\n",
        "columns: spaced\no o\n o o\n",
        "columns: exact\no o o\n",
        "o  o\n",
        "o\to\n",
        "",
        " \n\t\n",
        "ooo\r",
        "ooo\n\n\nooo\n",
    ] {
        pictures.push(spaced.to_string());
    }
    pictures.push("o".repeat(256));
    pictures.push("o".repeat(257));
    // Random pictures over the characters that matter, some after a header.
    let plain = ['o', 'O', '.', ' ', ' ', 'o', 'o', '.', '\n', '\n'];
    let odd = ['\r', '\t', '\u{2028}', '\u{c}', '\u{85}', ':', '\r'];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..3000 {
        let len = 1 + next() % 40;
        let mut p: String = (0..len)
            .map(|_| match next() % 60 {
                0..=1 => odd[(next() % odd.len() as u64) as usize],
                _ => plain[(next() % plain.len() as u64) as usize],
            })
            .collect();
        if k % 3 == 0 {
            p = format!(
                "{}\n{p}",
                ["columns: spaced", "lattice: triangular", "columns: exact"][k % 9 / 3]
            );
        }
        pictures.push(p);
    }
    // Python's reading of each picture, through the checker's own parse_board.
    let driver = format!(
        r#"
import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("checker", {PY_CHECKER:?})
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)
out = []
for picture in json.load(sys.stdin):
    try:
        cells, lattice = checker.parse_board(picture)
        out.append([lattice, [list(c) for c in cells]])
    except checker.Malformed:
        out.append(None)
print(json.dumps(out))
"#
    );
    // No __pycache__ left in docs/ by the import.
    let mut child = python_command()
        .args(["-B", "-c", &driver])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(json!(pictures).to_string().as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let python: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    let (mut read, mut refused) = (0, 0);
    for (picture, py) in pictures.iter().zip(&python) {
        let rust = match pegsol::Shape::parse("p", picture) {
            Ok(shape) => {
                read += 1;
                json!([shape.lattice().name(), shape.cells()])
            }
            Err(_) => {
                refused += 1;
                Value::Null
            }
        };
        assert_eq!(&rust, py, "{picture:?}");
    }
    assert!(
        read > 300 && refused > 300,
        "{read} read, {refused} refused"
    );
}
