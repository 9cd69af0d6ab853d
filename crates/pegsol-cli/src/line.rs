//! `pegsol line`: one-dimensional solitaire, streamed.

use anyhow::{bail, Context, Result};
use serde_json::json;

use crate::common::print_json;
use crate::output::Out;

/// `line`: the JSON answer is written here field by field, as it streams (jumps are never
/// stored): `config_length`, `pegs`, `min_pegs`, `solvable`, `pieces`, `jumps`.
pub(crate) fn run(config: Option<&str>, json: bool, summary: bool, regex: bool) -> Result<u8> {
    use pegsol::one_dimensional as line;
    use std::io::Read;
    if regex {
        if json {
            print_json(&json!({ "regex": line::REGEX }));
        } else {
            println!("{}", line::REGEX);
        }
        return Ok(0);
    }
    let cells = {
        let text = match config {
            Some("-") | None => {
                let mut s = String::new();
                std::io::stdin()
                    .read_to_string(&mut s)
                    .context("cannot read the configuration from standard input")?;
                s
            }
            Some(c) => c.to_string(),
        };
        line::parse_line(&text).context("bad configuration")?
    };
    // The partition takes a bit per cell; the jumps are made twice, once into the independent
    // replay and, only once it has passed, again onto the output. None is ever stored.
    let plan = line::LinePlan::new(&cells);
    let mut jump_count = 0;
    if !summary {
        let mut replay = line::LineReplay::new(&cells);
        let mut illegal = None;
        plan.jumps(&cells, |f, t| {
            if illegal.is_none() {
                illegal = replay.play(f, t).err();
            }
        });
        if let Some(e) = illegal {
            bail!("internal error: {e}");
        }
        if replay.pegs() != plan.min_pegs() {
            bail!(
                "internal error: the jumps leave {} pegs, not {}",
                replay.pegs(),
                plan.min_pegs()
            );
        }
        jump_count = replay.played();
    }
    let mut out = Out::new();
    let pegs = cells.iter().filter(|&&c| c).count();
    let min = plan.min_pegs();
    if json {
        out.text(&format!(
            "{{\"config_length\":{},\"pegs\":{pegs},\"min_pegs\":{min},\"solvable\":{},\"pieces\":[",
            cells.len(),
            min == 1
        ));
        for (k, (a, b)) in plan.pieces().enumerate() {
            out.bytes(if k == 0 { b"[" } else { b",[" });
            out.pair(a, b",", b, b"]");
        }
        out.bytes(b"]");
        if !summary {
            out.bytes(b",\"jumps\":[");
            let mut first = true;
            plan.jumps(&cells, |f, t| {
                out.bytes(if first { b"\"" } else { b",\"" });
                first = false;
                out.pair(f, b"-", t, b"\"");
            });
            out.bytes(b"]");
        }
        out.bytes(b"}\n");
    } else {
        out.text(&format!(
            "{} cells, {pegs} pegs: reduces to {min} peg(s){}\n",
            cells.len(),
            if min == 1 { " (solvable)" } else { "" }
        ));
        out.text(&format!(
            "pieces ([start, end), each reducing to one peg): {min}\n"
        ));
        let shown = if summary { 20 } else { usize::MAX };
        for (a, b) in plan.pieces().take(shown) {
            out.bytes(b"  [");
            out.pair(a, b", ", b, b")\n");
        }
        if min > shown {
            out.text(&format!("  ... ({} more)\n", min - shown));
        }
        if !summary {
            let count = jump_count;
            out.text(&format!("jumps ({count}, replayed and checked):\n"));
            let mut k = 0usize;
            plan.jumps(&cells, |f, t| {
                out.bytes(if k.is_multiple_of(12) { b"  " } else { b" " });
                let last = k % 12 == 11 || k + 1 == count;
                out.pair(f, b"-", t, if last { b"\n" } else { b"" });
                k += 1;
            });
        }
    }
    out.finish()?;
    Ok(0)
}
