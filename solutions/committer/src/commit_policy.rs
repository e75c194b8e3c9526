//! What the base does when a commit fails: bounded retries with backoff for a transient
//! failure, and, only on the operator's word, abandoning a handle whose records are gone.
//!
//! A transient failure (a lock or statement timeout, a dropped connection the server
//! will accept again) is retried a bounded number of times, waiting twice as long each
//! time; then the error surfaces and the handle stays pending, so the next notification
//! or the next run's recovery commits it. A *lost* handle ([`HandleLost`]: neither
//! pending nor visible, e.g. a prepared transaction rolled back by hand or expired by the
//! system) fails recovery at every restart, which wedges the job; the documented way out
//! is a restart with [`OnLostHandle::Abandon`] (the demo's `--abandon-lost-handles`),
//! which records the loss as [`CommitOutcome::Abandoned`] and lets the job go on.

use std::fmt;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::fence::Fence;
use crate::verbs::{CommitOutcome, CommittingSink};

/// The error a sink returns when a handle's records are neither pending nor visible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandleLost {
    /// The handle, as the sink names it.
    pub handle: String,
}

impl fmt::Display for HandleLost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is neither pending nor committed: its records are lost (expired or discarded \
             outside the job). Every restart will fail here; to go on, accepting the loss, \
             restart once with --abandon-lost-handles and re-ingest that checkpoint's records",
            self.handle
        )
    }
}

impl std::error::Error for HandleLost {}

/// What to do with a [`HandleLost`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnLostHandle {
    /// Fail: a silent loss is worse than a stopped job.
    #[default]
    Fail,
    /// The operator accepted the loss: report the handle as abandoned and go on.
    Abandon,
}

/// How the base finalises handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommitPolicy {
    /// Extra attempts after a transient failure.
    pub retries: u32,
    /// The wait before the first retry; doubled before each next one.
    pub backoff: Duration,
    /// What to do with a lost handle.
    pub on_lost: OnLostHandle,
}

impl CommitPolicy {
    /// The wait before retry `retry` (the first is 1): `backoff`, doubled for each
    /// retry after the first (capped at 2^16 times, far past any sensible retry count).
    pub fn backoff_before(&self, retry: u32) -> Duration {
        let doublings = retry.saturating_sub(1).min(16);
        self.backoff.saturating_mul(1 << doublings)
    }
}

impl Default for CommitPolicy {
    fn default() -> Self {
        Self {
            retries: 3,
            backoff: Duration::from_millis(50),
            on_lost: OnLostHandle::Fail,
        }
    }
}

/// Whether a commit or a recovery is finalising the handle (they call different verbs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finalise {
    Commit,
    Recover,
}

/// Finalises `committable` under `policy`, checking `fence` before every attempt.
pub(crate) fn finalise<S: CommittingSink>(
    sink: &mut S,
    fence: &dyn Fence,
    policy: &CommitPolicy,
    how: Finalise,
    committable: &S::Committable,
) -> Result<CommitOutcome> {
    let mut attempt = 0;
    loop {
        fence.check()?;
        let result = match how {
            Finalise::Commit => sink.commit(committable),
            Finalise::Recover => sink.recover(committable),
        };
        let error = match result {
            Ok(outcome) => return Ok(outcome),
            Err(error) => error,
        };
        if error.downcast_ref::<HandleLost>().is_some() && policy.on_lost == OnLostHandle::Abandon {
            return Ok(CommitOutcome::Abandoned);
        }
        if attempt >= policy.retries || !sink.is_transient(&error) {
            let tries = attempt + 1;
            return Err(error).with_context(|| {
                format!("gave up after {tries} attempt(s); the handle stays pending")
            });
        }
        attempt += 1;
        thread::sleep(policy.backoff_before(attempt));
    }
}
