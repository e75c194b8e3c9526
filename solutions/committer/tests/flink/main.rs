//! Flink's own tests of two-phase-commit sinks that this framework once disagreed with,
//! translated to its public API and run against every in-memory shape. Each test is
//! named after the Flink test it translates; its doc says where that test lives.

mod end_of_input;
mod lingering;
mod shapes;
mod state_restore;

use committer::{
    CommitterOperator, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId, Succession,
};
use shapes::Shape;

/// Key groups of the translated jobs.
const MAX_PARALLELISM: u32 = 128;

/// The run of subtask `index` of `parallelism` of job `job` in generation `generation`.
fn run(job: &str, generation: u64, index: u32, parallelism: u32) -> RunContext {
    let me = SubtaskId::new(index, parallelism).unwrap();
    RunContext {
        job: job.to_owned(),
        generation,
        succession: Succession::new(me, MAX_PARALLELISM).unwrap(),
        restored: None,
    }
}

/// [`run`] restoring checkpoint `restored`.
fn rerun(
    job: &str,
    generation: u64,
    (index, parallelism): (u32, u32),
    restored: u64,
) -> RunContext {
    RunContext {
        restored: Some(restored),
        ..run(job, generation, index, parallelism)
    }
}

/// Opens a sink of `shape` as `run` over `state`.
fn open<'s, S: Shape>(
    shape: &'s mut S,
    state: InMemoryOperatorState,
    run: &RunContext,
) -> CommitterOperator<S::Sink<'s>, InMemoryOperatorState> {
    CommitterOperator::open(shape.sink(), state, run, Box::new(NoTripwire)).unwrap()
}

/// The operator state a restore of checkpoint snapshot `snapshot` starts from.
fn restore(snapshot: &[u8]) -> InMemoryOperatorState {
    InMemoryOperatorState::restore(snapshot).unwrap()
}

/// Writes inputs `inputs` to `op`.
fn write<S: Shape>(
    op: &mut CommitterOperator<S::Sink<'_>, InMemoryOperatorState>,
    inputs: impl IntoIterator<Item = u32>,
) {
    for n in inputs {
        op.write(S::record(n)).unwrap();
    }
}
