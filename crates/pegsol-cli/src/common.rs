//! What the commands share: reading boards and problems, exit codes, the problem's own lines
//! of text and JSON, replaying solutions before they are shown, progress on a terminal.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use pegsol::{notation, Board, Finish, Hole, Jump, Limits, Pegs, Problem};

use crate::cli::Setup;

/// Exit code for a problem proven impossible.
pub(crate) const IMPOSSIBLE: u8 = 1;
/// Exit code for bad input or usage.
pub(crate) const BAD_INPUT: u8 = 2;
/// Exit code for an answer not found within the budget.
pub(crate) const UNDECIDED: u8 = 3;
/// Exit code: an answer failed its own check, a bug to report (sysexits' `EX_SOFTWARE`).
pub(crate) const INTERNAL: u8 = 70;

/// Reads a board by name or file path. A built-in name always means the built-in board; an
/// argument is read as a file only when it has a path separator or a `.` in it, so a file
/// called `english` in the working directory cannot silently replace the English board.
pub(crate) fn load_any_board(name: &str) -> Result<Board> {
    Ok(Board::from_shape(&load_shape(name)?)?)
}

/// A board's shape by name or file path (see [`load_board`]).
pub(crate) fn load_shape(name: &str) -> Result<pegsol::Shape> {
    let is_path = name.contains(['/', '.', std::path::MAIN_SEPARATOR]);
    if !is_path {
        return pegsol::Shape::builtin(name).map_err(|e| match e {
            pegsol::Error::UnknownBoard(_) if Path::new(name).exists() => anyhow::anyhow!(
                "unknown board {name:?}; there is a file of that name here: write ./{name} to read it as a board file"
            ),
            pegsol::Error::UnknownBoard(_) => match closest_builtin(name) {
                Some(guess) => anyhow::anyhow!(
                    "unknown board {name:?}; did you mean {guess}? (run 'pegsol boards' for the built-in names)"
                ),
                None => anyhow::anyhow!(
                    "unknown board {name:?}; run 'pegsol boards' for the built-in names, or give the path of a board file (with a '/' or a '.' in it, e.g. ./{name} or {name}.txt)"
                ),
            },
            other => other.into(),
        });
    }
    let path = Path::new(name);
    if path.is_dir() {
        bail!("board file {name} is a directory; give the path of a board file");
    }
    let text = read_capped(path, MAX_BOARD_FILE, "board file")?;
    let text = String::from_utf8(text).map_err(|e| {
        anyhow::anyhow!(
            "board file {name} is not text (byte {} is not UTF-8); a board file is a picture made of 'o', '.' and spaces",
            e.utf8_error().valid_up_to() + 1
        )
    })?;
    let stem = path
        .file_stem()
        .map_or(name.to_string(), |s| s.to_string_lossy().into_owned());
    pegsol::Shape::parse(&stem, &text).with_context(|| format!("board file {name}"))
}

/// The largest board file read: far above any board of 256 holes, however drawn, and a
/// clear error for a path such as `/dev/zero` that would never end.
pub(crate) const MAX_BOARD_FILE: u64 = 1 << 20;

/// The bytes of the file at `path` (a `what`, for messages), at most `cap` of them: a larger
/// file is an error that says so, read no further than one byte past the cap.
pub(crate) fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let name = path.display();
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {what} {name}"))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what} {name}"))?;
    if bytes.len() as u64 > cap {
        bail!(
            "{what} {name} is larger than {} (the most a {what} may take); give the path of a smaller file",
            size_text(cap)
        );
    }
    Ok(bytes)
}

/// `1 MiB`, `1 GiB` or bytes.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b => format!("{b} bytes"),
    }
}

/// The text of a small file the user gives (weights, hosts), capped as a board file is.
pub(crate) fn read_small_text(path: &Path, what: &str) -> Result<String> {
    String::from_utf8(read_capped(path, MAX_BOARD_FILE, what)?)
        .map_err(|_| anyhow::anyhow!("{what} {} is not UTF-8 text", path.display()))
}

