//! The answer of `army`: the Solitaire Army (Conway's soldiers) on a lattice.

use serde::Serialize;

use crate::army::{ArmyError, ArmySolution, Cell, Window};
use crate::Lattice;

/// A window as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WindowView {
    /// Columns searched either side of the target's.
    pub half_width: i32,
    /// Rows searched below the line.
    pub below: i32,
}

impl From<Window> for WindowView {
    fn from(w: Window) -> WindowView {
        WindowView {
            half_width: w.half_width,
            below: w.below,
        }
    }
}

/// The army found (cells as `[x, y]`, jumps as `[from, over, to]`), the proof that none
/// exists, or how far the search got.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmyAnswer {
    /// The lattice's name.
    pub lattice: &'static str,
    /// The target row.
    pub row: u32,
    /// `found`, `impossible` (no finite army), `none` (none of at most the men asked for,
    /// in the window) or `undecided`.
    pub status: &'static str,
    /// The army's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men: Option<usize>,
    /// Whether no smaller army exists in the window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<bool>,
    /// The army's cells.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub army: Vec<Cell>,
    /// Its jumps, replayed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub jumps: Vec<[Cell; 3]>,
    /// The window searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowView>,
    /// The pagoda bound: no army of fewer men, on the infinite board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagoda_bound: Option<u32>,
    /// Positions searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
    /// The proof that no finite army reaches the row, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The half plane's total under the proof's weights, exactly `[p, q]` for `p + q sigma`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_plane_total: Option<[i128; 2]>,
    /// Armies of fewer men are ruled out in the window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruled_out_below: Option<u32>,
}

impl ArmyAnswer {
    fn new(lattice: Lattice, row: u32, status: &'static str) -> ArmyAnswer {
        ArmyAnswer {
            lattice: lattice.name(),
            row,
            status,
            men: None,
            minimal: None,
            army: Vec::new(),
            jumps: Vec::new(),
            window: None,
            pagoda_bound: None,
            nodes: None,
            millis: None,
            proof: None,
            half_plane_total: None,
            ruled_out_below: None,
        }
    }

    /// The answer of a search of `window` for row `row` on `lattice`; `None` for the errors
    /// that are bad input ([`ArmyError::Trivial`], [`ArmyError::Window`]).
    #[must_use]
    pub fn of(
        lattice: Lattice,
        row: u32,
        window: Window,
        result: &Result<ArmySolution, ArmyError>,
        millis: u64,
    ) -> Option<ArmyAnswer> {
        let view = Some(WindowView::from(window));
        Some(match result {
            Ok(s) => ArmyAnswer {
                men: Some(s.men.len()),
                minimal: Some(s.minimal),
                army: s.men.clone(),
                jumps: s.jumps.iter().map(|&(f, o, t)| [f, o, t]).collect(),
                window: view,
                pagoda_bound: Some(s.pagoda_bound),
                nodes: Some(s.nodes),
                millis: Some(millis),
                ..ArmyAnswer::new(lattice, row, "found")
            },
            Err(ArmyError::Impossible(proof)) => ArmyAnswer {
                proof: Some(proof.text()),
                half_plane_total: Some([proof.total.p, proof.total.q]),
                ..ArmyAnswer::new(lattice, row, "impossible")
            },
            Err(ArmyError::NoneUpTo {
                men,
                nodes,
                pagoda_bound,
            }) => ArmyAnswer {
                ruled_out_below: Some(men + 1),
                window: view,
                pagoda_bound: Some(*pagoda_bound),
                nodes: Some(*nodes),
                millis: Some(millis),
                ..ArmyAnswer::new(lattice, row, "none")
            },
            Err(ArmyError::Budget {
                ruled_out_below,
                nodes,
                pagoda_bound,
            }) => ArmyAnswer {
                ruled_out_below: Some(*ruled_out_below),
                window: view,
                pagoda_bound: Some(*pagoda_bound),
                nodes: Some(*nodes),
                millis: Some(millis),
                ..ArmyAnswer::new(lattice, row, "undecided")
            },
            Err(ArmyError::Trivial | ArmyError::Window(_)) => return None,
        })
    }
}
