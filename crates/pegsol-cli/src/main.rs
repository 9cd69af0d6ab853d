//! `pegsol`: the command-line front end of the pegsol library.
//!
//! Exit codes: 0 solved (or nothing to refute), 1 proven impossible, 2 bad input or usage,
//! 3 undecided within the time or memory budget.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::{notation, Bits, Board, Finish, Jump, Limits, Outcome, Problem, Stats};
use serde_json::{json, Value};

/// Writes to standard output like the standard macro, but a reader that went away (`| head`)
/// ends the program quietly with success instead of a panic, and any other write error is
/// reported with exit code 2.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::stdout_write(format_args!($($arg)*))
    };
}

/// [`print!`] with a newline.
macro_rules! println {
    () => {
        print!("\n")
    };
    ($($arg:tt)*) => {{
        print!("{}\n", format_args!($($arg)*))
    }};
}

mod catalog;
mod certificate;
mod check;
mod serve;
mod svg;
mod verify;

/// The body of [`print!`].
fn stdout_write(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(i32::from(BAD_INPUT));
    }
}

#[derive(Parser)]
#[command(name = "pegsol", version, about = "Peg solitaire solver and toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in boards with their sizes and conventional starting vacancy.
    Boards {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Solve a board: find a line of play to the finish, or prove there is none.
    Solve {
        #[command(flatten)]
        setup: Setup,
        /// Holes that must hold the final pegs, e.g. d4 or "c4,e4"; or `any` for one peg
        /// anywhere. Default: the single starting vacancy, or `any`.
        #[arg(long)]
        finish: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Also write the solution as an SVG strip of boards, one per move, to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// When the problem is impossible, write a certificate that proves it to this file
        /// (JSON; `pegsol verify FILE` checks it).
        #[arg(long, value_name = "FILE", conflicts_with = "fewest_moves")]
        certificate: Option<std::path::PathBuf>,
        /// Find a solution with the fewest moves (a chain of jumps by one peg is one move) and
        /// prove that none is shorter.
        #[arg(long)]
        fewest_moves: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The fewest moves over many problems at once, proved by meeting in the middle: by default
    /// every start with one hole empty and every finish with one peg (the basic game; OEIS
    /// A127500 on triangles).
    Shortest {
        /// A built-in board name (see `pegsol boards`) or the path of a board file.
        board: String,
        /// Holes that start empty, e.g. a1 (one start). Default: every single vacancy.
        #[arg(long)]
        empty: Option<String>,
        /// Holes that must hold the final pegs, or `any` / `any:N`. Default: `any`.
        #[arg(long)]
        finish: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The whole single-vacancy table of a board: for every starting vacancy (one per
    /// symmetry class) and every single-peg finish, solvable (with a replayed solution),
    /// impossible (with the reason) or undecided within the budget.
    Catalog {
        /// A built-in board name (see `pegsol boards`) or the path of a board file.
        board: String,
        /// `single`: every finish hole; `any`: one peg anywhere.
        #[arg(long, value_enum, default_value = "single")]
        finish: CatalogFinish,
        /// Time budget in seconds per problem.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Memory budget for each problem's search tables, in MB.
        #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        max_memory: u64,
        /// Also draw the catalog as an SVG grid of boards, one per vacancy class.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Every hole where one last peg can end, each with a solution, and why the others cannot.
    Ends {
        #[command(flatten)]
        setup: Setup,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Count the whole game: positions per level, winning positions, solutions and games.
    Count {
        #[command(flatten)]
        setup: Setup,
        /// Holes that must hold the final pegs, or `any` (default as for `solve`).
        #[arg(long)]
        finish: Option<String>,
        /// Worker threads, 1 to 1024 (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
        /// Memory budget for the stored levels, in MB.
        #[arg(long, default_value_t = 8192, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        max_memory: u64,
        /// Time budget in seconds: stop at the first level boundary (or slice of a spilled
        /// level) after it (exit 3).
        #[arg(long)]
        timeout: Option<f64>,
        /// Spill to this directory when a level's children would not fit in --max-memory
        /// (sorted runs merged on disk; the files are removed at the end).
        #[arg(long, value_name = "DIR")]
        spill: Option<std::path::PathBuf>,
        /// Prune with pagoda functions: positions that cannot reach the finish are dropped.
        /// Solutions and winning positions stay exact; positions, dead ends and games are then
        /// those of the pruned tree.
        #[arg(long)]
        pagoda: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Prove a problem impossible with a certificate a person or a short program can check:
    /// position classes, then a signed pagoda function found by linear programming, then a
    /// search certificate (a set of positions closed under jumps). Exit 1 when refuted, 0
    /// when solvable, 3 when no proof is found within the budget.
    Check {
        #[command(flatten)]
        setup: Setup,
        /// Holes that must hold the final pegs, or `any` (default as for `solve`).
        #[arg(long)]
        finish: Option<String>,
        /// Check your own pagoda function instead: one line per board row, the weights of
        /// that row's holes left to right (integers or fractions such as 3/2 or -1).
        #[arg(long)]
        pagoda: Option<String>,
        /// Write the certificate to this file (JSON; `pegsol verify FILE` checks it).
        #[arg(long, value_name = "FILE")]
        certificate: Option<std::path::PathBuf>,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Check a certificate file written by `check --certificate` or `solve --certificate`,
    /// with code that shares nothing with the solver but the board parser. Exit 0 when it
    /// proves its claim, 1 when it does not.
    Verify {
        /// The certificate file.
        file: std::path::PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The Solitaire Army (Conway's soldiers): the fewest men on or below a line that can send
    /// one man N rows beyond it, with a replayed line of play and a proof that no fewer work;
    /// for row 5 and beyond, Conway's proof that no army can.
    Army {
        /// Rows beyond the line to reach.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
        row: u32,
        /// Time budget in seconds.
        #[arg(long)]
        timeout: Option<f64>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Serve the web playground: play any board in the browser with live hints and solutions,
    /// and a JSON API (`/api/solve`, `/api/ends`, `/api/check`, `/api/hint`).
    Serve {
        /// Address to listen on (port 0 lets the system choose; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Most seconds of solver time per request; longer work answers "undecided".
        #[arg(long, default_value_t = 5.0)]
        budget: f64,
    },
    /// Replay a line of play and show where it ends (or which jump is illegal).
    Replay {
        #[command(flatten)]
        setup: Setup,
        /// The jumps or moves, e.g. "d2-d4 f3-d3" or "d2-d4-f4".
        jumps: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// One-dimensional solitaire: the fewest pegs a row of cells reduces to, in linear time.
    Line {
        /// The cells: 1 a peg, 0 a hole (e.g. 1011011); `-` reads them from standard input.
        #[arg(required_unless_present = "regex")]
        config: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Leave the jump list out.
        #[arg(long)]
        summary: bool,
        /// Print the language of configurations that reduce to one peg, as a regular expression.
        #[arg(long, conflicts_with_all = ["config", "summary"])]
        regex: bool,
    },
    /// Show a board: its holes, labels, symmetry group and position classes.
    Show {
        #[command(flatten)]
        setup: Setup,
        /// Also show the board's named pagoda functions (resource counts), with their
        /// weights drawn on the board.
        #[arg(long)]
        pagodas: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// The finishes of a catalog.
#[derive(Clone, Copy, clap::ValueEnum)]
enum CatalogFinish {
    /// Every single hole.
    Single,
    /// One peg anywhere.
    Any,
}

#[derive(Args)]
struct Setup {
    /// A built-in board name (see `pegsol boards`) or the path of a board file.
    board: String,
    /// Holes that start empty, e.g. d4 or "c4,e4". Default: the board's conventional start,
    /// or the position drawn in the board file.
    #[arg(long)]
    empty: Option<String>,
}

#[derive(Args)]
struct BudgetArgs {
    /// Memory budget for the search tables, in MB.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    max_memory: u64,
    /// Time budget in seconds (for `ends`: per hole).
    #[arg(long)]
    timeout: Option<f64>,
}

impl BudgetArgs {
    fn limits(&self) -> Result<Limits> {
        Ok(Limits {
            max_memory: (self.max_memory as usize).saturating_mul(1 << 20),
            timeout: timeout_of(self.timeout)?,
            ..Limits::default()
        })
    }
}

/// A `--timeout` in seconds, checked.
fn timeout_of(seconds: Option<f64>) -> Result<Option<Duration>> {
    match seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            bail!("--timeout must be a positive number of seconds, got {s}")
        }
        s => Ok(s.map(|s| Duration::from_secs_f64(s.min(1e9)))),
    }
}

/// Exit code for a problem proven impossible.
pub(crate) const IMPOSSIBLE: u8 = 1;
/// Exit code for bad input or usage.
const BAD_INPUT: u8 = 2;
/// Exit code for an answer not found within the budget.
pub(crate) const UNDECIDED: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Batch work reuses freed memory level after level; a server keeps the default, so that
    // its memory goes back to the system between requests.
    if !matches!(cli.command, Command::Serve { .. }) {
        pegsol::count::keep_freed_memory();
    }
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            // The reader went away (e.g. `| head`): not an error of ours.
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Boards { json } => boards(json),
        Command::Solve {
            setup,
            finish,
            budget,
            fewest_moves: true,
            svg,
            json,
            ..
        } => fewest(&setup, finish.as_deref(), &budget, svg.as_deref(), json),
        Command::Solve {
            setup,
            finish,
            budget,
            svg,
            certificate,
            json,
            ..
        } => solve(
            &setup,
            finish.as_deref(),
            &budget,
            (svg.as_deref(), certificate.as_deref()),
            json,
        ),
        Command::Army { row, timeout, json } => army(row, timeout, json),
        Command::Shortest {
            board,
            empty,
            finish,
            budget,
            json,
        } => shortest(&board, empty.as_deref(), finish.as_deref(), &budget, json),
        Command::Serve { addr, budget } => {
            if !(budget.is_finite() && budget > 0.0 && budget <= 3600.0) {
                bail!("--budget must be between 0 and 3600 seconds, got {budget}");
            }
            serve::serve(&serve::Settings { addr, budget })?;
            Ok(0)
        }
        Command::Catalog {
            board,
            finish,
            timeout,
            max_memory,
            svg,
            json,
        } => catalog::run(&catalog::Request {
            board: &board,
            finishes: match finish {
                CatalogFinish::Single => pegsol::catalog::Finishes::Single,
                CatalogFinish::Any => pegsol::catalog::Finishes::Any,
            },
            limits: Limits {
                max_memory: (max_memory as usize).saturating_mul(1 << 20),
                timeout: timeout_of(Some(timeout))?,
                ..Limits::default()
            },
            json,
            svg: svg.as_deref(),
        }),
        Command::Ends {
            setup,
            budget,
            json,
        } => ends(&setup, &budget, json),
        Command::Replay { setup, jumps, json } => replay(&setup, &jumps, json),
        Command::Check {
            setup,
            finish,
            pagoda,
            certificate,
            budget,
            json,
        } => {
            let (board, start, finish) = load_problem(&setup, finish.as_deref())?;
            let mut limits = budget.limits()?;
            limits.timeout = limits.timeout.or(Some(Duration::from_secs(10)));
            check::run(&check::Request {
                board,
                start,
                finish,
                pagoda_file: pagoda.as_deref(),
                certificate_file: certificate.as_deref(),
                limits,
                json,
            })
        }
        Command::Verify { file, json } => verify::run(&file, json),
        Command::Count {
            setup,
            finish,
            threads,
            max_memory,
            spill,
            timeout,
            pagoda,
            json,
        } => count(
            &setup,
            finish.as_deref(),
            threads,
            pegsol::count::CountOptions {
                max_memory: (max_memory as usize).saturating_mul(1 << 20),
                pagoda,
                spill,
                timeout: timeout_of(timeout)?,
                ..pegsol::count::CountOptions::default()
            },
            json,
        ),
        Command::Show {
            setup,
            pagodas,
            json,
        } => show(&setup, pagodas, json),
        Command::Line {
            config,
            json,
            summary,
            regex,
        } => line(config.as_deref(), json, summary, regex),
    }
}

/// Reads a board by name or file path. A built-in name always means the built-in board; an
/// argument is read as a file only when it has a path separator or a `.` in it, so a file
/// called `english` in the working directory cannot silently replace the English board.
pub(crate) fn load_board(name: &str) -> Result<Board> {
    let is_path = name.contains(['/', '.', std::path::MAIN_SEPARATOR]);
    if !is_path {
        return Board::builtin(name).map_err(|e| match e {
            pegsol::Error::UnknownBoard(_) if Path::new(name).exists() => anyhow::anyhow!(
                "unknown board {name:?}; there is a file of that name here: write ./{name} to read it as a board file"
            ),
            pegsol::Error::UnknownBoard(_) => anyhow::anyhow!(
                "unknown board {name:?}; run 'pegsol boards' for the built-in names, or give the path of a board file (with a '/' or a '.' in it, e.g. ./{name} or {name}.txt)"
            ),
            other => other.into(),
        });
    }
    let path = Path::new(name);
    if path.is_dir() {
        bail!("board file {name} is a directory; give the path of a board file");
    }
    let text = std::fs::read(path).with_context(|| format!("cannot read board file {name}"))?;
    let text = String::from_utf8(text).map_err(|e| {
        anyhow::anyhow!(
            "board file {name} is not text (byte {} is not UTF-8); a board file is a picture made of 'o', '.' and spaces",
            e.utf8_error().valid_up_to() + 1
        )
    })?;
    let stem = path
        .file_stem()
        .map_or(name.to_string(), |s| s.to_string_lossy().into_owned());
    Board::parse(&stem, &text).with_context(|| format!("board file {name}"))
}

/// The board, starting pegs and finish of a problem from the command line.
fn load_problem(setup: &Setup, finish: Option<&str>) -> Result<(Board, Bits, Finish)> {
    let (board, start) = load_setup(setup)?;
    let finish = finish_of(&board, start, finish)?;
    Ok((board, start, finish))
}

/// The board and starting pegs from a setup.
fn load_setup(setup: &Setup) -> Result<(Board, Bits)> {
    let board = load_board(&setup.board)?;
    let start = match &setup.empty {
        Some(list) => {
            let empty = board.hole_set(list).context("--empty")?;
            board.holes().minus(empty)
        }
        None => board
            .start()
            .ok_or_else(|| pegsol::Error::NoStart(board.name().to_string()))?,
    };
    Ok((board, start))
}

pub(crate) fn print_json(value: &Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

/// A spinner on stderr, only when stderr is a terminal.
fn spinner(what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").ok()?);
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

fn boards(json: bool) -> Result<u8> {
    let samples = [
        ("english", "english"),
        ("french", "french"),
        ("wiegleb", "wiegleb"),
        ("diamond", "diamond"),
        ("rect:RxC", "rect:4x4"),
        ("triangle:N", "triangle:5"),
        ("english-diagonal", "english-diagonal"),
        ("french-diagonal", "french-diagonal"),
    ];
    let mut rows = Vec::new();
    for (name, sample) in samples {
        let b = Board::builtin(sample)?;
        let vacancy = b.start().map(|s| b.holes().minus(s)).unwrap_or_default();
        let holes = match name {
            "rect:RxC" => "R*C (<= 64)".to_string(),
            "triangle:N" => "N(N+1)/2".to_string(),
            _ => b.hole_count().to_string(),
        };
        rows.push((name, holes, b, vacancy));
    }
    if json {
        let list: Vec<Value> = rows
            .iter()
            .map(|(name, holes, b, vacancy)| {
                json!({
                    "name": name, "holes": holes, "lattice": b.lattice().name(),
                    "symmetries": b.symmetries().len(), "classes": b.classes().count(),
                    "vacancy": b.labels(*vacancy), "example": b.name(),
                })
            })
            .collect();
        print_json(&json!({ "boards": list }));
        return Ok(0);
    }
    println!(
        "{:<18} {:>12}  {:<11} {:>4} {:>7}  vacancy",
        "board", "holes", "lattice", "syms", "classes"
    );
    for (name, holes, b, vacancy) in &rows {
        let note = if b.name() != *name {
            format!("  (e.g. {}: {} holes)", b.name(), b.hole_count())
        } else {
            String::new()
        };
        println!(
            "{:<18} {:>12}  {:<11} {:>4} {:>7}  {}{}",
            name,
            holes,
            b.lattice().name(),
            b.symmetries().len(),
            b.classes().count(),
            notation::set_text(b, *vacancy),
            note
        );
    }
    println!("\nAny other argument is read as a board file: one row per line, 'o' a peg, '.' an empty hole, a space for no hole.");
    Ok(0)
}

fn finish_of(board: &Board, start: Bits, finish: Option<&str>) -> Result<Finish> {
    Ok(match finish.map(str::trim) {
        None => Problem::default_finish(board, start),
        Some(f) if f.eq_ignore_ascii_case("any") => Finish::AnyOne,
        Some(f) if f.to_ascii_lowercase().starts_with("any:") => {
            let n = f[4..].trim();
            Finish::Pegs(n.parse().map_err(|_| {
                anyhow::anyhow!("--finish any:N needs a number of pegs, e.g. any:2; got {n:?}")
            })?)
        }
        Some(f) => Finish::Holes(board.hole_set(f).context("--finish")?),
    })
}

pub(crate) fn finish_text(board: &Board, finish: Finish) -> String {
    match finish {
        Finish::Holes(f) => notation::set_text(board, f),
        Finish::AnyOne => "any".to_string(),
        Finish::Pegs(n) => format!("any {n} pegs"),
    }
}

/// One level of a count as JSON: its forward figures, and with `winning` (known only once
/// every level is) how many of its positions can still finish.
fn level_json(l: &pegsol::count::Level, winning: bool) -> Value {
    let mut v = json!({
        "jumps": l.jumps, "pegs": l.pegs, "positions": l.positions,
        "classes": l.classes, "dead_ends": l.dead_ends, "paths": l.paths,
    });
    if winning {
        v["winning"] = json!(l.winning);
        v["winning_classes"] = json!(l.winning_classes);
    }
    v
}

pub(crate) fn finish_json(board: &Board, finish: Finish) -> Value {
    match finish {
        Finish::Holes(f) => json!(board.labels(f)),
        Finish::AnyOne => json!("any"),
        Finish::Pegs(n) => json!(format!("any:{n}")),
    }
}

fn stats_json(stats: &Stats) -> Value {
    json!({ "nodes": stats.nodes, "dead": stats.dead, "millis": stats.millis })
}

/// Replays a solution with the library's independent checker before it is shown.
pub(crate) fn checked(board: &Board, start: Bits, jumps: &[Jump], finish: Bits) -> Result<()> {
    let end = pegsol::replay(board, start, jumps)
        .context("internal error: a solution failed its replay")?;
    if end != finish {
        bail!("internal error: a solution replays to a different position");
    }
    Ok(())
}

fn undecided_text(budget: pegsol::Budget, limits: &Limits) -> String {
    match budget {
        pegsol::Budget::Memory => format!(
            "undecided within budget: the dead-position table reached the memory limit ({} MB); raise --max-memory",
            limits.max_memory >> 20
        ),
        pegsol::Budget::Time => format!(
            "undecided within budget: no answer within {:.3} s; raise --timeout",
            limits.timeout.map_or(0.0, |t| t.as_secs_f64())
        ),
    }
}

fn class_line(board: &Board, start: Bits) -> String {
    let classes = board.classes();
    let c = classes.class_of(start);
    let singles: Vec<String> = board
        .holes()
        .iter()
        .filter(|h| classes.class_of(h.bit()) == c)
        .map(|h| board.label(h))
        .collect();
    format!(
        "position class {} of {}; single pegs in this class: {}",
        classes.class_text(start),
        classes.count(),
        if singles.is_empty() {
            "none".to_string()
        } else {
            singles.join(" ")
        }
    )
}

fn army(row: u32, timeout: Option<f64>, json: bool) -> Result<u8> {
    use pegsol::army::{smallest_army, ArmyError, Cell};
    let timeout = timeout_of(timeout)?;
    let started = std::time::Instant::now();
    let bar = spinner(&format!("searching armies for row {row}"));
    let result = smallest_army(row, timeout);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let cell = |(x, y): Cell| json!([x, y]);
    match result {
        Ok(a) => {
            if json {
                print_json(&json!({
                    "row": row,
                    "status": "found",
                    "men": a.men.len(),
                    "minimal": a.minimal,
                    "army": a.men.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
                    "jumps": a.jumps.iter().map(|&(f, o, t)| json!([cell(f), cell(o), cell(t)])).collect::<Vec<_>>(),
                    "pagoda_bound": a.pagoda_bound,
                    "nodes": a.nodes,
                    "millis": started.elapsed().as_millis() as u64,
                }));
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
                print_json(&json!({"row": row, "status": "impossible", "proof": proof}));
            } else {
                println!("row {row}: impossible for any finite army (Conway, 1961)\n{proof}");
            }
            Ok(IMPOSSIBLE)
        }
        Err(ArmyError::Trivial) => bail!("--row must be at least 1"),
        Err(ArmyError::Budget { ruled_out_below }) => {
            if json {
                print_json(
                    &json!({"row": row, "status": "undecided", "ruled_out_below": ruled_out_below}),
                );
            } else {
                println!("undecided within budget: armies of fewer than {ruled_out_below} men are ruled out; raise --timeout");
            }
            Ok(UNDECIDED)
        }
    }
}

/// Writes the SVG strip of a replayed solution.
fn write_svg(path: &Path, board: &Board, start: Bits, jumps: &[Jump]) -> Result<()> {
    std::fs::write(path, svg::strip(board, start, jumps, 8))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `solve`; `files` are the SVG drawing and the certificate asked for.
fn solve(
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    files: (Option<&Path>, Option<&Path>),
    json: bool,
) -> Result<u8> {
    let (svg, certificate_file) = files;
    let (board, start, finish) = load_problem(setup, finish)?;
    let problem = Problem::new(&board, start, finish)?;
    let limits = budget.limits()?;
    let bar = spinner("solving");
    let report = pegsol::solve_with_progress(&problem, &limits, &|s: &Stats| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "solving: {} nodes, {} dead positions",
                s.nodes, s.dead
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (mut v, code) = solve_value(&board, start, finish, &report)?;
    // An impossible answer's certificate, when asked for, with what is left of the budget.
    let certificate = match (certificate_file, &report.outcome) {
        (Some(path), Outcome::Impossible(_)) => {
            let mut rest = limits.clone();
            rest.timeout = limits
                .timeout
                .map(|t| t.saturating_sub(Duration::from_millis(report.stats.millis)));
            Some((path, check::proof_of(&problem, &rest)?))
        }
        _ => None,
    };
    if let Some((path, Ok(c))) = &certificate {
        certificate::write(path, &problem, c)?;
        v["certificate"] = json!({"kind": c.kind(), "file": path.display().to_string(), "reason": check::reason(c)});
    }
    // The drawing is written after the answer is printed, so a bad path costs no search.
    let drawing = || match (svg, &report.outcome) {
        (Some(path), Outcome::Solved { jumps, .. }) => write_svg(path, &board, start, jumps),
        _ => Ok(()),
    };
    if json {
        print_json(&v);
        return drawn(drawing(), code);
    }
    let jumps: &[Jump] = match &report.outcome {
        Outcome::Solved { jumps, .. } => jumps,
        _ => &[],
    };
    let jump_texts: Vec<String> = jumps
        .iter()
        .map(|&j| notation::jump_text(&board, j))
        .collect();
    let moves = notation::move_texts(&board, jumps);
    println!("{}", problem_line(&board, start, finish));
    println!("{}", class_line(&board, start));
    match &report.outcome {
        Outcome::Solved { jumps, finish } => {
            println!(
                "solved: {} jumps, {} moves (replayed and checked)",
                jumps.len(),
                moves.len()
            );
            for (i, j) in jump_texts.iter().enumerate() {
                print!("{:>3}. {:<8}", i + 1, j);
                if (i + 1) % 6 == 0 || i + 1 == jump_texts.len() {
                    println!();
                }
            }
            println!("moves: {}", moves.join(" "));
            println!("final position:\n{}", board.draw(*finish));
        }
        Outcome::Impossible(reason) => {
            println!("impossible: {}", explain(&board, start, finish, *reason));
        }
        Outcome::Undecided(b) => println!("{}", undecided_text(*b, &limits)),
    }
    match &certificate {
        Some((path, Ok(c))) => println!(
            "certificate ({}) written to {}; check it with pegsol verify {}",
            check::reason(c),
            path.display(),
            path.display()
        ),
        Some((_, Err(_))) => println!(
            "no certificate written: no checkable proof was found within the budget (the search above is the proof)"
        ),
        None if certificate_file.is_some() => {
            println!("no certificate written: the problem is not proved impossible")
        }
        None => {}
    }
    println!(
        "{} nodes, {} dead positions, {} ms",
        report.stats.nodes, report.stats.dead, report.stats.millis
    );
    drawn(drawing(), code)
}

/// The exit code once the answer is printed: `code`, or [`BAD_INPUT`] when the drawing that
/// was asked for could not be written (said on stderr).
pub(crate) fn drawn(written: Result<()>, code: u8) -> Result<u8> {
    match written {
        Ok(()) => Ok(code),
        Err(e) => {
            eprintln!("error: {e:#} (the answer above is complete; only the drawing is missing)");
            Ok(BAD_INPUT)
        }
    }
}

fn fewest(
    setup: &Setup,
    finish: Option<&str>,
    budget: &BudgetArgs,
    svg: Option<&Path>,
    json: bool,
) -> Result<u8> {
    use pegsol::fewest::{fewest_moves, MovesOutcome};
    let (board, start, finish) = load_problem(setup, finish)?;
    let problem = Problem::new(&board, start, finish)?;
    let limits = budget.limits()?;
    let bar = spinner("searching for the fewest moves");
    let report = fewest_moves(&problem, &limits);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (status, code, best) = match &report.outcome {
        MovesOutcome::Optimal(s) => ("solved", 0, Some(s)),
        MovesOutcome::Impossible(_) => ("impossible", IMPOSSIBLE, None),
        MovesOutcome::Undecided { best, .. } => ("undecided", UNDECIDED, best.as_ref()),
    };
    if let Some(s) = best {
        checked_moves(&board, start, &s.jumps, s.finish, s.moves)?;
    }
    let drawing = || match (svg, best) {
        (Some(path), Some(s)) => write_svg(path, &board, start, &s.jumps),
        _ => Ok(()),
    };
    let optimal = matches!(report.outcome, MovesOutcome::Optimal(_));
    let jumps: &[Jump] = best.map_or(&[], |s| &s.jumps);
    let moves = notation::move_texts(&board, jumps);
    if json {
        let mut v = problem_json(&board, start, finish);
        merge_json(
            &mut v,
            json!({
                "status": status,
                "reason": match &report.outcome {
                    MovesOutcome::Impossible(r) => json!(r.to_string()),
                    MovesOutcome::Undecided { budget, .. } => json!(format!("{budget} budget")),
                    MovesOutcome::Optimal(_) => Value::Null,
                },
                "moves": best.map(|s| s.moves),
                "optimal": optimal,
                "lower_bound": report.lower_bound,
                "move_list": move_list(&board, jumps),
                "moves_text": moves,
                "jumps": jumps.iter().map(|&j| notation::jump_text(&board, j)).collect::<Vec<_>>(),
                "final": best.map(|s| board.labels(s.finish)),
                "depths": report.meeting.map(|(a, b)| [a, b]),
                "millis": report.millis,
            }),
        );
        print_json(&v);
        return drawn(drawing(), code);
    }
    println!("{}", problem_line(&board, start, finish));
    match &report.outcome {
        MovesOutcome::Optimal(s) => match report.meeting {
            Some((a, b)) => println!(
                "fewest moves: {} ({} jumps), proven optimal: no position is both within {} of the start and within {} of the finish",
                s.moves,
                s.jumps.len(),
                plural(a, "move"),
                plural(b, "move"),
            ),
            None => println!(
                "fewest moves: {} ({} jumps), proven optimal (corner pegs: every one needs a move of its own)",
                s.moves,
                s.jumps.len(),
            ),
        },
        MovesOutcome::Impossible(reason) => {
            println!("impossible: {}", explain(&board, start, finish, *reason));
        }
        MovesOutcome::Undecided { budget: b, best } => {
            println!("{}", undecided_text(*b, &limits));
            match best {
                Some(s) => println!(
                    "best found: {} moves; proven lower bound: {} moves (corner pegs, and the levels searched from both ends)",
                    s.moves, report.lower_bound
                ),
                None => println!("no solution found; proven lower bound: {} moves", report.lower_bound),
            }
        }
    }
    if let Some(s) = best {
        print_moves(&moves);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(s.finish)
        );
    }
    println!("{} ms", report.millis);
    drawn(drawing(), code)
}

/// [`checked`], and the moves recounted from the jumps.
fn checked_moves(
    board: &Board,
    start: Bits,
    jumps: &[Jump],
    finish: Bits,
    moves: u32,
) -> Result<()> {
    checked(board, start, jumps, finish)?;
    if pegsol::fewest::move_count(jumps) != moves {
        bail!("internal error: a solution's move count does not match its jumps");
    }
    Ok(())
}

/// Each move as the labels of the holes its peg visits.
fn move_list(board: &Board, jumps: &[Jump]) -> Vec<Vec<String>> {
    notation::moves(jumps)
        .iter()
        .map(|mv| mv.iter().map(|&h| board.label(h)).collect())
        .collect()
}

/// Numbered moves, five to a line.
fn print_moves(moves: &[String]) {
    for (row, chunk) in moves.chunks(5).enumerate() {
        let line: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{:>3}. {m:<14}", row * 5 + i + 1))
            .collect();
        println!("{}", line.concat().trim_end());
    }
}

/// `1 move`, `2 moves`.
fn plural(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `pegsol shortest`: the fewest moves from any of the starts to the finish.
fn shortest(
    name: &str,
    empty: Option<&str>,
    finish: Option<&str>,
    budget: &BudgetArgs,
    json: bool,
) -> Result<u8> {
    use pegsol::fewest::{fewest_moves_meeting_with, single_vacancies, MeetOutcome};
    let board = load_board(name)?;
    let starts = match empty {
        Some(list) => vec![board
            .holes()
            .minus(board.hole_set(list).context("--empty")?)],
        None => single_vacancies(&board),
    };
    let finish = match finish {
        None => Finish::AnyOne,
        Some(f) => finish_of(&board, starts[0], Some(f))?,
    };
    let limits = budget.limits()?;
    let bar = spinner("searching from both ends by moves");
    let report = fewest_moves_meeting_with(&board, &starts, finish, &limits, &|p| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "no solution within {} moves; growing the {} side to level {}: {} of {} positions; tables {} MB",
                p.depths.0 + p.depths.1,
                if p.growing_forward { "start" } else { "finish" },
                if p.growing_forward { p.depths.0 + 1 } else { p.depths.1 + 1 },
                p.done,
                p.frontier,
                p.table_bytes >> 20
            ));
        }
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (status, code, best) = match &report.outcome {
        MeetOutcome::Optimal(s) => ("solved", 0, Some(s)),
        MeetOutcome::Impossible => ("impossible", IMPOSSIBLE, None),
        MeetOutcome::Undecided(_) => ("undecided", UNDECIDED, None),
    };
    if let Some(s) = best {
        checked_moves(&board, s.start, &s.jumps, s.finish, s.moves)?;
    }
    let starts_text = match empty {
        Some(list) => format!("the start with {list} empty"),
        None => "any start with one hole empty".to_string(),
    };
    let jumps: &[Jump] = best.map_or(&[], |s| &s.jumps);
    let moves = notation::move_texts(&board, jumps);
    if json {
        print_json(&json!({
            "board": board.name(),
            "holes": board.hole_count(),
            "starts": match empty {
                Some(_) => json!(starts.iter().map(|&s| board.labels(board.holes().minus(s))).collect::<Vec<_>>()),
                None => json!("every single vacancy"),
            },
            "finish": finish_json(&board, finish),
            "status": status,
            "reason": match &report.outcome {
                MeetOutcome::Undecided(b) => json!(format!("{b} budget")),
                MeetOutcome::Impossible => json!("no start can reach a finish (position classes, or both searches ran dry)"),
                MeetOutcome::Optimal(_) => Value::Null,
            },
            "moves": best.map(|s| s.moves),
            "optimal": best.is_some(),
            "lower_bound": report.lower_bound,
            "empty": best.map(|s| board.labels(board.holes().minus(s.start))),
            "final": best.map(|s| board.labels(s.finish)),
            "jumps": jumps.iter().map(|&j| notation::jump_text(&board, j)).collect::<Vec<_>>(),
            "move_list": move_list(&board, jumps),
            "moves_text": moves,
            "forward_levels": report.forward,
            "backward_levels": report.backward,
            "depths": [report.depths.0, report.depths.1],
            "symmetries": report.symmetries,
            "peak_table_mb": report.peak_bytes >> 20,
            "millis": report.millis,
        }));
        return Ok(code);
    }
    println!(
        "{} ({} holes): fewest moves from {starts_text} to finish {}",
        board.name(),
        board.hole_count(),
        finish_text(&board, finish)
    );
    match &report.outcome {
        MeetOutcome::Optimal(s) => {
            println!(
                "{} moves ({} jumps), proven optimal: no position is both within {} of a start and within {} of a finish",
                s.moves,
                s.jumps.len(),
                plural(report.depths.0, "move"),
                plural(report.depths.1, "move")
            );
            println!(
                "start: {} empty; finish: {}",
                notation::set_text(&board, board.holes().minus(s.start)),
                notation::set_text(&board, s.finish)
            );
        }
        MeetOutcome::Impossible => println!(
            "impossible: no start can reach a finish (position classes, or both searches ran dry)"
        ),
        MeetOutcome::Undecided(b) => {
            println!("{}", undecided_text(*b, &limits));
            println!(
                "proven lower bound: {} moves (no position is both within {} of a start and within {} of a finish)",
                report.lower_bound,
                plural(report.depths.0, "move"),
                plural(report.depths.1, "move")
            );
        }
    }
    if let Some(s) = best {
        print_moves(&moves);
        println!(
            "final position (replayed and checked):\n{}",
            board.draw(s.finish)
        );
    }
    let line = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    println!(
        "positions up to {} symmetries, by moves from the starts: {}",
        report.symmetries,
        line(&report.forward)
    );
    println!("by moves to a finish: {}", line(&report.backward));
    println!(
        "{} ms, level tables {} MB",
        report.millis,
        report.peak_bytes >> 20
    );
    Ok(code)
}

/// The JSON answer of `solve` (also the web API's), after replaying any solution.
pub(crate) fn solve_value(
    board: &Board,
    start: Bits,
    finish: Finish,
    report: &pegsol::Report,
) -> Result<(Value, u8)> {
    let (status, code) = match &report.outcome {
        Outcome::Solved { jumps, finish } => {
            checked(board, start, jumps, *finish)?;
            ("solved", 0)
        }
        Outcome::Impossible(_) => ("impossible", IMPOSSIBLE),
        Outcome::Undecided(_) => ("undecided", UNDECIDED),
    };
    let jumps: &[Jump] = match &report.outcome {
        Outcome::Solved { jumps, .. } => jumps,
        _ => &[],
    };
    let jump_texts: Vec<String> = jumps
        .iter()
        .map(|&j| notation::jump_text(board, j))
        .collect();
    let moves = notation::move_texts(board, jumps);
    let mut v = problem_json(board, start, finish);
    merge_json(
        &mut v,
        json!({
            "status": status,
            "reason": match &report.outcome {
                Outcome::Impossible(r) => json!(r.to_string()),
                Outcome::Undecided(b) => json!(format!("{b} budget")),
                Outcome::Solved { .. } => Value::Null,
            },
            "class": board.classes().class_text(start),
            "classes": board.classes().count(),
            "jumps": jump_texts,
            "moves": moves.len(),
            "move_list": moves,
            "stats": stats_json(&report.stats),
        }),
    );
    if let Outcome::Solved { finish, .. } = &report.outcome {
        v["final"] = json!(board.labels(*finish));
    }
    Ok((v, code))
}

/// The problem itself, as every answer about it starts in JSON.
fn problem_json(board: &Board, start: Bits, finish: Finish) -> Value {
    json!({
        "board": board.name(),
        "holes": board.hole_count(),
        "lattice": board.lattice().name(),
        "empty": board.labels(board.holes().minus(start)),
        "finish": finish_json(board, finish),
    })
}

/// Adds the fields of the object `more` to the object `v`.
fn merge_json(v: &mut Value, more: Value) {
    if let (Value::Object(v), Value::Object(more)) = (v, more) {
        v.extend(more);
    }
}

/// The problem itself, as every text answer about it starts.
fn problem_line(board: &Board, start: Bits, finish: Finish) -> String {
    format!(
        "board {} ({} holes, {} lattice), empty: {}, finish: {}",
        board.name(),
        board.hole_count(),
        board.lattice(),
        notation::set_text(board, board.holes().minus(start)),
        finish_text(board, finish)
    )
}

fn explain(board: &Board, start: Bits, finish: Finish, reason: pegsol::Reason) -> String {
    match reason {
        pegsol::Reason::Class => format!(
            "position class: the start is in class {} and {}, and jumps never change the class",
            board.classes().class_text(start),
            match finish {
                Finish::Holes(f) => format!("the finish in class {}", board.classes().class_text(f)),
                Finish::AnyOne => "no single peg is in that class".to_string(),
                Finish::Pegs(n) => format!("no position of {n} pegs is in that class"),
            }
        ),
        pegsol::Reason::Pagoda => "pagoda function: a weighting whose total never rises is lower on the start than on the finish".to_string(),
        pegsol::Reason::Exhausted => "exhausted search: every line of play was tried".to_string(),
    }
}

/// What `ends` found, sorted into reachable holes (with replayed solutions), impossible ones and
/// undecided ones, with the exit code.
type EndsSorted = (
    Vec<(String, Vec<Jump>, Stats)>,
    Vec<(String, String)>,
    Vec<(String, String)>,
    u8,
);

fn sort_ends(board: &Board, start: Bits, result: &pegsol::Ends) -> Result<EndsSorted> {
    let mut reachable = Vec::new();
    let mut impossible = Vec::new();
    let mut undecided = Vec::new();
    for e in &result.holes {
        let label = board.label(e.hole);
        match &e.outcome {
            Outcome::Solved { jumps, finish } => {
                checked(board, start, jumps, *finish)?;
                reachable.push((label, jumps.clone(), e.stats));
            }
            Outcome::Impossible(r) => impossible.push((label, r.to_string())),
            Outcome::Undecided(b) => undecided.push((label, b.to_string())),
        }
    }
    let code = if !undecided.is_empty() {
        UNDECIDED
    } else if reachable.is_empty() {
        IMPOSSIBLE
    } else {
        0
    };
    Ok((reachable, impossible, undecided, code))
}

/// The JSON answer of `ends` (also the web API's).
pub(crate) fn ends_value(board: &Board, start: Bits, result: &pegsol::Ends) -> Result<(Value, u8)> {
    let (reachable, impossible, undecided, code) = sort_ends(board, start, result)?;
    let empty = board.holes().minus(start);
    Ok((
        json!({
            "board": board.name(),
            "empty": board.labels(empty),
            "class": board.classes().class_text(start),
            "ends": reachable.iter().map(|(h, jumps, stats)| json!({
                "hole": h,
                "jumps": jumps.iter().map(|&j| notation::jump_text(board, j)).collect::<Vec<_>>(),
                "moves": notation::move_texts(board, jumps).len(),
                "stats": stats_json(stats),
            })).collect::<Vec<_>>(),
            "impossible": impossible.iter().map(|(h, r)| json!({"hole": h, "reason": r})).collect::<Vec<_>>(),
            "undecided": undecided.iter().map(|(h, b)| json!({"hole": h, "budget": b})).collect::<Vec<_>>(),
        }),
        code,
    ))
}

fn ends(setup: &Setup, budget: &BudgetArgs, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    if start.is_empty() {
        bail!("the start has no pegs; leave at least one hole filled");
    }
    let mut limits = budget.limits()?;
    // Holes are solved in parallel; share the memory budget between the threads.
    limits.max_memory /= rayon::current_num_threads().max(1);
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(board.hole_count() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} holes {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let result = pegsol::ends_with_progress(&board, start, &limits, &|done| {
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(format!("last: {}", board.label(done.hole)));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if json {
        let (v, code) = ends_value(&board, start, &result)?;
        print_json(&v);
        return Ok(code);
    }
    let (reachable, impossible, undecided, code) = sort_ends(&board, start, &result)?;
    let empty = board.holes().minus(start);
    println!(
        "board {} ({} holes), empty: {}",
        board.name(),
        board.hole_count(),
        notation::set_text(&board, empty)
    );
    println!("{}", class_line(&board, start));
    println!(
        "one last peg can end on {} hole(s): {}",
        reachable.len(),
        reachable
            .iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (h, jumps, _) in &reachable {
        println!("  {h}: {}", notation::move_texts(&board, jumps).join(" "));
    }
    let mut by_reason: Vec<(String, Vec<String>)> = Vec::new();
    for (h, r) in &impossible {
        match by_reason.iter_mut().find(|(reason, _)| reason == r) {
            Some((_, list)) => list.push(h.clone()),
            None => by_reason.push((r.clone(), vec![h.clone()])),
        }
    }
    for (reason, holes) in &by_reason {
        println!("impossible by {reason}: {}", holes.join(" "));
    }
    if !undecided.is_empty() {
        println!(
            "undecided within budget: {} (raise --timeout or --max-memory)",
            undecided
                .iter()
                .map(|u| format!("{} ({})", u.0, u.1))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let map = board.draw_with(|h| {
        let l = board.label(h);
        if reachable.iter().any(|r| r.0 == l) {
            'E'
        } else if start.contains(h) {
            'o'
        } else {
            '.'
        }
    });
    println!("start, with the end holes marked E:\n{map}");
    Ok(code)
}

fn replay(setup: &Setup, jumps: &str, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    let jumps = notation::parse_jumps(&board, jumps)?;
    let end = pegsol::replay(&board, start, &jumps)?;
    if json {
        print_json(&json!({
            "board": board.name(),
            "jumps": jumps.iter().map(|&j| notation::jump_text(&board, j)).collect::<Vec<_>>(),
            "moves": notation::move_texts(&board, &jumps).len(),
            "pegs": end.count(),
            "final": board.labels(end),
        }));
    } else {
        println!(
            "{} jumps, {} moves, all legal; {} pegs left:\n{}",
            jumps.len(),
            notation::move_texts(&board, &jumps).len(),
            end.count(),
            board.draw(end)
        );
    }
    Ok(0)
}

fn show(setup: &Setup, pagodas: bool, json: bool) -> Result<u8> {
    let (board, start) = load_setup(setup)?;
    let classes = board.classes();
    let named = if pagodas {
        pegsol::Pagoda::named(&board)
    } else {
        Vec::new()
    };
    if json {
        let mut v = json!({
            "board": board.name(),
            "holes": board.hole_count(),
            "lattice": board.lattice().name(),
            "labels": board.labels(board.holes()),
            "empty": board.labels(board.holes().minus(start)),
            "jumps": board.jumps().len(),
            "symmetries": board.symmetries().len(),
            "classes": classes.count(),
            "class": classes.class_text(start),
            "invariants": classes.functionals().iter().map(|f| board.labels(*f)).collect::<Vec<_>>(),
            "picture": board.to_picture(start),
        });
        if pagodas {
            v["pagodas"] = json!(named
                .iter()
                .map(|n| json!({
                    "name": n.name,
                    "source": n.source,
                    "weights": check::weights_json(&board, &n.pagoda, 1),
                }))
                .collect::<Vec<_>>());
        }
        print_json(&v);
        return Ok(0);
    }
    println!(
        "board {}: {} holes, {} lattice, {} jumps, {} symmetries",
        board.name(),
        board.hole_count(),
        board.lattice(),
        board.jumps().len(),
        board.symmetries().len()
    );
    println!("{}", board.draw(start));
    println!("{}", class_line(&board, start));
    println!(
        "the {} class bits are the parities of the pegs on these hole sets (each meets every jump in 0 or 2 holes):",
        classes.dimension()
    );
    for (k, f) in classes.functionals().iter().enumerate() {
        println!("bit {k}:");
        print!(
            "{}",
            board.draw_with(|h| if f.contains(h) { '1' } else { '0' })
        );
    }
    if pagodas {
        if named.is_empty() {
            println!(
                "no named pagoda functions for this board (pegsol check fits one to each problem)"
            );
        }
        for n in &named {
            println!(
                "pagoda function \"{}\" ({}), w(from) + w(over) >= w(to) for all {} jumps:",
                n.name,
                n.source,
                board.jumps().len()
            );
            print!("{}", board.draw_cells(|h| n.pagoda.weight(h).to_string()));
        }
    }
    Ok(0)
}

fn line(config: Option<&str>, json: bool, summary: bool, regex: bool) -> Result<u8> {
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

/// Buffered standard output for long answers: numbers written without allocating, and the
/// first write error kept (to be returned by [`Out::finish`]) so that callbacks need not
/// return one.
struct Out {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    numbers: itoa::Buffer,
    error: Option<std::io::Error>,
}

impl Out {
    fn new() -> Out {
        Out {
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            numbers: itoa::Buffer::new(),
            error: None,
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        use std::io::Write;
        if self.error.is_none() {
            self.error = self.out.write_all(b).err();
        }
    }

    fn text(&mut self, t: &str) {
        self.bytes(t.as_bytes());
    }

    fn number(&mut self, n: usize) {
        use std::io::Write;
        if self.error.is_none() {
            let text = self.numbers.format(n);
            self.error = self.out.write_all(text.as_bytes()).err();
        }
    }

    /// `a`, `sep`, `b`, `close`.
    fn pair(&mut self, a: usize, sep: &[u8], b: usize, close: &[u8]) {
        self.number(a);
        self.bytes(sep);
        self.number(b);
        self.bytes(close);
    }

    fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write;
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

fn count(
    setup: &Setup,
    finish: Option<&str>,
    threads: Option<u16>,
    options: pegsol::count::CountOptions,
    json: bool,
) -> Result<u8> {
    let pagoda = options.pagoda;
    if let Some(dir) = &options.spill {
        if !dir.is_dir() {
            bail!(
                "--spill {}: no such directory; create it or choose another",
                dir.display()
            );
        }
        remove_scratch_on_signal(dir)?;
    }
    let (board, start, finish) = load_problem(setup, finish)?;
    let problem = Problem::new(&board, start, finish)?;
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
            if json {
                // The forward figures of each finished level are final; which positions can
                // still win is known only once every level is, so it is left out.
                let done: Vec<Value> = levels.iter().map(|l| level_json(l, false)).collect();
                print_json(&json!({
                    "status": "undecided",
                    "reason": match e {
                        pegsol::count::CountError::Timeout => "time budget",
                        _ => "memory budget",
                    },
                    "message": e.to_string(),
                    "board": board.name(),
                    "empty": board.labels(board.holes().minus(start)),
                    "finish": finish_json(&board, finish),
                    "levels_finished": done,
                    "millis": millis,
                    "peak_memory_mb": pegsol::count::peak_memory_mb(),
                    "threads": threads,
                }));
                return Ok(UNDECIDED);
            }
            println!("undecided within budget: {e}");
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
                println!(
                    "their forward figures (which positions can still win needs every level):"
                );
                println!(
                    "{:>5} {:>4} {:>14} {:>12} {:>12} {:>26}",
                    "jumps", "pegs", "positions", "classes", "dead ends", "paths"
                );
                for l in &levels {
                    println!(
                        "{:>5} {:>4} {:>14} {:>12} {:>12} {:>26}",
                        l.jumps, l.pegs, l.positions, l.classes, l.dead_ends, l.paths
                    );
                }
            }
            return Ok(UNDECIDED);
        }
        Err(e) => bail!("{e}"),
    };
    let millis = began.elapsed().as_millis() as u64;
    if json {
        // Large integers as exact JSON numbers (serde_json's arbitrary precision is not
        // needed: u128 is written as a plain integer literal).
        let levels: Vec<Value> = c.levels.iter().map(|l| level_json(l, true)).collect();
        print_json(&json!({
            "status": "counted",
            "board": board.name(),
            "empty": board.labels(board.holes().minus(start)),
            "finish": finish_json(&board, finish),
            "symmetries": c.symmetries,
            "levels": levels,
            "positions": c.positions(),
            "positions_up_to_symmetry": c.classes(),
            "winning_positions": c.winning(),
            "winning_positions_up_to_symmetry": c.winning_classes(),
            "solutions": c.solutions,
            "games": c.games,
            "shortest_dead_end": c.shortest_dead_end(),
            "millis": millis,
            "peak_memory_mb": pegsol::count::peak_memory_mb(),
            "threads": threads,
            "pagoda_pruned": pagoda,
        }));
        return Ok(0);
    }
    println!(
        "board {} ({} holes), empty: {}, finish: {}, symmetry group of order {}",
        board.name(),
        board.hole_count(),
        notation::set_text(&board, board.holes().minus(start)),
        finish_text(&board, finish),
        c.symmetries
    );
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

/// On SIGINT or SIGTERM, removes this process's scratch files under `dir` before exiting
/// (the count removes them itself when it ends in any other way).
fn remove_scratch_on_signal(dir: &Path) -> Result<()> {
    let dir = dir.to_path_buf();
    ctrlc::set_handler(move || {
        let removed = pegsol::count::remove_scratch_of(&dir, std::process::id());
        eprintln!(
            "interrupted: {removed} scratch director{} removed from {}",
            if removed == 1 { "y" } else { "ies" },
            dir.display()
        );
        std::process::exit(130);
    })
    .context("cannot install the signal handler that removes scratch files")
}
