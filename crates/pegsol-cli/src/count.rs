//! `pegsol count`: the whole game tree, level by level.

use std::path::Path;

use anyhow::{bail, Context, Result};
use pegsol::answer::{CountAnswer, CountUndecided, ProblemView, SolutionsAnswer};
use pegsol::notation;

use crate::cli::Setup;
use crate::common::{finish_text, load_any_problem, print_json, spinner, UNDECIDED};

pub(crate) fn run(
    setup: &Setup,
    finish: Option<&str>,
    threads: Option<u16>,
    options: pegsol::count::CountOptions,
    json: bool,
) -> Result<u8> {
    let pagoda = options.pagoda;
    prepare_spill(options.spill.as_deref())?;
    let problem = load_any_problem(setup, finish)?;
    let threads = threads.map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let bar = spinner("counting");
    let began = std::time::Instant::now();
    // Classes expanded so far, for the rate on the progress line.
    let seen = std::sync::atomic::AtomicU64::new(0);
    // The levels finished, with their forward figures, to show how far a count got when a
    // budget stops it.
    let finished = std::sync::Mutex::new(Vec::<pegsol::count::Level>::new());
    let result = pool.install(|| {
        pegsol::count::count_with(&problem, &options, &|l| {
            if let Ok(mut finished) = finished.lock() {
                finished.push(l.clone());
            }
            if let Some(bar) = &bar {
                let done =
                    seen.fetch_add(l.classes, std::sync::atomic::Ordering::Relaxed) + l.classes;
                bar.set_message(format!(
                    "counting: level {} ({} pegs), {} positions, {:.1} M classes/s, {} MB",
                    l.jumps,
                    l.pegs,
                    l.positions,
                    done as f64 / began.elapsed().as_secs_f64().max(1e-3) / 1e6,
                    pegsol::count::peak_memory_mb()
                ));
            }
        })
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let c = match result {
        Ok(c) => c,
        Err(
            e @ (pegsol::count::CountError::Memory { .. } | pegsol::count::CountError::Timeout),
        ) => {
            let levels = finished.into_inner().unwrap_or_default();
            let millis = began.elapsed().as_millis() as u64;
            return undecided(
                &e,
                advice(&e),
                ProblemView::of(&problem),
                &levels,
                millis,
                threads,
                json,
            );
        }
        Err(e) => return Err(failure(e)),
    };
    let millis = began.elapsed().as_millis() as u64;
    render(&problem, &c, millis, threads, pagoda, json)
}

/// Prints a count a budget stopped: the levels it finished, with their forward figures.
pub(crate) fn undecided(
    e: &pegsol::count::CountError,
    message: String,
    problem: ProblemView,
    levels: &[pegsol::count::Level],
    millis: u64,
    threads: usize,
    json: bool,
) -> Result<u8> {
    if json {
        // The forward figures of each finished level are final; which positions can
        // still win is known only once every level is, so it is left out.
        print_json(&CountUndecided::of(
            e, message, problem, levels, millis, threads,
        ));
        return Ok(UNDECIDED);
    }
    println!("undecided within budget: {message}");
    if let Some(l) = levels.last() {
        println!(
            "levels 0 to {} were finished: level {} has {} positions ({} up to symmetry), after {:.1} s, peak memory {} MB",
            l.jumps,
            l.jumps,
            l.positions,
            l.classes,
            millis as f64 / 1000.0,
            pegsol::count::peak_memory_mb()
        );
        println!("their forward figures (which positions can still win needs every level):");
        println!(
            "{:>5} {:>4} {:>14} {:>12} {:>12} {:>26}",
            "jumps", "pegs", "positions", "classes", "dead ends", "paths"
        );
        for l in levels {
            println!(
                "{:>5} {:>4} {:>14} {:>12} {:>12} {:>26}",
                l.jumps, l.pegs, l.positions, l.classes, l.dead_ends, l.paths
            );
        }
    }
    Ok(UNDECIDED)
}

/// Prints a finished count, as text or JSON (the distributed count prints the same).
pub(crate) fn render(
    problem: &pegsol::Problem,
    c: &pegsol::count::Count,
    millis: u64,
    threads: usize,
    pagoda: bool,
    json: bool,
) -> Result<u8> {
    let (board, start) = (problem.board(), problem.start::<[u64; 4]>());
    let header = format!(
        "board {} ({} holes), empty: {}, finish: {}, symmetry group of order {}",
        board.name(),
        board.hole_count(),
        notation::set_text(board, board.holes().minus(start)),
        finish_text(board, problem.finish()),
        c.symmetries
    );
    render_view(
        ProblemView::of(problem),
        &header,
        c,
        millis,
        threads,
        pagoda,
        json,
    )
}

/// [`render`] for a problem already put in words: its view for JSON and its header line.
pub(crate) fn render_view(
    problem: ProblemView,
    header: &str,
    c: &pegsol::count::Count,
    millis: u64,
    threads: usize,
    pagoda: bool,
    json: bool,
) -> Result<u8> {
    if json {
        // Large integers as exact JSON numbers: u128 is written as a plain integer literal.
        print_json(&CountAnswer::of(problem, c, millis, threads, pagoda));
        return Ok(0);
    }
    println!("{header}");
    if pagoda {
        println!("pagoda-pruned: solutions and winning positions are exact; positions, dead ends and games are those of the pruned tree");
    }
    println!(
        "{:>5} {:>4} {:>14} {:>12} {:>12} {:>12} {:>12} {:>26}",
        "jumps", "pegs", "positions", "classes", "winning", "win.classes", "dead ends", "paths"
    );
    for l in &c.levels {
        println!(
            "{:>5} {:>4} {:>14} {:>12} {:>12} {:>12} {:>12} {:>26}",
            l.jumps,
            l.pegs,
            l.positions,
            l.classes,
            l.winning,
            l.winning_classes,
            l.dead_ends,
            l.paths
        );
    }
    println!(
        "positions: {} ({} up to symmetry)",
        c.positions(),
        c.classes()
    );
    println!(
        "winning positions: {} ({} up to symmetry)",
        c.winning(),
        c.winning_classes()
    );
    println!("solutions: {}", c.solutions);
    println!("games: {}", c.games);
    if let Some(d) = c.shortest_dead_end() {
        println!("shortest game that gets stuck: {d} jumps");
    }
    println!(
        "{} ms, peak memory {} MB, {} thread{}",
        millis,
        pegsol::count::peak_memory_mb(),
        threads,
        if threads == 1 { "" } else { "s" }
    );
    Ok(0)
}

/// Set by the signal handler of [`remove_scratch_on_signal`] as it starts.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a signal handler is removing the scratch files (and will exit with 128 plus the
/// signal's number).
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// The handler's work: close scratch (no file can be made after this), remove this
/// process's scratch directories, say so, and exit with `code`.
fn remove_and_exit(dir: &Path, code: i32) -> ! {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let removed = pegsol::count::remove_scratch_of(dir, std::process::id());
    eprintln!(
        "interrupted: {removed} scratch director{} removed from {}",
        if removed == 1 { "y" } else { "ies" },
        dir.display()
    );
    std::process::exit(code);
}

/// On SIGINT or SIGTERM, removes this process's scratch files under `dir` before exiting
/// with 130 or 143, as a shell reports a process those signals ended (the count removes
/// its files itself when it ends in any other way).
#[cfg(unix)]
pub(crate) fn remove_scratch_on_signal(dir: &Path) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .context("cannot install the signal handler that removes scratch files")?;
    let dir = dir.to_path_buf();
    std::thread::Builder::new()
        .name("signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                remove_and_exit(&dir, 128 + signal);
            }
        })
        .context("cannot start the thread that removes scratch files on a signal")?;
    Ok(())
}

