//! `pegsol army`: the Solitaire Army (Conway's soldiers) on every lattice.

use anyhow::{bail, Result};
use pegsol::answer::{ArmyAnswer, WindowView};
use pegsol::army::{smallest_army, ArmyError, ArmyOptions, ArmySolution, Cell, Window};
use pegsol::Lattice;

use crate::cli::{timeout_of, ArmyArgs};
use crate::common::{print_json, spinner, IMPOSSIBLE, UNDECIDED};

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
        cancel: None,
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
    let view = WindowView::from(window);
    let answer = ArmyAnswer::of(a.lattice, a.row, window, &result, millis);
    match (&result, answer) {
        (Err(ArmyError::Trivial), _) => bail!("--row must be at least 1"),
        (Err(ArmyError::Window(why)), _) => bail!("{why} (--width, --below)"),
        (_, Some(answer)) if a.json => {
            print_json(&answer);
        }
        (Ok(s), _) => print_army(s, millis),
        (Err(ArmyError::Impossible(proof)), _) => {
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
        (
            Err(ArmyError::NoneUpTo {
                men,
                nodes,
                pagoda_bound,
            }),
            _,
        ) => println!(
            "{} lattice, row {}: no army of {men} or fewer men works (exhaustive search in the window: {}); the pagoda bound alone gives at least {pagoda_bound} on the infinite board; {nodes} positions searched, {millis} ms",
            a.lattice,
            a.row,
            window_text(view)
        ),
        (
            Err(ArmyError::Budget {
                ruled_out_below,
                nodes,
                pagoda_bound,
            }),
            _,
        ) => println!(
            "undecided within budget: armies of fewer than {ruled_out_below} men are ruled out in the window ({}); the pagoda bound alone gives at least {pagoda_bound} on the infinite board; {nodes} positions searched; raise --timeout",
            window_text(view)
        ),
    }
    Ok(match result {
        Ok(_) => 0,
        Err(ArmyError::Budget { .. }) => UNDECIDED,
        Err(_) => IMPOSSIBLE,
    })
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
    let window = window_text(WindowView::from(s.window));
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
