//! The named steps of the choreography, and the tripwire a fault simulator sets on them.
//!
//! The base reports each step right after it happened. Production code passes
//! [`NoTripwire`]; a simulator passes one that fails with [`Crash`] at a chosen step, which
//! is how the tests crash the choreography between any two of its effects rather than
//! only between records.

use std::fmt;

use anyhow::Result;

use crate::ids::{CheckpointId, SubtaskId};

/// A point of the choreography, named after what has just happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// `on_open` ran (orphans reconciled); recovery has not started.
    Opened(SubtaskId),
    /// Recovery finalised a restored handle in the external system; not yet erased.
    Recovered(SubtaskId, CheckpointId),
    /// Recovery erased that handle from operator state.
    RecoveryErased(SubtaskId, CheckpointId),
    /// A record went into the open transaction.
    Written(SubtaskId),
    /// `prepare_commit` returned a handle; it is not persisted yet.
    Prepared(SubtaskId, CheckpointId),
    /// The handle is in operator state; the checkpoint has not completed.
    Persisted(SubtaskId, CheckpointId),
    /// The coordinator recorded the checkpoint as complete; nobody was notified yet.
    CheckpointCompleted(CheckpointId),
    /// A notification committed a handle externally; it is not erased yet.
    Committed(SubtaskId, CheckpointId),
    /// The committed handle was erased from operator state.
    Erased(SubtaskId, CheckpointId),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Opened(s) => write!(f, "{s} opened"),
            Step::Recovered(s, c) => write!(f, "{s} recovered c{c}"),
            Step::RecoveryErased(s, c) => write!(f, "{s} erased recovered c{c}"),
            Step::Written(s) => write!(f, "{s} wrote a record"),
            Step::Prepared(s, c) => write!(f, "{s} prepared c{c}"),
            Step::Persisted(s, c) => write!(f, "{s} persisted c{c}"),
            Step::CheckpointCompleted(c) => write!(f, "checkpoint c{c} completed"),
            Step::Committed(s, c) => write!(f, "{s} committed c{c}"),
            Step::Erased(s, c) => write!(f, "{s} erased c{c}"),
        }
    }
}

/// Told about every step; an error stops the choreography there.
pub trait Tripwire {
    /// `step` has just happened.
    ///
    /// # Errors
    /// To crash the process right after `step`.
    fn reached(&mut self, step: Step) -> Result<()>;

    /// Whether this tripwire wants [`Step::Written`], the one step reached once per
    /// record. Asked once, at open: a tripwire that says no is not called per record,
    /// which in memory costs as much as the record itself.
    fn watches_writes(&self) -> bool {
        true
    }
}

/// The tripwire of a real run: never trips.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTripwire;

impl Tripwire for NoTripwire {
    /// Never crashes: in production the process dies only for real.
    fn reached(&mut self, _step: Step) -> Result<()> {
        Ok(())
    }

    fn watches_writes(&self) -> bool {
        false
    }
}

/// The error a simulator's tripwire raises: the process died right after `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crash(pub Step);

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "simulated crash right after: {}", self.0)
    }
}

impl std::error::Error for Crash {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_crashes_read_as_what_just_happened() -> Result<()> {
        let me = SubtaskId::new(1, 2)?;
        assert_eq!(Step::Committed(me, 3).to_string(), "sub1of2 committed c3");
        assert_eq!(
            Crash(Step::Persisted(me, 4)).to_string(),
            "simulated crash right after: sub1of2 persisted c4"
        );
        Ok(())
    }

    #[test]
    fn a_real_run_is_not_called_per_record() {
        assert!(!NoTripwire.watches_writes());
    }
}
