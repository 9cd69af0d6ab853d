//! The shapes of the server's own answers (the board geometry the page draws), shared by the
//! answers of every board size.

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;

use pegsol::answer::FinishView;

/// A hole, as the page draws it.
#[derive(Serialize)]
pub(crate) struct HoleView {
    pub(crate) label: String,
    pub(crate) row: usize,
    pub(crate) col: usize,
    pub(crate) x: f64,
    pub(crate) y: f64,
}

/// What the page needs to draw and play a board: holes with coordinates, and every jump.
#[derive(Serialize)]
pub(crate) struct BoardAnswer {
    pub(crate) board: String,
    pub(crate) lattice: &'static str,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) holes: Vec<HoleView>,
    /// Each jump as the labels of its three holes: from, over, to.
    pub(crate) jumps: Vec<[String; 3]>,
    pub(crate) empty: Vec<String>,
    pub(crate) finish: FinishView,
}

/// An answer as JSON for the response.
pub(crate) fn to_value(answer: &impl Serialize) -> Result<Value> {
    Ok(serde_json::to_value(answer)?)
}
