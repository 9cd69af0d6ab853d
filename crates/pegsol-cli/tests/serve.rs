//! The web playground's API over real HTTP on loopback: every endpoint, bad input, oversized
//! bodies, budgets, and a bounded load test with latency figures.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::{Server, STARVED};

#[test]
fn every_endpoint_answers_like_the_cli() {
    // Its figures are decided within the server's budget: not beside the load tests, which
    // keep both cores busy.
    let _alone = LOAD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
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

/// A board past 64 holes is played like a small one, through the one solver: its geometry,
/// a solution, a hint, every jump's fate; and an honest answer from check (the wide
/// engines' proofs, so far).
#[test]
fn boards_past_64_holes_are_played_like_the_others() {
    let server = Server::start("20");
    let (_, menu) = server.request("GET", "/api/boards", b"");
    assert!(menu.contains("\"triangle:11\""), "{menu}");
    let (status, g) = server.post("/api/board", r#"{"board": "rect:9x9", "empty": "e5"}"#);
    assert_eq!(status, 200);
    assert_eq!(g["holes"].as_array().unwrap().len(), 81);
    assert_eq!(g["empty"][0], "e5");
    let (_, v) = server.post(
        "/api/solve",
        r#"{"board": "rect:9x9", "empty": ["e5"], "finish": "e5"}"#,
    );
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 79);
    assert_eq!(v["final"][0], "e5");
    // A few pegs in the middle of the big board, one jump played: hint and fates.
    let few = r#"{"board": "rect:9x9", "empty": "a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 e2 f2 g2 h2 i2 a3 b3 c3 e3 f3 g3 h3 i3 a4 b4 c4 d4 g4 h4 i4 a5 b5 c5 g5 h5 i5 a6 b6 c6 d6 f6 g6 h6 i6 a7 b7 c7 d7 e7 f7 g7 h7 i7 a8 b8 c8 d8 e8 f8 g8 h8 i8 a9 b9 c9 d9 e9 f9 g9 h9 i9", "finish": "any", "jumps": ["d2-d4"]}"#;
    let (_, v) = server.post("/api/hint", few);
    assert_eq!(v["status"], "solved", "{v}");
    assert!(v["hint"].as_str().unwrap().contains('-'));
    let (_, v) = server.post("/api/analyse", few);
    assert_eq!(v["pegs"], 7, "{v}");
    assert_eq!(v["status"], "winnable", "{v}");
    let fates = v["moves"].as_array().unwrap();
    assert!(!fates.is_empty());
    assert!(
        fates
            .iter()
            .all(|m| m["fate"] == "wins" || m["fate"] == "loses"),
        "{v}"
    );
    // No class or pagoda proof: the search decides, with the line.
    let (_, v) = server.post("/api/check", r#"{"board": "rect:9x9", "empty": "e5"}"#);
    assert_eq!(v["status"], "solvable", "{v}");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 79);
    // Two pegs in a corner never reach i7 (the same class): a pagoda function, by hole.
    let all: Vec<String> = (1..=9)
        .flat_map(|r| "abcdefghi".chars().map(move |c| format!("{c}{r}")))
        .filter(|h| h != "a1" && h != "b1")
        .collect();
    let body = format!(
        r#"{{"board": "rect:9x9", "empty": "{}", "finish": "i7"}}"#,
        all.join(" ")
    );
    let (_, v) = server.post("/api/check", &body);
    assert_eq!(v["status"], "refuted", "{v}");
    assert_eq!(v["certificate"]["kind"], "pagoda");
    let w = &v["certificate"]["weights"];
    assert_eq!(w.as_object().unwrap().len(), 81);
    assert!(
        v["certificate"]["start_total"].as_i64() < v["certificate"]["finish_total"].as_i64(),
        "{v}"
    );
    // A finish in another class: the class proof, as the page draws it.
    let (_, v) = server.post(
        "/api/check",
        r#"{"board": "rect:10x10", "empty": "e5", "finish": "any"}"#,
    );
    assert_eq!(v["status"], "refuted", "{v}");
    assert_eq!(v["certificate"]["kind"], "class");
    assert!(!v["certificate"]["sets"][0]["holes"]
        .as_array()
        .unwrap()
        .is_empty());
    let (status, v) = server.post("/api/solve", r#"{"board": "rect:9x9", "finish": "z9"}"#);
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("z9"), "{v}");
}

#[test]
fn bad_requests_get_clear_json_errors() {
    let server = Server::start("5");
    let cases: &[(&str, &str)] = &[
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ("{}", "\"board\" is missing"),
        (r#"{"board": "englsh"}"#, "did you mean english?"),
        (
            r#"{"board": "zzzzzz"}"#,
            "the menu lists the built-in boards",
        ),
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
    // The 45-hole board from e1 back to e1 is undecided in minutes; the budget is 0.3 s.
    let server = Server::start("0.3");
    let started = Instant::now();
    let (status, v) = server.post(
        "/api/solve",
        r#"{"board": "wiegleb", "empty": ["e1"], "finish": ["e1"]}"#,
    );
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

/// The server's resident memory, from /proc (Linux), in MB.
fn rss_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace()
        .nth(1)?
        .parse::<u64>()
        .ok()
        .map(|kb| kb / 1024)
}

/// Held by each load test, and by the tests whose figures must be decided within the
/// server's budget, so that none of them shares the machine's cores with a load test.
static LOAD: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// 200 clients playing at once for 12 s, one in ten asking for hints on the 45-hole board
/// (which the budget may not decide), the others for English solves, each pausing 0.5 to
/// 1.5 s between requests like a player: the cheap requests must never be starved (p95
/// under [`STARVED`]; about 100 ms here) nor refused, and the server's memory must stay
/// bounded.
#[test]
#[ignore = "soak test: CI runs these with `-- --ignored soak_`"]
fn soak_cheap_requests_stay_fast_while_expensive_ones_queue() {
    let _alone = LOAD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let server = Server::start("3");
    let pid = server.child.id();
    let english = [
        r#"{"board": "english"}"#,
        r#"{"board": "english", "empty": ["d2", "d3"], "finish": ["d4"]}"#,
        r#"{"board": "english", "empty": ["f4", "e4"], "finish": ["d4"]}"#,
        r#"{"board": "english", "finish": ["d1"]}"#,
    ];
    let wiegleb = r#"{"board": "wiegleb", "finish": "any"}"#;
    let run_for = Duration::from_secs(12);
    let started = Instant::now();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (results, peak_mb) = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut peak = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss_mb(pid).unwrap_or(0));
                std::thread::sleep(Duration::from_millis(200));
            }
            peak
        });
        let clients: Vec<_> = (0..200u64)
            .map(|c| {
                let server = &server;
                scope.spawn(move || {
                    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (c << 17);
                    let mut next = move || {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        seed
                    };
                    // Spread the first requests over a second.
                    std::thread::sleep(Duration::from_millis(next() % 1000));
                    let mut out = Vec::new();
                    while started.elapsed() < run_for {
                        let hard = c % 10 == 0;
                        let pick = (next() % 4) as usize;
                        let (path, body) = if hard {
                            ("/api/hint", wiegleb)
                        } else {
                            ("/api/solve", english[pick])
                        };
                        let sent = Instant::now();
                        let (status, _) = server.request("POST", path, body.as_bytes());
                        out.push((hard, status, sent.elapsed(), pick));
                        std::thread::sleep(Duration::from_millis(500 + next() % 1000));
                    }
                    out
                })
            })
            .collect();
        let results: Vec<(bool, u16, Duration, usize)> = clients
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (results, watcher.join().unwrap())
    });
    let mut cheap: Vec<Duration> = results.iter().filter(|r| !r.0).map(|r| r.2).collect();
    cheap.sort();
    let pct = |v: &[Duration], p: usize| v[(v.len() * p / 100).min(v.len() - 1)];
    for k in 0..4 {
        let mut of: Vec<Duration> = results
            .iter()
            .filter(|r| !r.0 && r.3 == k)
            .map(|r| r.2)
            .collect();
        of.sort();
        println!(
            "body {k}: {} requests, p50 {:?} p95 {:?}",
            of.len(),
            pct(&of, 50),
            pct(&of, 95)
        );
    }
    let refused = results.iter().filter(|r| !r.0 && r.1 != 200).count();
    let hard = results.iter().filter(|r| r.0).count();
    let hard_ok = results.iter().filter(|r| r.0 && r.1 == 200).count();
    println!(
        "load: {} cheap requests, p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms, {} not 200; {} hard requests, {} answered 200; server peak {} MB",
        cheap.len(),
        pct(&cheap, 50).as_secs_f64() * 1e3,
        pct(&cheap, 95).as_secs_f64() * 1e3,
        cheap.last().unwrap().as_secs_f64() * 1e3,
        refused,
        hard,
        hard_ok,
        peak_mb
    );
    assert_eq!(refused, 0, "a cheap request was refused");
    assert!(cheap.len() > 2000, "{} cheap requests", cheap.len());
    assert!(pct(&cheap, 95) < STARVED, "p95 {:?}", pct(&cheap, 95));
    assert!(peak_mb < 2048, "server peak {peak_mb} MB");
}

