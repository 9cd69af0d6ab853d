//! `solve`, `show` and `replay` on boards of 65 to 256 holes, through the library's wide
//! solver. The answers have the shape of the 64-hole commands' answers, so a script reads
//! both alike.

use anyhow::{Context, Result};
use pegsol::{Board, Hole, Jump, Pegs, Reason, WideFinish, WideLimits, WideOutcome};
use serde::Serialize;

use crate::answer::{FinishView, Line};
use crate::cli::{BudgetArgs, Command, Setup};
use crate::common::{any_pegs, load_wide};
use crate::common::{drawn, print_json, print_moves, spinner, IMPOSSIBLE, UNDECIDED};
use crate::solve::CertificateFile;

pub(crate) mod check;
mod count;
mod moves;

pub(crate) use moves::shortest as shortest_wide;

/// Runs `command` when it is `solve`, `show` or `replay` on a board of more than 64 holes
/// (without the options only the 64-hole engines have); `None` hands it to the usual path.
pub(crate) fn dispatch(command: &Command) -> Result<Option<u8>> {
    match command {
        Command::Solve {
            setup,
            finish,
            budget,
            json,
            fewest_moves,
            svg,
            certificate,
        } => match load_wide(&setup.board)? {
            Some(board) if *fewest_moves => moves::fewest(
                &board,
                setup,
                finish.as_deref(),
                budget,
                svg.as_deref(),
                *json,
            )
            .map(Some),
            // A certificate past 64 holes is a wide one (class or pagoda) so far; every other
            // solve goes to the one solver, whatever the board's size.
            Some(board) if certificate.is_some() => solve(
                &board,
                setup,
                finish.as_deref(),
                budget,
                [svg.as_deref(), certificate.as_deref()],
                *json,
            )
            .map(Some),
            _ => Ok(None),
        },
        Command::Check {
            setup,
            finish,
            pagoda,
            certificate,
            budget,
            json,
        } => match load_wide(&setup.board)? {
            Some(board) => check::run(
                &board,
                setup,
                finish.as_deref(),
                pagoda.as_deref(),
                certificate.as_deref(),
                budget,
                *json,
            )
            .map(Some),
            None => Ok(None),
        },
        Command::Count(args) => match load_wide(&args.setup.board)? {
            Some(board) => count::run(&board, args).map(Some),
            None => Ok(None),
        },
        Command::Shortest {
            board,
            empty,
            finish,
            budget,
            json,
        } => match load_wide(board)? {
            Some(board) => {
                moves::shortest(&board, empty.as_deref(), finish.as_deref(), budget, *json)
                    .map(Some)
            }
            None => Ok(None),
        },
        Command::Ends {
            setup,
            budget,
            json,
        } => match load_wide(&setup.board)? {
            Some(board) => ends(&board, setup, budget, *json).map(Some),
            None => Ok(None),
        },
        Command::Catalog {
            board,
            finish,
            timeout,
            max_memory,
            svg: None,
            json,
        } => match load_wide(board)? {
            Some(board) => {
                let limits = WideLimits {
                    timeout: crate::cli::limits(*max_memory, Some(*timeout))?.timeout,
                    max_memory: (*max_memory as usize).saturating_mul(1 << 20),
                };
                let single = matches!(finish, crate::cli::CatalogFinish::Single);
                catalog(&board, single, &limits, *json).map(Some)
            }
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

/// The answer of `solve --json` on a wide board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideSolveAnswer {
    pub board: String,
    pub holes: usize,
    pub lattice: &'static str,
    pub empty: Vec<String>,
    pub finish: FinishView,
    pub status: &'static str,
    pub reason: Option<String>,
    #[serde(flatten)]
    pub line: Line,
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub last: Option<Vec<String>>,
    /// Which member of the wide portfolio decided.
    pub engine: &'static str,
    /// Words per position in the search (1, 2 or 4).
    pub words: usize,
    pub nodes: u64,
    pub millis: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateFile>,
}

/// Writes a solution as an SVG strip of boards, one per move (after its replay).
pub(super) fn write_strip(
    path: &std::path::Path,
    board: &Board,
    start: Pegs,
    jumps: &[Jump],
) -> Result<()> {
    std::fs::write(path, crate::svg::strip(board, start, jumps, 8))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `solve` on a wide board.
pub(crate) fn solve(
    board: &Board,
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    [svg, certificate]: [Option<&std::path::Path>; 2],
    json: bool,
) -> Result<u8> {
    let (start, finish) = start_and_finish(board, setup, finish)?;
    let limits = limits_of(budget)?;
    let bar = spinner(&format!("solving on {} holes", board.hole_count()));
    let report = pegsol::solve_wide(board, start, &finish, &limits);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let (status, code, reason, line, last) = match &report.outcome {
        WideOutcome::Solved { finish: end, .. } => (
            "solved",
            0,
            None,
            // The independent replay, by coordinates, before anything is shown.
            checked_line(board, start, &finish, &report.outcome)?.unwrap_or_default(),
            Some(board.labels(*end)),
        ),
        WideOutcome::Impossible(r) => {
            let why = match r {
                Reason::Class => {
                    "position class: jumps never change the class, and the finish is in another"
                        .to_string()
                }
                other => other.to_string(),
            };
            ("impossible", IMPOSSIBLE, Some(why), Line::default(), None)
        }
        WideOutcome::Undecided(b) => (
            "undecided",
            UNDECIDED,
            Some(format!("{b} budget")),
            Line::default(),
            None,
        ),
    };
    // An impossible answer's certificate, when asked for: the class or pagoda proof (the
    // exhausted search is a proof, but its certificate takes 64 holes).
    let certificate_asked = certificate.is_some();
    let certificate = match (certificate, &report.outcome) {
        (Some(path), WideOutcome::Impossible(_)) => match check::proof(board, start, &finish)? {
            Some(c) => {
                crate::certificate::write_wide(path, board, start, &finish, &c)?;
                Some(CertificateFile {
                    kind: c.kind(),
                    file: path.display().to_string(),
                    reason: crate::check::kind_reason(c.kind()),
                })
            }
            None => None,
        },
        _ => None,
    };
    let drawing = || match (svg, &report.outcome) {
        (Some(path), WideOutcome::Solved { jumps, .. }) => write_strip(path, board, start, jumps),
        _ => Ok(()),
    };
    let answer = WideSolveAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        lattice: board.lattice().name(),
        empty: board.labels(board.holes().minus(start)),
        finish: finish_view(board, &finish),
        status,
        reason,
        line,
        last,
        engine: report.engine,
        words: report.words,
        nodes: report.nodes,
        millis: report.millis,
        certificate,
    };
    if json {
        print_json(&answer);
        return drawn(drawing(), code);
    }
    let finish_text = answer.finish.text();
    println!(
        "board {} ({} holes, {} lattice, {} words a position), {}, finish: {}",
        answer.board,
        answer.holes,
        answer.lattice,
        answer.words,
        start_text(board, start),
        finish_text
    );
    match &report.outcome {
        WideOutcome::Solved { finish: end, .. } => {
            println!(
                "solved: {} jumps, {} moves (replayed and checked; found by the {} search)",
                answer.line.jumps.len(),
                answer.line.moves,
                answer.engine
            );
            print_moves(&answer.line.move_list);
            println!("final position:\n{}", board.draw(*end));
        }
        WideOutcome::Impossible(_) => {
            println!("impossible: {}", answer.reason.as_deref().unwrap_or(""));
        }
        WideOutcome::Undecided(b) => println!(
            "undecided within budget: the {b} budget ran out; raise --timeout or --max-memory"
        ),
    }
    println!("{} positions expanded, {} ms", answer.nodes, answer.millis);
    match (&answer.certificate, &report.outcome) {
        (Some(c), _) => println!(
            "certificate ({}) written to {}; check it with pegsol verify {}",
            c.kind, c.file, c.file
        ),
        (None, WideOutcome::Impossible(_)) if certificate_asked => println!(
            "no certificate written: the search above is the proof, and search certificates take boards of up to 64 holes"
        ),
        (None, _) if certificate_asked => {
            println!("no certificate written: the problem is not proved impossible")
        }
        _ => {}
    }
    drawn(drawing(), code)
}

/// The start in words: its empty holes, or its pegs when they are fewer.
pub(super) fn start_text(board: &Board, start: Pegs) -> String {
    let empty = board.holes().minus(start);
    if start.count() < empty.count() {
        format!("pegs: {}", board.labels(start).join(","))
    } else {
        format!("empty: {}", board.labels(empty).join(","))
    }
}

pub(super) fn limits_of(budget: &BudgetArgs) -> Result<WideLimits> {
    let narrow = budget.limits()?;
    Ok(WideLimits {
        timeout: narrow.timeout,
        max_memory: narrow.max_memory,
    })
}

/// A solved entry's line, after the independent replay.
/// The line of a solved outcome, after its independent replay by coordinates: it must end
/// on the position the solver reported, and that position must be a `finish`. `None` for
/// an outcome that is not solved.
pub(crate) fn checked_line(
    board: &Board,
    start: Pegs,
    finish: &WideFinish,
    outcome: &WideOutcome,
) -> Result<Option<Line>> {
    match outcome {
        WideOutcome::Solved { jumps, finish: end } => {
            let replayed = pegsol::replay(board, start, jumps)
                .context("internal error: a solution failed its replay")?;
            let reaches = match finish {
                WideFinish::Exactly(f) => replayed == *f,
                WideFinish::Pegs(n) => replayed.count() as usize == *n,
            };
            if replayed != *end || !reaches {
                return Err(pegsol::Error::Internal("a wide solution replays elsewhere").into());
            }
            Ok(Some(Line::of(board, jumps)))
        }
        _ => Ok(None),
    }
}

fn reason_text(outcome: &WideOutcome) -> Option<String> {
    match outcome {
        WideOutcome::Solved { .. } => None,
        WideOutcome::Impossible(r) => Some(r.to_string()),
        WideOutcome::Undecided(b) => Some(format!("{b} budget")),
    }
}

fn status_text(outcome: &WideOutcome) -> &'static str {
    match outcome {
        WideOutcome::Solved { .. } => "solved",
        WideOutcome::Impossible(_) => "impossible",
        WideOutcome::Undecided(_) => "undecided",
    }
}

/// One finish of a wide table: a class of holes equivalent under the start's symmetries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideEndView {
    pub hole: String,
    /// Every hole this row answers for.
    pub like: Vec<String>,
    pub status: &'static str,
    pub reason: Option<String>,
    #[serde(flatten)]
    pub line: Line,
    pub engine: &'static str,
    pub millis: u64,
}

