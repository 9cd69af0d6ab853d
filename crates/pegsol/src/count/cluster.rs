//! The whole-game count on several workers, threads of one process or processes on several
//! machines, with timely dataflow moving the data between them.
//!
//! Timely dataflow (the `timely` crate) supplies what a cluster needs and this crate should
//! not write: the send and receive threads over the processes' sockets, serialisation,
//! routing each batch to the worker it names, and progress tracking, which tells every worker
//! when a round's batches have all arrived. (The sockets themselves are connected by `mesh`,
//! which waits milliseconds where timely's own start waits a second.) The count runs in
//! rounds on one small dataflow (an input, an exchange, and a sink that takes the batches
//! into the worker's inbox); the rounds are bulk-synchronous:
//!
//! - **Ownership.** A worker owns the keys whose [`rank`](super::packed::rank) falls in its
//!   part of the rank range (the range cut into equal parts, one per worker, in worker
//!   order: `runs::owner`). Ranks spread keys evenly, and a level kept in rank order falls
//!   into one slice per worker, so sending is slicing.
//! - **Forward, one round per level.** Each worker expands its share of level `k` with the
//!   single process's expansion (`step::expand`: children bucketed, summed per distinct key
//!   in hash tables and read out in rank order), so a child reached from several of its
//!   parents is sent once. The result's slice for each other worker goes to it in batches of
//!   [`BATCH`] keys with their path counts; the worker's own slice stays. Each worker's
//!   batches from one sender, in order, are a sorted run, and the runs are merged
//!   (`runs::merge_round`), summing the paths of equal keys, into its share of level `k + 1`,
//!   in rank order again. The level's figures (positions, classes, dead ends, paths, games,
//!   solutions) are sent to every worker, so that all of them see the same totals and stop
//!   together when a level has no children.
//! - **Backward, one round per level, from the last.** The winners' parents (one jump undone,
//!   canonicalised, distinct: `winners::parents_of`) go to their owners the same way, which
//!   keep those in their share of the level before: the single process's backward pass.
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
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange as ExchangePact;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::InputHandle;
use timely::WorkerConfig;

use super::packed::{rank, Spread};
use super::runs::{merge_round, owner, Piece};
use super::step::{expand, Step};
use super::winners::{intersect_sorted, parents_of};
use super::{Count, CountError, Level};
use crate::key::CountKey;
use crate::problem::Problem;
use crate::space::Space;
use crate::stop::Stop;
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

/// Keys a batch of records carries at most: big enough that timely's per-message cost is
/// spread over many keys, small enough that a level streams out while it is being cut up.
const BATCH: usize = 1 << 15;

/// A record of the count's dataflow, with keys of one, two or four words. Keys travel in
/// batches: piece `piece` of what worker `from` sends worker `to` in a round, in [`rank`]
/// order, so that a worker's pieces from one sender, in piece order, make one sorted run.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Msg<K> {
    /// Distinct children of the sender's share of a level, with the paths into each.
    Children {
        to: u32,
        from: u32,
        piece: u32,
        keys: Vec<K>,
        paths: Vec<u128>,
    },
    /// Distinct parents of the sender's winners (candidate winners of the level before).
    Parents {
        to: u32,
        from: u32,
        piece: u32,
        keys: Vec<K>,
    },
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

/// Keys a record carries and its encoded size, for the figures of what was exchanged
/// (bincode's fixed-width layout: a 4-byte tag, then the fields, a vector's length first).
fn encoded<K>(m: &Msg<K>) -> (u64, u64) {
    let key = std::mem::size_of::<K>() as u64;
    match m {
        Msg::Children { keys, .. } => {
            let n = keys.len() as u64;
            (n, 4 + 12 + 16 + n * (key + 16))
        }
        Msg::Parents { keys, .. } => {
            let n = keys.len() as u64;
            (n, 4 + 12 + 8 + n * key)
        }
        Msg::Figures(_, f) => (
            1,
            4 + 4 + 8 * 7 + 16 * 3 + 8 + (key + 16) * f.reached.len() as u64,
        ),
    }
}

fn route<K: CountKey>(m: &Msg<K>) -> u64 {
    match m {
        Msg::Children { to, .. } | Msg::Parents { to, .. } | Msg::Figures(to, _) => u64::from(*to),
    }
}

