//! `pegsol verify CERT`: checks a certificate file with code of its own. It shares nothing
//! with the solver but the board parser: the jumps are made here from the holes' coordinates,
//! the symmetries are checked to be symmetries, and every total is summed in `i128`.
//! Boards of up to 256 holes: positions are kept in as few 64-bit words as the board needs.
//!
//! The file is read strictly (see [`file`]): a malformed file is an error (exit 2), a proof
//! that does not hold is a rejection (exit 1). Memory stays within a small multiple of the
//! file: positions are read without copies, and the image tables of the symmetries are made
//! only when they fit a budget of the file's size.

mod checks;
mod file;
mod game;
mod position;

use std::path::Path;

use anyhow::{bail, Context, Result};
use pegsol::Board;
use serde_json::json;

use crate::common::{print_json, read_capped, IMPOSSIBLE};

/// The largest certificate read: a search certificate of tens of millions of positions.
const MAX_CERTIFICATE: u64 = 1 << 30;
use checks::{many, Search, Verdict};
use file::{File, FinishField, Kind, Text};
use game::{steps, Finishes, Game};
use position::Pos;

/// Checks the certificate at `path`; exit 0 when it proves its claim, 1 when it does not.
pub(crate) fn run(path: &Path, json_out: bool) -> Result<u8> {
    let bytes = read_capped(path, MAX_CERTIFICATE, "certificate")?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("the certificate {} is not UTF-8 text", path.display()))?;
    let (file, kind) = File::read(&text)
        .with_context(|| format!("{} is not a pegsol certificate", path.display()))?;
    let board = Board::parse("certificate", &file.board).context("the certificate's board")?;
    let n = board.hole_count();
    if file.holes.len() != n {
        bail!(
            "\"holes\" names {} for a board of {}",
            many(file.holes.len(), "hole", "holes"),
            many(n, "hole", "holes")
        );
    }
    let verdict = match n {
        0..=64 => check::<1>(file, kind, &board, text.len()),
        65..=128 => check::<2>(file, kind, &board, text.len()),
        _ => check::<4>(file, kind, &board, text.len()),
    }?;
    let about = format!(
        "a board of {} on the {} lattice",
        many(n, "hole", "holes"),
        board.lattice().name()
    );
    let (ok, what) = match &verdict {
        Ok(what) => (true, what.clone()),
        Err(why) => (false, why.clone()),
    };
    if json_out {
        print_json(&json!({
            "file": path.display().to_string(),
            "kind": kind.name(),
            "holes": n,
            "lattice": board.lattice().name(),
            "status": if ok { "verified" } else { "rejected" },
            "checked": what,
            "peak_memory_mb": pegsol::count::peak_memory_mb(),
        }));
    } else if ok {
        println!("verified ({}, {about}): {what}", kind.name());
        println!("so no line of play leads from the start to a finish");
    } else {
        println!("rejected ({}, {about}): {what}", kind.name());
    }
    Ok(if ok { 0 } else { IMPOSSIBLE })
}

/// A position field, or an error naming it.
fn position<const W: usize>(text: &str, n: usize, what: &str) -> Result<Pos<W>> {
    Pos::parse(text, n).map_err(|why| anyhow::anyhow!("{what}: {why}"))
}

fn positions<const W: usize>(list: &[Text], n: usize, what: &str) -> Result<Vec<Pos<W>>> {
    list.iter()
        .enumerate()
        .map(|(k, t)| position(&t.0, n, &format!("{what} {k}")))
        .collect()
}

/// Weight lists, one weight a hole, widened so that no sum can overflow.
fn weights(list: &[Vec<i64>], n: usize) -> Result<Vec<Vec<i128>>> {
    list.iter()
        .enumerate()
        .map(|(k, w)| {
            if w.len() != n {
                bail!("pagoda function {k} has {} weights for {n} holes", w.len());
            }
            Ok(w.iter().map(|&x| i128::from(x)).collect())
        })
        .collect()
}

/// The checks on positions of `W` words.
fn check<const W: usize>(
    file: File,
    kind: Kind,
    board: &Board,
    file_len: usize,
) -> Result<Verdict> {
    let n = board.hole_count();
    let lattice = board.lattice().name();
    let dirs = steps(lattice).with_context(|| format!("unknown lattice {lattice}"))?;
    let coords: Vec<(i64, i64)> = (0..n)
        .map(|h| {
            let (r, c) = board.coords(pegsol::Hole::at(h));
            (r as i64, c as i64)
        })
        .collect();
    let game = Game::<W>::new(&coords, dirs, file.holes);
    let start = position(&file.start.0, n, "\"start\"")?;
    let finishes = match FinishField::read(&file.finishes)? {
        FinishField::List(list) => Finishes::List(
            list.iter()
                .map(|f| position(f, n, "a finish"))
                .collect::<Result<_>>()?,
        ),
        FinishField::Pegs(k) if k as usize <= n => Finishes::Pegs(k as u32),
        FinishField::Pegs(k) => bail!("\"finishes\" asks for {k} pegs on a board of {n} holes"),
    };
    Ok(match kind {
        Kind::Class => {
            let sets = positions(file.sets.as_deref().unwrap_or_default(), n, "set")?;
            checks::class(&game, &sets, start, &finishes)
        }
        Kind::Pagoda => {
            let w = weights(file.pagodas.as_deref().unwrap_or_default(), n)?;
            checks::pagoda(&game, &w[0], start, &finishes)
        }
        Kind::Search => {
            // The members' text is dropped once read: the set is the bulk of the file.
            let text = file.positions.unwrap_or_default();
            let members = positions(&text, n, "position")?;
            drop(text);
            let data = Search {
                dual: file.dual.unwrap_or(false),
                perms: file.symmetries.unwrap_or_default(),
                pagodas: weights(file.pagodas.as_deref().unwrap_or_default(), n)?,
                members,
                table_budget: (2 * file_len).max(8 << 20),
            };
            checks::search(&game, data, start, finishes)
        }
    })
}
