//! `pegsol count --workers W` and `--cluster HOSTFILE --process I`: the whole-game count on
//! the library's distributed engine (timely dataflow); and `pegsol cluster-local N count ...`,
//! which starts N such processes on this machine.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use pegsol::count::Cluster;

use crate::cli::CountArgs;
use crate::common::{load_any_problem, spinner};

/// Sends this process's stdout to stderr while it lives: timely prints "awaiting
/// connections" on stdout while the processes connect, and stdout is for the answer alone.
struct QuietStdout {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    saved: Option<i32>,
}

impl QuietStdout {
    fn new() -> QuietStdout {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            // SAFETY: dup and dup2 on the standard descriptors; a failure leaves stdout as is.
            let saved = unsafe {
                let saved = libc::dup(1);
                if saved >= 0 && libc::dup2(2, 1) < 0 {
                    libc::close(saved);
                    -1
                } else {
                    saved
                }
            };
            QuietStdout {
                saved: (saved >= 0).then_some(saved),
            }
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        QuietStdout {}
    }
}

impl Drop for QuietStdout {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        if let Some(saved) = self.saved {
            // SAFETY: restores the descriptor saved in `new`.
            unsafe {
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}

/// Reads a host file: one `host:port` per line; blank lines and `#` comments are skipped.
fn hosts(path: &Path) -> Result<Vec<String>> {
    let text = crate::common::read_small_text(path, "host file")?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.rsplit_once(':') {
            Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
                out.push(line.to_string());
            }
            _ => bail!(
                "host file {}, line {}: {line:?} is not host:port (e.g. 127.0.0.1:2101)",
                path.display(),
                n + 1
            ),
        }
    }
    if out.is_empty() {
        bail!(
            "host file {} lists no process; write one host:port line per process",
            path.display()
        );
    }
    Ok(out)
}

