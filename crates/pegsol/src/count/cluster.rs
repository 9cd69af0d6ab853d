//! The whole-game count on several workers, threads of one process or processes on several
//! machines, with timely dataflow moving the data between them.
//!
//! Timely dataflow (the `timely` crate) supplies what a cluster needs and this crate should
//! not write: the processes' TCP mesh from a list of `host:port` lines, serialisation, routing
//! each record to the worker its key names, and progress tracking, which tells every worker
//! when a round's records have all arrived. The count runs in rounds on one small dataflow
//! (an input, an exchange by key, and a sink into the worker's tables); the rounds are
//! bulk-synchronous:
//!
//! - **Forward, one round per level.** Each worker owns the representatives whose spread key
//!   is its index modulo the number of workers. It expands its share of level `k`: each
//!   child's canonical key goes, with the parent's path count, to the child's owner, which
//!   sums them into its share of level `k + 1`. The level's figures (positions, classes,
//!   dead ends, paths, games, solutions) are sent to every worker, so that all of them see
//!   the same totals and stop together when a level has no children.
//! - **Backward, one round per level, from the last.** A winner's parents (one jump undone,
//!   canonicalised) go to their owners, which keep those in their share of the level before:
//!   the same pass as the single-process count's.
//!
//! Path counts are exact: a representative's count is the number of jump sequences into its
//! whole orbit, so a child's count is the sum over its parents' jumps, wherever the parents
//! live, and the figures are those of the single-process count, field for field.
//!
//! A process that dies closes its sockets; timely's receiving thread in every other process
//! then panics with "timely communication error". This module notices (a panic hook sets a
//! flag the rounds poll), and the count ends with [`CountError::Cluster`] within a poll
//! interval instead of waiting for records that will never come.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::InputHandle;

use super::{Count, CountError, Level};
use crate::key::CountKey;
use crate::problem::Problem;
use crate::space::Space;
use crate::spill::Value;
use crate::width::with_width;

/// Where a distributed count runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cluster {
    /// This many worker threads in this process.
    Threads(usize),
    /// Process `process` of the processes at `hosts` (one `host:port` each, the same list
    /// in every process), each with `threads` workers.
    Processes {
        /// Every process's address, process 0 first.
        hosts: Vec<String>,
        /// This process's index in `hosts`.
        process: usize,
        /// Worker threads per process.
        threads: usize,
    },
}

/// What a distributed count found, and what it moved.
#[derive(Clone, Debug, Default)]
pub struct ClusterCount {
    /// The count, on process 0 (`None` on the others, which report to it).
    pub count: Option<Count>,
    /// Workers in the whole cluster.
    pub workers: usize,
    /// Records this process's workers sent to workers of other processes, per round
    /// (forward levels, then backward levels).
    pub records_out: Vec<u64>,
    /// The same in bytes, as encoded.
    pub bytes_out: Vec<u64>,
}

/// A record of the count's dataflow, with keys of one, two or four words.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Msg<K> {
    /// A child's key and the paths into it from one parent's jumps.
    Child(K, u128),
    /// A parent of a winner (a candidate winner of the level before).
    Parent(K),
    /// A worker's figures of a level, for worker `to`.
    Figures(u32, Figures<K>),
}

/// One worker's share of a level's figures.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Figures<K> {
    positions: u64,
    classes: u64,
    dead_ends: u64,
    paths: u128,
    games: u128,
    solutions: u128,
    children: u64,
    winning: u64,
    winning_classes: u64,
    /// The finish classes reached, with their path counts.
    reached: Vec<(K, u128)>,
}

/// Encoded size of a record, for the bytes-exchanged figure (bincode's fixed-width layout:
/// a 4-byte tag, then the fields).
fn encoded<K>(m: &Msg<K>) -> u64 {
    let key = std::mem::size_of::<K>() as u64;
    match m {
        Msg::Child(..) => 4 + key + 16,
        Msg::Parent(_) => 4 + key,
        Msg::Figures(_, f) => 4 + 4 + 8 * 7 + 16 * 3 + 8 + (key + 16) * f.reached.len() as u64,
    }
}

