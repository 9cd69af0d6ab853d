//! Hole labels (`d4`), jumps (`d2-d4`) and moves (`d2-d4-f4`).
//!
//! Columns are lettered from `a` over the bounding box, left to right, going on `aa`, `ab`, ...
//! past `z`; rows are numbered from 1 at the top.

use crate::bitset::{Bits, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;

pub use crate::labels::{column_name, label, parse_label};

/// A jump in notation: `from-to`.
#[must_use]
pub fn jump_text(board: &Board, jump: Jump) -> String {
    format!("{}-{}", board.label(jump.from()), board.label(jump.to()))
}

/// Reads one jump `from-to` on `board`; the jumped hole is the one between.
pub fn parse_jump(board: &Board, text: &str) -> Result<Jump> {
    let written = text.trim();
    let (a, b) = written
        .split_once('-')
        .ok_or_else(|| Error::BadJump(written.to_string()))?;
    let (from, to) = (board.hole(a)?, board.hole(b)?);
    if let Some(j) = board.jump_between(from, to) {
        return Ok(j);
    }
    let ((fr, fc), (tr, tc)) = (board.coords(from), board.coords(to));
    let (dr, dc) = (tr as i64 - fr as i64, tc as i64 - fc as i64);
    let step = board.lattice().directions().iter().find(|&&(r, c)| {
        (2 * r as i64, 2 * c as i64) == (dr, dc) || (r as i64, c as i64) == (dr, dc)
    });
    let why = match step {
        _ if from == to => "a jump ends on another hole than it starts".to_string(),
        Some(&(r, c)) if (r as i64, c as i64) == (dr, dc) => format!(
            "{} is next to {}; a jump goes over the next hole into the one beyond it",
            board.label(to),
            board.label(from)
        ),
        Some(&(r, c)) => {
            let over = board.hole_at(fr as i64 + r as i64, fc as i64 + c as i64);
            match over {
                None => format!(
                    "there is no hole between {} and {} to jump over",
                    board.label(from),
                    board.label(to)
                ),
                Some(_) => "the board has no such jump".to_string(),
            }
        }
        None => format!(
            "{} and {} are not two holes apart along a line of the {} lattice",
            board.label(from),
            board.label(to),
            board.lattice()
        ),
    };
    Err(Error::NotAJump {
        jump: written.to_string(),
        board: board.name().to_string(),
        why,
    })
}

/// Reads a sequence of moves (`d2-d4-f4, c4-e4`) separated by commas or spaces, as jumps.
pub fn parse_jumps(board: &Board, text: &str) -> Result<Vec<Jump>> {
    let mut out = Vec::new();
    for mv in text.split([',', ' ', '\n', ';']).filter(|s| !s.is_empty()) {
        let holes: Vec<&str> = mv.split('-').collect();
        if holes.len() < 2 {
            return Err(Error::BadJump(mv.to_string()));
        }
        for pair in holes.windows(2) {
            out.push(parse_jump(board, &format!("{}-{}", pair[0], pair[1]))?);
        }
    }
    Ok(out)
}

/// Groups jumps into moves: consecutive jumps by the same peg (each starting where the last
/// one landed) are one move. Each move is the list of holes the peg visits.
#[must_use]
pub fn moves(jumps: &[Jump]) -> Vec<Vec<crate::Hole>> {
    let mut out: Vec<Vec<crate::Hole>> = Vec::new();
    for (i, j) in jumps.iter().enumerate() {
        match out.last_mut() {
            Some(mv) if i > 0 && jumps[i - 1].to() == j.from() => mv.push(j.to()),
            _ => out.push(vec![j.from(), j.to()]),
        }
    }
    out
}

/// Moves in notation: `d2-d4-f4`.
#[must_use]
pub fn move_texts(board: &Board, jumps: &[Jump]) -> Vec<String> {
    moves(jumps)
        .iter()
        .map(|mv| {
            mv.iter()
                .map(|&h| board.label(h))
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect()
}

/// Labels of a set, joined by commas (`-` for the empty set).
#[must_use]
pub fn set_text<W: Word>(board: &Board, set: Bits<W>) -> String {
    if set.is_empty() {
        "-".to_string()
    } else {
        board.labels(set).join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        assert_eq!(label(3, 3), "d4");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        assert_eq!(column_name(52), "ba");
        for col in 0..800 {
            for row in [0, 8, 99] {
                assert_eq!(parse_label(&label(row, col)).unwrap(), (row, col));
            }
        }
        for bad in ["", "4", "d", "d0", "4d", "d-1", "dd4x", "abcd1", "é4"] {
            assert!(parse_label(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_label(" D4 ").unwrap(), (3, 3));
    }

    #[test]
    fn jumps_and_moves() {
        let b = Board::builtin("english").unwrap();
        let js = parse_jumps(&b, "d2-d4-f4, b4-d4").unwrap();
        assert_eq!(js.len(), 3);
        assert_eq!(b.label(js[0].over()), "d3");
        assert_eq!(move_texts(&b, &js), vec!["d2-d4-f4", "b4-d4"]);
        assert!(parse_jumps(&b, "d2-d5").is_err());
        let next = parse_jumps(&b, "d2-d3").unwrap_err().to_string();
        assert!(next.contains("d3 is next to d2"), "{next}");
        let corner = parse_jumps(&b, "c2-a2").unwrap_err().to_string();
        assert!(corner.contains("no hole \"a2\""), "{corner}");
        let gap = Board::parse("gap", "o o.\n").unwrap();
        let missing = parse_jumps(&gap, "a1-c1").unwrap_err().to_string();
        assert!(missing.contains("no hole between a1 and c1"), "{missing}");
        assert!(parse_jumps(&b, "d2").is_err());
        assert_eq!(jump_text(&b, js[2]), "b4-d4");
    }
}
