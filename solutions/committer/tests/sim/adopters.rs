//! Each delivery shape's adopter with its external system, its input and its verdict.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::rc::Rc;

use committer::CommittingSink;
use committer::connectors::{
    AppendSink, Change, InMemoryTable, ObjectStore, RowKind, SharedObjectStore, StagedArtifactSink,
    UpsertSink, XaConnection, XaDatabase, XaSink,
};

/// A shape under test: builds sinks on one external system that outlives every crash.
pub trait Adopter {
    /// The input record.
    type Record: Clone + Debug;
    /// The sink.
    type Sink: CommittingSink<Record = Self::Record>;
    /// A fresh external system.
    fn fresh() -> Self;
    /// The input of length `len` (with duplicates on purpose).
    fn input(len: usize) -> Vec<Self::Record>;
    /// The bytes that route a record to a subtask.
    fn routing_key(record: &Self::Record) -> Vec<u8>;
    /// A new sink instance (one per subtask per run).
    fn open_sink(&self) -> Self::Sink;
    /// `Ok` when the external system holds `input` exactly once with nothing left
    /// staged, prepared or open; otherwise what is wrong.
    fn verdict(&self, input: &[Self::Record]) -> Result<(), String>;
    /// How many records (rows, for an upsert table) a reader sees.
    fn visible(&self) -> usize;
}

fn values(len: usize) -> Vec<u32> {
    // Duplicates on purpose: two equal records are two records.
    (0..len).map(|i| (i as u32 * 7) % 5).collect()
}

fn same_multiset<T: Ord + Clone + Debug>(got: &[T], want: &[T]) -> Result<(), String> {
    let (mut got, mut want) = (got.to_vec(), want.to_vec());
    got.sort();
    want.sort();
    if got == want {
        Ok(())
    } else {
        Err(format!("visible {got:?}, expected {want:?}"))
    }
}

/// Shape A: staged artifacts, atomic publish.
pub struct ShapeA(pub SharedObjectStore<u32>);

impl Adopter for ShapeA {
    type Record = u32;
    type Sink = StagedArtifactSink<u32>;
    fn fresh() -> Self {
        Self(ObjectStore::shared())
    }
    fn input(len: usize) -> Vec<u32> {
        values(len)
    }
    fn routing_key(record: &u32) -> Vec<u8> {
        format!("k{record}").into_bytes()
    }
    fn open_sink(&self) -> Self::Sink {
        StagedArtifactSink::new(Rc::clone(&self.0))
    }
    fn verdict(&self, input: &[u32]) -> Result<(), String> {
        let store = self.0.borrow();
        if !store.staged_names().is_empty() {
            return Err(format!("staged artifacts left: {:?}", store.staged_names()));
        }
        same_multiset(&store.published_records(), input)
    }
    fn visible(&self) -> usize {
        self.0.borrow().published_records().len()
    }
}

/// Shape B: XA transactions.
pub struct ShapeB(pub Rc<RefCell<XaDatabase<u32>>>);

impl Adopter for ShapeB {
    type Record = u32;
    type Sink = XaSink<XaConnection<u32>>;
    fn fresh() -> Self {
        Self(XaDatabase::shared())
    }
    fn input(len: usize) -> Vec<u32> {
        values(len)
    }
    fn routing_key(record: &u32) -> Vec<u8> {
        format!("k{record}").into_bytes()
    }
    fn open_sink(&self) -> Self::Sink {
        XaSink::new(XaDatabase::connect(&self.0))
    }
    fn verdict(&self, input: &[u32]) -> Result<(), String> {
        use committer::connectors::XaStore;
        let prepared = XaDatabase::connect(&self.0)
            .prepared_transactions()
            .unwrap();
        let db = self.0.borrow();
        if !prepared.is_empty() || db.open_transactions() > 0 {
            return Err(format!(
                "left behind: prepared {prepared:?}, {} open",
                db.open_transactions()
            ));
        }
        same_multiset(db.rows(), input)
    }
    fn visible(&self) -> usize {
        self.0.borrow().rows().len()
    }
}

/// Shape C: idempotent upserts of a changelog.
pub struct ShapeC(pub Rc<RefCell<InMemoryTable<u8, u32>>>);

impl ShapeC {
    /// The table the whole changelog, applied once in order, leaves.
    pub fn oracle(input: &[Change<u8, u32>]) -> BTreeMap<u8, u32> {
        let mut table = BTreeMap::new();
        for change in input {
            if change.kind.keeps_row() {
                table.insert(change.key, change.value);
            } else {
                table.remove(&change.key);
            }
        }
        table
    }
}

impl Adopter for ShapeC {
    type Record = Change<u8, u32>;
    type Sink = UpsertSink<u8, u32>;
    fn fresh() -> Self {
        Self(InMemoryTable::shared())
    }
    /// Per key a valid changelog: insert, update-before, update-after, delete, again.
    fn input(len: usize) -> Vec<Change<u8, u32>> {
        let mut current: BTreeMap<u8, u32> = BTreeMap::new();
        (0..len as u32)
            .map(|i| {
                let key = (i % 3) as u8;
                let kind = [
                    RowKind::Insert,
                    RowKind::UpdateBefore,
                    RowKind::UpdateAfter,
                    RowKind::Delete,
                ][(i / 3 % 4) as usize];
                let value = match kind {
                    RowKind::Insert | RowKind::UpdateAfter => i,
                    RowKind::UpdateBefore | RowKind::Delete => current[&key],
                };
                current.insert(key, value);
                Change { kind, key, value }
            })
            .collect()
    }
    fn routing_key(record: &Change<u8, u32>) -> Vec<u8> {
        vec![record.key]
    }
    fn open_sink(&self) -> Self::Sink {
        UpsertSink::new(Rc::clone(&self.0))
    }
    fn verdict(&self, input: &[Change<u8, u32>]) -> Result<(), String> {
        let want = Self::oracle(input);
        let got = self.0.borrow().rows().clone();
        if got == want {
            Ok(())
        } else {
            Err(format!("table {got:?}, expected {want:?}"))
        }
    }
    fn visible(&self) -> usize {
        self.0.borrow().rows().len()
    }
}

/// The at-least-once baseline: append on write.
pub struct AppendShape(pub Rc<RefCell<Vec<u32>>>);

impl Adopter for AppendShape {
    type Record = u32;
    type Sink = AppendSink<u32>;
    fn fresh() -> Self {
        Self(Rc::default())
    }
    fn input(len: usize) -> Vec<u32> {
        values(len)
    }
    fn routing_key(record: &u32) -> Vec<u8> {
        format!("k{record}").into_bytes()
    }
    fn open_sink(&self) -> Self::Sink {
        AppendSink::new(Rc::clone(&self.0))
    }
    fn verdict(&self, input: &[u32]) -> Result<(), String> {
        same_multiset(&self.0.borrow(), input)
    }
    fn visible(&self) -> usize {
        self.0.borrow().len()
    }
}
