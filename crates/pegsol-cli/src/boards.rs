//! `pegsol boards`: the built-in boards, from the library's own list.

use anyhow::Result;
use pegsol::Board;
use serde::Serialize;

use crate::common::print_json;

/// One built-in board or family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BoardEntry {
    pub name: &'static str,
    /// The number of holes, or how it follows from the parameters.
    pub holes: String,
    pub lattice: &'static str,
    pub symmetries: usize,
    pub classes: u64,
    /// The conventional starting vacancy.
    pub vacancy: Vec<String>,
    /// The board the figures are for (a sample size of a family).
    pub example: String,
}

/// The answer of `boards --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BoardsAnswer {
    pub boards: Vec<BoardEntry>,
}

impl BoardsAnswer {
    pub(crate) fn new() -> Result<BoardsAnswer> {
        let mut boards = Vec::new();
        for builtin in Board::builtins() {
            let b = Board::builtin(builtin.sample)?;
            let vacancy = b.start().map(|s| b.holes().minus(s)).unwrap_or_default();
            boards.push(BoardEntry {
                name: builtin.name,
                holes: builtin
                    .holes
                    .map_or(b.hole_count().to_string(), str::to_string),
                lattice: b.lattice().name(),
                symmetries: b.symmetries().len(),
                classes: b.classes().count(),
                vacancy: b.labels(vacancy),
                example: b.name().to_string(),
            });
        }
        Ok(BoardsAnswer { boards })
    }

    fn print(&self) {
        println!(
            "{:<18} {:>12}  {:<11} {:>4} {:>7}  vacancy",
            "board", "holes", "lattice", "syms", "classes"
        );
        for b in &self.boards {
            let note = if b.example != b.name {
                format!(
                    "  (e.g. {}: {} holes)",
                    b.example,
                    Board::builtin(&b.example).map_or(0, |x| x.hole_count())
                )
            } else {
                String::new()
            };
            let vacancy = if b.vacancy.is_empty() {
                "-".to_string()
            } else {
                b.vacancy.join(",")
            };
            println!(
                "{:<18} {:>12}  {:<11} {:>4} {:>7}  {}{}",
                b.name, b.holes, b.lattice, b.symmetries, b.classes, vacancy, note
            );
        }
        println!("\nAny other argument is read as a board file: one row per line, 'o' a peg, '.' an empty hole, a space for no hole.");
    }
}

pub(crate) fn run(json: bool) -> Result<u8> {
    let answer = BoardsAnswer::new()?;
    if json {
        print_json(&answer);
    } else {
        answer.print();
    }
    Ok(0)
}
