//! `pegsol show`: a board, its symmetries, its position classes and its named pagoda
//! functions.

use anyhow::Result;
use pegsol::answer::Weights;
use pegsol::Pagoda;
use serde::Serialize;

use crate::cli::Setup;
use crate::common::{class_line, load_setup, print_json};

/// A named pagoda function, its weights by label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct NamedView {
    pub name: &'static str,
    pub source: &'static str,
    pub weights: Weights,
}

/// The answer of `show --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ShowAnswer {
    pub board: String,
    pub holes: usize,
    pub lattice: &'static str,
    pub labels: Vec<String>,
    pub empty: Vec<String>,
    pub jumps: usize,
    pub symmetries: usize,
    pub classes: u64,
    pub class: String,
    /// The hole sets whose peg parities make the class.
    pub invariants: Vec<Vec<String>>,
    /// The board in its own file format, with the start.
    pub picture: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagodas: Option<Vec<NamedView>>,
}

pub(crate) fn run(setup: &Setup, pagodas: bool, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    let classes = board.classes();
    let named = if pagodas {
        Pagoda::named(&board)
    } else {
        Vec::new()
    };
    if json {
        print_json(&ShowAnswer {
            board: board.name().to_string(),
            holes: board.hole_count(),
            lattice: board.lattice().name(),
            labels: board.labels(board.holes::<[u64; 4]>()),
            empty: board.labels(board.holes().minus(start)),
            jumps: board.jumps().len(),
            symmetries: board.symmetries().len(),
            classes: classes.count(),
            class: classes.class_text(start),
            invariants: classes
                .functionals()
                .iter()
                .map(|f| board.labels(*f))
                .collect(),
            picture: board.to_picture(start),
            pagodas: pagodas.then(|| {
                named
                    .iter()
                    .map(|n| NamedView {
                        name: n.name,
                        source: n.source,
                        weights: pegsol::answer::weights(&board, &n.pagoda, 1),
                    })
                    .collect()
            }),
        });
        return Ok(0);
    }
    println!(
        "board {}: {} holes, {} lattice, {} jumps, {} symmetries",
        board.name(),
        board.hole_count(),
        board.lattice(),
        board.jumps().len(),
        board.symmetries().len()
    );
    println!("{}", board.draw(start));
    println!("{}", class_line(&board, start));
    println!(
        "the {} class bits are the parities of the pegs on these hole sets (each meets every jump in 0 or 2 holes):",
        classes.dimension()
    );
    for (k, f) in classes.functionals().iter().enumerate() {
        println!("bit {k}:");
        print!(
            "{}",
            board.draw_with(|h| if f.contains(h) { '1' } else { '0' })
        );
    }
    if pagodas {
        if named.is_empty() {
            println!(
                "no named pagoda functions for this board (pegsol check fits one to each problem)"
            );
        }
        for n in &named {
            println!(
                "pagoda function \"{}\" ({}), w(from) + w(over) >= w(to) for all {} jumps:",
                n.name,
                n.source,
                board.jumps().len()
            );
            print!("{}", board.draw_cells(|h| n.pagoda.weight(h).to_string()));
        }
    }
    Ok(0)
}