/// The answer of `ends --json` on a wide board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideEndsAnswer {
    pub board: String,
    pub holes: usize,
    pub empty: Vec<String>,
    /// The holes one last peg can end on.
    pub ends: Vec<String>,
    pub rows: Vec<WideEndView>,
}

/// `ends` on a wide board: every hole's fate as the last peg, one row per class of holes.
pub(crate) fn ends(board: &Board, setup: &Setup, budget: &BudgetArgs, json: bool) -> Result<u8> {
    let start = start_of(board, setup)?;
    let limits = limits_of(budget)?;
    let bar = spinner("finding the end holes");
    let entries = pegsol::ends_wide(board, start, &limits, &|done, total| {
        if let Some(bar) = &bar {
            bar.set_message(format!("finding the end holes: {done} of {total} classes"));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut rows = Vec::new();
    let mut ends = Vec::new();
    for e in &entries? {
        let line = checked_line(board, start, &WideFinish::Pegs(1), &e.outcome)?;
        if line.is_some() {
            ends.extend(e.finish_class.iter().map(|&h| board.label(Hole::at(h))));
        }
        rows.push(WideEndView {
            hole: board.label(Hole::at(e.finish.unwrap_or(0))),
            like: e
                .finish_class
                .iter()
                .map(|&h| board.label(Hole::at(h)))
                .collect(),
            status: status_text(&e.outcome),
            reason: reason_text(&e.outcome),
            line: line.unwrap_or_default(),
            engine: e.engine,
            millis: e.millis,
        });
    }
    let code = if rows.iter().any(|r| r.status == "undecided") {
        UNDECIDED
    } else if ends.is_empty() {
        IMPOSSIBLE
    } else {
        0
    };
    let answer = WideEndsAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        empty: board.labels(board.holes().minus(start)),
        ends,
        rows,
    };
    if json {
        print_json(&answer);
        return Ok(code);
    }
    println!(
        "board {} ({} holes), {}: one last peg can end on {}",
        answer.board,
        answer.holes,
        start_text(board, start),
        if answer.ends.is_empty() {
            "no hole".to_string()
        } else {
            answer.ends.join(" ")
        }
    );
    for r in &answer.rows {
        let detail = match r.status {
            "solved" => format!("{} jumps, {} moves", r.line.jumps.len(), r.line.moves),
            _ => r.reason.clone().unwrap_or_default(),
        };
        println!(
            "  {:<6} {:<10} {detail} (like it: {})",
            r.hole,
            r.status,
            r.like.join(" ")
        );
    }
    Ok(code)
}

/// One vacancy class of a wide catalog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideVacancyView {
    pub empty: String,
    pub members: Vec<String>,
}

/// One problem of a wide catalog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideProblemView {
    pub empty: Vec<String>,
    pub finish: FinishView,
    pub equivalent: u64,
    pub status: &'static str,
    pub reason: Option<String>,
    #[serde(flatten)]
    pub line: Line,
    #[serde(rename = "final")]
    pub last: Option<Vec<String>>,
    pub engine: &'static str,
    pub millis: u64,
}

