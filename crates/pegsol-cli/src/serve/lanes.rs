//! The two lanes of solver threads and the permits that schedule requests on them, least
//! work first.

use std::time::Duration;

use anyhow::{Context, Result};

/// The slow lane's threads' nice value (0 is the default, 19 the lowest priority).
const SLOW_NICE: i32 = 15;

/// A pool of solver threads and the permits to use it.
pub(super) struct Lane {
    pub(super) name: &'static str,
    pub(super) gate: Gate,
    pub(super) pool: rayon::ThreadPool,
}

/// A semaphore whose waiters are served by rank (lower first), then in arrival order.
pub(super) struct Gate {
    pub(super) state: std::sync::Mutex<GateState>,
}

pub(super) struct GateState {
    pub(super) free: usize,
    pub(super) waiting: std::collections::BinaryHeap<Waiter>,
    pub(super) arrivals: u64,
}

/// A waiter, ordered so that the heap's top is the lowest rank, then the earliest arrival.
pub(super) struct Waiter {
    pub(super) rank: u32,
    pub(super) arrival: u64,
    pub(super) wake: tokio::sync::oneshot::Sender<()>,
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Waiter) -> bool {
        (self.rank, self.arrival) == (other.rank, other.arrival)
    }
}

impl Eq for Waiter {}

impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Waiter) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiter {
    fn cmp(&self, other: &Waiter) -> std::cmp::Ordering {
        (other.rank, other.arrival).cmp(&(self.rank, self.arrival))
    }
}

/// A permit of a [`Gate`], handed to the next waiter (or returned) when dropped.
pub(super) struct Permit<'g>(&'g Gate);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// A permit sent to a waiter that stopped waiting (timed out, or its client left) must not
/// be lost: whoever drops the receiver passes a delivered permit on.
pub(super) struct Delivery<'g> {
    pub(super) gate: &'g Gate,
    pub(super) wake: Option<tokio::sync::oneshot::Receiver<()>>,
}

impl Drop for Delivery<'_> {
    fn drop(&mut self) {
        if let Some(mut wake) = self.wake.take() {
            wake.close();
            if wake.try_recv().is_ok() {
                self.gate.release();
            }
        }
    }
}

impl Gate {
    pub(super) fn new(permits: usize) -> Gate {
        Gate {
            state: std::sync::Mutex::new(GateState {
                free: permits,
                waiting: std::collections::BinaryHeap::new(),
                arrivals: 0,
            }),
        }
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        // A panic while holding this lock leaves the counts as they were: carry on.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A permit, waiting at most `wait` behind the waiters of lower rank or earlier arrival.
    pub(super) async fn acquire(&self, rank: u32, wait: Duration) -> Option<Permit<'_>> {
        let wake = {
            let mut state = self.lock();
            if state.free > 0 && state.waiting.is_empty() {
                state.free -= 1;
                return Some(Permit(self));
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            state.arrivals += 1;
            let arrival = state.arrivals;
            state.waiting.push(Waiter {
                rank,
                arrival,
                wake: tx,
            });
            rx
        };
        let mut delivery = Delivery {
            gate: self,
            wake: Some(wake),
        };
        let woken = match delivery.wake.as_mut() {
            Some(rx) => tokio::time::timeout(wait, rx).await,
            None => return None,
        };
        match woken {
            Ok(Ok(())) => {
                delivery.wake = None;
                Some(Permit(self))
            }
            // Timed out: dropping `delivery` passes on a permit that arrived meanwhile.
            _ => None,
        }
    }

    pub(super) fn release(&self) {
        let mut state = self.lock();
        while let Some(w) = state.waiting.pop() {
            if w.wake.send(()).is_ok() {
                return;
            }
        }
        state.free += 1;
    }
}

impl Lane {
    pub(super) fn new(name: &'static str, threads: usize, background: bool) -> Result<Lane> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("pegsol-{name}-{i}"))
            .start_handler(move |_| {
                if background {
                    lower_priority();
                }
            })
            .build()
            .context("cannot start the solver threads")?;
        Ok(Lane {
            name,
            gate: Gate::new(threads),
            pool,
        })
    }
}

/// Lowers the calling thread's scheduling priority (Linux: per thread), so that the slow
/// lane yields the cores to the fast one.
pub(super) fn lower_priority() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: setpriority with PRIO_PROCESS and a thread id only changes that thread's nice
    // value; it takes no pointers.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, SLOW_NICE);
    }
}