/// On Ctrl-C, removes this process's scratch files under `dir` before exiting with 130.
#[cfg(not(unix))]
pub(crate) fn remove_scratch_on_signal(dir: &Path) -> Result<()> {
    let dir = dir.to_path_buf();
    ctrlc::set_handler(move || remove_and_exit(&dir, 130))
        .context("cannot install the signal handler that removes scratch files")
}

/// Checks that the `--spill` directory, if any, exists, and has the scratch files a count
/// makes there removed on Ctrl-C or SIGTERM.
pub(crate) fn prepare_spill(spill: Option<&Path>) -> Result<()> {
    if let Some(dir) = spill {
        if !dir.is_dir() {
            bail!(
                "--spill {}: no such directory; create it or choose another",
                dir.display()
            );
        }
        remove_scratch_on_signal(dir)?;
    }
    Ok(())
}

/// A count's error for `main`: an internal one as the library's typed error (exit 70), the
/// others with the flag that addresses them.
pub(crate) fn failure(e: pegsol::count::CountError) -> anyhow::Error {
    match e {
        pegsol::count::CountError::Internal(what) => pegsol::Error::Internal(what).into(),
        e => anyhow::anyhow!(advice(&e)),
    }
}

/// A count's error with the flag that addresses it: the library names no flags.
pub(crate) fn advice(e: &pegsol::count::CountError) -> String {
    use pegsol::count::CountError;
    let fix = match e {
        CountError::Memory { .. } => "raise --max-memory MB, or give --spill DIR",
        CountError::Timeout => "raise --timeout S",
        CountError::Io(_) => "check the directory given to --spill",
        CountError::Cluster(_) => {
            "check that every process of the cluster runs, with the same host file"
        }
        CountError::Overflow | CountError::Internal(_) => return e.to_string(),
    };
    format!("{e} ({fix})")
}

