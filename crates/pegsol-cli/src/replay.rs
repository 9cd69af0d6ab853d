//! `pegsol replay`: checks a line of play and shows where it ends.

use anyhow::Result;
use pegsol::notation;
use serde::Serialize;

use crate::answer::Line;
use crate::cli::Setup;
use crate::common::{load_setup, print_json};

/// The answer of `replay --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ReplayAnswer {
    pub board: String,
    #[serde(flatten)]
    pub line: Line,
    pub pegs: u32,
    #[serde(rename = "final")]
    pub last: Vec<String>,
}

pub(crate) fn run(setup: &Setup, jumps: &str, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    let jumps = notation::parse_jumps(&board, jumps)?;
    let end = pegsol::replay(&board, start, &jumps)?;
    let answer = ReplayAnswer {
        board: board.name().to_string(),
        line: Line::of(&board, &jumps),
        pegs: end.count(),
        last: board.labels(end),
    };
    if json {
        print_json(&answer);
    } else {
        println!(
            "{} jumps, {} moves, all legal; {} pegs left:\n{}",
            answer.line.jumps.len(),
            answer.line.moves,
            answer.pegs,
            board.draw(end)
        );
    }
    Ok(0)
}