/// The worker a key belongs to: a spread of the key (so that neighbouring keys part).
fn spread<K: CountKey>(key: K) -> u64 {
    let h = key.spread().head();
    h ^ h >> 29
}

fn route<K: CountKey>(m: &Msg<K>) -> u64 {
    match m {
        Msg::Child(k, _) | Msg::Parent(k) => spread(*k),
        Msg::Figures(to, _) => u64::from(*to),
    }
}

/// A hasher for keys that are already spread by play: one multiply.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = spread(k ^ self.0);
    }
}

type Keyed<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// Set when a timely communication thread panicked: a peer went away.
static BROKEN: AtomicBool = AtomicBool::new(false);
static BROKEN_WHY: Mutex<String> = Mutex::new(String::new());
static HOOK: Once = Once::new();
/// What Rust's runtime says of a panic in a destructor while a thread unwinds: the process
/// aborts after the hook.
const NO_UNWIND: &str = "panic in a destructor during cleanup";

/// Routes timely's communication panics to [`BROKEN`], quietly; others to the usual hook.
fn watch_communication() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let text = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| {
                    info.payload()
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_string())
                })
                .unwrap_or_default();
            // The first panic names the lost connection; the others follow from it (a lock
            // the failed thread held, a guard that finds a thread gone).
            let from_network = [
                "timely communication error",
                "MergeQueue poisoned",
                "Send thread panic",
                "Recv thread panic",
            ];
            if from_network.iter().any(|m| text.contains(m)) {
                if let Ok(mut why) = BROKEN_WHY.lock() {
                    if why.is_empty() {
                        *why = text;
                    }
                }
                BROKEN.store(true, Ordering::SeqCst);
            } else if let Some(e) = broken().filter(|_| text.contains(NO_UNWIND)) {
                // A thread of timely that unwinds from the lost connection can panic again
                // in a destructor (a send buffer flushed into the poisoned queue), and Rust
                // then aborts the process before the count can return its error: say it
                // here, where it is still possible.
                eprintln!("error: {e}");
            } else {
                previous(info);
            }
        }));
    });
}

fn broken() -> Option<CountError> {
    BROKEN.load(Ordering::SeqCst).then(|| {
        let why = BROKEN_WHY.lock().map(|w| w.clone()).unwrap_or_default();
        CountError::Cluster(format!(
            "a process of the cluster went away ({why}); the count is abandoned"
        ))
    })
}

/// The count of `problem` on the workers of `cluster` (see the module docs). `progress` is
/// called on process 0 after each forward level, as for [`count`](super::count).
///
/// The figures equal [`count`](super::count)'s. Every level's keys stay in the memory of
/// the workers that own them (for the backward pass); there is no spill.
pub fn count_cluster(
    problem: &Problem,
    cluster: &Cluster,
    progress: Arc<dyn Fn(&Level) + Send + Sync>,
) -> Result<ClusterCount, CountError> {
    watch_communication();
    let communication = match cluster {
        Cluster::Threads(n) => timely::CommunicationConfig::Process((*n).max(1)),
        Cluster::Processes {
            hosts,
            process,
            threads,
        } => {
            if *process >= hosts.len() {
                return Err(CountError::Cluster(format!(
                    "process {process} of a cluster of {} processes",
                    hosts.len()
                )));
            }
            timely::CommunicationConfig::Cluster {
                threads: (*threads).max(1),
                process: *process,
                addresses: hosts.clone(),
                report: false,
                zerocopy: false,
            }
        }
    };
    let config = timely::Config {
        communication,
        worker: timely::WorkerConfig::default(),
    };
    let problem = problem.clone();
    let threads_here = match cluster {
        Cluster::Threads(n) => (*n).max(1),
        Cluster::Processes { threads, .. } => (*threads).max(1),
    };
    // Results come back by channel rather than by joining the threads: when a process of
    // the cluster dies, some of this process's threads are left blocked or panicked, and
    // the count must end without waiting for them.
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = Mutex::new(tx);
    let guards = timely::execute(config, move |worker| {
        let r = with_width!(problem.board(), W => {
            run_worker::<W>(worker, &problem, threads_here, progress.as_ref())
        });
        if let Ok(tx) = tx.lock() {
            let _ = tx.send(r);
        }
    })
    .map_err(|e| CountError::Cluster(format!("cannot start the cluster: {e}")))?;
    let mut results = Vec::with_capacity(threads_here);
    while results.len() < threads_here {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(r)) => results.push(r),
            Ok(Err(e)) => {
                std::mem::forget(guards);
                return Err(broken().unwrap_or(e));
            }
            Err(_) => {
                if let Some(e) = broken() {
                    std::mem::forget(guards);
                    return Err(e);
                }
            }
        }
    }
    drop(guards);
    let mut out = ClusterCount::default();
    for r in results {
        out.workers = r.workers;
        if r.count.is_some() {
            out.count = r.count;
        }
        if out.records_out.len() < r.records_out.len() {
            out.records_out.resize(r.records_out.len(), 0);
            out.bytes_out.resize(r.bytes_out.len(), 0);
        }
        for (k, (n, b)) in r.records_out.iter().zip(&r.bytes_out).enumerate() {
            out.records_out[k] += n;
            out.bytes_out[k] += b;
        }
    }
    Ok(out)
}