/// Why `count --solutions` refuses a finish of several positions (on one process or a
/// cluster).
pub(crate) const ONE_FINISH: &str = "--solutions needs a finish of one position (e.g. --finish \
     d4); for a finish of one peg anywhere, count without --solutions";

/// `pegsol count --solutions`: solutions and winning positions by meeting in the middle, or
/// by the whole count spilled to disk where the meeting does not fit and `--spill` is given.
pub(crate) fn solutions(
    setup: &Setup,
    finish: Option<&str>,
    threads: Option<u16>,
    options: &pegsol::count::CountOptions,
    json: bool,
) -> Result<u8> {
    let problem = load_any_problem(setup, finish)?;
    let threads = threads.map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let bar = spinner("counting solutions from both ends");
    let began = std::time::Instant::now();
    // Called only once the meeting did not fit and the whole count spills to disk.
    let level = |l: &pegsol::count::Level| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "the meeting did not fit: whole count on disk, level {} ({} pegs), {} positions",
                l.jumps, l.pegs, l.positions
            ));
        }
    };
    let result = pool.install(|| pegsol::count::count_solutions_with(&problem, options, &level));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let s = match result {
        Ok(Some(s)) => s,
        Ok(None) => bail!(ONE_FINISH),
        Err(
            e @ (pegsol::count::CountError::Memory { .. } | pegsol::count::CountError::Timeout),
        ) => {
            // The meeting keeps no finished levels of the whole game to show.
            return undecided(
                &e,
                advice(&e),
                ProblemView::of(&problem),
                &[],
                began.elapsed().as_millis() as u64,
                threads,
                json,
            );
        }
        Err(e) => return Err(failure(e)),
    };
    render_solutions(&problem, &s, threads, json)
}

/// Prints the answer of `count --solutions` (`s` of `problem`, counted on `threads`).
pub(crate) fn render_solutions(
    problem: &pegsol::Problem,
    s: &pegsol::count::Solutions,
    threads: usize,
    json: bool,
) -> Result<u8> {
    if json {
        print_json(&SolutionsAnswer::of(problem, s, threads));
        return Ok(0);
    }
    println!("{}", crate::common::problem_line(problem));
    println!(
        "solutions: {} ({}, symmetry group of order {})",
        s.solutions,
        s.method.as_str(),
        s.symmetries
    );
    println!(
        "winning positions: {} ({} up to symmetry)",
        s.winning(),
        s.winning_classes()
    );
    println!(
        "{:.2} s on {threads} threads, peak memory {} MB",
        s.millis as f64 / 1000.0,
        pegsol::count::peak_memory_mb()
    );
    Ok(0)
}

/// `pegsol count` on one process: the whole game, or the solutions alone (`main` sends
/// `--workers` and `--cluster` to the cluster module, `--every-vacancy` to the vacancies one).
pub(crate) fn dispatch(a: crate::cli::CountArgs) -> Result<u8> {
    let max_memory = (a.max_memory as usize).saturating_mul(1 << 20);
    let timeout = crate::cli::timeout_of(a.timeout)?;
    if a.solutions {
        solutions(
            &a.setup,
            a.finish.as_deref(),
            a.threads,
            &pegsol::count::CountOptions {
                max_memory,
                spill: a.spill,
                timeout,
                ..pegsol::count::CountOptions::default()
            },
            a.json,
        )
    } else {
        run(
            &a.setup,
            a.finish.as_deref(),
            a.threads,
            pegsol::count::CountOptions {
                max_memory,
                pagoda: a.pagoda,
                spill: a.spill,
                timeout,
                ..pegsol::count::CountOptions::default()
            },
            a.json,
        )
    }
}

/// `n` with commas between groups of three digits.
pub(crate) fn group_digits(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
