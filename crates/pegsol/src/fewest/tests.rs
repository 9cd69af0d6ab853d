use super::*;
use crate::board::Board;

// Fewest moves on small boards are checked against the brute-force oracle by the corpus
// test (`tests/corpus.rs`), which runs both methods on every problem.

#[test]
fn counts_moves_by_chains() {
    let board = Board::builtin("english").unwrap();
    let jumps = crate::notation::parse_jumps(&board, "f4-d4 d5-d3 d2-d4").unwrap();
    // f4-d4, then a new peg: d5-d3, then d2-d4 starts on another peg again.
    assert_eq!(move_count(&jumps), 3);
    let chain = crate::notation::parse_jumps(&board, "d2-d4 d4-f4").unwrap();
    assert_eq!(move_count(&chain), 1);
}
