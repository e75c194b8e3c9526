//! A sink that records every call made on it, around the reference's
//! `TransactionalSink`, so two jobs can be compared call for call.

use std::cell::RefCell;
use std::rc::Rc;

use solution08::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

/// One call on a sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Write(u32),
    PreCommit(CheckpointId),
    Commit(CheckpointId),
    Abort(CheckpointId),
    AbortOpen,
}

/// The calls on every sink a job made, in creation order.
pub type Calls = Rc<RefCell<Vec<Vec<Call>>>>;

/// A `TransactionalSink` that logs each call into its own list of `Calls`.
pub struct Recording {
    calls: Calls,
    index: usize,
    sink: TransactionalSink<u32>,
}

impl Recording {
    /// A new sink, registered as the next one in `calls`.
    pub fn new(calls: &Calls) -> Self {
        let mut all = calls.borrow_mut();
        all.push(Vec::new());
        Self {
            calls: Rc::clone(calls),
            index: all.len() - 1,
            sink: TransactionalSink::new(),
        }
    }

    fn log(&self, call: Call) {
        self.calls.borrow_mut()[self.index].push(call);
    }
}

impl TwoPhaseCommitSink<u32> for Recording {
    fn write(&mut self, record: u32) {
        self.log(Call::Write(record));
        self.sink.write(record);
    }

    fn pre_commit(&mut self, id: CheckpointId) {
        self.log(Call::PreCommit(id));
        self.sink.pre_commit(id);
    }

    fn commit(&mut self, id: CheckpointId) {
        self.log(Call::Commit(id));
        self.sink.commit(id);
    }

    fn abort(&mut self, id: CheckpointId) {
        self.log(Call::Abort(id));
        self.sink.abort(id);
    }

    fn abort_open(&mut self) {
        self.log(Call::AbortOpen);
        self.sink.abort_open();
    }

    fn committed(&self) -> &[u32] {
        self.sink.committed()
    }
}