/// `count` on the distributed engine.
pub(crate) fn count(a: &CountArgs) -> Result<u8> {
    let refused = [
        (a.pagoda, "--pagoda"),
        (a.spill.is_some(), "--spill"),
        (a.timeout.is_some(), "--timeout"),
        (a.threads.is_some(), "--threads (give --workers)"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        bail!(
            "{flag} works with the single-process count only; the distributed count (--workers, --cluster) counts the whole game in memory (--solutions with it: from the whole count)"
        );
    }
    let cluster = match (&a.cluster, a.process) {
        (Some(file), Some(process)) => {
            let hosts = hosts(file)?;
            if process >= hosts.len() {
                bail!(
                    "--process {process}: the host file {} has {} lines, so processes 0 to {}",
                    file.display(),
                    hosts.len(),
                    hosts.len() - 1
                );
            }
            Cluster::Processes {
                hosts,
                process,
                threads: a.workers.map_or(1, usize::from),
            }
        }
        _ => Cluster::Threads(a.workers.map_or(1, usize::from)),
    };
    if a.every_vacancy {
        // Every process runs the vacancies in the same order, each a whole count on the
        // cluster; process 0 gets the counts and prints the table.
        let board = Arc::new(crate::common::load_any_board(&a.setup.board)?);
        let workers = match &cluster {
            Cluster::Threads(n) => (*n).max(1),
            Cluster::Processes { hosts, threads, .. } => hosts.len() * (*threads).max(1),
        };
        let count = |problem: &pegsol::Problem| {
            run(problem, &cluster, "counting a vacancy on the cluster").map(|(r, _)| r.count)
        };
        let method =
            "a forward count per vacancy on the cluster, every end hole from its last level";
        return crate::vacancies::every_vacancy_by(&board, &count, method, workers, false, a.json);
    }
    let problem = load_any_problem(&a.setup, a.finish.as_deref())?;
    if a.solutions && problem.target_count() != 1 {
        bail!(crate::count::ONE_FINISH);
    }
    let (r, millis) =
        run(&problem, &cluster, "counting on the cluster").map_err(crate::count::failure)?;
    let records: u64 = r.records_out.iter().sum();
    let bytes: u64 = r.bytes_out.iter().sum();
    let here = match &cluster {
        Cluster::Processes { process, hosts, .. } => {
            format!("process {process} of {}", hosts.len())
        }
        Cluster::Threads(_) => "one process".to_string(),
    };
    // One write, so that the lines of processes sharing a terminal do not interleave.
    let line = format!(
        "cluster: {here}, {} workers in all; {records} records ({:.1} MB) sent from here to other processes; peak memory here {} MB; {:.2} s\n",
        r.workers,
        bytes as f64 / 1e6,
        pegsol::count::peak_memory_mb(),
        millis as f64 / 1000.0
    );
    {
        use std::io::Write;
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
    match r.count {
        Some(c) if a.solutions => {
            let method = pegsol::count::SolutionsMethod::Cluster;
            let s = pegsol::count::Solutions::of_count(&problem, &c, millis, method);
            crate::count::render_solutions(&problem, &s, r.workers, a.json)
        }
        Some(c) => crate::count::render(&problem, &c, millis, r.workers, false, a.json),
        None => Ok(0),
    }
}

/// One whole count of `problem` on `cluster`, with a spinner on process 0 (`label` and the
/// level reached), timely's own output kept off stdout; and its milliseconds.
fn run(
    problem: &pegsol::Problem,
    cluster: &Cluster,
    label: &'static str,
) -> std::result::Result<(pegsol::count::ClusterCount, u64), pegsol::count::CountError> {
    let first = matches!(
        cluster,
        Cluster::Threads(_) | Cluster::Processes { process: 0, .. }
    );
    let bar = if first { spinner(label) } else { None };
    let began = Instant::now();
    let shown = bar.clone();
    let quiet = QuietStdout::new();
    let result = pegsol::count::count_cluster(
        problem,
        cluster,
        Arc::new(move |l: &pegsol::count::Level| {
            if let Some(bar) = &shown {
                bar.set_message(format!(
                    "{label}: level {} ({} pegs), {} positions, {} MB here",
                    l.jumps,
                    l.pegs,
                    l.positions,
                    pegsol::count::peak_memory_mb()
                ));
            }
        }),
    );
    drop(quiet);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    Ok((result?, began.elapsed().as_millis() as u64))
}

/// A free port on the loopback interface (the listener is closed at once; the port stays
/// free until a process binds it, which the cluster's processes do within moments).
fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0").context("cannot find a free loopback port")?;
    Ok(l.local_addr()?.port())
}

/// Kills every child still running.
fn stop_all(children: &mut [Child]) {
    for c in children.iter_mut() {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// `pegsol cluster-local N count BOARD [count options]`.
pub(crate) fn local(processes: u16, command: &[String]) -> Result<u8> {
    if command.first().map(String::as_str) != Some("count") {
        bail!(
            "cluster-local runs a count: write pegsol cluster-local N count BOARD [count options]"
        );
    }
    if command.iter().any(|a| a == "--cluster" || a == "--process") {
        bail!("cluster-local writes the host file and numbers the processes itself: leave out --cluster and --process");
    }
    let n = usize::from(processes);
    let mut lines = Vec::with_capacity(n);
    for _ in 0..n {
        lines.push(format!("127.0.0.1:{}", free_port()?));
    }
    let file: PathBuf = std::env::temp_dir().join(format!(
        "pegsol-cluster-{}-{}.txt",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::write(&file, lines.join("\n") + "\n")
        .with_context(|| format!("cannot write the host file {}", file.display()))?;
    let exe = std::env::current_exe().context("cannot find the pegsol binary")?;
    let mut children = Vec::with_capacity(n);
    for i in 0..n {
        let mut cmd = Command::new(&exe);
        cmd.args(command)
            .arg("--cluster")
            .arg(&file)
            .arg("--process")
            .arg(i.to_string())
            .stdin(Stdio::null());
        // Process 0 answers; the others' output would only repeat its progress.
        if i > 0 {
            cmd.stdout(Stdio::null());
        }
        match cmd.spawn() {
            Ok(c) => children.push(c),
            Err(e) => {
                stop_all(&mut children);
                let _ = std::fs::remove_file(&file);
                return Err(e).context("cannot start a process of the cluster");
            }
        }
    }
    // Wait for all; once one fails, give the others a few seconds to notice, then stop them.
    let mut codes: Vec<Option<i32>> = vec![None; n];
    let mut failed_at: Option<Instant> = None;
    loop {
        for (i, c) in children.iter_mut().enumerate() {
            if codes[i].is_none() {
                if let Some(status) = c.try_wait()? {
                    let code = status.code().unwrap_or(137);
                    codes[i] = Some(code);
                    if code != 0 && failed_at.is_none() {
                        failed_at = Some(Instant::now());
                    }
                }
            }
        }
        if codes.iter().all(Option::is_some) {
            break;
        }
        if failed_at.is_some_and(|t| t.elapsed() > Duration::from_secs(10)) {
            stop_all(&mut children);
            for code in &mut codes {
                code.get_or_insert(137);
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_file(&file);
    let code = codes[0].unwrap_or(137);
    if let Some((i, c)) = codes
        .iter()
        .enumerate()
        .find(|(_, c)| c.is_some_and(|c| c != 0))
    {
        if code == 0 {
            bail!(
                "process {i} of the cluster failed (exit {}) although process 0 answered",
                c.unwrap_or(137)
            );
        }
    }
    Ok(u8::try_from(code).unwrap_or(70))
}
