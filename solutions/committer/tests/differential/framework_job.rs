//! Stage 08's job written on the framework: the same events as the direct runner
//! (`solution08::run_exactly_once_sink_with`), handed to a [`CommitterOperator`] over
//! the [`TwoPhaseAdopter`] instead of to the sink.
//!
//! | the job sees | the base does | the learner-level sink is told |
//! |---|---|---|
//! | a record | `write` | `write(record)` |
//! | the barrier of checkpoint `c` | `on_barrier(c)`: prepare, persist the handle | `pre_commit(c)` |
//! | the notification of `c` | `on_checkpoint_complete(c)`: commit, erase | `commit(c)`, the oldest prepared |
//! | end of input | `end_of_input(c)`: the last barrier, then every notification, `finish` | `pre_commit`, then every `commit` |
//! | a crash, then a restart | `open` over the dead sink with the last notified checkpoint's state: `on_open`, recovery | `abort_open`, then `abort(id)` of every unnotified `id` |
//! | the replay | `open` over a fresh sink, then as above | as above |
//!
//! Recovery re-commits the restored handles, as it must in general (a crash may fall
//! between a checkpoint's completion and its commit); here each is already committed,
//! which the adopter reports as `AlreadyCommitted` without calling the sink.

use std::collections::VecDeque;

use anyhow::{Result, bail};
use committer::connectors::{TwoPhaseAdopter, TwoPhaseSystem};
use committer::{
    CheckpointId, CommitterOperator, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId,
    Succession,
};
use solution08::TwoPhaseCommitSink;

type Operator<'a, T, S> = CommitterOperator<TwoPhaseAdopter<'a, T, S>, InMemoryOperatorState>;

/// What `run_exactly_once_sink_with` promises, through the framework.
pub fn run_on_framework<T: Clone, S: TwoPhaseCommitSink<T>>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    mut new_sink: impl FnMut() -> S,
) -> Result<Vec<T>> {
    if barrier_every == 0 {
        bail!("barrier_every must be at least 1, got 0");
    }
    let cadence = (barrier_every, commit_lag);
    let Some(crash_after) = crash_after else {
        let mut system = TwoPhaseSystem::new(new_sink());
        let operator = open(&mut system, InMemoryOperatorState::new(), (1, None))?;
        Attempt::start(records, 0, 1, cadence, operator).run_to_end()?;
        return Ok(system.sink().committed().to_vec());
    };
    if crash_after > records.len() {
        bail!(
            "crash_after must be at most the number of records ({}), got {crash_after}",
            records.len()
        );
    }

    let mut dead = TwoPhaseSystem::new(new_sink());
    let operator = open(&mut dead, InMemoryOperatorState::new(), (1, None))?;
    let crashed = Attempt::start(records, 0, 1, cadence, operator).run_until_crash(crash_after)?;

    // The restart opens over the dead sink with the last notified checkpoint's state:
    // the adopter's `on_open` aborts what no restored handle names.
    let restored = match &crashed.last_notified {
        Some(checkpoint) => InMemoryOperatorState::restore(&checkpoint.state)?,
        None => InMemoryOperatorState::new(),
    };
    let restart = (2, crashed.last_notified.as_ref().map(|c| c.id));
    let (_, recovered) = open(&mut dead, restored, restart)?.finish()?;
    let mut output = dead.sink().committed().to_vec();

    let mut fresh = TwoPhaseSystem::new(new_sink());
    let operator = open(&mut fresh, recovered, restart)?;
    let from = crashed.last_notified.map_or(0, |c| c.offset);
    Attempt::start(records, from, crashed.next_id, cadence, operator).run_to_end()?;
    output.extend_from_slice(fresh.sink().committed());
    Ok(output)
}

/// Opens the sink operator of generation `generation` (one run token per start of the
/// job) over `system`, with `state` restored from checkpoint `restored`.
fn open<T, S: TwoPhaseCommitSink<T>>(
    system: &mut TwoPhaseSystem<S>,
    state: InMemoryOperatorState,
    (generation, restored): (u64, Option<CheckpointId>),
) -> Result<Operator<'_, T, S>> {
    let run = RunContext {
        job: "stage08".to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1)?, 1)?,
        restored,
    };
    CommitterOperator::open(
        TwoPhaseAdopter::new(system),
        state,
        &run,
        Box::new(NoTripwire),
    )
}

/// A checkpoint: its id, the offset of its barrier, the operator state at the barrier.
struct Checkpoint {
    id: CheckpointId,
    offset: usize,
    state: Vec<u8>,
}

/// Which checkpoint a barrier takes.
#[derive(Debug, Clone, Copy)]
enum Take {
    /// Every `barrier_every` records.
    Periodic,
    /// The final one, at end of input.
    EndOfInput,
}

/// What survives a crash: the last notified checkpoint and the next id.
struct Crashed {
    last_notified: Option<Checkpoint>,
    next_id: CheckpointId,
}

/// One incarnation of the job.
struct Attempt<'r, 'a, T, S: TwoPhaseCommitSink<T>> {
    records: &'r [T],
    position: usize,
    barrier_every: usize,
    commit_lag: usize,
    operator: Operator<'a, T, S>,
    in_flight: VecDeque<Checkpoint>,
    crashed: Crashed,
}

impl<'r, 'a, T: Clone, S: TwoPhaseCommitSink<T>> Attempt<'r, 'a, T, S> {
    fn start(
        records: &'r [T],
        from: usize,
        first_id: CheckpointId,
        (barrier_every, commit_lag): (usize, usize),
        operator: Operator<'a, T, S>,
    ) -> Self {
        Self {
            records,
            position: from,
            barrier_every,
            commit_lag,
            operator,
            in_flight: VecDeque::new(),
            crashed: Crashed {
                last_notified: None,
                next_id: first_id,
            },
        }
    }

    fn run_to_end(mut self) -> Result<()> {
        self.advance(self.records.len())?;
        self.take_checkpoint(Take::EndOfInput)?;
        while let Some(checkpoint) = self.in_flight.pop_front() {
            self.notify(checkpoint)?;
        }
        self.operator.finish()?;
        Ok(())
    }

    fn run_until_crash(mut self, crash_after: usize) -> Result<Crashed> {
        self.advance(crash_after)?;
        Ok(self.crashed)
    }

    fn advance(&mut self, until: usize) -> Result<()> {
        while self.position < until {
            self.operator.write(self.records[self.position].clone())?;
            self.position += 1;
            if self.position.is_multiple_of(self.barrier_every) {
                self.take_checkpoint(Take::Periodic)?;
                while self.in_flight.len() > self.commit_lag {
                    let oldest = self.in_flight.pop_front().expect("longer than the lag");
                    self.notify(oldest)?;
                }
            }
        }
        Ok(())
    }

    fn take_checkpoint(&mut self, take: Take) -> Result<()> {
        let id = self.crashed.next_id;
        self.crashed.next_id += 1;
        let state = match take {
            Take::Periodic => self.operator.on_barrier(id)?,
            Take::EndOfInput => self.operator.end_of_input(id)?,
        };
        self.in_flight.push_back(Checkpoint {
            id,
            offset: self.position,
            state,
        });
        Ok(())
    }

    fn notify(&mut self, checkpoint: Checkpoint) -> Result<()> {
        self.operator.on_checkpoint_complete(checkpoint.id)?;
        self.crashed.last_notified = Some(checkpoint);
        Ok(())
    }
}
