//! One attempt of the job: read, count, emit, take checkpoints, complete them later.

use std::collections::{BTreeMap, VecDeque};

use anyhow::{Context, Result};
use stage01::{Offset, Source, VecSource};

use crate::counter::WordCounter;
use crate::{CheckpointId, CheckpointStore, StoredCheckpoint};

/// When checkpoints are taken and when they complete.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cadence {
    /// A checkpoint is taken after every this many records (at least 1).
    pub(crate) barrier_every: usize,
    /// A checkpoint completes this many barriers after it was taken.
    pub(crate) commit_lag: usize,
}

/// A running job: everything in here is lost in a crash, except what it put in the
/// store and what it emitted.
pub(crate) struct Job<'s, S> {
    cadence: Cadence,
    source: VecSource<String>,
    counter: WordCounter,
    // Taken and saved, oldest first, not yet completed.
    in_flight: VecDeque<CheckpointId>,
    store: &'s mut S,
}

impl<'s, S: CheckpointStore> Job<'s, S> {
    /// A job over `words`, fresh or resuming from a completed checkpoint.
    pub(crate) fn start(
        words: &[String],
        cadence: Cadence,
        from: Option<StoredCheckpoint>,
        store: &'s mut S,
    ) -> Result<Self> {
        let mut source = VecSource::new(words.to_vec());
        let counter = match from {
            None => WordCounter::default(),
            Some(checkpoint) => {
                // State and position come from the same cut, so every record is counted
                // exactly once: those before `offset` are in the state, the rest replay.
                source.seek(checkpoint.offset).with_context(|| {
                    format!("restoring checkpoint {}: bad offset", checkpoint.id)
                })?;
                WordCounter::restore(&checkpoint.state)?
            }
        };
        Ok(Self {
            cadence,
            source,
            counter,
            in_flight: VecDeque::new(),
            store,
        })
    }

    /// Processes records until the source position reaches `stop` or the input ends,
    /// appending every emission to `emitted` (the outside world, which keeps it).
    pub(crate) fn process_until(
        &mut self,
        stop: Offset,
        emitted: &mut Vec<(String, u64)>,
    ) -> Result<()> {
        while self.source.position() < stop {
            let Some(word) = self.source.poll() else {
                break;
            };
            emitted.push(self.counter.apply(word));
            let offset = self.source.position();
            if offset.is_multiple_of(self.cadence.barrier_every as Offset) {
                self.take_checkpoint(offset / self.cadence.barrier_every as Offset, offset)?;
            }
        }
        Ok(())
    }

    /// The barrier after record `offset`: save checkpoint `id` (state after that record),
    /// then complete the checkpoints this barrier makes durable.
    fn take_checkpoint(&mut self, id: CheckpointId, offset: Offset) -> Result<()> {
        self.store.save(id, offset, self.counter.snapshot()?)?;
        self.in_flight.push_back(id);
        // A checkpoint completes `commit_lag` barriers after its own: with lag 0 at
        // once, with lag 1 at the next barrier, ...
        while self.in_flight.len() > self.cadence.commit_lag {
            if let Some(oldest) = self.in_flight.pop_front() {
                self.store.complete(oldest)?;
            }
        }
        Ok(())
    }

    /// The end of the input: no barrier will come to complete what is in flight, so it
    /// all completes now. Returns the final counts.
    pub(crate) fn finish(mut self) -> Result<BTreeMap<String, u64>> {
        while let Some(id) = self.in_flight.pop_front() {
            self.store.complete(id)?;
        }
        Ok(self.counter.into_counts())
    }
}
