//! The web playground's API over real HTTP on loopback: every endpoint, bad input, oversized
//! bodies, budgets, and a bounded load test with latency figures.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `pegsol serve` on a port the system chose; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(budget: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pegsol"))
            .args(["serve", "--addr", "127.0.0.1:0", "--budget", budget])
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
    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
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

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
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

#[test]
fn every_endpoint_answers_like_the_cli() {
    let server = Server::start("5");
    let (status, page) = server.request("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(
        page.contains("<svg id=\"board\""),
        "the page draws an SVG board"
    );
    assert!(
        !page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("url(http"),
        "no external assets"
    );

    let (status, v) = server.post("/api/solve", r#"{"board": "english"}"#);
    assert_eq!(status, 200);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 31);
    assert_eq!(v["final"][0], "d4");

    // A position after two jumps, given by its empty holes.
    let (_, v) = server.post(
        "/api/hint",
        r#"{"board": "english", "empty": ["d2", "e3", "f3"], "finish": ["d4"]}"#,
    );
    assert_eq!(v["status"], "solved");
    assert!(v["hint"].as_str().unwrap().contains('-'));

    let (_, v) = server.post("/api/ends", r#"{"board": "english"}"#);
    let ends: Vec<&str> = v["ends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["hole"].as_str().unwrap())
        .collect();
    assert_eq!(ends, ["d1", "a4", "d4", "g4", "d7"]);

    let (_, v) = server.post("/api/check", r#"{"board": "french", "finish": "any"}"#);
    assert_eq!(v["status"], "refuted");
    assert_eq!(v["certificate"]["kind"], "class");

    let (_, v) = server.post("/api/solve", r#"{"board": "french", "finish": "any"}"#);
    assert_eq!(v["status"], "impossible");
    assert_eq!(v["reason"], "position class");
    // The CLI's finishes: two pegs anywhere.
    let (_, v) = server.post("/api/solve", r#"{"board": "french", "finish": "any:2"}"#);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["final"].as_array().unwrap().len(), 2);

    // A board as ASCII art, on the triangular lattice.
    let art = r#"{"board": "lattice: triangular\n.\noo\nooo\noooo\nooooo\n", "finish": "any"}"#;
    let (_, v) = server.post("/api/solve", art);
    assert_eq!(v["status"], "solved", "{v}");
    let (_, g) = server.post("/api/board", r#"{"board": "triangle5"}"#);
    assert_eq!(g["holes"].as_array().unwrap().len(), 15);
    assert_eq!(g["lattice"], "triangular");
    assert_eq!(g["jumps"].as_array().unwrap().len(), 36);
}

#[test]
fn bad_requests_get_clear_json_errors() {
    let server = Server::start("5");
    let cases: &[(&str, &str)] = &[
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ("{}", "\"board\" is missing"),
        (r#"{"board": "englsh"}"#, "unknown board"),
        (r#"{"board": "english", "empty": ["z9"]}"#, "empty"),
        (r#"{"board": "english", "empty": 5}"#, "list of hole labels"),
        (r#"{"board": "english", "finish": ["q1"]}"#, "finish"),
        (r#"{"board": "english", "timeout": -1}"#, "timeout"),
        (r#"{"board": "ooo\nxo\n"}"#, "board"),
    ];
    for (body, needle) in cases {
        let (status, v) = server.post("/api/solve", body);
        assert_eq!(status, 400, "{body}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(needle), "{body}: {e}");
    }
    // Oversized bodies are refused with 413 and a JSON message.
    let big = format!(
        r#"{{"board": "english", "pad": "{}"}}"#,
        "x".repeat(100_000)
    );
    let (status, text) = server.request("POST", "/api/solve", big.as_bytes());
    assert_eq!(status, 413);
    assert!(text.contains("larger than"), "{text}");
    let (status, _) = server.request("GET", "/api/nothing", b"");
    assert_eq!(status, 404);
}

#[test]
fn a_position_too_hard_for_the_budget_is_undecided() {
    // The Wiegleb central game takes minutes; the server's budget is 0.3 s.
    let server = Server::start("0.3");
    let started = Instant::now();
    let (status, v) = server.post("/api/solve", r#"{"board": "wiegleb"}"#);
    assert_eq!(status, 200);
    assert_eq!(v["status"], "undecided", "{v}");
    assert_eq!(v["reason"], "time budget");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn load_many_concurrent_solves_without_failures() {
    let server = Server::start("5");
    // 96 requests from 12 client threads: English positions after one or two jumps, and
    // triangles, so that the answers differ.
    let bodies = [
        r#"{"board": "english", "empty": ["d2", "d3"], "finish": ["d4"]}"#,
        r#"{"board": "english", "empty": ["b4", "c4"], "finish": ["d4"]}"#,
        r#"{"board": "english"}"#,
        r#"{"board": "triangle5", "finish": "any"}"#,
        r#"{"board": "triangle6", "empty": ["c3"], "finish": "any"}"#,
        r#"{"board": "english", "finish": ["a4"]}"#,
        r#"{"board": "french", "finish": "any"}"#,
    ];
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|t| {
                let server = &server;
                scope.spawn(move || {
                    (0..8)
                        .map(|i| {
                            let body = bodies[(t + i) % bodies.len()];
                            let sent = Instant::now();
                            let (status, v) = server.post("/api/solve", body);
                            assert_eq!(status, 200, "{body}: {v}");
                            assert!(
                                v["status"] == "solved" || v["status"] == "impossible",
                                "{body}: {v}"
                            );
                            sent.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let wall = started.elapsed();
    latencies.sort();
    let pct = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
    println!(
        "load: {} requests, 12 clients, wall {:.2} s, {:.0} req/s; latency p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64(),
        pct(50).as_secs_f64() * 1e3,
        pct(95).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );
    assert_eq!(latencies.len(), 96);
    assert!(wall < Duration::from_secs(120));
}
