//! `pegsol count BOARD --solutions --every-vacancy`: the solutions of every single vacancy to
//! every single-peg finish, on one process or on a cluster.

use anyhow::{Context, Result};
use serde::Serialize;

use crate::common::{print_json, spinner, UNDECIDED};
use crate::count::{advice, failure, group_digits, prepare_spill};

/// `pegsol count BOARD --solutions --every-vacancy` on one process.
pub(crate) fn dispatch(a: crate::cli::CountArgs) -> Result<u8> {
    every_vacancy(
        &a.setup.board,
        a.threads,
        &pegsol::count::CountOptions {
            max_memory: (a.max_memory as usize).saturating_mul(1 << 20),
            spill: a.spill,
            timeout: crate::cli::timeout_of(a.timeout)?,
            ..pegsol::count::CountOptions::default()
        },
        a.json,
    )
}

/// One row of `count --solutions --every-vacancy`: a vacancy, a single-peg finish of its
/// position class, and the jump sequences from the one to the other.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct VacancyRow {
    empty: String,
    finish: String,
    /// The (vacancy, finish) pairs this row stands for under the board's symmetries.
    pairs: u64,
    /// `None` when the vacancy's count ran out of budget (see its `undecided`).
    solutions: Option<u128>,
}

/// The whole-game count of one vacancy (finish: one peg anywhere), which gives the solutions
/// to every end hole at once.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct VacancyCount {
    empty: String,
    /// The vacancies it stands for.
    members: Vec<String>,
    symmetries: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions_up_to_symmetry: Option<u64>,
    /// Where its game was met in the middle: the representatives of its middle level.
    #[serde(skip_serializing_if = "Option::is_none")]
    middle_level_up_to_symmetry: Option<u64>,
    /// Solutions to one peg anywhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u128>,
    millis: u64,
    /// Why the count stopped, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    undecided: Option<String>,
}

/// The answer of `count --solutions --every-vacancy --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct EveryVacancyAnswer {
    board: String,
    holes: usize,
    method: &'static str,
    vacancies: Vec<VacancyCount>,
    rows: Vec<VacancyRow>,
    millis: u64,
    peak_memory_mb: u64,
}

/// `pegsol count BOARD --solutions --every-vacancy`: the solutions of every single vacancy to
/// every single-peg finish in its position class, one representative per symmetry class.
///
/// Each vacancy's game is built once to its middle level and every pair is met there
/// ([`pegsol::count::vacancy_solutions`]): a vacancy's levels serve the pairs that start
/// there and, played backwards, those that finish there. Built levels go to `options.spill`
/// where they would not fit in memory together.
pub(crate) fn every_vacancy(
    board: &str,
    threads: Option<u16>,
    options: &pegsol::count::CountOptions,
    json: bool,
) -> Result<u8> {
    prepare_spill(options.spill.as_deref())?;
    let board = std::sync::Arc::new(crate::common::load_any_board(board)?);
    let threads = threads.map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let (vacancies, pairs) = pegsol::catalog::problems(&board, pegsol::catalog::Finishes::Single);
    let began = std::time::Instant::now();
    let todo: Vec<_> = vacancies
        .iter()
        .filter(|v| can_end_on_one_peg(&board, v.hole))
        .collect();
    let rows_of = |v: pegsol::Hole| rows_of_vacancy(&board, &pairs, v);
    let asked: Vec<(pegsol::Hole, pegsol::Hole)> = todo
        .iter()
        .flat_map(|v| rows_of(v.hole).into_iter().map(move |p| (v.hole, p.0)))
        .collect();
    let bar = spinner("counting every vacancy");
    let result = pool.install(|| {
        pegsol::count::vacancy_solutions(&board, &asked, options, &|what| {
            if let Some(bar) = &bar {
                bar.set_message(format!("counting every vacancy: {what}"));
            }
        })
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let millis = began.elapsed().as_millis() as u64;
    let (table, undecided) = match result {
        Ok(t) => (Some(t), None),
        Err(
            e @ (pegsol::count::CountError::Memory { .. } | pegsol::count::CountError::Timeout),
        ) => (None, Some(advice(&e))),
        Err(e) => return Err(failure(e)),
    };
    let mut solved = asked
        .iter()
        .zip(
            table
                .as_ref()
                .map(|t| t.solutions.clone())
                .unwrap_or_default(),
        )
        .map(|(&pair, n)| (pair, n))
        .collect::<std::collections::HashMap<_, _>>();
    let (mut counts, mut rows) = (Vec::new(), Vec::new());
    for v in &todo {
        let side = table
            .as_ref()
            .and_then(|t| t.sides.iter().find(|s| s.vacancy == v.hole));
        let mut total = Some(0u128);
        for (f, equivalent, like) in rows_of(v.hole) {
            let solutions = solved.remove(&(v.hole, f));
            total = match (total, solutions) {
                (Some(t), Some(n)) => n.checked_mul(like as u128).and_then(|n| t.checked_add(n)),
                _ => None,
            };
            rows.push(VacancyRow {
                empty: board.label(v.hole),
                finish: board.label(f),
                pairs: equivalent,
                solutions,
            });
        }
        counts.push(VacancyCount {
            empty: board.label(v.hole),
            members: v.members.iter().map(|&h| board.label(h)).collect(),
            symmetries: side.map_or(0, |s| s.symmetries),
            positions: None,
            positions_up_to_symmetry: None,
            middle_level_up_to_symmetry: side.map(|s| s.middle),
            solutions: total,
            millis: side.map_or(0, |s| s.millis),
            undecided: undecided.clone(),
        });
    }
    let answer = EveryVacancyAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        method: "each vacancy's game to its middle level, every pair met there",
        vacancies: counts,
        rows,
        millis,
        peak_memory_mb: pegsol::count::peak_memory_mb(),
    };
    print_every_vacancy(&answer, threads, json)
}

/// Whether a single vacancy at `hole` is in the position class of some single peg: the
/// others cannot end with one.
fn can_end_on_one_peg(board: &pegsol::Board, hole: pegsol::Hole) -> bool {
    let classes = board.classes();
    let start: pegsol::Pegs = board.holes().without(hole);
    board
        .each_hole()
        .any(|h| classes.class_of_hole(h) == classes.class_of(start))
}

/// The rows of the vacancy `v` (a representative): each finish of its position class, up to
/// the symmetries fixing `v`, with the (vacancy, finish) pairs it stands for and the finishes
/// like it from `v`.
fn rows_of_vacancy(
    board: &pegsol::Board,
    pairs: &[pegsol::catalog::Pair],
    v: pegsol::Hole,
) -> Vec<(pegsol::Hole, u64, usize)> {
    let classes = board.classes();
    let start: pegsol::Pegs = board.holes().without(v);
    pairs
        .iter()
        .filter(|p| p.empty == v)
        .filter_map(|p| {
            let f = p.finish?;
            (classes.class_of_hole(f) == classes.class_of(start))
                .then(|| (f, p.equivalent, p.finish_class.len().max(1)))
        })
        .collect()
}

/// A vacancy's whole count (finish: one peg anywhere), `Ok(None)` on a process of a cluster
/// that does not answer.
pub(crate) type VacancyCounter<'a> = dyn Fn(
        &pegsol::Problem,
    ) -> std::result::Result<Option<pegsol::count::Count>, pegsol::count::CountError>
    + 'a;

