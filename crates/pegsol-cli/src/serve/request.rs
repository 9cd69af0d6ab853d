//! A request body read and checked: the board, its start, the jumps played, the finish.

use anyhow::Result;
use pegsol::{notation, Board, Pegs, Problem};
use serde::Deserialize;
use serde_json::Value;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Analyse,
    Board,
    Solve,
    Ends,
    Check,
    Hint,
}

/// The request, parsed: a board by name or as ASCII art, its starting pegs and the finish.
pub(super) struct Parsed {
    pub(super) problem: Problem,
    pub(super) timeout: Option<f64>,
    /// The start the game was played from, when the position is given as a start and the
    /// jumps played from it (`"jumps"`); the position itself otherwise.
    pub(super) origin: Pegs,
}

/// A request body as sent. Unknown fields are refused, by name: a misspelt `"emtpy"` must
/// not be ignored silently.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RequestBody {
    pub(super) board: String,
    #[serde(default)]
    pub(super) empty: Option<Value>,
    #[serde(default)]
    pub(super) finish: Option<Value>,
    #[serde(default)]
    pub(super) timeout: Option<f64>,
    #[serde(default)]
    pub(super) jumps: Option<Value>,
}

/// Labels from a JSON list or a comma-separated string.
pub(super) fn labels(v: &Value, what: &str) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("\"{what}\" must list hole labels as strings, got {i}"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|l| l.join(",")),
        other => Err(format!(
            "\"{what}\" must be a list of hole labels, got {other}"
        )),
    }
}

/// Reads and checks a request body. Never panics, whatever the bytes (a fuzz test says so).
pub(super) fn parse_request(body: &[u8]) -> Result<Parsed, String> {
    const EXAMPLE: &str = r#"{"board": "english", "empty": ["d4"], "finish": "d4"}"#;
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| format!("the body is not JSON ({e}); send an object like {EXAMPLE}"))?;
    let Some(object) = value.as_object() else {
        return Err(format!("the body must be a JSON object like {EXAMPLE}"));
    };
    let missing_board = !object.contains_key("board");
    let body = RequestBody::deserialize(value).map_err(|e| {
        if missing_board && e.to_string().starts_with("missing field") {
            "\"board\" is missing: give a built-in name (\"english\") or the board as ASCII art"
                .to_string()
        } else {
            format!("{e}; send an object like {EXAMPLE}")
        }
    })?;
    if let Some(t) = body.timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(format!(
                "\"timeout\" must be a positive number of seconds, got {t}"
            ));
        }
    }
    let name = body.board.as_str();
    // ASCII art has several lines; a name never does. Files are never read from here.
    let shape = if name.contains('\n') {
        pegsol::Shape::parse("custom", name)
    } else {
        pegsol::Shape::builtin(name.trim())
    }
    .map_err(|e| match (e, crate::common::closest_builtin(name)) {
        // In words for the page: no CLI command to run, and the name meant when it is close.
        (pegsol::Error::UnknownBoard(_), Some(guess)) => {
            format!("board: unknown board {name:?}; did you mean {guess}? (the menu lists the built-in boards)")
        }
        (pegsol::Error::UnknownBoard(_), None) => {
            format!("board: unknown board {name:?}; the menu lists the built-in boards, and a board of your own can be pasted as a picture")
        }
        (e, _) => format!("board: {e}"),
    })?;
    let board = Board::from_shape(&shape).map_err(|e| format!("board: {e}"))?;
    let start = start_of(&body, &board)?;
    // The same finishes as the CLI's --finish: labels, "any" or "any:N".
    let finish = match &body.finish {
        None | Some(Value::Null) => None,
        Some(v) => Some(labels(v, "finish")?),
    };
    let finish = crate::common::finish_of(&board, start, finish.as_deref())
        .map_err(|e| format!("finish: {}", e.root_cause()))?;
    // Jumps played from the start, each checked by the independent replay.
    let origin = start;
    let start = played(&body, &board, start)?;
    let problem = Problem::new(board, start, finish).map_err(|e| e.to_string())?;
    Ok(Parsed {
        problem,
        timeout: body.timeout,
        origin,
    })
}

/// The game's start: the board's own, or every hole but those of `"empty"`.
fn start_of(body: &RequestBody, board: &Board) -> Result<Pegs, String> {
    match &body.empty {
        None | Some(Value::Null) => board
            .start()
            .ok_or_else(|| format!("board {} has no usual start; give \"empty\"", board.name())),
        Some(v) => {
            let list = labels(v, "empty")?;
            let empty = if list.trim().is_empty() {
                Pegs::EMPTY
            } else {
                board.hole_set(&list).map_err(|e| format!("empty: {e}"))?
            };
            Ok(board.holes().minus(empty))
        }
    }
}

