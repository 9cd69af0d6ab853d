//! `pegsol check`: why a problem is impossible, in a form a person or a short program can
//! check (or its line, when it is not); `--pagoda FILE` checks the user's own weights
//! instead. The same on every board of up to 256 holes.

use std::path::Path;

use anyhow::{bail, Result};
use pegsol::answer::{checked, reason, weights, CheckAnswer, Fraction, Weights};
use pegsol::check::{decide, prove, Certificate, Decision, Unproved};
use pegsol::{notation, Board, Limits, Outcome, Pagoda, Pegs, Problem};
use serde_json::json;

use crate::common::{exit_code, finish_text, print_json, IMPOSSIBLE, UNDECIDED};

/// A proof, or why there is none, rechecked by the library before it is shown.
pub(crate) type Proof = std::result::Result<Certificate, Unproved>;

/// [`prove`], with the certificate rechecked; an internal error is an error, not an answer.
pub(crate) fn proof_of(problem: &Problem, limits: &Limits) -> Result<Proof> {
    let proof = prove(problem, limits);
    match &proof {
        Ok(c) if !c.verify(problem) => bail!("internal error: a certificate failed its recheck"),
        Err(Unproved::Internal(what)) => bail!("internal error: {what}; please report it"),
        _ => Ok(proof),
    }
}

/// [`decide`], with the certificate rechecked and a solution replayed: an internal error is
/// an error, not an answer.
pub(crate) fn decision_of(problem: &Problem, limits: &Limits) -> Result<Decision> {
    let d = decide(problem, limits)?;
    if d.certificate.as_ref().is_some_and(|c| !c.verify(problem)) {
        bail!("internal error: a certificate failed its recheck; please report it");
    }
    if let Outcome::Solved { jumps, finish } = &d.outcome {
        checked(problem.board(), problem.start(), jumps, *finish)?;
    }
    Ok(d)
}

/// Reads a weight grid: one line per board row, one weight per hole, integers or fractions
/// of either sign. Returns integer weights over a common denominator, and the denominator.
pub(crate) fn read_weights(board: &Board, path: &str) -> Result<(Vec<i64>, i64)> {
    let (rows, _) = board.dimensions();
    let hole_rows: Vec<usize> = board.each_hole().map(|h| board.coords(h).0).collect();
    read_weight_grid(path, rows, &hole_rows)
}

/// [`read_weights`] for a board of `rows` rows whose hole `i` is on row `hole_rows[i]`
/// (holes numbered row by row).
pub(crate) fn read_weight_grid(
    path: &str,
    rows: usize,
    hole_rows: &[usize],
) -> Result<(Vec<i64>, i64)> {
    let text = crate::common::read_small_text(std::path::Path::new(path), "weight file")?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() < rows {
        bail!(
            "{path}: {} lines, but the board has {rows} rows; give one line per row",
            lines.len()
        );
    }
    let mut fractions = vec![(0i64, 1i64); hole_rows.len()];
    // The holes of each row, left to right (holes are numbered row by row).
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for (h, &r) in hole_rows.iter().enumerate() {
        by_row[r].push(h);
    }
    for (r, line) in lines.iter().take(rows).enumerate() {
        let holes = &by_row[r];
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != holes.len() {
            bail!(
                "{path}, line {}: {} weights, but row {} has {} holes; give one weight per hole",
                r + 1,
                tokens.len(),
                r + 1,
                holes.len()
            );
        }
        for (h, t) in holes.iter().zip(tokens) {
            let bad = || {
                anyhow::anyhow!(
                    "{path}, line {}: {t:?} is not a weight; write an integer or a fraction like 3/2 or -1/2",
                    r + 1
                )
            };
            let (n, d) = match t.split_once('/') {
                Some((n, d)) => (
                    n.parse::<i64>().map_err(|_| bad())?,
                    d.parse::<i64>().map_err(|_| bad())?,
                ),
                None => (t.parse::<i64>().map_err(|_| bad())?, 1),
            };
            if !(1..=1 << 20).contains(&d) || !(-(1 << 30)..=1 << 30).contains(&n) {
                return Err(bad());
            }
            fractions[*h] = (n, d);
        }
    }
    let mut den = 1i64;
    for &(_, d) in &fractions {
        den = (den / gcd(den, d))
            .checked_mul(d)
            .filter(|&l| l <= 1 << 40)
            .ok_or_else(|| anyhow::anyhow!("{path}: the denominators are too large"))?;
    }
    Ok((fractions.iter().map(|&(n, d)| n * (den / d)).collect(), den))
}

