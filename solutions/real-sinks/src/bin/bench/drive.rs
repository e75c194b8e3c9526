//! Driving a sink the two ways the bench compares: its verbs alone, and through the base.

use anyhow::Result;
use committer::{
    CommitterOperator, CommittingSink, InMemoryOperatorState, RunContext, SubtaskId, Succession,
};
use real_sinks::job::InputRecord;

/// The single subtask the bench runs.
pub fn me() -> Result<Succession> {
    Succession::new(SubtaskId::new(0, 1)?, 128)
}

/// Writes `records` through the verbs alone: prepare and commit at every `every`th record.
pub fn drive_alone<S: CommittingSink>(
    sink: &mut S,
    records: &[InputRecord],
    every: u64,
    convert: impl Fn(&InputRecord) -> S::Record,
) -> Result<()> {
    let mut checkpoint = 0;
    for (i, record) in records.iter().enumerate() {
        sink.write(convert(record))?;
        if (i as u64 + 1).is_multiple_of(every) || i + 1 == records.len() {
            checkpoint += 1;
            if let Some(handle) = sink.prepare_commit(checkpoint)? {
                sink.commit(&handle)?;
            }
        }
    }
    Ok(())
}

/// Writes `records` through the base: barrier and completion at every `every`th record.
pub fn drive_operator<S: CommittingSink>(
    mut operator: CommitterOperator<S, InMemoryOperatorState>,
    records: &[InputRecord],
    every: u64,
    convert: impl Fn(&InputRecord) -> S::Record,
) -> Result<()> {
    let mut checkpoint = 0;
    for (i, record) in records.iter().enumerate() {
        operator.write(convert(record))?;
        if (i as u64 + 1).is_multiple_of(every) || i + 1 == records.len() {
            checkpoint += 1;
            operator.on_barrier(checkpoint)?;
            operator.on_checkpoint_complete(checkpoint)?;
        }
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
    })
}

/// A fresh operator state, in memory as the pipeline keeps it.
pub fn state() -> InMemoryOperatorState {
    InMemoryOperatorState::new()
}
