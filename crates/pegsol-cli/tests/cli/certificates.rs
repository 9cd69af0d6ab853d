//! `check` and certificates: every kind verified independently, and tampering caught.

use super::*;

#[test]
fn check_explains_and_verifies() {
    // The French centre start against any single peg: refuted by class, counts shown.
    let o = pegsol(&["check", "french", "--finish", "any", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["status"], "refuted");
    assert_eq!(v["certificate"]["kind"], "class");
    assert_eq!(v["certificate"]["finishes"].as_array().unwrap().len(), 37);
    // The English centre game is not refuted: the proof search reaches the finish.
    let o = pegsol(&["check", "english", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["status"], "solvable");
    // One the budget cannot decide is open, exit 3.
    let o = pegsol(&[
        "check",
        "wiegleb",
        "--empty",
        "e1",
        "--finish",
        "e1",
        "--timeout",
        "0.5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(json(&o)["status"], "open");
    // Pegs on the bottom rows cannot leave one peg far up (d2): the classes allow it, a
    // pagoda function with exact integer weights refutes it.
    let o = pegsol(&[
        "check",
        "english",
        "--empty",
        "c1,d1,e1,c2,d2,e2,a3,b3,c3,d3,e3,f3,g3,a4,b4,c4,d4,e4,f4,g4",
        "--finish",
        "d2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["certificate"]["kind"], "pagoda");
    let s = v["certificate"]["start_total"].as_i64().unwrap();
    let f = v["certificate"]["finish_total"].as_i64().unwrap();
    assert!(s < f);
    assert_eq!(v["certificate"]["weights"].as_object().unwrap().len(), 33);
    // A user's weights: a valid Fibonacci row refutes; a broken one names the jump.
    let good = temp_board("good.txt", "1 1 2 3 5\n");
    let o = pegsol(&[
        "check",
        "rect:1x5",
        "--empty",
        "c1,d1,e1",
        "--finish",
        "e1",
        "--pagoda",
        good.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("start total 2, finish total 5"));
    let bad = temp_board("bad_weights.txt", "1 1 3 3 5\n");
    fails_with(
        &[
            "check",
            "rect:1x5",
            "--empty",
            "c1,d1,e1",
            "--finish",
            "e1",
            "--pagoda",
            bad.to_str().unwrap(),
        ],
        "jump a1-c1 breaks it",
    );
    let short = temp_board("short_weights.txt", "1 1/2 x\n");
    fails_with(
        &["check", "rect:1x5", "--pagoda", short.to_str().unwrap()],
        "one weight per hole",
    );
}

/// A random small board as a picture, with a start drawn, from `seed`.
fn random_picture(seed: u64) -> String {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let lattice = ["orthogonal", "diagonal", "triangular"][(next() % 3) as usize];
    let (rows, cols) = (2 + (next() % 3) as usize, 3 + (next() % 3) as usize);
    let mut grid = vec![vec!['o'; cols]; rows];
    for _ in 0..next() % 3 {
        grid[(next() % rows as u64) as usize][(next() % cols as u64) as usize] = ' ';
    }
    for _ in 0..1 + next() % 2 {
        let (r, c) = (
            (next() % rows as u64) as usize,
            (next() % cols as u64) as usize,
        );
        if grid[r][c] == 'o' {
            grid[r][c] = '.';
        }
    }
    let mut text = format!("lattice: {lattice}\ncolumns: exact\n");
    for row in grid {
        text.push_str(row.iter().collect::<String>().trim_end());
        text.push('\n');
    }
    text
}

#[test]
fn every_certificate_verifies_independently_and_tampering_is_caught() {
    let (python, script) = (python(), PY_CHECKER);
    // One seed's verdict: the certificate's kind when refuted, None when solvable or skipped.
    let one = |seed: u64| -> Option<Option<String>> {
        let board = temp_board(
            &format!("random-{seed}.txt"),
            &random_picture(seed * 7919 + 1),
        );
        let board = board.to_str().unwrap();
        let finish = ["any", "any:2"][(seed % 2) as usize];
        let cert =
            std::env::temp_dir().join(format!("pegsol-cert-{}-{seed}.json", std::process::id()));
        let cert_s = cert.to_str().unwrap();
        let o = pegsol(&[
            "check",
            board,
            "--finish",
            finish,
            "--json",
            "--certificate",
            cert_s,
        ]);
        if o.status.code() == Some(2) {
            return None; // a start with too few pegs for the finish
        }
        let v = json(&o);
        let verdict = match v["status"].as_str().unwrap() {
            "refuted" => {
                // Both checkers at once: each is a process of its own.
                let (rust, py) = verify_both(cert_s, python.then_some(script));
                assert_eq!(rust.status.code(), Some(0), "{board}: {}", stdout(&rust));
                if let Some(py) = py {
                    assert_eq!(py.status.code(), Some(0), "{board}: {}", stdout(&py));
                }
                // The same file claiming that the start cannot reach itself: false, so every
                // kind of certificate must be rejected.
                let mut c: Value =
                    serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
                c["finishes"] = Value::from(vec![c["start"].clone()]);
                std::fs::write(&cert, c.to_string()).unwrap();
                let (rust, py) = verify_both(cert_s, python.then_some(script));
                assert_eq!(rust.status.code(), Some(1), "{board}: {}", stdout(&rust));
                if let Some(py) = py {
                    assert_eq!(py.status.code(), Some(1), "{board}: {}", stdout(&py));
                }
                Some(Some(v["certificate"]["kind"].as_str().unwrap().to_string()))
            }
            "solvable" => Some(None),
            other => panic!("{board}: {other}: {v}"),
        };
        let _ = std::fs::remove_file(&cert);
        verdict
    };
    // Three threads over the seeds: the test is mostly waiting on the processes it starts.
    let verdicts: Vec<Option<Option<String>>> = std::thread::scope(|scope| {
        let one = &one;
        let threads: Vec<_> = (0..3u64)
            .map(|t| {
                scope.spawn(move || {
                    (0..120u64)
                        .filter(|s| s % 3 == t)
                        .map(one)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let (mut refuted, mut solvable, mut kinds) = (0, 0, std::collections::BTreeMap::new());
    for verdict in verdicts.into_iter().flatten() {
        match verdict {
            Some(kind) => {
                refuted += 1;
                *kinds.entry(kind).or_insert(0) += 1;
            }
            None => solvable += 1,
        }
    }
    println!("{refuted} refuted ({kinds:?}), {solvable} solvable");
    assert!(
        refuted > 50 && solvable > 20,
        "{refuted} refuted, {solvable} solvable"
    );
    assert!(kinds.len() >= 2, "{kinds:?}");
}

#[test]
fn a_search_certificate_from_solve_and_bells_resource_count() {
    // The 15-hole triangle, b3 empty, one peg on b3: impossible, but neither by class nor by
    // one pagoda function; solve proves it and writes the set that shows it.
    let cert = std::env::temp_dir().join(format!("pegsol-b3-{}.json", std::process::id()));
    let cert_s = cert.to_str().unwrap();
    let o = pegsol(&[
        "solve",
        "triangle5",
        "--empty",
        "b3",
        "--finish",
        "b3",
        "--certificate",
        cert_s,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("search certificate"), "{}", stdout(&o));
    let v = json(&pegsol(&["verify", cert_s, "--json"]));
    assert_eq!(v["status"], "verified", "{v}");
    // Remove a position: the set is no longer closed.
    let mut c: Value = serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    c["positions"].as_array_mut().unwrap().pop();
    std::fs::write(&cert, c.to_string()).unwrap();
    let o = pegsol(&["verify", cert_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not closed"), "{}", stdout(&o));
    let _ = std::fs::remove_file(&cert);
    // George Bell's resource count for the 45-hole board, as his page gives it.
    let weights = temp_board(
        "bell.txt",
        "-1 0 -1\n1 0 1\n0 0 0\n-1 1 0 1 0 1 0 1 -1\n0 0 0 0 0 0 0 0 0\n-1 1 0 1 0 1 0 1 -1\n0 0 0\n1 0 1\n-1 0 -1\n",
    );
    let o = pegsol(&["check", "wiegleb", "--pagoda", weights.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("a valid pagoda function"),
        "{}",
        stdout(&o)
    );
    let o = pegsol(&["show", "wiegleb", "--pagodas", "--json"]);
    assert_eq!(json(&o)["pagodas"][0]["weights"]["d1"], -1);
}