/// Greatest common divisor, at least 1.
fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

/// What `check` was asked.
pub(crate) struct Request<'a> {
    pub problem: Problem,
    pub pagoda_file: Option<&'a str>,
    pub certificate_file: Option<&'a Path>,
    pub limits: Limits,
    pub json: bool,
}

pub(crate) fn run(r: &Request) -> Result<u8> {
    let problem = &r.problem;
    let (board, finish) = (problem.board(), problem.finish());
    if let Some(path) = r.pagoda_file {
        return own_weights(problem, path, r.json);
    }
    let decision = decision_of(problem, &r.limits)?;
    if let (Some(path), Some(c)) = (r.certificate_file, &decision.certificate) {
        crate::certificate::write(path, problem, c)?;
    }
    let file = r
        .certificate_file
        .filter(|_| decision.certificate.is_some());
    let answer = CheckAnswer::of(problem, &decision, file.map(|f| f.display().to_string()));
    let code = exit_code(answer.status);
    if r.json {
        print_json(&answer);
        return Ok(code);
    }
    println!(
        "board {} ({} holes), empty: {}, finish: {}",
        board.name(),
        board.hole_count(),
        notation::set_text(board, problem.empty_holes()),
        finish_text(board, finish)
    );
    match (&decision.outcome, &decision.certificate) {
        (Outcome::Solved { .. }, _) => println!(
            "solvable: {} jumps, {} moves (replayed and checked): {}",
            answer.line.jumps.len(),
            answer.line.moves,
            answer.line.move_list.join(" ")
        ),
        (Outcome::Impossible(_), Some(c)) => explain(board, c),
        (Outcome::Impossible(r), None) => println!(
            "refuted by {r}, but no certificate was made within the budget; raise --timeout or --max-memory for one"
        ),
        (Outcome::Undecided(b), _) => println!(
            "open: neither position classes nor a pagoda function refutes it, and neither the solver nor the certificate search decided it within the {b} budget; raise --timeout or --max-memory"
        ),
    }
    if let Some(f) = file {
        println!(
            "certificate written to {} (check it with pegsol verify {})",
            f.display(),
            f.display()
        );
    } else if r.certificate_file.is_some() {
        println!("no certificate written: the problem is not proved impossible with one");
    }
    Ok(code)
}