/// The built-in name closest to a misspelt `name`, when it is close: at most two edits
/// (one for names of up to four letters). A family keeps the user's parameter
/// (`tringle:7` gives `triangle:7`).
pub(crate) fn closest_builtin(name: &str) -> Option<String> {
    let lower = name.trim().to_ascii_lowercase();
    let (stem, parameter) = match lower.find(|c: char| c == ':' || c.is_ascii_digit()) {
        Some(i) => (&lower[..i], &lower[i..]),
        None => (lower.as_str(), ""),
    };
    let mut best: Option<(usize, String)> = None;
    for builtin in Board::builtins() {
        let (candidate, family) = match builtin.name.split_once(':') {
            Some((family, _)) => (family, true),
            None => (builtin.name, false),
        };
        if family == parameter.is_empty() {
            continue;
        }
        let d = edit_distance(stem, candidate);
        let near = if candidate.len() <= 4 { 1 } else { 2 };
        if d <= near && best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, format!("{candidate}{parameter}")));
        }
    }
    best.map(|(_, guess)| guess)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The problem a setup and a finish describe, on a board of any size (up to 256 holes).
pub(crate) fn load_any_problem(setup: &Setup, finish: Option<&str>) -> Result<Problem> {
    let board = load_any_board(&setup.board)?;
    let (game, start) = game_on(&board, setup)?;
    let finish = match finish {
        None => finish_of(&board, game, None)?,
        given => finish_of(&board, start, given)?,
    };
    Problem::new(board, start, finish).map_err(|e| match e {
        pegsol::Error::EmptyFinish => anyhow::anyhow!("{e} (e.g. --finish d4, or --finish any)"),
        e => e.into(),
    })
}

/// The board (of any size) and starting pegs from a setup: after the jumps of `--after`, if
/// any.
pub(crate) fn load_setup(setup: &Setup) -> Result<(Board, Pegs)> {
    let board = load_any_board(&setup.board)?;
    let (_, start) = game_on(&board, setup)?;
    Ok((board, start))
}

/// On `board`, the game's start (from `--empty` or the board's own) and the position the
/// jumps of `--after` reach from it, replayed and checked (the start itself without them).
fn game_on(board: &Board, setup: &Setup) -> Result<(Pegs, Pegs)> {
    let game = start_on(board, setup)?;
    let start = match &setup.after {
        None => game,
        Some(line) => {
            let jumps = notation::parse_jumps(board, line).context("--after")?;
            pegsol::replay(board, game, &jumps).context("--after")?
        }
    };
    Ok((game, start))
}

/// The game's start on `board`, before any `--after`.
fn start_on(board: &Board, setup: &Setup) -> Result<Pegs> {
    let start = match &setup.empty {
        Some(list) => {
            let empty = board.hole_set(list).context("--empty")?;
            board.holes().minus(empty)
        }
        None => board.start().ok_or_else(|| {
            let e = pegsol::Error::NoStart(board.name().to_string());
            anyhow::anyhow!("{e}: give --empty, e.g. --empty a1")
        })?,
    };
    Ok(start)
}

/// Prints an answer as pretty JSON.
pub(crate) fn print_json(value: &impl serde::Serialize) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

