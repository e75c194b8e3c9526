//! The honest baseline: append on write. At-least-once, because a replay after a crash
//! appends the replayed records again; here to show what the other shapes prevent.

use std::cell::RefCell;
use std::rc::Rc;

use anyhow::{Result, bail};

use crate::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, Mechanism, OpenContext,
    OpenTransaction,
};

/// A sink appending every record to a shared log as it arrives.
#[derive(Debug)]
pub struct AppendSink<T> {
    log: Rc<RefCell<Vec<T>>>,
}

impl<T> AppendSink<T> {
    /// A sink appending to `log`.
    pub fn new(log: Rc<RefCell<Vec<T>>>) -> Self {
        Self { log }
    }
}

impl<T> CommittingSink for AppendSink<T> {
    type Record = T;
    type Committable = ();
    const MECHANISM: Mechanism = Mechanism::PlainAppend;

    /// Nothing to reconcile: an append sink stages nothing, so a dead run leaves no
    /// orphan behind (what it appended stays appended, which is why it is at-least-once).
    fn on_open(&mut self, _context: &OpenContext<'_, ()>) -> Result<()> {
        Ok(())
    }

    fn write(&mut self, record: T) -> Result<()> {
        self.log.borrow_mut().push(record);
        Ok(())
    }

    /// Always empty: a record is visible the moment it is appended.
    fn open_transaction(&self) -> OpenTransaction {
        OpenTransaction::Empty
    }

    fn prepare_commit(&mut self, _checkpoint: CheckpointId) -> Result<Option<()>> {
        Ok(None)
    }

    fn commit(&mut self, _: &()) -> Result<CommitOutcome> {
        bail!("an append sink prepares no handle, so there is nothing to commit")
    }

    fn abort(&mut self, _: &()) -> Result<AbortOutcome> {
        bail!("an append sink prepares no handle, so there is nothing to abort")
    }
}