/// A certificate in words and pictures.
fn explain(board: &Board, c: &Certificate) {
    match c {
        Certificate::Class {
            sets,
            start_counts,
            finishes,
        } => {
            println!("refuted by position class.");
            println!("Each set of holes marked 1 below meets every jump in 0 or 2 holes, so a jump changes the");
            println!("number of pegs on it by 0 or 2 and its parity never changes.");
            for (k, (set, count)) in sets.iter().zip(start_counts).enumerate() {
                println!(
                    "set {k}: the start has {count} pegs on it ({})",
                    if count % 2 == 0 { "even" } else { "odd" }
                );
                print!(
                    "{}",
                    board.draw_with(|h| if set.contains(h) { '1' } else { '0' })
                );
            }
            let shown = finishes.len().min(40);
            for (f, k, c) in &finishes[..shown] {
                println!(
                    "finish {}: {c} pegs on set {k} ({}), the start has {}",
                    notation::set_text(board, *f),
                    if c % 2 == 0 { "even" } else { "odd" },
                    start_counts[*k]
                );
            }
        }
        Certificate::Pagoda {
            pagoda,
            start_total,
            finish_total,
        } => {
            println!("refuted by a pagoda function.");
            println!("Weights w with w(from) + w(over) >= w(to) for every jump, so the total weight of the pegs never rises:");
            print!("{}", board.draw_cells(|h| pagoda.weight(h).to_string()));
            println!("start total {start_total} < finish total {finish_total}");
        }
        Certificate::Search(s) => {
            println!("refuted by a search certificate: {}.", reason(c));
            println!(
                "A set of {} position{} that holds the {}start and no finish, and is closed under jumps: every",
                s.positions.len(),
                if s.positions.len() == 1 { "" } else { "s" },
                if s.dual { "dual game's " } else { "" }
            );
            println!("child of a member is a member (up to the board's symmetries that keep the finishes),");
            println!("has as few pegs as a finish, or totals less than every finish under one of these pagoda");
            println!("functions (totals never rise):");
            for (k, p) in s.pagodas.iter().enumerate().take(8) {
                println!("function {k}:");
                print!("{}", board.draw_cells(|h| p.weight(h).to_string()));
            }
            if s.pagodas.len() > 8 {
                println!(
                    "... and {} more (in the certificate file)",
                    s.pagodas.len() - 8
                );
            }
            if s.dual {
                println!("(the dual game starts with pegs everywhere but the finish and must end with pegs on the start's empty holes; it is solvable exactly when the problem is)");
            }
        }
    }
}

/// `--pagoda FILE`: checks the user's weights and whether they refute the problem.
fn own_weights(problem: &Problem, path: &str, json: bool) -> Result<u8> {
    let board = problem.board();
    let (start, targets): (Pegs, Vec<Pegs>) = (problem.start(), problem.targets());
    let (weights, den) = read_weights(board, path)?;
    if let Some(j) = Pagoda::broken_jump_of(board, &weights) {
        let w = |h: pegsol::Hole| Fraction::of(weights[h.index()], den).to_string();
        bail!(
            "not a pagoda function: jump {} breaks it: w({}) + w({}) = {} + {} is less than w({}) = {}",
            notation::jump_text(board, j),
            board.label(j.from()),
            board.label(j.over()),
            w(j.from()),
            w(j.over()),
            board.label(j.to()),
            w(j.to())
        );
    }
    let p = Pagoda::new(board, weights)
        .ok_or_else(|| anyhow::anyhow!("{path}: the weights are too large"))?;
    let start_total = p.total(start);
    let finish_total = p.floor(&targets).unwrap_or(0);
    let grid = self::weights(board, &p, den);
    Ok(own_report(
        &grid,
        board.jumps().len(),
        [start_total, finish_total],
        den,
        json,
    ))
}

/// The answer on the user's valid weights `grid` (by label, over `den`): whether the start
/// totals less than every finish. Returns the exit code.
pub(crate) fn own_report(
    grid: &Weights,
    jumps: usize,
    totals: [i64; 2],
    den: i64,
    json: bool,
) -> u8 {
    let [start_total, finish_total] = totals;
    let refutes = start_total < finish_total;
    if json {
        print_json(&json!({
            "status": if refutes { "refuted" } else { "open" },
            "valid": true,
            "certificate": {"kind": "pagoda", "weights": grid,
                "start_total": Fraction::of(start_total, den), "finish_total": Fraction::of(finish_total, den)},
        }));
    } else {
        println!("a valid pagoda function: w(from) + w(over) >= w(to) for all {jumps} jumps");
        println!(
            "start total {}, finish total {}",
            Fraction::of(start_total, den),
            Fraction::of(finish_total, den)
        );
        println!(
            "{}",
            if refutes {
                "the start totals less than the finish and totals never rise: impossible"
            } else {
                "it does not refute this problem"
            }
        );
    }
    // Weights that refute nothing settle nothing: the problem is still open (exit 3).
    if refutes {
        IMPOSSIBLE
    } else {
        UNDECIDED
    }
}
