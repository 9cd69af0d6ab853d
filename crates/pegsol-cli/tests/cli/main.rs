//! The `pegsol` binary end to end: outputs, JSON shape, exit codes and error messages.

use std::io::Write;
pub(crate) use std::process::{Command, Output};

pub(crate) use serde_json::Value;

#[path = "../common/mod.rs"]
mod common;

mod certificates;
mod count;
mod fewest;
mod input;
mod line;
mod solve;
mod wide;

pub(crate) use common::{
    pegsol, python, python_command, replay_line, stderr, stdout, verify_both, PY_CHECKER,
};

/// Runs `pegsol args` and checks it fails as bad input (exit 2) with `message` on stderr.
pub(crate) fn fails_with(args: &[&str], message: &str) {
    let o = pegsol(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
}

pub(crate) fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).expect("stdout is one JSON object")
}

pub(crate) fn temp_board(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pegsol-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    path
}