/// How long a process waits for the others of its cluster to start and connect.
const PATIENCE: Duration = Duration::from_secs(120);

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
/// the workers that own them (for the backward pass); there is no spill and no memory budget.
pub fn count_cluster(
    problem: &Problem,
    cluster: &Cluster,
    progress: Arc<dyn Fn(&Level) + Send + Sync>,
) -> Result<ClusterCount, CountError> {
    watch_communication();
    let (builders, others) = match cluster {
        Cluster::Threads(n) => timely::CommunicationConfig::Process((*n).max(1))
            .try_build()
            .map_err(|e| CountError::Cluster(format!("cannot start the workers: {e}")))?,
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
            // The processes connect here (see `mesh`), and timely runs over the sockets.
            let sockets = super::mesh::connect(hosts, *process, PATIENCE)
                .map_err(|e| CountError::Cluster(format!("cannot start the cluster: {e}")))?;
            let hooks = Hooks::default();
            let threads = (*threads).max(1);
            let local = ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), None);
            let (builders, guard) =
                initialize_networking_from_sockets(local, sockets, *process, threads, hooks)
                    .map_err(|e| CountError::Cluster(format!("cannot start the cluster: {e}")))?;
            let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
            (builders, Box::new(guard) as Box<dyn std::any::Any + Send>)
        }
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
    let guards =
        timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
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
    /// Workers per process: records to a worker of another process cross the network.
    local: std::ops::Range<usize>,
    records: u64,
    bytes: u64,
}

impl<K: ClusterKey> Rounds<K> {
    fn send(&mut self, worker: &mut timely::worker::Worker, m: Msg<K>) -> Result<(), CountError> {
        let to = (route(&m) % self.peers as u64) as usize;
        if !self.local.contains(&to) {
            let (records, bytes) = encoded(&m);
            self.records += records;
            self.bytes += bytes;
        }
        self.input.send(m);
        // Let the batches flow as they are made, so that a large level is not buffered whole.
        worker.step();
        broken().map_or(Ok(()), Err)
    }