/// [`every_vacancy`] with each vacancy counted by `count`, on one process or on a cluster
/// (where every process runs the same vacancies in the same order, and the one that gets the
/// counts prints the table; `method` says how and `threads` how many counted). A spinner
/// names the vacancy being counted where `shows_progress`.
pub(crate) fn every_vacancy_by(
    board: &std::sync::Arc<pegsol::Board>,
    count: &VacancyCounter<'_>,
    method: &'static str,
    threads: usize,
    shows_progress: bool,
    json: bool,
) -> Result<u8> {
    let mut answers = true;
    let (vacancies, pairs) = pegsol::catalog::problems(board, pegsol::catalog::Finishes::Single);
    let classes = board.classes();
    let began = std::time::Instant::now();
    // Vacancies whose class is that of some single peg: the others cannot end with one.
    let todo: Vec<_> = vacancies
        .iter()
        .filter(|v| {
            let start: pegsol::Pegs = board.holes().without(v.hole);
            board
                .each_hole()
                .any(|h| classes.class_of_hole(h) == classes.class_of(start))
        })
        .collect();
    // On a cluster each count shows its own spinner.
    let bar = if shows_progress {
        crate::common::spinner("counting every vacancy")
    } else {
        None
    };
    let (mut counts, mut rows) = (Vec::new(), Vec::new());
    for (k, v) in todo.iter().enumerate() {
        let label = board.label(v.hole);
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "counting: vacancy {} of {}, {label}",
                k + 1,
                todo.len()
            ));
        }
        let start = board.holes().without(v.hole);
        let problem = pegsol::Problem::new(board.clone(), start, pegsol::Finish::AnyOne)?;
        let started = std::time::Instant::now();
        let Some(result) = count(&problem).transpose() else {
            // Another process of the cluster answers.
            answers = false;
            continue;
        };
        let millis = started.elapsed().as_millis() as u64;
        let mut entry = VacancyCount {
            empty: label.clone(),
            members: v.members.iter().map(|&h| board.label(h)).collect(),
            symmetries: 0,
            positions: None,
            positions_up_to_symmetry: None,
            middle_level_up_to_symmetry: None,
            solutions: None,
            millis,
            undecided: None,
        };
        let finishes = match result {
            Ok(c) => {
                entry.symmetries = c.symmetries;
                entry.positions = Some(c.positions());
                entry.positions_up_to_symmetry = Some(c.classes());
                entry.solutions = Some(c.solutions);
                Some(c.finishes)
            }
            // A vacancy past the budget is reported and the table goes on.
            Err(
                e @ (pegsol::count::CountError::Memory { .. } | pegsol::count::CountError::Timeout),
            ) => {
                entry.undecided = Some(advice(&e));
                None
            }
            Err(e) => return Err(failure(e).context(format!("vacancy {label}"))),
        };
        for p in pairs.iter().filter(|p| p.empty == v.hole) {
            let Some(f) = p.finish else { continue };
            if classes.class_of_hole(f) != classes.class_of(start) {
                continue;
            }
            // Every finish of the class has as many solutions (the vacancy's symmetries map
            // one onto the other); the count lists each, and they are checked to agree.
            let solutions = match &finishes {
                Some(list) => {
                    let of = |h: pegsol::Hole| {
                        list.iter()
                            .find(|(b, _)| *b == h.bit())
                            .map_or(0, |&(_, n)| n)
                    };
                    let n = of(f);
                    if p.finish_class.iter().any(|&g| of(g) != n) {
                        return Err(pegsol::Error::Internal(
                            "symmetric finishes with different solution counts",
                        )
                        .into());
                    }
                    Some(n)
                }
                None => None,
            };
            rows.push(VacancyRow {
                empty: label.clone(),
                finish: board.label(f),
                pairs: p.equivalent,
                solutions,
            });
        }
        counts.push(entry);
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if !answers {
        return Ok(0);
    }
    let answer = EveryVacancyAnswer {
        board: board.name().to_string(),
        holes: board.hole_count(),
        method,
        vacancies: counts,
        rows,
        millis: began.elapsed().as_millis() as u64,
        peak_memory_mb: pegsol::count::peak_memory_mb(),
    };
    print_every_vacancy(&answer, threads, json)
}

