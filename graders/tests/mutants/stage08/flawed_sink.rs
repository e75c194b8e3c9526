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
            flaw: PhantomData,
        }
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
        self.prepared.entry(id).or_insert(sealed);
        if F::FLAW == SinkFlaw::EvictsBeyondEightPrepared && self.prepared.len() > 8 {
            // "A transaction timeout": the oldest prepared transaction makes room.
            self.prepared.pop_first();
        }
    }
    fn commit(&mut self, id: CheckpointId) {
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
