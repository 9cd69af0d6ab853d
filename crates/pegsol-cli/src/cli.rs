//! The command line: every command and its options (clap derive).

use std::time::Duration;

use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand};
use pegsol::Limits;

#[derive(Parser)]
#[command(name = "pegsol", version, about = "Peg solitaire solver and toolkit")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
        /// Memory budget for each problem's search tables, and for its exhaustive count, in MB.
        #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        max_memory: u64,
        /// Time budget in seconds for the exhaustive count of each problem that search and
        /// proof leave undecided (the meeting in the middle, or with --spill the whole count on
        /// disk), on top of --timeout; 0 skips the count. Default: as --timeout.
        #[arg(long, value_name = "SECONDS")]
        count_timeout: Option<f64>,
        /// Let the exhaustive count spill to this directory when its levels do not fit
        /// --max-memory (the files are removed at the end).
        #[arg(long, value_name = "DIR")]
        spill: Option<std::path::PathBuf>,
        /// Also draw the catalog as an SVG grid of boards, one per vacancy class.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Every hole where one last peg can end, each with a solution, and why the others cannot.
    #[command(mut_arg("timeout", |a| a.help("Time budget in seconds, for each end hole")))]
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
    Count(CountArgs),
    /// Run a count on N processes of this machine (free loopback ports), as a cluster would:
    /// `pegsol cluster-local 2 count english`. Prints process 0's answer, exits with its code.
    #[command(name = "cluster-local")]
    ClusterLocal {
        /// How many processes, 1 to 64.
        #[arg(value_parser = clap::value_parser!(u16).range(1..=64))]
        processes: u16,
        /// `count BOARD [count options]`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
    /// Prove a problem impossible with a certificate a person or a short program can check:
    /// position classes, then a signed pagoda function found by linear programming, then a
    /// search certificate (a set of positions closed under jumps, in as many words as the
    /// board needs). Exit 1 when refuted, 0 when
    /// solvable, 3 when no proof is found within the budget.
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
    /// The Solitaire Army (Conway's soldiers) on the orthogonal, diagonal or triangular
    /// lattice: the fewest men on or below a line that can send one man N rows beyond it,
    /// with a replayed line of play and a proof that no fewer work (in a window); for the
    /// rows out of reach, the pagoda proof that no army can.
    Army(ArmyArgs),
    /// Serve the web playground: play any board in the browser with live hints and solutions,
    /// and a JSON API (`/api/solve`, `/api/ends`, `/api/check`, `/api/hint`).
    Serve {
        /// Address to listen on (port 0 lets the system choose; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Most seconds of solver time per request; longer work answers "undecided".
        #[arg(long, default_value_t = 5.0)]
        budget: f64,
        /// Do not prepare the menu at start: neither the winning sets of its smaller games nor
        /// the analysis of every game's opening (live analysis then asks the solver for every
        /// jump, and remembers what it decides).
        #[arg(long)]
        no_winning_sets: bool,
    },
    /// Every legal jump of a position and its fate: keeps the finish reachable, loses it,
    /// or not known within the budget (`--after` gives the position by the jumps played).
    Hint {
        #[command(flatten)]
        setup: Setup,
        /// The finish: holes (e.g. d4), `any` or `any:N`; default: the game's vacancy.
        #[arg(long)]
        finish: Option<String>,
        /// Time budget in seconds for all the jumps together (default 10).
        #[arg(long)]
        timeout: Option<f64>,
        /// Also the odds that a player who jumps at random wins from here: the game's winning
        /// set from this position is built first, within half the budget (every fate is then
        /// exact); the odds are left out when it does not fit.
        #[arg(long)]
        odds: bool,
        /// Also the positions every winning line from here passes through, and the jumps it
        /// cannot avoid, from the same winning set as `--odds` (left out when it does not
        /// fit).
        #[arg(long)]
        forced: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
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
pub(crate) enum CatalogFinish {
    /// Every single hole.
    Single,
    /// One peg anywhere.
    Any,
}

#[derive(Args)]
pub(crate) struct Setup {
    /// A built-in board name (see `pegsol boards`) or the path of a board file.
    pub(crate) board: String,
    /// Holes that start empty, e.g. d4 or "c4,e4". Default: the board's conventional start,
    /// or the position drawn in the board file.
    #[arg(long)]
    pub(crate) empty: Option<String>,
    /// Jumps played from that start first, e.g. "d2-d4 f3-d3" (or moves, "d2-d4-f4"): the
    /// command starts from the position they reach, replayed and checked; the default
    /// finish stays the game's.
    #[arg(long, value_name = "JUMPS")]
    pub(crate) after: Option<String>,
}

#[derive(Args)]
pub(crate) struct BudgetArgs {
    /// Memory budget for the search tables, in MB.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub(crate) max_memory: u64,
    /// Time budget in seconds, for the whole command.
    #[arg(long)]
    pub(crate) timeout: Option<f64>,
}

/// A memory budget in MB and a time budget in seconds, checked.
pub(crate) fn limits(max_memory_mb: u64, timeout: Option<f64>) -> Result<Limits> {
    Ok(Limits {
        max_memory: (max_memory_mb as usize).saturating_mul(1 << 20),
        timeout: timeout_of(timeout)?,
        ..Limits::default()
    })
}

/// The exhaustive count a catalog falls back on: `None` for a zero `--count-timeout`.
pub(crate) fn count_fallback(
    max_memory_mb: u64,
    seconds: f64,
    spill: Option<std::path::PathBuf>,
) -> Result<Option<pegsol::count::CountOptions>> {
    if seconds == 0.0 {
        return Ok(None);
    }
    if !(seconds.is_finite() && seconds > 0.0) {
        bail!("--count-timeout must be a positive number of seconds, or 0 to skip the count; got {seconds}");
    }
    Ok(Some(pegsol::count::CountOptions {
        max_memory: (max_memory_mb as usize).saturating_mul(1 << 20),
        timeout: Some(Duration::from_secs_f64(seconds.min(1e9))),
        spill,
        ..pegsol::count::CountOptions::default()
    }))
}

impl From<CatalogFinish> for pegsol::catalog::Finishes {
    fn from(f: CatalogFinish) -> pegsol::catalog::Finishes {
        match f {
            CatalogFinish::Single => pegsol::catalog::Finishes::Single,
            CatalogFinish::Any => pegsol::catalog::Finishes::Any,
        }
    }
}

impl BudgetArgs {
    pub(crate) fn limits(&self) -> Result<Limits> {
        limits(self.max_memory, self.timeout)
    }

    /// [`BudgetArgs::limits`], with `timeout` when none was given.
    pub(crate) fn limits_or(&self, timeout: Duration) -> Result<Limits> {
        let mut limits = self.limits()?;
        limits.timeout = limits.timeout.or(Some(timeout));
        Ok(limits)
    }
}

/// A `--timeout` in seconds, checked.
pub(crate) fn timeout_of(seconds: Option<f64>) -> Result<Option<Duration>> {
    match seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            bail!("--timeout must be a positive number of seconds, got {s}")
        }
        s => Ok(s.map(|s| Duration::from_secs_f64(s.min(1e9)))),
    }
}