/// Three load runs of 100 clients, one in ten asking for expensive work (hints on the
/// 45-hole board, the diamond's and the 9x9 square's analysis, solves past 64 holes), the
/// rest for English solves and hints, each client sending its next request 0 to 100 ms after
/// the last answer. The cheap requests are never starved in any run (p95 under
/// [`STARVED`]), and the server's resident memory, idle after each run, stays level: with glibc's default arenas
/// it had climbed run after run (271, 514, 590, 673 MB in 60 s runs).
#[test]
#[ignore = "soak test: CI runs these with `-- --ignored soak_`"]
fn soak_memory_stays_level_under_repeated_load() {
    let _alone = LOAD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let server = Server::start("3");
    let pid = server.child.id();
    let cheap = [
        ("/api/solve", r#"{"board": "english"}"#),
        (
            "/api/solve",
            r#"{"board": "english", "empty": ["d2", "d3"], "finish": ["d4"]}"#,
        ),
        (
            "/api/hint",
            r#"{"board": "english", "empty": ["d2", "e3", "f3"], "finish": ["d4"]}"#,
        ),
        ("/api/solve", r#"{"board": "french", "finish": "any:2"}"#),
    ];
    let hard = [
        ("/api/hint", r#"{"board": "wiegleb", "finish": "any"}"#),
        ("/api/analyse", r#"{"board": "diamond"}"#),
        ("/api/solve", r#"{"board": "rect:9x9", "empty": ["e5"]}"#),
        ("/api/analyse", r#"{"board": "rect:9x9"}"#),
        (
            "/api/solve",
            r#"{"board": "triangle:11", "empty": ["a1"], "finish": "any"}"#,
        ),
    ];
    let mut idle = Vec::new();
    for run in 0..3u64 {
        let started = Instant::now();
        let results: Vec<(bool, u16, Duration)> = std::thread::scope(|scope| {
            let clients: Vec<_> = (0..100u64)
                .map(|c| {
                    let server = &server;
                    scope.spawn(move || {
                        let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ (c << 20) ^ run;
                        let mut next = move || {
                            seed ^= seed << 13;
                            seed ^= seed >> 7;
                            seed ^= seed << 17;
                            seed
                        };
                        let mut out = Vec::new();
                        while started.elapsed() < Duration::from_secs(5) {
                            let expensive = c % 10 == 0;
                            let (path, body) = if expensive {
                                hard[(next() % hard.len() as u64) as usize]
                            } else {
                                cheap[(next() % cheap.len() as u64) as usize]
                            };
                            let sent = Instant::now();
                            let (status, _) = server.request("POST", path, body.as_bytes());
                            out.push((expensive, status, sent.elapsed()));
                            std::thread::sleep(Duration::from_millis(next() % 100));
                        }
                        out
                    })
                })
                .collect();
            clients
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        // Idle: the expensive requests still running finish (their budget is 3 s).
        std::thread::sleep(Duration::from_secs(4));
        let rss = rss_mb(pid).unwrap_or(0);
        idle.push(rss);
        let mut times: Vec<Duration> = results.iter().filter(|r| !r.0).map(|r| r.2).collect();
        times.sort();
        let pct = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
        let refused = results.iter().filter(|r| !r.0 && r.1 != 200).count();
        println!(
            "run {run}: {} cheap requests, p50 {:.0} ms, p95 {:.0} ms, p99 {:.0} ms, {refused} not 200; {} expensive; idle {rss} MB",
            times.len(),
            pct(50).as_secs_f64() * 1e3,
            pct(95).as_secs_f64() * 1e3,
            pct(99).as_secs_f64() * 1e3,
            results.iter().filter(|r| r.0).count(),
        );
        assert_eq!(refused, 0, "run {run}: a cheap request was refused");
        assert!(
            times.len() > 1000,
            "run {run}: {} cheap requests",
            times.len()
        );
        assert!(pct(95) < STARVED, "run {run}: p95 {:?}", pct(95));
    }
    // Level: no run leaves the server much above the first (the default arenas left it at
    // 271 and then 317 MB after runs like these).
    assert!(
        idle.iter().all(|&mb| mb < 160) && idle[2] <= idle[0] + 64,
        "idle resident memory after each run: {idle:?} MB"
    );
}

/// The server's CPU seconds so far, from /proc (Linux).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let rest = stat.rsplit_once(')').unwrap().1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}

#[test]
fn every_error_is_json_and_numbers_are_checked() {
    let server = Server::start("2");
    // A timeout past the budget is cut to it (it once panicked the handler).
    let (status, v) = server.post("/api/solve", r#"{"board": "english", "timeout": 1e20}"#);
    assert_eq!((status, &v["status"]), (200, &Value::from("solved")), "{v}");
    let (status, v) = server.post("/api/solve", r#"{"board": "english", "emtpy": ["d4"]}"#);
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `emtpy`"),
        "{v}"
    );
    for (method, path, code) in [
        ("GET", "/nothing", 404),
        ("GET", "/api/solve", 405),
        ("DELETE", "/", 405),
    ] {
        let (status, body) = server.request(method, path, b"");
        assert_eq!(status, code, "{method} {path}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(v["error"].is_string(), "{body}");
    }
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
        "y".repeat(20_000)
    );
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = String::new();
    let _ = s.read_to_string(&mut raw);
    assert!(raw.starts_with("HTTP/1.1 431"), "{raw}");
    assert!(raw.contains("\"error\""), "{raw}");
}

#[test]
fn slow_and_idle_clients_are_cut_off() {
    let server = Server::start("2");
    // Both clients connect at once, so that the two 10 s waits overlap.
    let began = Instant::now();
    // Idle: connected, sending nothing. Closed after the 10 s head timeout.
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // A body that never finishes: 408 with a JSON message.
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    slow.write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"board\"")
        .unwrap();
    let mut buf = [0u8; 64];
    assert_eq!(idle.read(&mut buf).unwrap_or(0), 0);
    let waited = began.elapsed();
    assert!(
        waited >= Duration::from_secs(9) && waited < Duration::from_secs(20),
        "{waited:?}"
    );
    let mut raw = String::new();
    let _ = slow.read_to_string(&mut raw);
    assert!(raw.starts_with("HTTP/1.1 408"), "{raw}");
    assert!(raw.contains("did not arrive"), "{raw}");
}

#[test]
fn a_request_whose_client_leaves_is_cancelled() {
    let server = Server::start("30");
    let pid = server.child.id();
    // The hardest problem known here: no member of the portfolio decides it within minutes, so
    // the search is still running when the client leaves (the central game solves in 0.3 s).
    let body = r#"{"board": "wiegleb", "empty": ["e1"], "finish": ["e1"]}"#;
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // On a loaded machine the server gets the CPU late: wait (up to 20 s) until it has
    // searched for half a second.
    let began = Instant::now();
    let mut busy = 0.0;
    while busy <= 0.5 && began.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(250));
        busy = cpu_seconds(pid);
    }
    assert!(busy > 0.5, "the search was running ({busy} s of CPU)");
    drop(s);
    std::thread::sleep(Duration::from_millis(500));
    let after = cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(2));
    let idle = cpu_seconds(pid) - after;
    assert!(idle < 0.2, "{idle} s of CPU after the client left");
}

/// An answer without what differs between any two runs: the fields that measure the run (time,
/// nodes, memory), and which line of play was found (the portfolio's members race, so two
/// runs may find different solutions): a line is kept as its number of jumps.
fn without_effort(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in [
                    "stats",
                    "millis",
                    "server_millis",
                    "nodes",
                    "dead",
                    "peak_memory_mb",
                    "moves",
                    "move_list",
                    "final",
                    "hint",
                ] {
                    m.remove(k);
                }
                if let Some(Value::Array(jumps)) = m.get("jumps") {
                    let n = jumps.len();
                    m.insert("jumps".into(), Value::from(n));
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// The JSON of a command and of its endpoint are the same answer type, so the same JSON:
/// checked field by field on problems each engine decides, solved and impossible.
#[test]
fn cli_and_http_give_the_same_json() {
    let server = Server::start("20");
    let cases: [(&str, &str, &[&str]); 6] = [
        ("solve", r#"{"board":"english"}"#, &["solve", "english"]),
        (
            "solve",
            r#"{"board":"french","finish":"any"}"#,
            &["solve", "french", "--finish", "any"],
        ),
        (
            "solve",
            r#"{"board":"triangle5","empty":["a1"],"finish":["c5"]}"#,
            &["solve", "triangle5", "--empty", "a1", "--finish", "c5"],
        ),
        ("ends", r#"{"board":"english"}"#, &["ends", "english"]),
        (
            "check",
            r#"{"board":"french","finish":"any"}"#,
            &["check", "french", "--finish", "any"],
        ),
        (
            "check",
            r#"{"board":"rect:3x4","empty":["a1"],"finish":["a1"]}"#,
            &["check", "rect:3x4", "--empty", "a1", "--finish", "a1"],
        ),
    ];
    for (endpoint, body, args) in cases {
        let (status, http) = server.post(&format!("/api/{endpoint}"), body);
        assert_eq!(status, 200, "{endpoint} {body}: {http}");
        let out = Command::new(env!("CARGO_BIN_EXE_pegsol"))
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        let cli: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(
            without_effort(cli),
            without_effort(http),
            "{args:?} against /api/{endpoint} {body}"
        );
    }
}
