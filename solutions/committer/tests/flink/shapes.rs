//! The framework's in-memory sinks behind one face, so that each of Flink's scenarios
//! runs against every shape: the XA sink, the staged artifact, stage 08's learner-level
//! sink through its adopter, and the upsert sink.

use std::cell::RefCell;
use std::rc::Rc;

use committer::CommittingSink;
use committer::connectors::{
    Change, InMemoryTable, ObjectStore, RowKind, SharedObjectStore, StagedArtifactSink,
    TwoPhaseAdopter, TwoPhaseSystem, UpsertSink, XaConnection, XaDatabase, XaSink,
};
use solution08::{TransactionalSink, TwoPhaseCommitSink};

/// One external system and the sinks that write to it.
pub trait Shape: Default {
    /// What the job writes.
    type Record;
    /// A sink over the system; one per subtask and open.
    type Sink<'a>: CommittingSink<Record = Self::Record>
    where
        Self: 'a;

    /// A new connection to the system.
    fn sink(&mut self) -> Self::Sink<'_>;
    /// The job's record for input `n`.
    fn record(n: u32) -> Self::Record;
    /// The inputs a reader of the system sees, in order.
    fn visible(&self) -> Vec<u32>;
    /// How many prepared transactions or staged artifacts wait in the system.
    fn in_doubt(&self) -> usize;
}

/// Shape B: an XA database.
#[derive(Default)]
pub struct Xa(pub Rc<RefCell<XaDatabase<u32>>>);

impl Shape for Xa {
    type Record = u32;
    type Sink<'a> = XaSink<XaConnection<u32>>;
    fn sink(&mut self) -> Self::Sink<'_> {
        XaSink::new(XaDatabase::connect(&self.0))
    }
    fn record(n: u32) -> u32 {
        n
    }
    fn visible(&self) -> Vec<u32> {
        self.0.borrow().rows().to_vec()
    }
    fn in_doubt(&self) -> usize {
        committer::connectors::XaStore::prepared_transactions(&XaDatabase::connect(&self.0))
            .unwrap()
            .len()
    }
}

/// Shape A: an object store with a staging area.
pub struct Staged(pub SharedObjectStore<u32>);

impl Default for Staged {
    fn default() -> Self {
        Self(ObjectStore::shared())
    }
}

impl Shape for Staged {
    type Record = u32;
    type Sink<'a> = StagedArtifactSink<u32>;
    fn sink(&mut self) -> Self::Sink<'_> {
        StagedArtifactSink::new(Rc::clone(&self.0))
    }
    fn record(n: u32) -> u32 {
        n
    }
    fn visible(&self) -> Vec<u32> {
        self.0.borrow().published_records()
    }
    fn in_doubt(&self) -> usize {
        self.0.borrow().staged_names().len()
    }
}

/// Shape B as stage 08 teaches it: the learner-level sink through its adopter.
pub struct Stage08(pub TwoPhaseSystem<TransactionalSink<u32>>);

impl Default for Stage08 {
    fn default() -> Self {
        Self(TwoPhaseSystem::new(TransactionalSink::new()))
    }
}

impl Shape for Stage08 {
    type Record = u32;
    type Sink<'a> = TwoPhaseAdopter<'a, u32, TransactionalSink<u32>>;
    fn sink(&mut self) -> Self::Sink<'_> {
        TwoPhaseAdopter::new(&mut self.0)
    }
    fn record(n: u32) -> u32 {
        n
    }
    fn visible(&self) -> Vec<u32> {
        self.0.sink().committed().to_vec()
    }
    fn in_doubt(&self) -> usize {
        self.0.prepared().len()
    }
}

/// Shape C: a keyed table; input `n` upserts key `n`.
pub struct Upsert(pub Rc<RefCell<InMemoryTable<u32, u32>>>);

impl Default for Upsert {
    fn default() -> Self {
        Self(InMemoryTable::shared())
    }
}

impl Shape for Upsert {
    type Record = Change<u32, u32>;
    type Sink<'a> = UpsertSink<u32, u32>;
    fn sink(&mut self) -> Self::Sink<'_> {
        UpsertSink::new(Rc::clone(&self.0))
    }
    fn record(n: u32) -> Change<u32, u32> {
        Change {
            kind: RowKind::Insert,
            key: n,
            value: n,
        }
    }
    fn visible(&self) -> Vec<u32> {
        self.0.borrow().rows().keys().copied().collect()
    }
    fn in_doubt(&self) -> usize {
        0
    }
}

/// A module of tests named `$body`, one per shape, each running `$body::<Shape>()`.
macro_rules! for_every_shape {
    ($body:ident) => {
        mod $body {
            #[test]
            fn xa() {
                super::$body::<crate::shapes::Xa>();
            }
            #[test]
            fn staged_artifact() {
                super::$body::<crate::shapes::Staged>();
            }
            #[test]
            fn stage08_adopter() {
                super::$body::<crate::shapes::Stage08>();
            }
            #[test]
            fn upsert() {
                super::$body::<crate::shapes::Upsert>();
            }
        }
    };
}
pub(crate) use for_every_shape;

/// [`for_every_shape`] for the shapes whose handles several subtasks write side by side
/// (stage 08's learner-level sink is one subtask's; an upsert sink keeps no handle).
macro_rules! for_every_parallel_shape {
    ($body:ident) => {
        mod $body {
            #[test]
            fn xa() {
                super::$body::<crate::shapes::Xa>();
            }
            #[test]
            fn staged_artifact() {
                super::$body::<crate::shapes::Staged>();
            }
        }
    };
}
pub(crate) use for_every_parallel_shape;
