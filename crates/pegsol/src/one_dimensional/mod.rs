//! One-dimensional peg solitaire (Moore and Eppstein): the regular language of configurations
//! that reduce to one peg, the linear-time minimum, and a constructive solution.
//!
//! ## The language
//!
//! Playing backwards from one peg ("unhopping": a peg moves two cells and leaves a peg on the
//! cell it crossed), every configuration of three or more pegs that reduces to one peg is made
//! by the stages of the paper, or their mirror images:
//!
//! 1. `10(10)*11`: from `1011`, unhop the rightmost peg any number of times;
//! 2. unhop the leftmost peg one or more times, leaving a pair of holes: `11(01)*00(10)*11`;
//! 3. move the `00` to the right by unhopping pegs into it: `11(01)*(11)*00(10)*11`
//!    (stage 2 is the case of no `11`);
//! 4. or move it all the way to the right: `11(01)*(11)*01`;
//! 5. or fill the pair by unhopping from the left: `11(01)*(11)*1011(10)*11`.
//!
//! With `1`, `011` and `110` (two pegs need a hole beside them, since the board is exactly the
//! given cells) and any holes on either side, this is [`REGEX`]: `0*L0*`. It is compiled here
//! to a DFA (Thompson construction, then subsets).
//!
//! ## The minimum
//!
//! The fewest pegs a string can be reduced to is the fewest pieces in a partition of it into
//! substrings of `0*L0*`, where a piece may also be a bare `11` (the paper: `11` is the only
//! configuration that needs a hole outside its own pegs; on a board that has a hole, it jumps
//! into one a neighbouring piece has vacated). A string with no hole cannot move at all. Both
//! facts are checked against exhaustive search for every string up to 16 cells. A
//! left-to-right pass keeps, for each DFA state, the fewest finished pieces before the current
//! one (the paper's shortest path in the DAG of (state, position) pairs, kept one column at a
//! time), and the best partition of the prefix ending at each position. The pieces are
//! recovered backwards by running the DFA on the reversed string (the language is closed
//! under reversal). Time O(n); memory one bit per cell for the partition, since the prefix
//! figures are recomputed a block at a time from checkpoints ([`LinePlan`]).
//!
//! ## The solution
//!
//! Each piece's pegs match one stage pattern; its jumps are the stage's unhops reversed
//! (see [`reduce_piece`]). [`LinePlan::jumps`] produces them one at a time, so that a caller
//! can check them with a [`LineReplay`] and then print them without ever storing them.

use std::fmt;

mod dfa;
mod plan;
mod play;

pub use dfa::Dfa;
pub use plan::LinePlan;
pub use play::{brute_force_min, reduce_piece, replay_line, LineReplay};

/// The language `0*L0*` of configurations that reduce to one peg, as a regular expression.
pub const REGEX: &str = "0*(1|011|110\
|10(10)*11|11(01)*(11)*00(10)*11|11(01)*(11)*01|11(01)*(11)*1011(10)*11\
|11(01)*01|11(01)*00(11)*(10)*11|10(11)*(10)*11|11(01)*1101(11)*(10)*11)0*";

/// A bad configuration string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 0-based index of the offending character (0 for an empty string).
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for LineError {}

/// Reads a configuration of `1` (peg) and `0` (hole); surrounding whitespace is ignored.
pub fn parse_line(text: &str) -> Result<Vec<bool>, LineError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(LineError {
            position: 0,
            message: "empty configuration: give a string of 1 (peg) and 0 (hole), e.g. 1011".into(),
        });
    }
    match trimmed.bytes().position(|b| b != b'0' && b != b'1') {
        None => Ok(trimmed.bytes().map(|b| b == b'1').collect()),
        Some(i) => Err(LineError {
            position: i,
            message: format!(
                "character {} (index {i}) is {:?}: use only 1 for a peg and 0 for a hole",
                i + 1,
                trimmed[i..].chars().next().unwrap_or('?')
            ),
        }),
    }
}

/// The answer for one configuration, with every jump collected (for small inputs and tests;
/// [`LinePlan`] gives the same without storing the jumps).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSolution {
    /// The fewest pegs the configuration reduces to.
    pub min_pegs: usize,
    /// The partition into pieces, each reducing to one peg: `[start, end)` cell ranges.
    pub pieces: Vec<(usize, usize)>,
    /// Jumps `(from, to)` that reach `min_pegs` pegs (the jumped cell is between).
    pub jumps: Vec<(usize, usize)>,
}

/// Solves a configuration in linear time.
///
/// ```
/// let cells = pegsol::one_dimensional::parse_line("1011").unwrap();
/// let s = pegsol::one_dimensional::solve_line(&cells, true);
/// assert_eq!(s.min_pegs, 1);
/// assert_eq!(s.jumps.len(), 2);
/// ```
#[must_use]
pub fn solve_line(cells: &[bool], with_jumps: bool) -> LineSolution {
    let plan = LinePlan::new(cells);
    let mut jumps = Vec::new();
    if with_jumps {
        plan.jumps(cells, |f, t| jumps.push((f, t)));
    }
    LineSolution {
        min_pegs: plan.min_pegs(),
        pieces: plan.pieces().collect(),
        jumps,
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn bits(s: &str) -> Vec<bool> {
        parse_line(s).unwrap()
    }

    #[test]
    fn small_cases() {
        let dfa = Dfa::language();
        for yes in [
            "1",
            "011",
            "110",
            "1011",
            "1101",
            "101011",
            "0010110",
            "1100101011",
        ] {
            assert!(dfa.accepts(&bits(yes)), "{yes}");
        }
        for no in ["0", "11", "111", "11011", "1001", "10101"] {
            assert!(!dfa.accepts(&bits(no)), "{no}");
        }
        assert_eq!(solve_line(&bits("000"), true).min_pegs, 0);
        assert_eq!(solve_line(&bits("11"), true).min_pegs, 2);
        assert!(parse_line("10a1").unwrap_err().message.contains("index 2"));
        assert!(parse_line("  ").is_err());
    }

    /// Every string of 1 to `max` cells.
    fn all_strings(max: usize) -> impl Iterator<Item = Vec<bool>> {
        (1..=max)
            .flat_map(|n| (0u32..(1 << n)).map(move |x| (0..n).map(|i| x >> i & 1 == 1).collect()))
    }

    #[test]
    fn language_is_its_own_mirror_image() {
        let dfa = Dfa::language();
        for s in all_strings(14) {
            let r: Vec<bool> = s.iter().rev().copied().collect();
            assert_eq!(dfa.accepts(&s), dfa.accepts(&r));
        }
    }

    #[test]
    fn language_minimum_and_jumps_match_brute_force() {
        // One brute-force pass over every string of up to 16 cells checks three things: the
        // language is exactly the strings that reduce to one peg, the linear-time minimum is
        // the true minimum, and the printed jumps replay to exactly that many pegs.
        let dfa = Dfa::language();
        for s in all_strings(16) {
            let truth = brute_force_min(&s);
            assert_eq!(dfa.accepts(&s), truth == 1 && s.contains(&true), "{s:?}");
            let sol = solve_line(&s, true);
            assert_eq!(sol.min_pegs, truth, "{s:?}");
            assert_eq!(replay_line(&s, &sol.jumps), Ok(sol.min_pegs), "{s:?}");
            // The pieces tile the string.
            let mut at = 0;
            for &(a, b) in &sol.pieces {
                assert_eq!(a, at);
                at = b;
            }
            assert!(sol.pieces.is_empty() || at == s.len());
        }
    }
}
