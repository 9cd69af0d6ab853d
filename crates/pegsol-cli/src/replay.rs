//! `pegsol replay`: checks a line of play and shows where it ends.

use anyhow::Result;
use pegsol::answer::ReplayAnswer;
use pegsol::notation;

use crate::cli::Setup;
use crate::common::{load_setup, print_json};

pub(crate) fn run(setup: &Setup, jumps: &str, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    let jumps = notation::parse_jumps(&board, jumps)?;
    let answer = ReplayAnswer::of(&board, start, &jumps)?;
    if json {
        print_json(&answer);
    } else {
        println!(
            "{} jumps, {} moves, all legal; {} pegs left:\n{}",
            answer.line.jumps.len(),
            answer.line.moves,
            answer.pegs,
            board.draw(pegsol::replay(&board, start, &jumps)?)
        );
    }
    Ok(0)
}
