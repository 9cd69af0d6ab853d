//! A line of few moves for a board's basic game (every single vacancy, one peg left
//! anywhere) by the beam over moves alone, within a time budget: how the 22-move line of the
//! triangle of side 11 in docs/solutions/ was found.
//!
//! ```text
//! cargo run --release -p pegsol --example few_moves -- triangle:11 420
//! ```

use std::time::{Duration, Instant};

use pegsol::fewest::{few_moves, single_vacancies};
use pegsol::{Board, Finish, Limits, Problem};

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(name), Some(secs)) = (args.next(), args.next()) else {
        return Err("usage: few_moves BOARD SECONDS (for example: triangle:11 420)".into());
    };
    let board = Board::builtin(&name)?;
    let secs: f64 = secs
        .parse()
        .map_err(|_| format!("seconds: {secs:?} is not a number"))?;
    let basic = Problem::with_starts(&board, single_vacancies(&board), Finish::AnyOne)?;
    let began = Instant::now();
    let limits = Limits {
        timeout: Some(Duration::from_secs_f64(secs)),
        max_memory: 8 << 30,
        ..Limits::default()
    };
    let Some(line) = few_moves(&basic, &limits)? else {
        println!("{name}: no line within {secs} s");
        return Ok(());
    };
    let empty = board.labels(board.holes::<[u64; 4]>().minus(line.start));
    println!(
        "{name}: {} moves (replayed), {} empty, ending on {}, in {:.1} s",
        line.moves,
        empty.join(","),
        board.labels(line.finish).join(","),
        began.elapsed().as_secs_f64()
    );
    for m in pegsol::notation::move_texts(&board, &line.jumps) {
        println!("{m}");
    }
    Ok(())
}