/// A spinner on stderr, only when stderr is a terminal.
pub(crate) fn spinner(what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").ok()?);
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

/// A finish from the command line (see [`Finish::parse`]); by default the single vacancy.
pub(crate) fn finish_of(board: &Board, start: Pegs, finish: Option<&str>) -> Result<Finish> {
    Ok(match finish {
        None => Problem::default_finish(board, start),
        Some(f) => Finish::parse(board, f).context("--finish")?,
    })
}

/// A finish in words.
pub(crate) fn finish_text(board: &Board, finish: Finish) -> String {
    match finish {
        Finish::Holes(f) => notation::set_text(board, f),
        Finish::AnyOne => "any".to_string(),
        Finish::Pegs(n) => format!("any {n} pegs"),
    }
}

/// The exit code of an answer's status: 0 solved, solvable or counted, [`IMPOSSIBLE`]
/// (impossible, refuted), [`UNDECIDED`] (undecided, open).
pub(crate) fn exit_code(status: &str) -> u8 {
    match status {
        "impossible" | "refuted" => IMPOSSIBLE,
        "undecided" | "open" => UNDECIDED,
        _ => 0,
    }
}

/// Which budget ran out, and how to raise it.
pub(crate) fn undecided_text(budget: pegsol::Budget, limits: &Limits) -> String {
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

/// The start's position class and the single pegs in it.
pub(crate) fn class_line(board: &Board, start: Pegs) -> String {
    let classes = board.classes();
    let singles = singles_of_class(board, start);
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

/// The labels of the holes whose single peg is in the position class of `pegs`: the only
/// places one last peg can end from there.
fn singles_of_class(board: &Board, pegs: Pegs) -> Vec<String> {
    let classes = board.classes();
    let c = classes.class_of(pegs);
    board
        .each_hole()
        .filter(|&h| classes.class_of_hole(h) == c)
        .map(|h| board.label(h))
        .collect()
}

/// Writes the SVG strip of a replayed solution.
pub(crate) fn write_svg(path: &Path, board: &Board, start: Pegs, jumps: &[Jump]) -> Result<()> {
    std::fs::write(path, pegsol::svg::strip(board, start, jumps, 8))
        .with_context(|| format!("cannot write {}", path.display()))
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

/// The problem itself, as every text answer about it starts.
pub(crate) fn problem_line(problem: &Problem) -> String {
    let (board, finish) = (problem.board(), problem.finish());
    format!(
        "board {} ({} holes, {} lattice), empty: {}, finish: {}",
        board.name(),
        board.hole_count(),
        board.lattice(),
        notation::set_text(board, problem.empty_holes()),
        finish_text(board, finish)
    )
}

/// Why a problem is impossible, in a sentence.
pub(crate) fn explain(problem: &Problem, reason: pegsol::Reason) -> String {
    let (board, start, finish) = (
        problem.board(),
        problem.start::<[u64; 4]>(),
        problem.finish(),
    );
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
        pegsol::Reason::Counted => "exhaustive count: every position reachable from the start was counted, and no path reaches the finish".to_string(),
    }
}

/// What to try instead of a finish that the start's position class rules out, as lines to
/// print: finishes of one or two pegs that the class allows, and single vacancies from which
/// one peg is not ruled out. `None` when the class allows nothing nearby. Only the class is
/// consulted: what it allows is worth a try, not known to be solvable, and the text says so.
pub(crate) fn class_suggestion(problem: &Problem) -> Option<String> {
    let (board, start) = (problem.board(), problem.start());
    let classes = board.classes();
    let holes: Vec<Hole> = board.each_hole().collect();
    let singles = singles_of_class(board, start);
    let mut tries = Vec::new();
    if let Some(first) = singles.first() {
        tries.push(format!(
            "  --finish {first}   (the single pegs of this class: {})",
            singles.join(" ")
        ));
        if !matches!(problem.finish(), Finish::AnyOne) {
            tries.push("  --finish any".to_string());
        }
    } else {
        let c = classes.class_of(start);
        let two = holes.iter().enumerate().find_map(|(i, &a)| {
            holes[i + 1..]
                .iter()
                .find(|&&b| classes.class_of(Pegs::single(a).with(b)) == c)
                .map(|&b| (a, b))
        });
        if let Some((a, b)) = two {
            tries.push(format!(
                "  --finish any:2   (two pegs, such as {} and {}, are in this class)",
                board.label(a),
                board.label(b)
            ));
        }
        // Another single vacancy, when this start is one: those whose class has single pegs.
        if start.count() + 1 == board.hole_count() as u32 {
            let others: Vec<String> = holes
                .iter()
                .filter(|&&v| !singles_of_class(board, board.holes().without(v)).is_empty())
                .map(|&v| board.label(v))
                .collect();
            if let Some((first, rest)) = others.split_first() {
                let also = if rest.is_empty() {
                    String::new()
                } else {
                    format!(", or --empty {}", rest[..rest.len().min(4)].join(", "))
                };
                tries.push(format!(
                    "  --empty {first} --finish any   (one peg is in that start's class{also})"
                ));
            }
        }
    }
    (!tries.is_empty()).then(|| {
        format!(
            "try instead (the class allows these; only a search can say they are solvable):\n{}",
            tries.join("\n")
        )
    })
}

/// `1 move`, `2 moves`.
pub(crate) fn plural(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Numbered moves, five to a line.
pub(crate) fn print_moves(moves: &[String]) {
    for (row, chunk) in moves.chunks(5).enumerate() {
        let line: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{:>3}. {m:<14}", row * 5 + i + 1))
            .collect();
        println!("{}", line.concat().trim_end());
    }
}
