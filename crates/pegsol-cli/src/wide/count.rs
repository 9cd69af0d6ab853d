//! `count` on boards of 65 to 256 holes: the library's wide count, printed as the 64-hole
//! count is.

use anyhow::{bail, Context, Result};
use pegsol::Board;

use super::{finish_view, start_and_finish, start_text};
use crate::answer::ProblemView;
use crate::cli::CountArgs;
use crate::common::spinner;

/// `count` on a wide board: the whole game, in memory or spilled to `--spill DIR`, on
/// `--threads` threads.
pub(crate) fn run(board: &Board, a: &CountArgs) -> Result<u8> {
    let refused = [
        (a.pagoda, "--pagoda"),
        (a.solutions, "--solutions"),
        (a.workers.is_some(), "--workers"),
        (a.cluster.is_some(), "--cluster"),
    ];
    if let Some((_, flag)) = refused.iter().find(|r| r.0) {
        bail!(
            "board {} has {} holes: {flag} takes boards of up to 64 holes; the count of a wide \
             board runs without it",
            board.name(),
            board.hole_count()
        );
    }
    let (start, finish) = start_and_finish(board, &a.setup, a.finish.as_deref())?;
    if let Some(dir) = &a.spill {
        if !dir.is_dir() {
            bail!(
                "--spill {}: no such directory; create it or choose another",
                dir.display()
            );
        }
        crate::count::remove_scratch_on_signal(dir)?;
    }
    let options = pegsol::count::CountOptions {
        max_memory: (a.max_memory as usize).saturating_mul(1 << 20),
        timeout: crate::cli::timeout_of(a.timeout)?,
        spill: a.spill.clone(),
        ..pegsol::count::CountOptions::default()
    };
    let threads = a
        .threads
        .map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let bar = spinner("counting");
    let began = std::time::Instant::now();
    let finished = std::sync::Mutex::new(Vec::<pegsol::count::Level>::new());
    let result = pool.install(|| {
        pegsol::count_wide(board, start, &finish, &options, &|l| {
            if let Ok(mut finished) = finished.lock() {
                finished.push(l.clone());
            }
            if let Some(bar) = &bar {
                bar.set_message(format!(
                    "counting: level {} ({} pegs), {} positions ({} up to symmetry), {} MB",
                    l.jumps,
                    l.pegs,
                    l.positions,
                    l.classes,
                    pegsol::count::peak_memory_mb()
                ));
            }
        })
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let millis = began.elapsed().as_millis() as u64;
    let view = ProblemView {
        board: board.name().to_string(),
        holes: board.hole_count(),
        lattice: board.lattice().name(),
        empty: board.labels(board.holes().minus(start)),
        finish: finish_view(board, &finish),
    };
    let c = match result? {
        Ok(c) => c,
        Err(
            e @ (pegsol::count::CountError::Memory { .. } | pegsol::count::CountError::Timeout),
        ) => {
            let levels = finished.into_inner().unwrap_or_default();
            let message = match e {
                pegsol::count::CountError::Memory { level, needed } if a.spill.is_some() => {
                    format!(
                    "level {level} needs {} MB in memory even with --spill (one chunk's children, \
                     or the winning positions of a level, which the backward pass keeps in \
                     memory); raise --max-memory MB",
                    needed >> 20
                )
                }
                pegsol::count::CountError::Memory { .. } => {
                    format!("{e} (raise --max-memory MB, or give --spill DIR)")
                }
                _ => format!("{e} (raise --timeout S)"),
            };
            return crate::count::undecided(&e, message, view, &levels, millis, threads, a.json);
        }
        Err(e) => return Err(crate::count::failure(e)),
    };
    let finish_text = view.finish.text();
    let header = format!(
        "board {} ({} holes, {} words a position), {}, finish: {}, symmetry group of order {}",
        board.name(),
        board.hole_count(),
        board.words(),
        start_text(board, start),
        finish_text,
        c.count.symmetries
    );
    crate::count::render_view(view, &header, &c.count, millis, threads, false, a.json)
}
