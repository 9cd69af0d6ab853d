//! Published whole-game counts (golden data in `tests/data/counts.json`, with sources).

use pegsol::{count::count, Board, Finish, Problem};

fn golden() -> Vec<serde_json::Map<String, serde_json::Value>> {
    let text = include_str!("data/counts.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_object().unwrap().clone())
        .collect()
}

#[test]
fn published_counts() {
    let entries = golden();
    assert_eq!(entries.len(), 2);
    for e in entries {
        let text = |k: &str| e[k].as_str().unwrap().to_string();
        let board = Board::builtin(&text("board")).unwrap();
        let start = board.holes().minus(board.hole_set(&text("empty")).unwrap());
        let finish = match text("finish").as_str() {
            "any" => Finish::AnyOne,
            f => Finish::Holes(board.hole_set(f).unwrap()),
        };
        let c = count(
            &Problem::new(&board, start, finish).unwrap(),
            usize::MAX,
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
}
