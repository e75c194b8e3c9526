//! Faults of the external system and of the job's runs that the simulator injects
//! around any adopter: failing commits (transient, permanent, an expired handle), and
//! a zombie, a run presumed dead that wakes up after its successor took the job.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use anyhow::Result;
use committer::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, Fenced, InMemoryOperatorState,
    Mechanism, OpenContext, OpenTransaction,
};

/// What goes wrong with commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitFault {
    /// The next `n` commit attempts fail with an error the sink calls transient.
    Transient(u32),
    /// The first commit attempt fails with an error the sink calls permanent.
    Permanent,
    /// The first handle to be committed expires first (the system discards it).
    Expired,
}

/// An injected commit failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Injected {
    /// Whether the sink calls it transient.
    pub transient: bool,
}

impl fmt::Display for Injected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.transient {
            "transient"
        } else {
            "permanent"
        };
        write!(f, "injected {kind} commit failure")
    }
}

impl std::error::Error for Injected {}

/// The faults still to inject, shared by every sink of every attempt.
pub type SharedFault = Rc<RefCell<Option<CommitFault>>>;

/// A sink whose commits fail as the shared fault says, and otherwise are `S`'s.
pub struct Faulty<S> {
    pub inner: S,
    pub fault: SharedFault,
}

impl<S: CommittingSink> CommittingSink for Faulty<S> {
    type Record = S::Record;
    type Committable = S::Committable;
    const MECHANISM: Mechanism = S::MECHANISM;

    fn on_open(&mut self, context: &OpenContext<'_, Self::Committable>) -> Result<()> {
        self.inner.on_open(context)
    }
    fn write(&mut self, record: Self::Record) -> Result<()> {
        self.inner.write(record)
    }
    fn open_transaction(&self) -> OpenTransaction {
        self.inner.open_transaction()
    }
    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<Self::Committable>> {
        self.inner.prepare_commit(checkpoint)
    }
    fn commit(&mut self, committable: &Self::Committable) -> Result<CommitOutcome> {
        let fault = self.fault.borrow_mut().take();
        match fault {
            None => self.inner.commit(committable),
            Some(CommitFault::Transient(n)) => {
                if n > 1 {
                    *self.fault.borrow_mut() = Some(CommitFault::Transient(n - 1));
                }
                Err(Injected { transient: true }.into())
            }
            Some(CommitFault::Permanent) => Err(Injected { transient: false }.into()),
            Some(CommitFault::Expired) => {
                self.inner.abort(committable)?;
                self.inner.commit(committable)
            }
        }
    }
    fn recover(&mut self, committable: &Self::Committable) -> Result<CommitOutcome> {
        self.commit(committable)
    }
    fn abort(&mut self, committable: &Self::Committable) -> Result<AbortOutcome> {
        self.inner.abort(committable)
    }
    fn is_transient(&self, error: &anyhow::Error) -> bool {
        error
            .downcast_ref::<Injected>()
            .is_some_and(|injected| injected.transient)
    }
}

/// The operators of a run that crashed, kept alive instead of dying with it.
pub struct Zombie<S: CommittingSink> {
    pub operators: Vec<committer::CommitterOperator<S, InMemoryOperatorState>>,
    /// The next checkpoint id it would have taken.
    pub next: CheckpointId,
}

impl<S: CommittingSink> Zombie<S> {
    /// Wakes up after a newer run took the job: each subtask tries its next barrier
    /// and, if it holds a handle, the commit of everything it holds. Returns how many
    /// of those late effects were rejected as fenced; any that passes is an error.
    pub fn wake(mut self) -> Result<usize> {
        let mut rejected = 0;
        for operator in &mut self.operators {
            let holds = operator.staged_commits_outstanding()? > 0;
            let late = [
                operator.on_barrier(self.next).map(|_| ()),
                operator
                    .on_checkpoint_complete(CheckpointId::MAX)
                    .map(|_| ()),
            ];
            for (effect, result) in ["barrier", "commit"].into_iter().zip(late) {
                match result {
                    Err(e) if e.downcast_ref::<Fenced>().is_some() => rejected += 1,
                    Ok(()) if effect == "commit" && !holds => {}
                    other => anyhow::bail!("a zombie's late {effect} was not fenced: {other:?}"),
                }
            }
        }
        // Its open transactions die with it, as a process's would.
        Ok(rejected)
    }
}
