//! `pegsol army`: the Solitaire Army (Conway's soldiers).

use anyhow::{bail, Result};
use pegsol::army::{smallest_army, ArmyError, Cell};
use serde::Serialize;

use crate::cli::timeout_of;
use crate::common::{print_json, spinner, IMPOSSIBLE, UNDECIDED};

/// The answer of `army --json`: the army found (cells as `[x, y]`, jumps as `[from, over,
/// to]`), Conway's proof that none exists, or how far the search got.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ArmyAnswer {
    pub row: u32,
    /// `found`, `impossible` or `undecided`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub army: Vec<Cell>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub jumps: Vec<[Cell; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagoda_bound: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruled_out_below: Option<u32>,
}

impl ArmyAnswer {
    fn new(row: u32, status: &'static str) -> ArmyAnswer {
        ArmyAnswer {
            row,
            status,
            men: None,
            minimal: None,
            army: Vec::new(),
            jumps: Vec::new(),
            pagoda_bound: None,
            nodes: None,
            millis: None,
            proof: None,
            ruled_out_below: None,
        }
    }
}

pub(crate) fn run(row: u32, timeout: Option<f64>, json: bool) -> Result<u8> {
    let timeout = timeout_of(timeout)?;
    let started = std::time::Instant::now();
    let bar = spinner(&format!("searching armies for row {row}"));
    let result = smallest_army(row, timeout);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(a) => {
            if json {
                print_json(&ArmyAnswer {
                    men: Some(a.men.len()),
                    minimal: Some(a.minimal),
                    army: a.men.clone(),
                    jumps: a.jumps.iter().map(|&(f, o, t)| [f, o, t]).collect(),
                    pagoda_bound: Some(a.pagoda_bound),
                    nodes: Some(a.nodes),
                    millis: Some(started.elapsed().as_millis() as u64),
                    ..ArmyAnswer::new(row, "found")
                });
                return Ok(0);
            }
            println!(
                "row {row}: {} men (replayed and checked); no army of {} or fewer works (exhaustive search in a window of columns -5..5, rows down to {}; the pagoda bound alone gives at least {})",
                a.men.len(),
                a.men.len() - 1,
                row as i32 - 10,
                a.pagoda_bound
            );
            // The army drawn, with the target: x = target, o = a man, . = empty, - = the line.
            let (xmin, xmax) = a
                .men
                .iter()
                .fold((0, 0), |(lo, hi), &(x, _)| (lo.min(x), hi.max(x)));
            let ymin = a.men.iter().map(|&(_, y)| y).min().unwrap_or(0);
            for y in (ymin..=row as i32).rev() {
                let line: String = (xmin..=xmax)
                    .map(|x| {
                        if (x, y) == (0, row as i32) {
                            'x'
                        } else if a.men.contains(&(x, y)) {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .flat_map(|c| [c, ' '])
                    .collect();
                println!("{:>3} {}", y, line.trim_end());
                if y == 1 {
                    println!("    {}", "--".repeat((xmax - xmin + 1) as usize).trim_end());
                }
            }
            let text = |(x, y): Cell| format!("({x},{y})");
            println!("jumps:");
            for (i, &(f, o, t)) in a.jumps.iter().enumerate() {
                println!("{:>3}. {} over {} to {}", i + 1, text(f), text(o), text(t));
            }
            println!(
                "{} positions searched, {} ms",
                a.nodes,
                started.elapsed().as_millis()
            );
            Ok(0)
        }
        Err(ArmyError::Impossible(proof)) => {
            if json {
                print_json(&ArmyAnswer {
                    proof: Some(proof),
                    ..ArmyAnswer::new(row, "impossible")
                });
            } else {
                println!("row {row}: impossible for any finite army (Conway, 1961)\n{proof}");
            }
            Ok(IMPOSSIBLE)
        }
        Err(ArmyError::Trivial) => bail!("--row must be at least 1"),
        Err(ArmyError::Budget { ruled_out_below }) => {
            if json {
                print_json(&ArmyAnswer {
                    ruled_out_below: Some(ruled_out_below),
                    ..ArmyAnswer::new(row, "undecided")
                });
            } else {
                println!("undecided within budget: armies of fewer than {ruled_out_below} men are ruled out; raise --timeout");
            }
            Ok(UNDECIDED)
        }
    }
}
