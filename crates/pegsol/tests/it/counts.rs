//! Published whole-game counts (golden data in `tests/data/counts.json`, with sources).

use pegsol::{
    count::{count, count_with, CountOptions},
    Board, Finish, Problem,
};

fn golden(list: &str) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let text = include_str!("../data/counts.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_object().unwrap().clone())
        .collect()
}

/// Counts the game of one golden entry and compares every figure it gives.
fn check(e: &serde_json::Map<String, serde_json::Value>, options: &CountOptions) {
    let text = |k: &str| e[k].as_str().unwrap().to_string();
    let board = Board::builtin(&text("board")).unwrap();
    let start: pegsol::Bits = board.holes().minus(board.hole_set(&text("empty")).unwrap());
    let finish = match text("finish").as_str() {
        "any" => Finish::AnyOne,
        f => Finish::Holes(board.hole_set(f).unwrap()),
    };
    let c = count_with(
        &Problem::new(&board, start.resize(), finish).unwrap(),
        options,
        &|_| {},
    )
    .unwrap();
    let check = |key: &str, value: String| {
        if let Some(expected) = e.get(key) {
            // Numbers past 2^64 are strings in the file; compare as text either way.
            let expected = expected
                .as_str()
                .map_or(expected.to_string(), str::to_string);
            assert_eq!(value, expected, "{} {key}", e["board"]);
        }
    };
    check("positions", c.positions().to_string());
    check("positions_up_to_symmetry", c.classes().to_string());
    check("winning_positions", c.winning().to_string());
    check(
        "winning_positions_up_to_symmetry",
        c.winning_classes().to_string(),
    );
    check("solutions", c.solutions.to_string());
    check("games", c.games.to_string());
    check(
        "shortest_dead_end",
        c.shortest_dead_end().unwrap_or(0).to_string(),
    );
}

#[test]
fn published_counts() {
    let entries = golden("counts");
    assert_eq!(entries.len(), 2);
    for e in entries {
        check(&e, &CountOptions::default());
    }
}

/// The French board's whole game from the centre, against Durango Bill's count of its games:
/// 191 s on two cores with a 4.1 GB peak (under an 8 GB budget), spilling about 3 GB of
/// scratch files to the system's temporary directory.
/// `cargo test --release -p pegsol --test it counts:: -- --ignored`.
#[test]
#[ignore = "3 minutes, 4 GB of memory and 3 GB of disk"]
fn published_large_counts() {
    let entries = golden("large_counts");
    assert_eq!(entries.len(), 1);
    let dir = std::env::temp_dir().join(format!("pegsol-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = CountOptions {
        max_memory: 8000 << 20,
        spill: Some(dir.clone()),
        ..CountOptions::default()
    };
    for e in entries {
        check(&e, &options);
    }
    std::fs::remove_dir(&dir).unwrap();
}

/// Jaap Scherphuis's table for the 15-hole triangle: positions after each jump from every
/// kind of starting hole, and the holes where one last peg can end.
#[test]
fn triangle5_levels_and_final_pegs_from_every_start() {
    let text = include_str!("../data/counts.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let starts = v["triangle5_levels"]["starts"].as_array().unwrap();
    assert_eq!(starts.len(), 4);
    let board = Board::builtin("triangle5").unwrap();
    for s in starts {
        let empty = s["empty"].as_str().unwrap();
        let start: pegsol::Bits = board.holes().minus(board.hole_set(empty).unwrap());
        let c = count(
            &Problem::new(&board, start.resize(), Finish::AnyOne).unwrap(),
            usize::MAX,
            &|_| {},
        )
        .unwrap();
        let levels: Vec<u64> = c.levels.iter().map(|l| l.positions).collect();
        let expected: Vec<u64> = s["positions_per_level"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(levels, expected, "{empty}");
        assert_eq!(c.positions(), s["total"].as_u64().unwrap(), "{empty}");
        let problem = Problem::new(&board, start.resize(), pegsol::Finish::AnyOne).unwrap();
        let ends = pegsol::ends(&problem, &pegsol::Limits::default()).unwrap();
        let mut found: Vec<String> = ends
            .holes
            .iter()
            .filter(|e| matches!(e.outcome, pegsol::Outcome::Solved { .. }))
            .map(|e| board.label(e.hole))
            .collect();
        found.sort();
        let mut expected: Vec<String> = s["final_pegs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap().to_string())
            .collect();
        expected.sort();
        assert_eq!(found, expected, "{empty}");
    }
}
