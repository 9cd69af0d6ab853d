//! What the CLI's tests share: running `pegsol` and reading its output, and a running
//! `pegsol serve` on a free port.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// What the load tests call a starved request. A cheap request queued behind the expensive
/// ones would wait for their budget (3 s in those tests); one answered within a third of that
/// was not starved. The speed targets themselves (p95 under 250 ms for cheap requests, 200 ms
/// for live analysis, on this project's 2-core machine) are figures the tests print and
/// `docs/guide/playground.md` records: a timed assertion that tight failed on a busier CI
/// machine (p95 420 ms, p50 175 ms, with nothing starved).
pub const STARVED: Duration = Duration::from_secs(1);

/// Runs `pegsol args` to its end.
pub fn pegsol(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pegsol"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A running `pegsol serve` on a port the system chose; killed on drop.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    /// A server without the winning sets' background build (whose CPU and memory, one per
    /// server, would disturb the other tests running beside it).
    pub fn start(budget: &str) -> Server {
        Server::start_with(budget, &["--no-winning-sets"])
    }

    pub fn start_with(budget: &str, more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pegsol"))
            .args(["serve", "--addr", "127.0.0.1:0", "--budget", budget])
            .args(more)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.trim().strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// One request with `Connection: close`: (status, body).
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) before reading a large body; a failed write is fine.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.request("POST", path, body.as_bytes());
        let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        (status, v)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Python checker, `docs/verify_certificate.py`.
pub const PY_CHECKER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/verify_certificate.py"
);

/// The interpreter behind `python3`, found once: a version manager's shim (pyenv) costs
/// about 0.1 s a start, and the checkers run hundreds of times.
fn interpreter() -> Option<&'static std::path::Path> {
    static FOUND: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let o = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .output()
                .ok()?;
            let path = String::from_utf8(o.stdout).ok()?.trim().to_string();
            (o.status.success() && !path.is_empty()).then(|| path.into())
        })
        .as_deref()
}

/// A command that runs Python: the interpreter itself, with `-S` (the checker uses the
/// standard library alone, and the site packages cost more than the check).
pub fn python_command() -> Command {
    let mut c = Command::new(interpreter().map_or("python3".as_ref(), |p| p.as_os_str()));
    c.arg("-S");
    c
}

/// Whether python3 runs here. In CI it must: the Python checker is half of what is tested.
pub fn python() -> bool {
    let here = interpreter().is_some();
    assert!(
        here || std::env::var_os("CI").is_none(),
        "python3 is needed in CI for the Python checker"
    );
    here
}

/// `pegsol verify FILE` and, given a checker script, the Python checker on the same file,
/// run side by side: each is a process of its own.
pub fn verify_both(file: &str, script: Option<&str>) -> (Output, Option<Output>) {
    let spawn = |c: &mut Command| {
        c.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the checker runs")
    };
    let rust = spawn(Command::new(env!("CARGO_BIN_EXE_pegsol")).args(["verify", file]));
    let py = script.map(|script| spawn(python_command().args([script, file])));
    (
        rust.wait_with_output().unwrap(),
        py.map(|p| p.wait_with_output().unwrap()),
    )
}

/// Where the line of an answer's `jumps` (a JSON list of `from-to` texts) ends from
/// `start`, replayed by the library's own checker.
pub fn replay_line(board: &pegsol::Board, start: pegsol::Bits, jumps: &Value) -> pegsol::Bits {
    let line: Vec<&str> = jumps
        .as_array()
        .expect("a list of jumps")
        .iter()
        .map(|j| j.as_str().expect("a jump text"))
        .collect();
    let jumps = pegsol::notation::parse_jumps(board, &line.join(" ")).unwrap();
    pegsol::replay(board, start, &jumps).unwrap()
}
