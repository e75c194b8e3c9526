//! Stage 08's in-memory transactional sink against copying the input (`to_vec`): the
//! harshest ratio there is, since the baseline is one `memcpy`. Records are the input's
//! sequence numbers (`u64`).
//!
//! The sink is measured at three levels, as the file sink is: `minimal` is the
//! learner-level protocol alone (stage 08's `TransactionalSink`, held in a local, told
//! write, pre-commit and commit and nothing else); `verbs` is the committing sink the
//! framework sees (the stage-08 adopter over its [`TwoPhaseSystem`], which keeps the
//! registry a commit needs to tell `Committed` from `AlreadyCommitted`), driven by hand;
//! `framework` is that same sink through the base.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use committer::CommitterOperator;
use committer::NoTripwire;
use committer::connectors::{TwoPhaseAdopter, TwoPhaseSystem};
use solution08::{TransactionalSink, TwoPhaseCommitSink, run_exactly_once_sink};

use super::drive::{drive_alone, drive_operator, epochs, open_fresh, run_context, state};

/// Times `work`, then checks that its output is the input, in order (outside the
/// timing, and so is dropping the output).
fn timed_output(seqs: &[u64], work: impl FnOnce() -> Result<Vec<u64>>) -> Result<Duration> {
    let start = Instant::now();
    let output = black_box(work()?);
    let elapsed = start.elapsed();
    if output != seqs {
        bail!("the memory sink's output is not its input exactly once, in order");
    }
    Ok(elapsed)
}

/// The baseline: `records.to_vec()`.
pub fn to_vec(seqs: &[u64]) -> Result<Duration> {
    timed_output(seqs, || Ok(seqs.to_vec()))
}

/// The learner-level protocol alone: write, pre-commit and commit at every `every`th
/// record.
pub fn learner_sink_alone(seqs: &[u64], every: u64) -> Result<Duration> {
    timed_output(seqs, || {
        let mut sink = TransactionalSink::new();
        for (checkpoint, epoch) in epochs(seqs, every) {
            for &seq in epoch {
                sink.write(seq);
            }
            sink.pre_commit(checkpoint);
            sink.commit(checkpoint);
        }
        Ok(sink.into_committed())
    })
}

/// The sink as the framework's committing sink, its verbs driven by hand.
pub fn adopter_alone(seqs: &[u64], every: u64) -> Result<Duration> {
    timed_output(seqs, || {
        let mut system = TwoPhaseSystem::new(TransactionalSink::new());
        let mut adopter = TwoPhaseAdopter::new(&mut system);
        open_fresh(&mut adopter, "bench")?;
        drive_alone(&mut adopter, seqs, every, |&seq| seq)?;
        Ok(system.into_sink().into_committed())
    })
}

/// The same committing sink through the base.
pub fn sink_operator(seqs: &[u64], every: u64) -> Result<Duration> {
    timed_output(seqs, || {
        let mut system = TwoPhaseSystem::new(TransactionalSink::new());
        let operator = CommitterOperator::open(
            TwoPhaseAdopter::new(&mut system),
            state(),
            &run_context("bench")?,
            Box::new(NoTripwire),
        )?;
        drive_operator(operator, seqs, every, |&seq| seq)?;
        Ok(system.into_sink().into_committed())
    })
}

/// Stage 08's reference job, `run_exactly_once_sink`, with commit lag 1 and no crash.
pub fn reference(seqs: &[u64], every: u64) -> Result<Duration> {
    timed_output(seqs, || {
        run_exactly_once_sink(seqs, every as usize, None, 1)
    })
}
