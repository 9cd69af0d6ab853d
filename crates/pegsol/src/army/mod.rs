//! The Solitaire Army (Conway's soldiers) on every lattice: men start on or below a line of
//! the infinite board; how few can send one man `N` rows beyond it?
//!
//! The lattice is a table entry ([`steps`], [`distance`]): the orthogonal board (Conway's army, jumps
//! along rows and columns), the diagonal one (eight directions, OEIS A125730) and the
//! triangular one (six directions: the hexagonal army, OEIS A014227). Rows are lattice lines
//! on all three.
//!
//! # Method
//!
//! The search runs backwards from the single man at the target `(0, N)`: undoing a jump
//! replaces the man on `c` by men on `a` and `b` (the jump `a` over `b` into `c`), so each undo
//! adds one man, and an army is found when every man stands on row 0 or below. The fewest men
//! is the fewest undos plus one, searched by iterative deepening on the number of men, with a
//! table of failed positions (up to the mirror that fixes the target) and four lower bounds:
//!
//! - every man above the line needs at least one more undo;
//! - the pagoda function `w = sigma^d`, `d` the lattice distance to the target, `sigma =
//!   (sqrt 5 - 1) / 2` (see [`impossibility`]): an undo never lowers the total, the army's total is
//!   at least the current one, and `k` men below the line total at most the sum of the `k`
//!   largest weights there (on the infinite board), which bounds `k` from below. At the root
//!   this alone shows at least 2, 4, 8, 19 men for orthogonal rows 1 to 4, and 2, 3, 5, 7,
//!   12, 21, 40, 97 and 2, 3, 5, 8, 15, 30, 92 for the diagonal and triangular rows;
//! - lineages: the men that end up replacing one man form an army for that man alone (other
//!   men can only block his undos, never help them), so the men needed add up over the men
//!   present, each needing at least the pagoda bound for his own row, and, once a limit's
//!   search runs past a few million positions, the window's best pagoda function for a lone
//!   man on his own cell (fitted once per cell above the line: a man at row 4 of the
//!   diagonal lattice needs 8, not the 7 of the fixed function);
//! - the window's best pagoda function for the position (a linear program over every pagoda
//!   function of the window at once, Bell, Hirschberg and Guerrero-Garcia 2007; see
//!   `bound.rs`): fitted to the target and to positions of at most three men, in exact
//!   integers, and handed down to every position below them, where an undo updates its total
//!   in one addition. It never rises above the fewest men of the window, and it ranks the
//!   undos: those it thinks cheapest are searched first. A limit first gets a probe of a
//!   quarter of a million positions with the fixed bounds alone, then four million with the
//!   functions near the target, so rows those settle never pay for the next bound.
//!
//! The search is confined to a [`Window`] of the board; "no smaller army" is proved for lines
//! of play inside that window. Every army found is replayed forwards by an independent
//! checker ([`replay_army`]) before it is returned.
//!
//! The rows out of reach (5 and beyond on the orthogonal lattice, Conway 1961; 9 on the
//! diagonal and 8 on the triangular one) are proved by the same pagoda function: the whole
//! half plane totals at most 1, exactly ([`impossibility`]).

mod bound;
mod geometry;
mod proof;
mod search;

use std::time::{Duration, Instant};

pub use geometry::{across, distance, half_plane_total, pagoda_bound, steps, Cell, Golden, SIGMA};
pub use proof::{distance_formula, impossibility, PagodaProof};
pub use search::Window;

use search::{CellSet, Cells256, Cells512, Ending, Layout, Search};

use crate::stop::Stop;
use crate::Lattice;

/// A jump: from, over, to.
pub type ArmyJump = (Cell, Cell, Cell);

/// The smallest army found for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmySolution {
    /// The lattice.
    pub lattice: Lattice,
    /// The row reached.
    pub row: u32,
    /// The men's starting cells.
    pub men: Vec<Cell>,
    /// The jumps, in playing order, replayed and checked.
    pub jumps: Vec<ArmyJump>,
    /// Whether every smaller army was ruled out (within the window).
    pub minimal: bool,
    /// The window searched.
    pub window: Window,
    /// Positions searched.
    pub nodes: u64,
    /// The pagoda lower bound on the men (valid on the infinite board).
    pub pagoda_bound: u32,
}

