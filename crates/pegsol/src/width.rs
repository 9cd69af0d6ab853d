//! The one place a board's width is picked: an engine generic over its position word is run
//! with the fewest 64-bit words that hold the board (one for up to 64 holes, two for up to
//! 128, four for up to 256), as regex-automata's `meta` picks an engine behind one `Regex`.
//! Front ends never branch on a board's size: they call the library, which dispatches here.

/// Evaluates `$body` with the type `$W` standing for the position word of `$board`'s width
/// (`u64`, `[u64; 2]` or `[u64; 4]`, by [`Board::words`](crate::Board::words)), so that each
/// width gets its own monomorphised copy of the engine.
macro_rules! with_width {
    ($board:expr, $W:ident => $body:expr) => {
        match $board.words() {
            1 => {
                type $W = u64;
                $body
            }
            2 => {
                type $W = [u64; 2];
                $body
            }
            _ => {
                type $W = [u64; 4];
                $body
            }
        }
    };
}

pub(crate) use with_width;
