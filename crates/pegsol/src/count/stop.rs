//! When a count must stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::problem::Limits;

/// When a count must stop: past a deadline, or once a cancel flag is set (either may be
/// absent). Checked between slices of a level, so a count stops within one slice.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stop<'a> {
    at: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(at: Option<Instant>, cancel: Option<&'a AtomicBool>) -> Stop<'a> {
        Stop { at, cancel }
    }

    /// The stop of `limits`, its timeout counted from `began`.
    pub(crate) fn of(limits: &'a Limits, began: Instant) -> Stop<'a> {
        Stop::new(limits.timeout.map(|t| began + t), limits.cancel.as_deref())
    }

    /// Whether the count must stop now.
    pub(crate) fn passed(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || self.at.is_some_and(|d| Instant::now() > d)
    }
}
