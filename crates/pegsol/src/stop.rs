//! When work must stop: past a deadline, or once a cancel flag is set (a server whose client
//! went away, a notebook's Ctrl-C). One test for every engine's inner loops; a budget makes
//! one with [`crate::Limits::stop`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A deadline and a cancel flag, either of which may be absent (then it never stops).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stop<'a> {
    at: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(at: Option<Instant>, cancel: Option<&'a AtomicBool>) -> Stop<'a> {
        Stop { at, cancel }
    }

    /// The same flag with the deadline brought forward to `at` when that is sooner.
    #[must_use]
    pub(crate) fn sooner(self, at: Option<Instant>) -> Stop<'a> {
        let at = match (self.at, at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Stop { at, ..self }
    }

    /// Whether it has a deadline.
    pub(crate) fn timed(&self) -> bool {
        self.at.is_some()
    }

    /// Whether the work must stop now.
    pub(crate) fn passed(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || self.at.is_some_and(|d| Instant::now() >= d)
    }
}
