//! `pegsol`: the command-line front end of the pegsol library. This file only dispatches:
//! each command is a module of its own, and they share `common`.
//!
//! Exit codes: 0 solved (or nothing to refute), 1 proven impossible, 2 bad input or usage,
//! 3 undecided within the time or memory budget.

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

#[macro_use]
mod output;

mod analyse;
mod army;
mod boards;
mod catalog;
mod certificate;
mod check;
mod cli;
mod cluster;
mod common;
mod count;
mod ends;
mod fewest;
mod hint;
mod line;
mod memory;
mod replay;
mod serve;
mod show;
mod solve;
mod vacancies;
mod verify;

use cli::{Cli, Command};
use common::{BAD_INPUT, INTERNAL};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Batch work reuses freed memory level after level; a server keeps the default, so that
    // its memory goes back to the system between requests. So does a catalog: it runs one
    // large count after another, and a heap that kept what one freed would hold it beside the
    // next one's levels (the diamond's peaked at 18.2 GB with `--max-memory 14000`).
    match cli.command {
        Command::Serve { .. } => memory::bound_arenas(),
        Command::Catalog { .. } => {}
        _ => memory::keep_freed_memory(),
    }
    if matches!(&cli.command, Command::Count(a) if a.workers.is_some() || a.cluster.is_some()) {
        memory::one_arena();
    }
    let result = run(cli);
    if result.is_err() && count::interrupted() {
        // The signal handler is removing the scratch files and will exit with 130 or 143; an error
        // from files it removed under the count is not the answer.
        loop {
            std::thread::park();
        }
    }
    match result {
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
        Err(e)
            if e.chain()
                .any(|c| matches!(c.downcast_ref(), Some(pegsol::Error::Internal(_)))) =>
        {
            eprintln!("error: {e:#}");
            ExitCode::from(INTERNAL)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Boards { json } => boards::run(json),
        Command::Solve {
            setup,
            finish,
            budget,
            fewest_moves: true,
            svg,
            json,
            ..
        } => fewest::fewest(&setup, finish.as_deref(), &budget, svg.as_deref(), json),
        Command::Solve {
            setup,
            finish,
            budget,
            svg,
            certificate,
            json,
            ..
        } => solve::run(
            &setup,
            finish.as_deref(),
            &budget,
            (svg.as_deref(), certificate.as_deref()),
            json,
        ),
        Command::Army(a) => army::run(&a),
        Command::Shortest {
            board,
            empty,
            finish,
            budget,
            json,
        } => fewest::shortest(&board, empty.as_deref(), finish.as_deref(), &budget, json),
        Command::Serve {
            addr,
            budget,
            no_winning_sets,
        } => serve::run(addr, budget, !no_winning_sets),
        Command::Catalog {
            board,
            finish,
            timeout,
            max_memory,
            count_timeout,
            spill,
            svg,
            json,
        } => catalog::run(&catalog::Request {
            board: &board,
            finishes: finish.into(),
            limits: cli::limits(max_memory, Some(timeout))?,
            count: cli::count_fallback(max_memory, count_timeout.unwrap_or(timeout), spill)?,
            json,
            svg: svg.as_deref(),
        }),
        Command::Ends {
            setup,
            budget,
            json,
        } => ends::run(&setup, &budget, json),
        Command::Hint {
            setup,
            finish,
            timeout,
            odds,
            forced,
            json,
        } => hint::run(&setup, finish.as_deref(), timeout, odds, forced, json),
        Command::Replay { setup, jumps, json } => replay::run(&setup, &jumps, json),
        Command::Check {
            setup,
            finish,
            pagoda,
            certificate,
            budget,
            json,
        } => check::run(&check::Request {
            problem: common::load_any_problem(&setup, finish.as_deref())?,
            pagoda_file: pagoda.as_deref(),
            certificate_file: certificate.as_deref(),
            limits: budget.limits_or(std::time::Duration::from_secs(10))?,
            json,
        }),
        Command::Verify { file, json } => verify::run(&file, json),
        Command::Count(args) if args.workers.is_some() || args.cluster.is_some() => {
            cluster::count(&args)
        }
        Command::Count(args) if args.solutions && args.every_vacancy => vacancies::dispatch(args),
        Command::Count(args) => count::dispatch(args),
        Command::ClusterLocal { processes, command } => cluster::local(processes, &command),
        Command::Show {
            setup,
            pagodas,
            json,
        } => show::run(&setup, pagodas, json),
        Command::Line {
            config,
            json,
            summary,
            regex,
        } => line::run(config.as_deref(), json, summary, regex),
    }
}