/// Why no army came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArmyError {
    /// The row cannot be reached by any finite army: the proof.
    Impossible(PagodaProof),
    /// Row 0 or less: no man needs to move.
    Trivial,
    /// The window is too large (over 512 cells), too small to hold the target's column, or
    /// too small for any army (its best pagoda function for the target says so).
    Window(String),
    /// No army of up to `men` men exists in the window (the search was asked for one of at
    /// most that many, [`ArmyOptions::men`]): a lower bound of `men + 1`, in the window.
    NoneUpTo {
        /// Every army of this many men or fewer is ruled out.
        men: u32,
        /// Positions searched.
        nodes: u64,
        /// The pagoda lower bound on the men (valid on the infinite board).
        pagoda_bound: u32,
    },
    /// The time budget ran out.
    Budget {
        /// Armies smaller than this were ruled out (within the window).
        ruled_out_below: u32,
        /// Positions searched.
        nodes: u64,
        /// The pagoda lower bound on the men (valid on the infinite board).
        pagoda_bound: u32,
    },
}

/// How to search.
#[derive(Clone, Debug)]
pub struct ArmyOptions {
    /// The part of the board the search may use ([`Window::default_for`] when `None`).
    pub window: Option<Window>,
    /// Stop with [`ArmyError::Budget`] after this long.
    pub timeout: Option<Duration>,
    /// Set from elsewhere (a notebook's Ctrl-C) to stop as the timeout does.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Bytes for the table of failed positions (it is cleared when full: a cache, not an
    /// answer).
    pub max_memory: usize,
    /// Threads (`None`: the current rayon pool's). One thread searches depth first from the
    /// target, the same way every run; more split the search after its first undos, so
    /// which army of the smallest size comes back may differ between runs.
    pub threads: Option<usize>,
    /// Look only for an army of at most this many men, with no iterative deepening up to it:
    /// an army found is an upper bound (minimal only if no smaller one can exist by the
    /// pagoda bound), and none found proves that more are needed ([`ArmyError::NoneUpTo`]).
    pub men: Option<u32>,
}

impl Default for ArmyOptions {
    fn default() -> ArmyOptions {
        ArmyOptions {
            window: None,
            timeout: None,
            cancel: None,
            max_memory: 4 << 30,
            threads: None,
            men: None,
        }
    }
}

/// Replays an army's jumps forwards on the infinite board of `lattice`, from coordinates
/// alone (the moves are written out here, not taken from the search's tables): each jump
/// moves two cells along a line over an occupied neighbour into an empty cell. Returns
/// whether a man reaches `(0, row)` and every man started on or below the line.
#[must_use]
pub fn replay_army(lattice: Lattice, men: &[Cell], jumps: &[ArmyJump], row: i32) -> bool {
    let mut pegs: std::collections::HashSet<Cell> = men.iter().copied().collect();
    if pegs.len() != men.len() || men.iter().any(|&(_, y)| y > 0) {
        return false;
    }
    for &(from, over, to) in jumps {
        let d = (to.0 - from.0, to.1 - from.1);
        let straight = match lattice {
            Lattice::Orthogonal => matches!(d, (2 | -2, 0) | (0, 2 | -2)),
            Lattice::Diagonal => matches!(d, (-2 | 0 | 2, -2 | 0 | 2)) && d != (0, 0),
            Lattice::Triangular => matches!(d, (2 | -2, 0) | (0, 2 | -2) | (2, 2) | (-2, -2)),
        };
        let mid = (from.0 + d.0 / 2, from.1 + d.1 / 2);
        if !straight || mid != over || !pegs.contains(&from) || !pegs.contains(&over) {
            return false;
        }
        if !pegs.insert(to) {
            return false;
        }
        pegs.remove(&from);
        pegs.remove(&over);
    }
    pegs.contains(&(0, row))
}