    /// Sends `keys` (with `paths`, where given: then as children, else as parents), which
    /// are in [`rank`] order, each to its [`owner`], in batches of at most [`BATCH`]; returns
    /// where this worker's own lie, which need not travel.
    fn scatter(
        &mut self,
        worker: &mut timely::worker::Worker,
        keys: &[K],
        paths: Option<&[u128]>,
    ) -> Result<std::ops::Range<usize>, CountError> {
        let from = worker.index();
        let mut own = 0..0;
        let mut begin = 0;
        for to in 0..self.peers {
            // Keys are in rank order, so each owner's keys follow each other.
            let end = begin + keys[begin..].partition_point(|&k| owner(k, self.peers) <= to);
            if to == from {
                own = begin..end;
            } else {
                for (piece, at) in (begin..end).step_by(BATCH).enumerate() {
                    let range = at..end.min(at + BATCH);
                    let (to, from, piece) = (to as u32, from as u32, piece as u32);
                    let keys = keys[range.clone()].to_vec();
                    let m = match paths {
                        Some(p) => Msg::Children {
                            to,
                            from,
                            piece,
                            keys,
                            paths: p[range].to_vec(),
                        },
                        None => Msg::Parents {
                            to,
                            from,
                            piece,
                            keys,
                        },
                    };
                    self.send(worker, m)?;
                }
            }
            begin = end;
        }
        Ok(own)
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
    /// Pieces of children or of parents (a round carries one kind).
    pieces: Vec<Piece<K>>,
    figures: Vec<Figures<K>>,
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
            // A sink that takes the batches it is given (no copy), with a probe after it:
            // its output's frontier follows its input's, so a round the probe has passed
            // has been read here.
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                ExchangePact::new(route::<K>),
                "inbox",
                move |_, _| {
                    move |batches, _| {
                        batches.for_each(|stamp, data| {
                            let round = stamp.least().copied().unwrap_or(0);
                            let mut inboxes = sink.borrow_mut();
                            let inbox = inboxes.entry(round).or_default();
                            for m in data.drain(..) {
                                match m {
                                    Msg::Children {
                                        from,
                                        piece,
                                        keys,
                                        paths,
                                        ..
                                    } => inbox.pieces.push(Piece {
                                        order: (from, piece),
                                        keys,
                                        paths,
                                    }),
                                    Msg::Parents {
                                        from, piece, keys, ..
                                    } => inbox.pieces.push(Piece {
                                        order: (from, piece),
                                        keys,
                                        paths: Vec::new(),
                                    }),
                                    Msg::Figures(_, f) => inbox.figures.push(f),
                                }
                            }
                        });
                    }
                },
            )
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
        local: first..first + threads_here,
        records: 0,
        bytes: 0,
    };
    let space = Space::<K>::new(problem, true);
    let targets: &[crate::Bits<K>] = &problem.targets();
    let goal = targets.first().map_or(1, |t| t.count());
    let mut is_target: Vec<K> = targets.iter().map(|&t| space.key(t)).collect();
    is_target.sort_unstable_by_key(|&k| rank(k));
    is_target.dedup();
    let start = problem.start::<K>().count();
    // This worker's share of the current level (keys in rank order, and their paths), and
    // the keys of every level so far.
    let root = space.key(problem.start());
    let (mut keys, mut paths): (Vec<K>, Vec<u128>) = if owner(root, peers) == index {
        (vec![root], vec![1])
    } else {
        (Vec::new(), Vec::new())
    };
    let mut stored: Vec<Vec<K>> = Vec::new();
    let mut result = Count {
        symmetries: space.canon.order(),
        ..Count::default()
    };
    let mut reached: Vec<(K, u128)> = Vec::new();
    let (mut records_out, mut bytes_out) = (Vec::new(), Vec::new());
    let mut level = 0u32;
    // Children per key and per distinct child at the last level: they size the tables.
    let (mut branching, mut duplication) = (1.0f64, 1.0f64);
    loop {
        let pegs = start - level;
        let mut f = Figures {
            classes: keys.len() as u64,
            ..Figures::default()
        };
        for (&k, &c) in keys.iter().zip(&paths) {
            f.paths = f.paths.checked_add(c).ok_or(CountError::Overflow)?;
            if pegs == goal
                && is_target
                    .binary_search_by_key(&rank(k), |&t| rank(t))
                    .is_ok()
            {
                f.solutions = f.solutions.checked_add(c).ok_or(CountError::Overflow)?;
                f.reached.push((k, c));
            }
        }
        // The single process's expansion of this worker's share: children summed per
        // distinct key before anything is sent, so that each crosses the network once.
        let step = Step {
            pegs,
            space: &space,
            cut: None,
            branching,
            duplication,
            stop: Stop::default(),
        };
        let out = expand(&keys, &paths, step, Spread)?;
        f.positions = out.positions;
        f.dead_ends = out.dead_ends;
        f.games = out.games;
        f.children = out.children as u64;
        branching = out.children as f64 / keys.len().max(1) as f64;
        duplication = (out.children as f64 / out.keys.len().max(1) as f64).max(1.0);
        let own = rounds.scatter(worker, &out.keys, Some(&out.counts))?;
        for to in 0..peers {
            rounds.send(worker, Msg::Figures(to as u32, f.clone()))?;
        }
        let (n, b) = rounds.finish(worker)?;
        records_out.push(n);
        bytes_out.push(b);
        let mut inbox = take(rounds.round);
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
        let own = (&out.keys[own.clone()], &out.counts[own]);
        let (next_keys, next_paths) = merge_round(own, std::mem::take(&mut inbox.pieces))?;
        drop(out);
        stored.push(std::mem::replace(&mut keys, next_keys));
        paths = next_paths;
        if total.children == 0 {
            break;
        }
        level += 1;
    }
    drop((keys, paths));
    // Backward: winners of each level, from the last; a round sends the parents of a level's
    // winners to their owners.
    let mut parents_in: Vec<K> = Vec::new();
    for depth in (0..stored.len()).rev() {
        let pegs = start - depth as u32;
        let candidates = if pegs == goal {
            std::mem::take(&mut is_target)
        } else {
            std::mem::take(&mut parents_in)
        };
        let won = intersect_sorted(&candidates, &stored[depth]);
        // The parents of the winners (none for the start's level), this worker's among them.
        let (parents, mine) = if depth > 0 {
            let parents = parents_of(&won, pegs, &space, Stop::default())?;
            let mine = rounds.scatter(worker, &parents, None)?;
            (parents, mine)
        } else {
            (Vec::new(), 0..0)
        };
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
        let own = (&parents[mine], &[][..]);
        parents_in = merge_round(own, std::mem::take(&mut inbox.pieces))?.0;
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
