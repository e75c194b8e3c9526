//! Driving a sink the two ways the bench compares: its verbs alone, and through the base.

use anyhow::Result;
use committer::{
    CommitterOperator, CommittingSink, InMemoryOperatorState, OpenContext, RunContext, RunToken,
    SubtaskId, Succession,
};

/// The single subtask the bench runs.
fn me() -> Result<Succession> {
    Succession::new(SubtaskId::new(0, 1)?, 128)
}

/// Opens `sink` as the first run of job `job` with nothing pending, as the "verbs alone"
/// paths drive it (the base does this itself on the framework paths).
pub fn open_fresh<S: CommittingSink>(sink: &mut S, job: &str) -> Result<()> {
    sink.on_open(&OpenContext {
        job,
        names: &[job.to_owned()],
        generation: 1,
        run_token: RunToken(1),
        succession: me()?,
        restored: None,
        pending: &[],
    })
}

/// The epochs of `records` at a barrier every `every` records (the last may be shorter),
/// numbered from checkpoint 1. Drivers walk epochs rather than test every record for a
/// barrier: a division per record would weigh on the in-memory paths.
pub fn epochs<I>(records: &[I], every: u64) -> impl Iterator<Item = (u64, &[I])> {
    let every = usize::try_from(every).unwrap_or(usize::MAX);
    (1..).zip(records.chunks(every))
}

/// Writes `records` through the verbs alone: prepare and commit at every `every`th record.
pub fn drive_alone<S: CommittingSink, I>(
    sink: &mut S,
    records: &[I],
    every: u64,
    convert: impl Fn(&I) -> S::Record,
) -> Result<()> {
    for (checkpoint, epoch) in epochs(records, every) {
        for record in epoch {
            sink.write(convert(record))?;
        }
        if let Some(handle) = sink.prepare_commit(checkpoint)? {
            sink.commit(&handle)?;
        }
    }
    Ok(())
}

/// Writes `records` through the base: barrier and completion at every `every`th record.
pub fn drive_operator<S: CommittingSink, I>(
    mut operator: CommitterOperator<S, InMemoryOperatorState>,
    records: &[I],
    every: u64,
    convert: impl Fn(&I) -> S::Record,
) -> Result<()> {
    let last = epochs(records, every).count() as u64;
    for (checkpoint, epoch) in epochs(records, every) {
        operator.write_all(epoch.iter().map(&convert))?;
        if checkpoint == last {
            operator.end_of_input(checkpoint)?;
        } else {
            operator.on_barrier(checkpoint)?;
        }
        operator.on_checkpoint_complete(checkpoint)?;
    }
    operator.finish()?;
    Ok(())
}

/// The run of a bench job.
pub fn run_context(job: &str) -> Result<RunContext> {
    Ok(RunContext {
        job: job.to_owned(),
        generation: 1,
        succession: me()?,
        restored: None,
    })
}

/// A fresh operator state, in memory as the pipeline keeps it.
pub fn state() -> InMemoryOperatorState {
    InMemoryOperatorState::new()
}