/// Finds the smallest army that puts a man on row `row` of `lattice`, proving (within the
/// window) that no smaller one works, or says why it cannot. `progress` is called as each
/// army size is tried, with the size and the positions searched so far.
///
/// ```
/// use pegsol::{army::{smallest_army, ArmyOptions}, Lattice};
/// let a = smallest_army(Lattice::Orthogonal, 3, &ArmyOptions::default(), &|_, _| {}).unwrap();
/// assert_eq!((a.men.len(), a.minimal), (8, true));
/// let hex = smallest_army(Lattice::Triangular, 4, &ArmyOptions::default(), &|_, _| {}).unwrap();
/// assert_eq!(hex.men.len(), 9);
/// ```
///
/// # Errors
///
/// [`ArmyError::Impossible`] with the proof when no finite army reaches the row,
/// [`ArmyError::Budget`] when the time runs out, [`ArmyError::Trivial`] for row 0 and
/// [`ArmyError::Window`] for a window that does not fit.
pub fn smallest_army(
    lattice: Lattice,
    row: u32,
    options: &ArmyOptions,
    progress: &dyn Fn(u32, u64),
) -> Result<ArmySolution, ArmyError> {
    if row == 0 {
        return Err(ArmyError::Trivial);
    }
    if let Some(proof) = impossibility(lattice, row) {
        return Err(ArmyError::Impossible(proof));
    }
    let window = options
        .window
        .unwrap_or_else(|| Window::default_for(lattice, row));
    let cells = window.cells(lattice, row as i32).len();
    if window.half_width < 0 || window.below < 0 {
        return Err(ArmyError::Window(
            "a window's width and depth are at least 0".into(),
        ));
    }
    if cells <= u128::CAPACITY {
        run::<u128>(lattice, row, window, options, progress)
    } else if cells <= Cells256::CAPACITY {
        run::<Cells256>(lattice, row, window, options, progress)
    } else if cells <= Cells512::CAPACITY {
        run::<Cells512>(lattice, row, window, options, progress)
    } else {
        Err(ArmyError::Window(format!(
            "the window has {cells} cells, more than 512; make it narrower or shallower"
        )))
    }
}

