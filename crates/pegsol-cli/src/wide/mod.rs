//! `count` on boards of 65 to 256 holes, through the library's wide count (the last engine
//! not yet lifted to the one set of engines). Its answer has the shape of the 64-hole
//! count's, so a script reads both alike.

use anyhow::{Context, Result};
use pegsol::{Board, Pegs, WideFinish};

use crate::answer::FinishView;
use crate::cli::{Command, Setup};
use crate::common::{any_pegs, load_wide};

mod count;

/// Runs `command` when it is `count` on a board of more than 64 holes (the engine not yet
/// lifted past one word); `None` hands it to the usual path.
pub(crate) fn dispatch(command: &Command) -> Result<Option<u8>> {
    match command {
        Command::Count(args) => match load_wide(&args.setup.board)? {
            Some(board) => count::run(&board, args).map(Some),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The start of a setup on a wide board: after the jumps of `--after`, if any.
pub(super) fn start_of(board: &Board, setup: &Setup) -> Result<Pegs> {
    let game = game_start_of(board, setup)?;
    match &setup.after {
        None => Ok(game),
        Some(line) => {
            let jumps = pegsol::notation::parse_jumps(board, line).context("--after")?;
            pegsol::replay(board, game, &jumps).context("--after")
        }
    }
}

/// The start of a setup and its finish: by default the game's, from the start before the
/// jumps of `--after`.
pub(super) fn start_and_finish(
    board: &Board,
    setup: &Setup,
    finish: Option<&str>,
) -> Result<(Pegs, WideFinish)> {
    let start = start_of(board, setup)?;
    let finish = match finish {
        None => finish_of(board, game_start_of(board, setup)?, None)?,
        given => finish_of(board, start, given)?,
    };
    Ok((start, finish))
}

/// The game's start on a wide board, before any `--after`.
fn game_start_of(board: &Board, setup: &Setup) -> Result<Pegs> {
    match &setup.empty {
        Some(list) => Ok(board
            .holes()
            .minus(board.hole_set(list).context("--empty")?)),
        None => board.start().ok_or_else(|| {
            anyhow::anyhow!(
                "the board {} has no conventional starting vacancy: give --empty, e.g. --empty a1",
                board.name()
            )
        }),
    }
}

/// A finish from the command line, as for the 64-hole commands: labels, `any` or `any:N`; by
/// default the single vacancy, or any one peg.
pub(crate) fn finish_of(board: &Board, start: Pegs, finish: Option<&str>) -> Result<WideFinish> {
    Ok(match finish.map(str::trim) {
        None => {
            let vacant = board.holes().minus(start);
            if vacant.count() == 1 {
                WideFinish::Exactly(vacant)
            } else {
                WideFinish::Pegs(1)
            }
        }
        Some(f) => match any_pegs(f)? {
            Some(n) => WideFinish::Pegs(n as usize),
            None => WideFinish::Exactly(board.hole_set(f).context("--finish")?),
        },
    })
}

pub(crate) fn finish_view(board: &Board, finish: &WideFinish) -> FinishView {
    match finish {
        WideFinish::Exactly(f) => FinishView::Holes(board.labels(*f)),
        WideFinish::Pegs(1) => FinishView::Anywhere("any".to_string()),
        WideFinish::Pegs(n) => FinishView::Anywhere(format!("any:{n}")),
    }
}

/// The start in words: its pegs or its empty holes, whichever list is shorter.
pub(super) fn start_text(board: &Board, start: Pegs) -> String {
    let empty = board.holes().minus(start);
    if start.count() < empty.count() {
        format!("pegs: {}", board.labels(start).join(","))
    } else {
        format!("empty: {}", board.labels(empty).join(","))
    }
}
