//! `pegsol army`: the Solitaire Army (Conway's soldiers) on every lattice.

use anyhow::{bail, Result};
use pegsol::army::{smallest_army, ArmyError, ArmyOptions, ArmySolution, Cell, Window};
use pegsol::Lattice;
use serde::Serialize;

use crate::cli::{timeout_of, ArmyArgs};
use crate::common::{print_json, spinner, IMPOSSIBLE, UNDECIDED};

/// The answer of `army --json`: the army found (cells as `[x, y]`, jumps as `[from, over,
/// to]`), the proof that none exists, or how far the search got.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ArmyAnswer {
    pub lattice: &'static str,
    pub row: u32,
    /// `found`, `impossible` (no finite army), `none` (none of at most `--men` men, in the
    /// window) or `undecided`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub army: Vec<Cell>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub jumps: Vec<[Cell; 3]>,
    /// The window searched: `{"half_width", "below"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowView>,
    /// The pagoda bound: no army of fewer men, on the infinite board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagoda_bound: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The half plane's total under the proof's weights, exactly `[p, q]` for `p + q sigma`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_plane_total: Option<[i128; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruled_out_below: Option<u32>,
}

/// A window as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct WindowView {
    pub half_width: i32,
    pub below: i32,
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
}

/// The window the search will use: the default for the lattice and row, with the flags'
/// changes.
fn window_of(a: &ArmyArgs) -> Window {
    let mut w = Window::default_for(a.lattice, a.row);
    if let Some(width) = a.width {
        w.half_width = width as i32;
    }
    if let Some(below) = a.below {
        w.below = below as i32;
    }
    w
}

