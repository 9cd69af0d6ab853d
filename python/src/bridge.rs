//! What crosses between the library and Python: its errors as exceptions, its answers as
//! JSON text, and work run off the GIL so that Ctrl-C can stop it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pegsol::Limits;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;

/// A library error as a Python exception: an internal error (a bug) is a `RuntimeError`,
/// everything else bad input, a `ValueError`; the library's message either way.
pub(crate) fn py_err(e: pegsol::Error) -> PyErr {
    match e {
        pegsol::Error::Internal(_) => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

pub(crate) fn json<T: Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Runs `work` on a thread of its own without the GIL; every 50 ms the calling thread takes
/// the GIL back to let Python run its signal handlers. A KeyboardInterrupt (or any error a
/// handler raises) sets `cancel`, waits for the work to stop (the engines look at the flag
/// within milliseconds) and is raised.
pub(crate) fn cancellable<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|s| {
        let handle = s.spawn(work);
        loop {
            let finished = py.detach(|| {
                let until = Instant::now() + Duration::from_millis(50);
                while !handle.is_finished() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
                handle.is_finished()
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("internal error: the work panicked"))
    })
}

pub(crate) fn flag(limits: &Limits) -> Arc<AtomicBool> {
    limits.cancel.clone().unwrap_or_default()
}
