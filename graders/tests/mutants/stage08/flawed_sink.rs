//! The sink the stage-08 sink mutants share, with one mistake switched on by a flaw.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use solution08::{CheckpointId, TwoPhaseCommitSink};

/// One mistake of the sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkFlaw {
    CommitNotIdempotent,
    WriteVisibleAtOnce,
    AbortIgnored,
    AbortOpenIgnored,
    PreCommitKeepsOpen,
    UnknownCommitPublishesOpen,
    PanicsOnUnknownCommit,
    CommittedInIdOrder,
    CommitSubsumesEarlier,
    AbortUnpublishes,
    AbortUnknownClearsOpen,
    AbortOpenDropsPrepared,
    EvictsBeyondEightPrepared,
    EndedIdsInABitmask,
    PreparedInAVecById,
    IdsKeptInU32,
    SortedVecSwapRemove,
    IdZeroIsTheOpenTransaction,
    /// At most 100 transactions prepared: past that the oldest is aborted.
    AtMost100Prepared,
}

pub trait Flawed {
    const FLAW: SinkFlaw;
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct FlawedSink<T, F> {
    open: Vec<T>,
    prepared: BTreeMap<CheckpointId, Vec<T>>,
    committed: Vec<T>,
    /// Each committed transaction by id, for `CommittedInIdOrder`.
    by_id: BTreeMap<CheckpointId, Vec<T>>,
    /// Each committed transaction in commit order, for `AbortUnpublishes`.
    log: Vec<(CheckpointId, Vec<T>)>,
    /// Bit `id` set once transaction `id` ended, for `EndedIdsInABitmask`.
    ended: u64,
    /// Prepared transaction `id` at index `id`, for `PreparedInAVecById`.
    slots: Vec<Option<Vec<T>>>,
    /// The prepared transactions sorted by id, for `SortedVecSwapRemove`.
    sorted: Vec<(CheckpointId, Vec<T>)>,
    flaw: PhantomData<F>,
}

crate::stage08::snapshot::by_serde!(FlawedSink<T, F>);

impl<T, F> FlawedSink<T, F> {
    pub fn new() -> Self {
        Self {
            open: Vec::new(),
            prepared: BTreeMap::new(),
            committed: Vec::new(),
            by_id: BTreeMap::new(),
            log: Vec::new(),
            ended: 0,
            slots: Vec::new(),
            sorted: Vec::new(),
            flaw: PhantomData,
        }
    }
}

/// The id the sink files a transaction under: for `IdsKeptInU32`, its low 32 bits ("a
/// `u32` is plenty of checkpoints").
fn filed<F: Flawed>(id: CheckpointId) -> CheckpointId {
    if F::FLAW == SinkFlaw::IdsKeptInU32 {
        u64::from(id as u32)
    } else {
        id
    }
}

impl<T: Clone, F: Flawed> TwoPhaseCommitSink<T> for FlawedSink<T, F> {
    fn write(&mut self, record: T) {
        if F::FLAW == SinkFlaw::WriteVisibleAtOnce {
            self.committed.push(record.clone());
        }
        self.open.push(record);
    }
    fn pre_commit(&mut self, id: CheckpointId) {
        let sealed = if F::FLAW == SinkFlaw::PreCommitKeepsOpen {
            self.open.clone()
        } else {
            std::mem::take(&mut self.open)
        };
        if F::FLAW == SinkFlaw::EndedIdsInABitmask && self.ended & (1 << id) != 0 {
            // "An id that ended is never prepared again", in one word of bits.
            return;
        }
        if F::FLAW == SinkFlaw::PreparedInAVecById {
            // "Ids are 1, 2, 3, ...": slot `id` of a vector.
            let slot = id as usize;
            if self.slots.len() <= slot {
                self.slots.resize_with(slot + 1, || None);
            }
            self.slots[slot].get_or_insert(sealed);
            return;
        }
        if F::FLAW == SinkFlaw::SortedVecSwapRemove {
            if let Err(at) = self.sorted.binary_search_by_key(&id, |(c, _)| *c) {
                self.sorted.insert(at, (id, sealed));
            }
            return;
        }
        self.prepared.entry(filed::<F>(id)).or_insert(sealed);
        if F::FLAW == SinkFlaw::AtMost100Prepared && self.prepared.len() > 100 {
            // "A bounded staging area": the oldest prepared transaction gives way.
            self.prepared.pop_first();
        }
        if F::FLAW == SinkFlaw::EvictsBeyondEightPrepared && self.prepared.len() > 8 {
            // "A transaction timeout": the oldest prepared transaction makes room.
            self.prepared.pop_first();
        }
    }
    fn commit(&mut self, id: CheckpointId) {
        if F::FLAW == SinkFlaw::IdZeroIsTheOpenTransaction && id == 0 {
            // "Id 0 is never a checkpoint: it names the open transaction."
            self.committed.append(&mut self.open);
            return;
        }
        if F::FLAW == SinkFlaw::PreparedInAVecById {
            if let Some(records) = self.slots.get_mut(id as usize).and_then(Option::take) {
                self.committed.extend(records);
            }
            return;
        }
        if F::FLAW == SinkFlaw::SortedVecSwapRemove {
            if let Ok(at) = self.sorted.binary_search_by_key(&id, |(c, _)| *c) {
                let (_, records) = self.sorted.remove(at);
                self.committed.extend(records);
            }
            return;
        }
        let id = filed::<F>(id);
        match self.prepared.get(&id) {
            Some(records) if F::FLAW == SinkFlaw::CommitNotIdempotent => {
                self.committed.extend(records.iter().cloned());
            }
            Some(_) if F::FLAW == SinkFlaw::CommittedInIdOrder => {
                // The visible output kept by checkpoint id, not by commit order.
                let records = self.prepared.remove(&id).unwrap_or_default();
                self.by_id.insert(id, records);
                self.committed = self.by_id.values().flatten().cloned().collect();
            }
            Some(_) if F::FLAW == SinkFlaw::CommitSubsumesEarlier => {
                // Flink's notification: every transaction up to `id` is published.
                let later = self.prepared.split_off(&id.saturating_add(1));
                let due = std::mem::replace(&mut self.prepared, later);
                self.committed.extend(due.into_values().flatten());
            }
            Some(_) if F::FLAW == SinkFlaw::AbortUnpublishes => {
                let records = self.prepared.remove(&id).unwrap_or_default();
                self.committed.extend(records.iter().cloned());
                self.log.push((id, records));
            }
            Some(_) => {
                let records = self.prepared.remove(&id).unwrap_or_default();
                if F::FLAW != SinkFlaw::WriteVisibleAtOnce {
                    self.committed.extend(records);
                }
                if F::FLAW == SinkFlaw::EndedIdsInABitmask {
                    self.ended |= 1 << id;
                }
            }
            None if F::FLAW == SinkFlaw::UnknownCommitPublishesOpen => {
                self.committed.append(&mut self.open);
            }
            None if F::FLAW == SinkFlaw::PanicsOnUnknownCommit => {
                panic!("commit of unknown checkpoint {id}")
            }
            None => {}
        }
    }
    fn abort(&mut self, id: CheckpointId) {
        if F::FLAW == SinkFlaw::IdZeroIsTheOpenTransaction && id == 0 {
            self.open.clear();
            return;
        }
        if let Some(slot) = self.slots.get_mut(id as usize) {
            *slot = None;
        }
        if let Ok(at) = self.sorted.binary_search_by_key(&id, |(c, _)| *c) {
            // "Order does not matter for a removal": it does for the next search.
            self.sorted.swap_remove(at);
        }
        let id = filed::<F>(id);
        if F::FLAW == SinkFlaw::AbortUnknownClearsOpen && !self.prepared.contains_key(&id) {
            // "Abort the transaction in progress."
            self.open.clear();
        }
        if F::FLAW != SinkFlaw::AbortIgnored {
            self.prepared.remove(&id);
        }
        if F::FLAW == SinkFlaw::AbortUnpublishes && self.log.iter().any(|(c, _)| *c == id) {
            // "Abort rolls the transaction back", a committed one too.
            self.log.retain(|(c, _)| *c != id);
            self.committed = self
                .log
                .iter()
                .flat_map(|(_, r)| r.iter().cloned())
                .collect();
        }
    }
    fn abort_open(&mut self) {
        if F::FLAW != SinkFlaw::AbortOpenIgnored {
            self.open.clear();
        }
        if F::FLAW == SinkFlaw::AbortOpenDropsPrepared {
            self.prepared.clear();
        }
    }
    fn committed(&self) -> &[T] {
        &self.committed
    }
}