/// The round machinery of one worker: send records, then step until every worker's records
/// of the round have arrived.
struct Rounds<K: ClusterKey> {
    input: InputHandle<u64, timely::container::CapacityContainerBuilder<Vec<Msg<K>>>>,
    probe: timely::dataflow::ProbeHandle<u64>,
    round: u64,
    peers: usize,
    /// Records sent in this round, to all workers.
    sent: u64,
    /// Workers per process: records to a worker of another process cross the network.
    local: std::ops::Range<usize>,
    records: u64,
    bytes: u64,
}

impl<K: ClusterKey> Rounds<K> {
    fn send(&mut self, worker: &mut timely::worker::Worker, m: Msg<K>) -> Result<(), CountError> {
        let to = (route(&m) % self.peers as u64) as usize;
        if !self.local.contains(&to) {
            self.records += 1;
            self.bytes += encoded(&m);
        }
        self.input.send(m);
        self.sent += 1;
        // Let the records flow now and then, so that a large level is not buffered whole.
        if self.sent.is_multiple_of(1 << 16) {
            worker.step();
            if let Some(e) = broken() {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Ends the round; returns when every record sent in it has been delivered.
    fn finish(&mut self, worker: &mut timely::worker::Worker) -> Result<(u64, u64), CountError> {
        self.round += 1;
        self.input.advance_to(self.round);
        while self.probe.less_than(self.input.time()) {
            if let Some(e) = broken() {
                return Err(e);
            }
            worker.step_or_park(Some(Duration::from_millis(20)));
        }
        let sent = (self.records, self.bytes);
        self.records = 0;
        self.bytes = 0;
        self.sent = 0;
        Ok(sent)
    }
}

/// What one worker hands back.
struct WorkerResult {
    count: Option<Count>,
    workers: usize,
    records_out: Vec<u64>,
    bytes_out: Vec<u64>,
}

/// What the sink of a worker's dataflow collects in a round.
#[derive(Default)]
struct Inbox<K> {
    children: Keyed<K, u128>,
    parents: HashSet<K, std::hash::BuildHasherDefault<KeyHasher>>,
    figures: Vec<Figures<K>>,
    overflow: bool,
}

/// A key the cluster's records can carry: a count's key that serialises.
trait ClusterKey: CountKey + Default + Serialize + for<'de> Deserialize<'de> {}

impl<K: CountKey + Default + Serialize + for<'de> Deserialize<'de>> ClusterKey for K {}

fn run_worker<K: ClusterKey>(
    worker: &mut timely::worker::Worker,
    problem: &Problem,
    threads_here: usize,
    progress: &(dyn Fn(&Level) + Send + Sync),
) -> Result<WorkerResult, CountError> {
    let index = worker.index();
    let peers = worker.peers();
    // Records by the round they were sent in: a worker that finished a round early may
    // already send the next one's while this worker still reads its own.
    let inboxes: Rc<RefCell<HashMap<u64, Inbox<K>>>> = Rc::new(RefCell::new(HashMap::new()));
    let mut input = InputHandle::new();
    let sink = Rc::clone(&inboxes);
    let probe = worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .container::<Vec<Msg<K>>>()
            .exchange(route::<K>)
            .inspect_core(move |event| {
                let Ok((stamp, data)) = event else { return };
                let round = stamp.elements().first().copied().unwrap_or(0);
                let mut inboxes = sink.borrow_mut();
                let inbox = inboxes.entry(round).or_default();
                for m in data {
                    match m {
                        Msg::Child(k, c) => {
                            let slot = inbox.children.entry(*k).or_insert(0);
                            match slot.checked_add(*c) {
                                Some(v) => *slot = v,
                                None => inbox.overflow = true,
                            }
                        }
                        Msg::Parent(k) => {
                            inbox.parents.insert(*k);
                        }
                        Msg::Figures(_, f) => inbox.figures.push(f.clone()),
                    }
                }
            })
            .probe()
            .0
    });
    // The records of the round just finished.
    let take = |round: u64| {
        inboxes
            .borrow_mut()
            .remove(&(round - 1))
            .unwrap_or_default()
    };
    let first = index / threads_here * threads_here;
    let mut rounds = Rounds {
        input,
        probe,
        round: 0,
        peers,
        sent: 0,
        local: first..first + threads_here,
        records: 0,
        bytes: 0,
    };
    let space = Space::<K>::new(problem, true);
    let targets: &[crate::Bits<K>] = &problem.targets();
    let goal = targets.first().map_or(1, |t| t.count());
    let mut is_target: Vec<K> = targets.iter().map(|&t| space.key(t)).collect();
    is_target.sort_unstable();
    is_target.dedup();
    let start = problem.start::<K>().count();
    let mine = |k: K| (spread(k) % peers as u64) as usize == index;
    // This worker's share of the current level, and the keys of every level so far.
    let root = space.key(problem.start());
    let mut current: Vec<(K, u128)> = if mine(root) {
        vec![(root, 1)]
    } else {
        Vec::new()
    };
    let mut stored: Vec<Vec<K>> = Vec::new();
    let mut result = Count {
        symmetries: space.canon.order(),
        ..Count::default()
    };
    let mut reached: Vec<(K, u128)> = Vec::new();
    let (mut records_out, mut bytes_out) = (Vec::new(), Vec::new());
    let mut level = 0u32;
    loop {
        let pegs = start - level;
        let mut f = Figures {
            classes: current.len() as u64,
            ..Figures::default()
        };
        // Children are summed here first, so that a child reached from several of this
        // worker's parents crosses the network once per batch.
        let mut batch: Keyed<K, u128> = Keyed::default();
        for &(k, c) in &current {
            f.paths = f.paths.checked_add(c).ok_or(CountError::Overflow)?;
            f.positions += space.orbit(k);
            if pegs == goal && is_target.binary_search(&k).is_ok() {
                f.solutions = f.solutions.checked_add(c).ok_or(CountError::Overflow)?;
                f.reached.push((k, c));
            }
            let mut any = false;
            let mut overflow = false;
            let images = space.images_of(k);
            space.for_each_child_of(k, images.as_ref(), |_, child| {
                any = true;
                f.children += 1;
                let slot = batch.entry(child).or_insert(0);
                match slot.checked_add(c) {
                    Some(v) => *slot = v,
                    None => overflow = true,
                }
            });
            if overflow {
                return Err(CountError::Overflow);
            }
            if !any {
                f.dead_ends += space.orbit(k);
                f.games = f.games.checked_add(c).ok_or(CountError::Overflow)?;
            }
            if batch.len() >= 1 << 16 {
                for (child, paths) in batch.drain() {
                    rounds.send(worker, Msg::Child(child, paths))?;
                }
            }
        }
        for (child, paths) in batch.drain() {
            rounds.send(worker, Msg::Child(child, paths))?;
        }
        for to in 0..peers {
            rounds.send(worker, Msg::Figures(to as u32, f.clone()))?;
        }
        let (n, b) = rounds.finish(worker)?;
        records_out.push(n);
        bytes_out.push(b);
        let mut inbox = take(rounds.round);
        if inbox.overflow {
            return Err(CountError::Overflow);
        }
        // Every worker has every worker's figures of this level.
        let mut total = Figures::default();
        for g in inbox.figures.drain(..) {
            total.positions += g.positions;
            total.classes += g.classes;
            total.dead_ends += g.dead_ends;
            total.paths = total
                .paths
                .checked_add(g.paths)
                .ok_or(CountError::Overflow)?;
            total.games = total
                .games
                .checked_add(g.games)
                .ok_or(CountError::Overflow)?;
            total.solutions = total
                .solutions
                .checked_add(g.solutions)
                .ok_or(CountError::Overflow)?;
            total.children += g.children;
            total.reached.extend(g.reached);
        }
        result.games = result
            .games
            .checked_add(total.games)
            .ok_or(CountError::Overflow)?;
        result.solutions = result
            .solutions
            .checked_add(total.solutions)
            .ok_or(CountError::Overflow)?;
        reached.extend(total.reached);
        let entry = Level {
            jumps: level,
            pegs,
            positions: total.positions,
            classes: total.classes,
            dead_ends: total.dead_ends,
            paths: total.paths,
            ..Level::default()
        };
        if index == 0 {
            progress(&entry);
        }
        result.levels.push(entry);
        let mut keys: Vec<K> = current.iter().map(|&(k, _)| k).collect();
        keys.sort_unstable();
        stored.push(keys);
        let mut next: Vec<(K, u128)> = inbox.children.drain().collect();
        next.sort_unstable();
        current = next;
        if total.children == 0 {
            break;
        }
        level += 1;
    }
    drop(current);
    // Backward: winners of each level, from the last; a round sends the parents of a level's
    // winners to their owners.
    let depth_count = stored.len();
    let mut parents_in: HashSet<K, std::hash::BuildHasherDefault<KeyHasher>> = HashSet::default();
    for depth in (0..depth_count).rev() {
        let pegs = start - depth as u32;
        let candidates: Vec<K> = if pegs == goal {
            is_target.clone()
        } else {
            let mut p: Vec<K> = parents_in.drain().collect();
            p.sort_unstable();
            p
        };
        parents_in.clear();
        let keys = &stored[depth];
        let won: Vec<K> = candidates
            .into_iter()
            .filter(|k| keys.binary_search(k).is_ok())
            .collect();
        if depth > 0 {
            for &w in &won {
                let mut parents = Vec::new();
                space.for_each_parent(w, |p| parents.push(p));
                for p in parents {
                    rounds.send(worker, Msg::Parent(p))?;
                }
            }
        }
        let f = Figures {
            winning: won.iter().map(|&k| space.orbit(k)).sum(),
            winning_classes: won.len() as u64,
            ..Figures::default()
        };
        rounds.send(worker, Msg::Figures(0, f))?;
        let (n, b) = rounds.finish(worker)?;
        records_out.push(n);
        bytes_out.push(b);
        let mut inbox = take(rounds.round);
        parents_in = std::mem::take(&mut inbox.parents);
        for g in inbox.figures.drain(..) {
            result.levels[depth].winning += g.winning;
            result.levels[depth].winning_classes += g.winning_classes;
        }
    }
    let count = if index == 0 {
        reached.sort_unstable();
        result.finishes = super::forward::finish_paths(problem, &space, &reached, goal)?;
        Some(result)
    } else {
        None
    };
    Ok(WorkerResult {
        count,
        workers: peers,
        records_out,
        bytes_out,
    })
}