pub(crate) fn run(a: &ArmyArgs) -> Result<u8> {
    let timeout = timeout_of(a.timeout)?;
    let window = window_of(a);
    let options = ArmyOptions {
        window: Some(window),
        timeout,
        max_memory: (a.max_memory as usize).saturating_mul(1 << 20),
        threads: a.threads.map(usize::from),
        men: a.men,
    };
    let started = std::time::Instant::now();
    let bar = spinner(&format!("searching {} armies for row {}", a.lattice, a.row));
    let result = smallest_army(a.lattice, a.row, &options, &|men, nodes| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "{} army, row {}: trying {men} men, {nodes} positions searched",
                a.lattice, a.row
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let millis = started.elapsed().as_millis() as u64;
    let view = WindowView {
        half_width: window.half_width,
        below: window.below,
    };
    match result {
        Ok(s) => {
            if a.json {
                print_json(&ArmyAnswer {
                    men: Some(s.men.len()),
                    minimal: Some(s.minimal),
                    army: s.men.clone(),
                    jumps: s.jumps.iter().map(|&(f, o, t)| [f, o, t]).collect(),
                    window: Some(view),
                    pagoda_bound: Some(s.pagoda_bound),
                    nodes: Some(s.nodes),
                    millis: Some(millis),
                    ..ArmyAnswer::new(a.lattice, a.row, "found")
                });
            } else {
                print_army(&s, millis);
            }
            Ok(0)
        }
        Err(ArmyError::Impossible(proof)) => {
            if a.json {
                print_json(&ArmyAnswer {
                    proof: Some(proof.text()),
                    half_plane_total: Some([proof.total.p, proof.total.q]),
                    ..ArmyAnswer::new(a.lattice, a.row, "impossible")
                });
            } else {
                let who = if a.lattice == Lattice::Orthogonal {
                    " (Conway, 1961)"
                } else {
                    ""
                };
                println!(
                    "{} lattice, row {}: impossible for any finite army{who}\n{}",
                    a.lattice,
                    a.row,
                    proof.text()
                );
            }
            Ok(IMPOSSIBLE)
        }
        Err(ArmyError::NoneUpTo {
            men,
            nodes,
            pagoda_bound,
        }) => {
            if a.json {
                print_json(&ArmyAnswer {
                    ruled_out_below: Some(men + 1),
                    window: Some(view),
                    pagoda_bound: Some(pagoda_bound),
                    nodes: Some(nodes),
                    millis: Some(millis),
                    ..ArmyAnswer::new(a.lattice, a.row, "none")
                });
            } else {
                println!(
                    "{} lattice, row {}: no army of {men} or fewer men works (exhaustive search in the window: {}); the pagoda bound alone gives at least {pagoda_bound} on the infinite board; {nodes} positions searched, {millis} ms",
                    a.lattice,
                    a.row,
                    window_text(view)
                );
            }
            Ok(IMPOSSIBLE)
        }
        Err(ArmyError::Trivial) => bail!("--row must be at least 1"),
        Err(ArmyError::Window(why)) => bail!("{why} (--width, --below)"),
        Err(ArmyError::Budget {
            ruled_out_below,
            nodes,
            pagoda_bound,
        }) => {
            if a.json {
                print_json(&ArmyAnswer {
                    ruled_out_below: Some(ruled_out_below),
                    window: Some(view),
                    pagoda_bound: Some(pagoda_bound),
                    nodes: Some(nodes),
                    millis: Some(millis),
                    ..ArmyAnswer::new(a.lattice, a.row, "undecided")
                });
            } else {
                println!(
                    "undecided within budget: armies of fewer than {ruled_out_below} men are ruled out in the window ({}); the pagoda bound alone gives at least {pagoda_bound} on the infinite board; {nodes} positions searched; raise --timeout",
                    window_text(view)
                );
            }
            Ok(UNDECIDED)
        }
    }
}

fn window_text(w: WindowView) -> String {
    format!(
        "columns -{0}..{0} of the target's, rows down to {1} below the line",
        w.half_width, w.below
    )
}

/// The army drawn with its target (`x`), and its jumps.
fn print_army(s: &ArmySolution, millis: u64) {
    let row = s.row as i32;
    let window = window_text(WindowView {
        half_width: s.window.half_width,
        below: s.window.below,
    });
    if s.minimal {
        println!(
            "{} lattice, row {row}: {} men (replayed and checked); no army of {} or fewer works (exhaustive search in the window: {window}); the pagoda bound alone gives at least {} on the infinite board",
            s.lattice,
            s.men.len(),
            s.men.len() - 1,
            s.pagoda_bound
        );
    } else {
        println!(
            "{} lattice, row {row}: {} men (replayed and checked), found in the window ({window}) without a search of smaller armies; the pagoda bound gives at least {} on the infinite board",
            s.lattice,
            s.men.len(),
            s.pagoda_bound
        );
    }
    // x = target, o = a man, . = empty; the line between rows 1 and 0. On the triangular
    // lattice each row is drawn half a cell right of the one below.
    let place = |(x, y): Cell| pegsol::army::across(s.lattice, (x, y), row);
    let spots: Vec<i32> = s.men.iter().map(|&c| place(c)).chain([0]).collect();
    let (lo, hi) = (
        *spots.iter().min().unwrap_or(&0),
        *spots.iter().max().unwrap_or(&0),
    );
    let bottom = s.men.iter().map(|&(_, y)| y).min().unwrap_or(0);
    for y in (bottom..=row).rev() {
        let mut line = vec![' '; (hi - lo + 1) as usize];
        let reach = row - bottom + 2;
        for x in lo / 2 - reach..=hi / 2 + reach {
            let at = place((x, y));
            if at < lo || at > hi {
                continue;
            }
            line[(at - lo) as usize] = if (x, y) == (0, row) {
                'x'
            } else if s.men.contains(&(x, y)) {
                'o'
            } else {
                '.'
            };
        }
        println!("{y:>3} {}", line.iter().collect::<String>().trim_end());
        if y == 1 {
            println!("    {}", "-".repeat((hi - lo + 1) as usize));
        }
    }
    let text = |(x, y): Cell| format!("({x},{y})");
    println!("jumps:");
    for (i, &(f, o, t)) in s.jumps.iter().enumerate() {
        println!("{:>3}. {} over {} to {}", i + 1, text(f), text(o), text(t));
    }
    println!("{} positions searched, {millis} ms", s.nodes);
}