fn run<S: CellSet + Send + Sync>(
    lattice: Lattice,
    row: u32,
    window: Window,
    options: &ArmyOptions,
    progress: &dyn Fn(u32, u64),
) -> Result<ArmySolution, ArmyError> {
    let layout = Layout::<S>::new(lattice, row as i32, window)
        .ok_or_else(|| ArmyError::Window("the window does not fit".into()))?;
    let bound = pagoda_bound(lattice, row as i32).unwrap_or(u32::MAX);
    let halt = Stop::new(
        options.timeout.map(|t| Instant::now() + t),
        options.cancel.as_deref(),
    );
    let search = Search::new(&layout, halt, options.max_memory);
    let threads = options
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    // What is proved without a search: the fixed function's bound on the infinite board, and
    // the window's best pagoda function for the target alone (a linear program, fitted only
    // when asked for: the search asks once a limit outlives its probe).
    let outright = || bound.max(2).max(search.root_bound());
    let from = options.men.map_or(bound.max(2), |m| m.max(1));
    let path = match search.run(from, options.men.unwrap_or(u32::MAX), threads, progress) {
        Ending::Found(path) => path,
        Ending::NoneInWindow => {
            return Err(ArmyError::Window(format!(
                "no army inside the window (columns {w}..{h} of the target's, rows down to {b} \
                 below the line) reaches row {row}: the window's best pagoda function for the \
                 target outweighs every cell on or below the line together; a wider or deeper \
                 window is needed (at most 512 cells)",
                w = -window.half_width,
                h = window.half_width,
                b = window.below,
            )))
        }
        Ending::NoneUpTo(men) => {
            return Err(ArmyError::NoneUpTo {
                men,
                nodes: search.nodes(),
                pagoda_bound: bound,
            })
        }
        Ending::Budget(limit) => {
            // Sizes below `limit` were searched only when the deepening began at a proved
            // bound; a search begun at `--men` rules out nothing it did not finish.
            let outright = outright();
            let proved = if options.men.is_none_or(|m| m <= outright) {
                limit.max(outright)
            } else {
                outright
            };
            return Err(ArmyError::Budget {
                ruled_out_below: proved,
                nodes: search.nodes(),
                pagoda_bound: bound,
            });
        }
    };
    // Rebuild the army and the forward jumps: the undos in reverse order are the jumps.
    let target = layout
        .index((0, row as i32))
        .expect("the target is in the window");
    let mut pegs = S::single(target);
    for &(c, a, b) in &path {
        pegs = pegs.flip(c).flip(a).flip(b);
    }
    let men: Vec<Cell> = pegs.members().map(|i| layout.cells[i]).collect();
    let jumps: Vec<ArmyJump> = path
        .iter()
        .rev()
        .map(|&(c, a, b)| (layout.cells[a], layout.cells[b], layout.cells[c]))
        .collect();
    assert!(
        replay_army(lattice, &men, &jumps, row as i32),
        "an army failed its replay"
    );
    Ok(ArmySolution {
        lattice,
        row,
        // Found by iterative deepening from the pagoda bound, or at a size no smaller army
        // can beat.
        minimal: options.men.is_none() || men.len() as u32 <= outright(),
        window,
        nodes: search.nodes(),
        pagoda_bound: bound,
        men,
        jumps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smallest(lattice: Lattice, row: u32) -> ArmySolution {
        smallest_army(lattice, row, &ArmyOptions::default(), &|_, _| {}).unwrap()
    }

    #[test]
    fn the_first_rows_of_every_lattice() {
        // OEIS A014225, A125730, A014227 (rows 1 on): every row under a minute here.
        for (lattice, minima) in [
            (Lattice::Orthogonal, &[2, 4, 8][..]),
            (Lattice::Diagonal, &[2, 3, 5, 8, 13][..]),
            (Lattice::Triangular, &[2, 3, 5, 9, 17][..]),
        ] {
            for (row, &men) in (1..).zip(minima) {
                let a = smallest(lattice, row);
                assert_eq!(a.men.len(), men, "{lattice} row {row}");
                assert!(a.minimal);
                assert_eq!(a.jumps.len(), men - 1);
                assert!(replay_army(lattice, &a.men, &a.jumps, row as i32));
            }
        }
    }

    #[test]
    fn rows_out_of_reach_come_with_a_proof() {
        for (lattice, row) in [
            (Lattice::Orthogonal, 5),
            (Lattice::Diagonal, 9),
            (Lattice::Triangular, 8),
        ] {
            match smallest_army(lattice, row, &ArmyOptions::default(), &|_, _| {}) {
                Err(ArmyError::Impossible(p)) => assert_eq!((p.lattice, p.row), (lattice, row)),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_checker_rejects_bad_lines() {
        let (o, d, t) = (Lattice::Orthogonal, Lattice::Diagonal, Lattice::Triangular);
        let men = [(0, 0), (0, -1)];
        assert!(replay_army(o, &men, &[((0, -1), (0, 0), (0, 1))], 1));
        // A man above the line at the start, a jump over nothing.
        assert!(!replay_army(
            o,
            &[(0, 1), (0, 0)],
            &[((0, 0), (0, 1), (0, 2))],
            2
        ));
        assert!(!replay_army(o, &men, &[((0, -1), (1, 0), (0, 1))], 1));
        // Along (1, 1): diagonal and triangular lattices, not the orthogonal one.
        let rising = ([(-2, -1), (-1, 0)], [((-2, -1), (-1, 0), (0, 1))]);
        assert!(!replay_army(o, &rising.0, &rising.1, 1));
        assert!(replay_army(d, &rising.0, &rising.1, 1));
        assert!(replay_army(t, &rising.0, &rising.1, 1));
        // Along (-1, 1): the diagonal lattice only.
        let falling = ([(2, -1), (1, 0)], [((2, -1), (1, 0), (0, 1))]);
        assert!(replay_army(d, &falling.0, &falling.1, 1));
        assert!(!replay_army(t, &falling.0, &falling.1, 1));
        // A man that does not reach the target.
        assert!(!replay_army(d, &falling.0, &falling.1, 2));
    }

    /// A set cancel flag stops the search as its timeout would.
    #[test]
    fn a_cancelled_search_is_undecided() {
        let options = ArmyOptions {
            men: Some(36),
            cancel: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                true,
            ))),
            ..ArmyOptions::default()
        };
        let began = Instant::now();
        assert!(matches!(
            smallest_army(Lattice::Triangular, 6, &options, &|_, _| {}),
            Err(ArmyError::Budget { .. })
        ));
        assert!(began.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_search_begun_at_men_claims_only_the_pagoda_bound() {
        // Triangular row 6 (36 men published) asked for at most 36: no army comes back in
        // 50 ms, and nothing below 36 was searched, so only the window's best pagoda function
        // for the target (31) is proved, one above the fixed function's 30.
        let options = ArmyOptions {
            men: Some(36),
            timeout: Some(Duration::from_millis(50)),
            ..ArmyOptions::default()
        };
        match smallest_army(Lattice::Triangular, 6, &options, &|_, _| {}) {
            Err(ArmyError::Budget {
                ruled_out_below,
                pagoda_bound,
                ..
            }) => assert_eq!((ruled_out_below, pagoda_bound), (31, 30)),
            other => panic!("{other:?}"),
        }
        // Asked for at most 16 on row 5, the search rules out 16 and fewer.
        let options = ArmyOptions {
            men: Some(16),
            ..ArmyOptions::default()
        };
        assert!(matches!(
            smallest_army(Lattice::Triangular, 5, &options, &|_, _| {}),
            Err(ArmyError::NoneUpTo { men: 16, .. })
        ));
    }

    /// Asks the diagonal lattice's `row` for at most `men` men and expects none, with the
    /// fixed function's bound `pagoda_bound` on the infinite board.
    fn none_up_to(row: u32, men: u32, pagoda_bound: u32) {
        let options = ArmyOptions {
            men: Some(men),
            timeout: Some(Duration::from_secs(60)),
            ..ArmyOptions::default()
        };
        match smallest_army(Lattice::Diagonal, row, &options, &|_, _| {}) {
            Err(ArmyError::NoneUpTo {
                men: m,
                pagoda_bound: p,
                ..
            }) => assert_eq!((m, p), (men, pagoda_bound)),
            other => panic!("{other:?}"),
        }
    }

    /// The diagonal row 6 (23 men published): the pagoda functions fitted near the target
    /// rule out every army of 22 men in well under a second here (the fixed function alone
    /// did not finish in 50 minutes).
    #[test]
    fn the_window_pagoda_rules_out_22_men_on_the_diagonal_row_6() {
        none_up_to(6, 22, 21);
    }

    /// The diagonal row 7 (46 men published): the window's function for the target meets
    /// the published minimum, in about a second.
    #[test]
    fn the_window_pagoda_rules_out_45_men_on_the_diagonal_row_7() {
        none_up_to(7, 45, 40);
    }

    #[test]
    fn a_window_too_small_for_any_army_says_so() {
        // The default window of the diagonal row 8 (19 columns, 247 cells) holds too little
        // weight on and below the line for its best pagoda function: the search ends at the
        // first fit, after its probe.
        let options = ArmyOptions {
            timeout: Some(Duration::from_secs(60)),
            ..ArmyOptions::default()
        };
        match smallest_army(Lattice::Diagonal, 8, &options, &|_, _| {}) {
            Err(ArmyError::Window(why)) => {
                assert!(why.starts_with("no army inside the window"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_window_of_over_256_cells_is_searched_and_one_over_512_refused() {
        // 25 columns and 13 rows: 325 cells, four more words a position.
        let wide = ArmyOptions {
            window: Some(Window {
                half_width: 12,
                below: 8,
            }),
            ..ArmyOptions::default()
        };
        let army = smallest_army(Lattice::Diagonal, 4, &wide, &|_, _| {}).expect("an army");
        assert_eq!((army.men.len(), army.minimal), (8, true));
        assert!(replay_army(Lattice::Diagonal, &army.men, &army.jumps, 4));
        // 41 columns and 14 rows: 574 cells.
        let wide = ArmyOptions {
            window: Some(Window {
                half_width: 20,
                below: 10,
            }),
            ..ArmyOptions::default()
        };
        assert!(matches!(
            smallest_army(Lattice::Diagonal, 3, &wide, &|_, _| {}),
            Err(ArmyError::Window(_))
        ));
    }
}