/// The position after the jumps of `"jumps"` from `start`, each checked by the independent
/// replay.
fn played(body: &RequestBody, board: &Board, start: Pegs) -> Result<Pegs, String> {
    match &body.jumps {
        None | Some(Value::Null) => Ok(start),
        Some(v) => {
            let text = labels(v, "jumps")?.replace(',', " ");
            let jumps = notation::parse_jumps(board, &text).map_err(|e| format!("jumps: {e}"))?;
            pegsol::replay(board, start, &jumps).map_err(|e| format!("jumps: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use axum::http::{header, StatusCode};

    use super::*;
    use crate::serve::panicked;

    #[test]
    fn request_errors_name_what_is_wrong() {
        let err = |body: &str| parse_request(body.as_bytes()).err().unwrap_or_default();
        assert!(err(r#"{"board":"english","emtpy":["d4"]}"#).contains("unknown field `emtpy`"));
        assert!(err(r#"{"emtpy":1}"#).contains("emtpy"));
        assert!(err(r#"{"empty":[]}"#).contains("\"board\" is missing"));
        assert!(err("[1, 2]").contains("JSON object"));
        assert!(err(r#"{"board":"english","timeout":-1}"#).contains("positive"));
        assert!(err(r#"{"board":"english","timeout":"x"}"#).contains("invalid type"));
        assert!(err("not json").contains("not JSON"));
        assert!(err(r#"{"board":"english","empty":"d4,d4"}"#).contains("named twice"));
        let big = parse_request(br#"{"board":"english","timeout":1e300}"#).unwrap();
        assert_eq!(big.timeout, Some(1e300));
    }

    /// Mutation fuzzing of the request parser for a fixed time (`PEGSOL_FUZZ_SECONDS`,
    /// default 5): valid bodies mutated byte by byte and field by field, and random bytes.
    /// Every body gets a request or a message, never a panic, and every request it accepts
    /// is a problem the library accepts.
    #[test]
    fn request_parser_for_a_fixed_time() {
        let seconds = std::env::var("PEGSOL_FUZZ_SECONDS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or(5.0);
        let seeds = [
            r#"{"board": "english"}"#,
            r#"{"board": "english", "empty": ["d2", "d3"], "finish": ["d4"], "timeout": 2}"#,
            r#"{"board": "french", "empty": "d4", "finish": "any"}"#,
            r#"{"board": "triangle5", "finish": "any:2", "timeout": 0.5}"#,
            r#"{"board": "ooo.\no o\n", "finish": null, "empty": null}"#,
            r#"{"board": "lattice: triangular\no\noo\n.oo\n", "empty": []}"#,
            r#"{"board": "rect:3x3", "empty": ["a1"], "finish": ["b2", "c3"]}"#,
            r#"{"board": "triangle:11", "empty": ["a1"], "finish": "any", "timeout": 1}"#,
            r#"{"board": "rect:9x9", "empty": "e5", "jumps": ["e3-e5"]}"#,
        ];
        let alphabet: &[u8] =
            b"{}[]\":,. 0123456789eE+-nulltrueboardemptyfinishtimeoutanyod\\\n\xff";
        let mut state = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let began = Instant::now();
        let (mut bodies, mut accepted) = (0u64, 0u64);
        while began.elapsed().as_secs_f64() < seconds || bodies < 2000 {
            let mut bytes = seeds[(next() % seeds.len() as u64) as usize]
                .as_bytes()
                .to_vec();
            for _ in 0..next() % 6 {
                let at = (next() % (bytes.len() as u64 + 1)) as usize;
                let byte = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 4 {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {
                        let field: &[u8] = match next() % 5 {
                            0 => br#""timeout": 1e400,"#,
                            1 => br#""timeout": -0.0,"#,
                            2 => br#""empty": [1, {"x": []}],"#,
                            3 => br#""finish": "any:99999999999999999999","#,
                            _ => br#""emtpy": ["d4"],"#,
                        };
                        bytes.splice(
                            1.min(bytes.len())..1.min(bytes.len()),
                            field.iter().copied(),
                        );
                    }
                }
            }
            if next() % 16 == 0 {
                bytes = (0..next() % 200).map(|_| next() as u8).collect();
            }
            bodies += 1;
            match parse_request(&bytes) {
                Ok(r) => {
                    accepted += 1;
                    assert!(r.problem.from_start(r.problem.start()).is_ok());
                    assert!(r.timeout.is_none_or(|t| t.is_finite() && t > 0.0));
                }
                Err(e) => assert!(!e.is_empty()),
            }
        }
        println!("{bodies} bodies, {accepted} accepted");
        assert!(accepted > bodies / 10, "{accepted} of {bodies}");
    }

    #[test]
    fn a_panic_is_answered_500_in_json() {
        let response = panicked(Box::new("boom".to_string()));
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let json = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert_eq!(json, "application/json");
    }
}
