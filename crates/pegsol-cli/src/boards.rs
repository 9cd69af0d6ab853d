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
            let vacancy = b
                .start()
                .map(|s| b.holes::<[u64; 4]>().minus(s))
                .unwrap_or_default();
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
        // A family's holes are a formula, then its limits in parentheses: the formula goes in
        // the column, the limits in the note, so that the columns stay aligned.
        let rows: Vec<(&BoardEntry, &str, String)> = self
            .boards
            .iter()
            .map(|b| {
                let (formula, limits) = match b.holes.split_once(" (") {
                    Some((f, rest)) => (f, rest.trim_end_matches(')').to_string()),
                    None => (b.holes.as_str(), String::new()),
                };
                let mut note: Vec<String> = Vec::new();
                if limits.starts_with("<=") {
                    note.push(format!("{formula} {limits}"));
                } else if !limits.is_empty() {
                    note.push(limits);
                }
                if b.example != b.name {
                    note.push(format!(
                        "e.g. {}: {} holes",
                        b.example,
                        Board::builtin(&b.example).map_or(0, |x| x.hole_count())
                    ));
                }
                let note = if note.is_empty() {
                    String::new()
                } else {
                    format!("  ({})", note.join("; "))
                };
                (b, formula, note)
            })
            .collect();
        let name_w = rows
            .iter()
            .map(|r| r.0.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let holes_w = rows.iter().map(|r| r.1.len()).max().unwrap_or(5).max(5);
        println!(
            "{:<name_w$}  {:>holes_w$}  {:<11} {:>4} {:>7}  vacancy",
            "board", "holes", "lattice", "syms", "classes"
        );
        for (b, formula, note) in rows {
            let vacancy = if b.vacancy.is_empty() {
                "-".to_string()
            } else {
                b.vacancy.join(",")
            };
            println!(
                "{:<name_w$}  {:>holes_w$}  {:<11} {:>4} {:>7}  {}{}",
                b.name, formula, b.lattice, b.symmetries, b.classes, vacancy, note
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
