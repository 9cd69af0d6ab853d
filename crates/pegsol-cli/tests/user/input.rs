//! Input the CLI must refuse clearly, or read as the user meant: board files past the size
//! cap, cells that a spaced picture would merge, stray carriage returns, and finishes of
//! many pegs whose positions are few.

use super::common::{pegsol, stderr};

fn file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pegsol-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Exit 2 with every part of `message` on stderr.
fn refused(args: &[&str], message: &[&str]) {
    let o = pegsol(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    for part in message {
        assert!(stderr(&o).contains(part), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn board_files_past_the_cap_are_refused_without_reading_them_whole() {
    // /dev/zero never ends: the cap stops the read at once.
    if std::path::Path::new("/dev/zero").exists() {
        let began = std::time::Instant::now();
        refused(
            &["solve", "/dev/zero"],
            &["board file /dev/zero", "larger than 1 MiB"],
        );
        assert!(began.elapsed().as_secs() < 10);
    }
    let big = file("big.txt", &vec![b' '; (1 << 20) + 1]);
    refused(&["show", big.to_str().unwrap()], &["larger than 1 MiB"]);
    // Just under the cap is read (and is a board: one hole at the end).
    let mut fits = vec![b' '; (1 << 20) - 2];
    fits.extend_from_slice(b"o\n");
    let fits = file("fits.txt", &fits);
    let o = pegsol(&["show", fits.to_str().unwrap()]);
    assert!(!stderr(&o).contains("larger than"), "{}", stderr(&o));
    // The same cap on the other files a user gives: pagoda weights.
    refused(
        &["check", "english", "--pagoda", big.to_str().unwrap()],
        &["weight file", "larger than 1 MiB"],
    );
}

#[test]
fn spaced_cells_that_overlap_are_an_error_naming_the_place() {
    let five = file("five.txt", b"columns: spaced\nooooo\n");
    refused(
        &["show", five.to_str().unwrap()],
        &["line 2, column 2", "columns: spaced"],
    );
    // The peg of `.o` is not lost: an error, not a one-hole board.
    let two = file("two.txt", b"columns: spaced\n.o\n");
    refused(&["show", two.to_str().unwrap()], &["line 2, column 2"]);
    let fine = file("fine.txt", b"columns: spaced\no . o\n");
    assert_eq!(
        pegsol(&["show", fine.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn carriage_returns_end_lines_only_before_a_line_feed() {
    let english = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n";
    let crlf = file("crlf.txt", english.replace('\n', "\r\n").as_bytes());
    let o = pegsol(&["solve", crlf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (name, end) in [("cr.txt", "\r"), ("crcrlf.txt", "\r\r\n")] {
        let f = file(name, english.replace('\n', end).as_bytes());
        refused(
            &["solve", f.to_str().unwrap()],
            &["line 1, column 6", "carriage return"],
        );
    }
}

#[test]
fn many_pegs_anywhere_is_as_many_finishes_as_the_exact_binomial() {
    // C(20, 18) = 190 finishes; the running product passed the limit at C(20, 10) before.
    let o = pegsol(&[
        "solve", "rect:4x5", "--empty", "a1,b1", "--finish", "any:18", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "solved", "{v}");
    // C(20, 17) = 1140 finishes, two jumps from a1 empty.
    let o = pegsol(&[
        "solve", "rect:4x5", "--empty", "a1", "--finish", "any:17", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["jumps"].as_array().map(Vec::len), Some(2), "{v}");
    // C(37, 9) is past the limit, however it is computed.
    refused(
        &["solve", "french", "--finish", "any:9"],
        &["too many positions"],
    );
}
