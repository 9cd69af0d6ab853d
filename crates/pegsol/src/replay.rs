//! The independent checker: replays jumps from the board's geometry alone.
//!
//! It does not use the jump table the solver searched with: each jump is rechecked from hole
//! coordinates and the lattice's directions, so a bug in move generation cannot vouch for itself.

use crate::bitset::{Bits, Hole, Word};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::jumps::Jump;
use crate::notation::jump_text;

/// Plays `jumps` from `start` (a position of any width) on `board`, checking each one, and
/// returns the final position.
///
/// # Panics
/// When positions of `W` words cannot hold the board (a caller's bug, never bad input).
///
/// ```
/// use pegsol::{Board, notation, replay};
/// let b = Board::builtin("english").unwrap();
/// let jumps = notation::parse_jumps(&b, "d2-d4, f3-d3").unwrap();
/// let start: pegsol::Bits = b.start().unwrap();
/// let end = replay(&b, start, &jumps).unwrap();
/// assert_eq!(end.count(), 30);
/// assert!(replay(&b, start, &jumps[1..]).is_err());
/// ```
pub fn replay<W: Word>(board: &Board, start: Bits<W>, jumps: &[Jump]) -> Result<Bits<W>> {
    assert!(
        board.fits::<W>(),
        "a replay in positions too narrow for the board"
    );
    let all: Bits<W> = Bits::first(board.hole_count());
    if let Some(h) = start.minus(all).lowest() {
        return Err(illegal(
            board,
            0,
            None,
            format!("the start uses hole #{} which the board lacks", h.index()),
        ));
    }
    let mut pegs = start;
    for (i, &j) in jumps.iter().enumerate() {
        let n = board.hole_count();
        if [j.from(), j.over(), j.to()].iter().any(|h| h.index() >= n) {
            return Err(illegal(
                board,
                i + 1,
                None,
                "it names a hole the board lacks".into(),
            ));
        }
        let at = |h: Hole| {
            let (r, c) = board.coords(h);
            (r as i64, c as i64)
        };
        let (f, o, t) = (at(j.from()), at(j.over()), at(j.to()));
        let step = (o.0 - f.0, o.1 - f.1);
        let straight = (t.0 - o.0, t.1 - o.1) == step;
        let unit = i32::try_from(step.0).ok().zip(i32::try_from(step.1).ok());
        if !straight || !unit.is_some_and(|(a, b)| board.lattice().has_direction(a, b)) {
            return Err(illegal(
                board,
                i + 1,
                Some(j),
                "its holes are not consecutive on a line of the lattice".into(),
            ));
        }
        let why = if !pegs.contains(j.from()) {
            Some(format!("no peg on {}", board.label(j.from())))
        } else if !pegs.contains(j.over()) {
            Some(format!("no peg to jump on {}", board.label(j.over())))
        } else if pegs.contains(j.to()) {
            Some(format!("{} is not empty", board.label(j.to())))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(illegal(board, i + 1, Some(j), why));
        }
        pegs = pegs.without(j.from()).without(j.over()).with(j.to());
    }
    Ok(pegs)
}

fn illegal(board: &Board, number: usize, jump: Option<Jump>, why: String) -> Error {
    Error::IllegalJump {
        number,
        jump: jump.map_or_else(|| "-".to_string(), |j| jump_text(board, j)),
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_jumps;

    #[test]
    fn rejects_each_kind_of_bad_jump() {
        let b = Board::builtin("english").unwrap();
        let s: Bits = b.start().unwrap();
        let h = |l: &str| b.hole(l).unwrap();
        let bent = Jump::new(h("d2"), h("d3"), h("e3"));
        assert!(replay(&b, s, &[bent])
            .unwrap_err()
            .to_string()
            .contains("not consecutive"));
        let long = Jump::new(h("d1"), h("d3"), h("d5"));
        assert!(replay(&b, s, &[long]).is_err());
        let into_full = parse_jumps(&b, "d2-d4").unwrap()[0];
        let e = replay(&b, s, &[into_full, into_full])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("jump 2 (d2-d4) is illegal"), "{e}");
        let diag = Jump::new(h("c3"), h("d4"), h("e5"));
        assert!(replay(&b, s.without(h("e5")), &[diag]).is_err());
    }

    /// Past one word the same rules hold, in positions of two words, and the holes past the
    /// 64th are checked like the others.
    #[test]
    fn checks_lines_pegs_and_landing_holes_past_one_word() {
        let b = Board::builtin("rect:9x9").unwrap();
        let h = |l: &str| b.hole(l).unwrap();
        let start: Bits<[u64; 2]> = b.holes().without(h("e5"));
        let j = |f: &str, o: &str, t: &str| Jump::new(h(f), h(o), h(t));
        let after = replay(&b, start, &[j("e3", "e4", "e5")]).unwrap();
        assert_eq!(after.count(), 79);
        assert!(replay(&b, start, &[j("e3", "e4", "e6")]).is_err());
        assert!(replay(&b, start, &[j("c5", "d5", "e5"), j("c5", "d5", "e5")]).is_err());
        assert!(replay(&b, start, &[j("a1", "a2", "a3")]).is_err());
        assert!(replay(&b, start, &[j("c3", "d4", "e5")]).is_err()); // no diagonals
                                                                     // Hole i9 is the 81st: a jump into it lands past the first word.
        let low = start.without(h("i9")).with(h("e5"));
        let end = replay(&b, low, &[j("i7", "i8", "i9")]).unwrap();
        assert!(end.contains(h("i9")) && !end.contains(h("i8")) && h("i9").index() == 80);
    }
}
