//! The library's typed errors. Messages are lower case and say what, where and how to fix it.

use thiserror::Error;

/// Everything that can go wrong when building a board, reading notation or setting a problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A character in a board picture that is not `o`, `.` or a space.
    #[error("line {line}, column {column}: unexpected character {found:?} in a board picture; use 'o' for a peg, '.' for an empty hole and a space for no hole")]
    BadCell {
        /// 1-based line in the board text.
        line: usize,
        /// 1-based column in the board text.
        column: usize,
        /// The offending character.
        found: char,
    },
    /// Two cells of a picture with `columns: spaced` that fall on one hole when the columns
    /// are halved.
    #[error("line {line}, column {column}: with 'columns: spaced' this cell falls on the same hole as the cell just before it; put a space between cells or write 'columns: exact'")]
    MergedCells {
        /// 1-based line in the board text.
        line: usize,
        /// 1-based column of the second cell.
        column: usize,
    },
    /// A carriage return in a board picture that does not end a line (before `\n`).
    #[error("line {line}, column {column}: a carriage return (\\r) that does not end a line; lines end with \\n or \\r\\n: save the file with either")]
    StrayCarriageReturn {
        /// 1-based line in the board text.
        line: usize,
        /// 1-based column of the carriage return.
        column: usize,
    },
    /// A board picture with no holes at all.
    #[error("the board has no holes; draw at least one 'o' or '.'")]
    EmptyBoard,
    /// A board picture with more holes than a position can hold.
    #[error("line {line}, column {column}: this is hole number {count}, but a board holds at most {} holes; make the board smaller", .count - 1)]
    TooManyHoles {
        /// 1-based line of the first hole past the limit.
        line: usize,
        /// 1-based column of the first hole past the limit.
        column: usize,
        /// The number that hole would have had (65 for a [`Board`](crate::Board), 257 for a
        /// [`Shape`](crate::Shape)).
        count: usize,
    },
    /// A header line (`key: value`) the parser does not know.
    #[error("line {line}: unknown header {text:?}; the headers are 'lattice: orthogonal|diagonal|triangular' and 'columns: exact|spaced'")]
    BadHeader {
        /// 1-based line.
        line: usize,
        /// The text of the line.
        text: String,
    },
    /// A header given twice.
    #[error("line {line}: a second '{key}:' header (the first is on line {first}); keep one")]
    RepeatedHeader {
        /// 1-based line of the second header.
        line: usize,
        /// 1-based line of the first.
        first: usize,
        /// The header's name.
        key: String,
    },
    /// A hole named twice in one list of labels.
    #[error("hole {0} is named twice; name each hole once")]
    RepeatedHole(String),
    /// A board picture too wide or tall to index.
    #[error("the board picture is {rows}x{cols}; at most 4096 rows and 4096 columns are allowed")]
    BoardTooLarge {
        /// Rows in the picture.
        rows: usize,
        /// Columns in the picture.
        cols: usize,
    },
    /// A board name that is neither built in nor well formed.
    #[error("unknown board {0:?}; run 'pegsol boards' for the built-in names, or give the path of a board file")]
    UnknownBoard(String),
    /// A `rect:RxC` name with bad sizes.
    #[error("bad rectangle {0:?}: write rect:RxC with R, C >= 1 and R*C <= 256, e.g. rect:4x4")]
    BadRect(String),
    /// A `triangle:N` name with a bad side.
    #[error("bad triangle {0:?}: write triangle:N with 1 <= N <= 22, e.g. triangle:5")]
    BadTriangle(String),
    /// A `hexagon:N` name with a bad side.
    #[error("bad hexagon {0:?}: write hexagon:N with 1 <= N <= 9 (3N(N-1)+1 holes, at most 256), e.g. hexagon:4")]
    BadHexagon(String),
    /// A hole label that is not of the form letters then digits.
    #[error("bad hole label {0:?}: write a column letter then a row number, e.g. d4 (columns past z are aa, ab, ...)")]
    BadLabel(String),
    /// A well-formed label that names no hole on the board.
    #[error("no hole {label:?} on the board {board}")]
    NoSuchHole {
        /// The label as given.
        label: String,
        /// The board's name.
        board: String,
    },
    /// A jump in notation that cannot be read.
    #[error("bad jump {0:?}: write it as from-to, e.g. d2-d4")]
    BadJump(String),
    /// Two holes written as a jump that no jump of the board joins.
    #[error("{jump:?} is not a jump on the board {board}: {why}")]
    NotAJump {
        /// The jump as written.
        jump: String,
        /// The board's name.
        board: String,
        /// What is wrong, e.g. that the holes are not two apart on a line.
        why: String,
    },
    /// A jump that is not legal where it is played.
    #[error("jump {number} ({jump}) is illegal: {why}")]
    IllegalJump {
        /// 1-based number of the jump in its sequence.
        number: usize,
        /// The jump in notation.
        jump: String,
        /// Why it cannot be played.
        why: String,
    },
    /// A board with no conventional start was given no `--empty`.
    #[error("the board {0} has no conventional starting vacancy; say which holes start empty")]
    NoStart(String),
    /// A finish written `any:N` whose N is not a number.
    #[error("a finish of any:N needs a number of pegs, e.g. any:2; got {0:?}")]
    FinishPegs(String),
    /// A finish naming no holes.
    #[error("the finish names no holes; name at least one, or ask for one peg anywhere")]
    EmptyFinish,
    /// A finish of n pegs anywhere that stands for too many positions.
    #[error("a finish of {pegs} pegs anywhere on {holes} holes stands for too many positions; ask for fewer pegs or name the holes")]
    TooManyFinishes {
        /// Pegs asked for.
        pegs: u32,
        /// Holes on the board.
        holes: u64,
    },
    /// A finish that asks for more pegs than the start has.
    #[error("the finish has {finish} pegs but the start has only {start}; jumps only remove pegs")]
    FinishTooLarge {
        /// Pegs in the finish.
        finish: u32,
        /// Pegs at the start.
        start: u32,
    },
    /// A search asked for with no starting position.
    #[error("no starting position was given; give at least one")]
    NoStarts,
    /// A path count past `u128` (the counter never wraps).
    #[error("a path count passed 2^128; count a smaller board or ask for fewer levels")]
    CountOverflow,
    /// Scratch files could not be written or read back.
    #[error("scratch files failed: {0}")]
    Io(String),
    /// A result that failed its own independent check: a bug, never bad input.
    #[error("internal error: {0}; please report it")]
    Internal(&'static str),
}

/// Shorthand for results with the library's [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
