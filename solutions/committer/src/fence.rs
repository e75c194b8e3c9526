//! Fencing: a run's claim on its job, checked before every effect a newer run could
//! contradict.
//!
//! Two runs of one job at once (a zombie that was presumed dead, or an operator who
//! started the job twice) would each restore the same checkpoint, write the same
//! records, and sweep each other's staged work as orphans. A fencing epoch orders them:
//! each run takes a higher epoch when it starts, and the base checks its own before
//! every cleanup, recovery, pre-commit and commit, so a run whose epoch was overtaken
//! stops at its next step instead of committing or discarding anything.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Result;

/// A run's claim on its job.
pub trait Fence {
    /// `Ok` while this run still holds the job.
    ///
    /// # Errors
    /// [`Fenced`] once a newer run took the job (or when the claim cannot be checked:
    /// an unverifiable claim must not let a commit through).
    fn check(&self) -> Result<()>;
}

// A run's subtasks share one claim.
impl<F: Fence + ?Sized> Fence for Arc<F> {
    fn check(&self) -> Result<()> {
        (**self).check()
    }
}

impl<F: Fence + ?Sized> Fence for std::rc::Rc<F> {
    fn check(&self) -> Result<()> {
        (**self).check()
    }
}

/// No fencing: for a job that can only ever run once at a time (a test, a benchmark).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFence;

impl Fence for NoFence {
    fn check(&self) -> Result<()> {
        // Nothing can overtake a run that nothing else can start.
        Ok(())
    }
}

/// The error of a run whose epoch was overtaken: its late effects are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fenced {
    /// The epoch this run took when it started.
    pub held: u64,
    /// The epoch the job is at now (a newer run's).
    pub current: u64,
}

impl fmt::Display for Fenced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "this run was fenced: it holds epoch {} but a newer run took the job at epoch {}, \
             so its late commits, aborts and cleanups are rejected; it must stop",
            self.held, self.current
        )
    }
}

impl std::error::Error for Fenced {}

/// An in-memory fencing register, shared by every run of one job: each
/// [`FenceRegister::take`] hands out a higher epoch and overtakes all earlier ones.
#[derive(Debug, Clone, Default)]
pub struct FenceRegister(Arc<AtomicU64>);

impl FenceRegister {
    /// A register no run has taken yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the job for a new run, fencing every earlier one.
    pub fn take(&self) -> FenceToken {
        let epoch = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        FenceToken {
            register: self.clone(),
            epoch,
        }
    }

    /// The latest epoch taken (0 before any).
    pub fn current(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// One run's epoch in a [`FenceRegister`].
#[derive(Debug, Clone)]
pub struct FenceToken {
    register: FenceRegister,
    epoch: u64,
}

impl FenceToken {
    /// The epoch this run holds.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
}

impl Fence for FenceToken {
    fn check(&self) -> Result<()> {
        let current = self.register.current();
        if current != self.epoch {
            return Err(Fenced {
                held: self.epoch,
                current,
            }
            .into());
        }
        Ok(())
    }
}