/// The summary of a wide catalog, in (vacancy, finish) pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideSummary {
    pub pairs: u64,
    pub solvable: u64,
    pub impossible: u64,
    pub impossible_by_class: u64,
    pub undecided: u64,
}

/// The answer of `catalog --json` on a wide board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct WideCatalogAnswer {
    pub board: String,
    pub holes: usize,
    pub lattice: &'static str,
    pub symmetries: usize,
    pub vacancies: Vec<WideVacancyView>,
    pub problems: Vec<WideProblemView>,
    pub summary: WideSummary,
    pub millis: u64,
}

/// `catalog` on a wide board.
fn catalog(board: &Board, single: bool, limits: &WideLimits, json: bool) -> Result<u8> {
    let began = std::time::Instant::now();
    let bar = spinner("cataloguing");
    let c = pegsol::catalog_wide(board, single, limits, &|done, total| {
        if let Some(bar) = &bar {
            bar.set_message(format!("cataloguing: vacancy class {done} of {total}"));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let c = c?;
    let mut problems = Vec::new();
    for e in &c.entries {
        let start = board.holes().without(Hole::at(e.empty));
        let line = checked_line(board, start, &WideFinish::Pegs(1), &e.outcome)?;
        let last = match &e.outcome {
            WideOutcome::Solved { finish, .. } => Some(board.labels(*finish)),
            _ => None,
        };
        problems.push(WideProblemView {
            empty: vec![board.label(Hole::at(e.empty))],
            finish: e
                .finish
                .map_or(FinishView::Anywhere("any".to_string()), |f| {
                    FinishView::Holes(vec![board.label(Hole::at(f))])
                }),
            equivalent: e.equivalent,
            status: status_text(&e.outcome),
            reason: reason_text(&e.outcome),
            line: line.unwrap_or_default(),
            last,
            engine: e.engine,
            millis: e.millis,
        });
    }
    let (pairs, solvable, impossible, impossible_by_class, undecided) = c.summary();
    let answer = WideCatalogAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        lattice: board.lattice().name(),
        symmetries: board.symmetries().len(),
        vacancies: c
            .vacancies
            .iter()
            .map(|v| WideVacancyView {
                empty: board.label(Hole::at(v.hole)),
                members: v
                    .members
                    .iter()
                    .map(|&h| board.label(Hole::at(h)))
                    .collect(),
            })
            .collect(),
        problems,
        summary: WideSummary {
            pairs,
            solvable,
            impossible,
            impossible_by_class,
            undecided,
        },
        millis: began.elapsed().as_millis() as u64,
    };
    let code = if undecided > 0 {
        UNDECIDED
    } else if solvable == 0 {
        IMPOSSIBLE
    } else {
        0
    };
    if json {
        print_json(&answer);
        return Ok(code);
    }
    println!(
        "catalog of {} ({} holes, {} lattice, {} symmetries): every single vacancy, {}",
        answer.board,
        answer.holes,
        answer.lattice,
        answer.symmetries,
        if single {
            "every single-peg finish"
        } else {
            "one peg anywhere"
        }
    );
    println!(
        "{} vacancy classes, {} problems up to symmetry, {} pairs: {} solvable, {} impossible ({} by position class, {} by exhausted search), {} undecided; {:.1} s",
        answer.vacancies.len(),
        answer.problems.len(),
        pairs,
        solvable,
        impossible,
        impossible_by_class,
        impossible - impossible_by_class,
        undecided,
        answer.millis as f64 / 1000.0
    );
    println!(
        "(pairs: how many (vacancy, finish) pairs a row stands for; --json has the solutions)"
    );
    for v in &answer.vacancies {
        println!(
            "\nvacancy {} ({} like it: {})",
            v.empty,
            v.members.len(),
            v.members.join(" ")
        );
        let mut class_only = 0;
        for p in answer.problems.iter().filter(|p| p.empty[0] == v.empty) {
            if single && p.reason.as_deref() == Some("position class") {
                class_only += 1;
                continue;
            }
            let finish = p.finish.text();
            let detail = match (&p.last, &p.reason) {
                (Some(last), _) => format!(
                    "{} jumps, {} moves, ends on {}",
                    p.line.jumps.len(),
                    p.line.moves,
                    last.join(",")
                ),
                (None, Some(r)) => r.clone(),
                (None, None) => String::new(),
            };
            println!(
                "  {:<6} {:>5}  {:<10} {detail}",
                finish, p.equivalent, p.status
            );
        }
        if class_only > 0 {
            println!("  and {class_only} classes of finish holes impossible by position class");
        }
    }
    Ok(code)
}