/// Prints the table of `--every-vacancy` (as JSON where `json`), counted on `threads`
/// threads; the exit code: undecided where a vacancy ran out of budget.
fn print_every_vacancy(answer: &EveryVacancyAnswer, threads: usize, json: bool) -> Result<u8> {
    let code = if answer.vacancies.iter().any(|v| v.undecided.is_some()) {
        UNDECIDED
    } else {
        0
    };
    if json {
        print_json(answer);
        return Ok(code);
    }
    println!(
        "board {} ({} holes): solutions from every single vacancy to every single-peg finish of its class (one row per symmetry class; pairs: how many it stands for)",
        answer.board, answer.holes
    );
    println!(
        "{:<7} {:<7} {:>5} {:>30}",
        "empty", "finish", "pairs", "solutions"
    );
    for r in &answer.rows {
        match r.solutions {
            Some(s) => println!(
                "{:<7} {:<7} {:>5} {:>30}",
                r.empty,
                r.finish,
                r.pairs,
                group_digits(s)
            ),
            None => println!(
                "{:<7} {:<7} {:>5} {:>30}",
                r.empty, r.finish, r.pairs, "undecided"
            ),
        }
    }
    let met = answer
        .vacancies
        .iter()
        .any(|v| v.middle_level_up_to_symmetry.is_some());
    if met {
        println!("per vacancy (its game to the middle level; solutions to one peg anywhere):");
        println!(
            "{:<7} {:>4} {:>16} {:>30} {:>9}",
            "empty", "sym", "middle level", "solutions", "seconds"
        );
    } else {
        println!("per vacancy (the whole game from it, one peg anywhere):");
        println!(
            "{:<7} {:>4} {:>16} {:>16} {:>30} {:>9}",
            "empty", "sym", "positions", "up to symmetry", "solutions", "seconds"
        );
    }
    for v in &answer.vacancies {
        match (
            &v.undecided,
            v.positions,
            v.positions_up_to_symmetry,
            v.middle_level_up_to_symmetry,
            v.solutions,
        ) {
            (None, Some(p), Some(c), _, Some(s)) => println!(
                "{:<7} {:>4} {:>16} {:>16} {:>30} {:>9.1}",
                v.empty,
                v.symmetries,
                group_digits(u128::from(p)),
                group_digits(u128::from(c)),
                group_digits(s),
                v.millis as f64 / 1000.0
            ),
            (None, _, _, Some(m), Some(s)) => println!(
                "{:<7} {:>4} {:>16} {:>30} {:>9.1}",
                v.empty,
                v.symmetries,
                group_digits(u128::from(m)),
                group_digits(s),
                v.millis as f64 / 1000.0
            ),
            (why, ..) => println!(
                "{:<7} undecided within budget: {}",
                v.empty,
                why.as_deref().unwrap_or("")
            ),
        }
    }
    println!(
        "{} vacancies in {:.1} s on {threads} threads, peak memory {} MB",
        answer.vacancies.len(),
        answer.millis as f64 / 1000.0,
        answer.peak_memory_mb
    );
    Ok(code)
}