/// The arguments of `pegsol army`.
#[derive(Args)]
pub(crate) struct ArmyArgs {
    /// Rows beyond the line to reach.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub row: u32,
    /// The lattice: orthogonal (Conway's army), diagonal (eight directions) or triangular
    /// (the hexagonal army, six directions).
    #[arg(long, default_value = "orthogonal", value_parser = parse_lattice)]
    pub lattice: pegsol::Lattice,
    /// The window searched: columns either side of the target (default: per lattice and
    /// row, see docs/guide/proofs.md).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub width: Option<u32>,
    /// The window searched: rows below the line it reaches down to.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub below: Option<u32>,
    /// Look only for an army of at most this many men: one found is an upper bound, none
    /// found proves (in the window) that more are needed (exit 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub men: Option<u32>,
    /// Time budget in seconds.
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Worker threads, 1 to 1024 (default: all cores). One thread searches the same way
    /// every run; more may find a different army of the same size.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Memory for the table of failed positions, in MB (a cache: cleared when full).
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub max_memory: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A lattice name, checked.
fn parse_lattice(s: &str) -> std::result::Result<pegsol::Lattice, String> {
    s.parse()
        .map_err(|()| format!("unknown lattice {s:?}: use orthogonal, diagonal or triangular"))
}

/// The arguments of `pegsol count`.
#[derive(Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub setup: Setup,
    /// Holes that must hold the final pegs, or `any` (default as for `solve`).
    #[arg(long)]
    pub finish: Option<String>,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Memory budget for the stored levels, in MB.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub max_memory: u64,
    /// Time budget in seconds: stop at the first level boundary (or slice of a spilled
    /// level) after it (exit 3).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Spill to this directory when a level's children would not fit in --max-memory
    /// (sorted runs merged on disk; the files are removed at the end).
    #[arg(long, value_name = "DIR")]
    pub spill: Option<std::path::PathBuf>,
    /// Prune with pagoda functions: positions that cannot reach the finish are dropped.
    /// Solutions and winning positions stay exact; positions, dead ends and games are then
    /// those of the pruned tree.
    #[arg(long)]
    pub pagoda: bool,
    /// Count only the solutions and the winning positions, by meeting in the middle
    /// (the finish must be one position): far faster than the whole game. Where the meeting
    /// does not fit --max-memory and --spill is given, the whole count on disk answers; on
    /// a cluster (--workers, --cluster), the whole count on the cluster.
    #[arg(long, conflicts_with = "pagoda")]
    pub solutions: bool,
    /// With --solutions: every single vacancy (one per symmetry class) to every single-peg
    /// finish of its class, as a table (or JSON): one whole count per vacancy, whose last
    /// level gives every end hole (--spill applies; on a cluster, each vacancy is a count on
    /// the cluster).
    #[arg(long, requires = "solutions", conflicts_with = "finish")]
    pub every_vacancy: bool,
    /// Count on W worker threads of this process with timely dataflow (the distributed
    /// engine, in one process); without it, and without --cluster, the usual count runs.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub workers: Option<u16>,
    /// Count on a cluster: a file of one `host:port` line per process (timely's convention;
    /// the same file for every process), with --process I saying which line this is.
    #[arg(long, value_name = "HOSTFILE", requires = "process")]
    pub cluster: Option<std::path::PathBuf>,
    /// This process's line in the --cluster file, from 0; process 0 prints the answer.
    #[arg(long, requires = "cluster")]
    pub process: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}
