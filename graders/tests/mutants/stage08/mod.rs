//! Stage 08 mutants: sinks that publish too early or twice, and jobs that commit before
//! the notification, forget to abort, or replay from the wrong place.
//!
//! Each mutant is the reference with one mistake. The runner mistakes share one small
//! job ([`template::run`]) switched by a [`template::Flaw`]; the sink mistakes share one
//! sink ([`flawed_sink::FlawedSink`]). Each is rejected by the check *and* with the anomaly
//! its doc comment names. A few correct variants that differ from the reference in
//! inessential ways (the replayed tail as one transaction, no checkpoint for an empty
//! trailing transaction, a replay that commits without commit lag) must pass.

use graders::harness::{Fault, StageReport};
use graders::stage08::{TransactionalSinkStage, drive};

use crate::{accepted, fail};

/// Fails the test unless the first failure of `check` in `report` is `anomaly` (a wrong
/// output whose description starts with the anomaly's name, or a panic).
fn expect_anomaly(report: &StageReport, check: &str, anomaly: &str) {
    let failure = report
        .checks
        .iter()
        .find(|c| c.name == check)
        .and_then(|c| c.first_failure.as_ref())
        .expect("a failing check has a first failure");
    match &failure.fault {
        Fault::Wrong { actual, .. } if actual.starts_with(anomaly) => {}
        Fault::Panicked { .. } if anomaly == "panicked" => {}
        other => fail(&format!(
            "expected the anomaly `{anomaly}`, got {other:#?} in {failure:#?}"
        )),
    }
}

mod flawed_sink;
mod template;

/// The report of the stage-08 grader driving through `drive`, which must reject the
/// mutant with `check`, its smallest failing case naming `requirement`.
pub(crate) fn rejects_for(
    drive: fn(&graders::stage08::Case) -> graders::stage08::Observation,
    check: &str,
    requirement: &str,
) -> StageReport {
    graders::harness::expect_rejected_for::<TransactionalSinkStage>(drive, check, requirement)
        .unwrap_or_else(|why| fail(&why))
}

/// A mutant module whose job has `$flaw` (the reference's sink).
macro_rules! flawed_job {
    ($(#[$doc:meta])* $module:ident, $flaw:ident, $binding:ident, $spy:ident) => {
        $(#[$doc])*
        mod $module {
            pub use solution08::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

            pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                new_sink: impl FnMut() -> S,
            ) -> anyhow::Result<Vec<T>> {
                crate::stage08::template::run(
                    crate::stage08::template::Flaw::$flaw,
                    records,
                    barrier_every,
                    crash_after,
                    commit_lag,
                    new_sink,
                )
            }

            pub fn run_exactly_once_sink<T: Clone>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<Vec<T>> {
                run_exactly_once_sink_with(records, barrier_every, crash_after, commit_lag, || {
                    TransactionalSink::new()
                })
            }
        }
        graders::impl_stage08!($binding, $spy, $module);
    };
}

/// A mutant module whose sink has `$flaw` (the reference's job).
macro_rules! flawed_sink {
    ($(#[$doc:meta])* $module:ident, $flaw:ident, $binding:ident, $spy:ident) => {
        $(#[$doc])*
        mod $module {
            pub use solution08::{CheckpointId, TwoPhaseCommitSink, run_exactly_once_sink_with};

            pub struct Flaw;
            impl crate::stage08::flawed_sink::Flawed for Flaw {
                const FLAW: crate::stage08::flawed_sink::SinkFlaw =
                    crate::stage08::flawed_sink::SinkFlaw::$flaw;
            }
            pub type TransactionalSink<T> = crate::stage08::flawed_sink::FlawedSink<T, Flaw>;

            pub fn run_exactly_once_sink<T: Clone>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<Vec<T>> {
                run_exactly_once_sink_with(records, barrier_every, crash_after, commit_lag, || {
                    TransactionalSink::new()
                })
            }
        }
        graders::impl_stage08!($binding, $spy, $module);
    };
}

#[macro_use]
mod brief_edges;
mod commit_order;
mod edges;
mod notifications;
mod recovery;
mod red_team;
mod sink;
mod slips;
mod snapshot;
mod trace;
mod wordings;

// ---- correct variants, which must pass ----

flawed_job!(
    tail_as_one_transaction,
    TailAsOneTransaction,
    OneTail,
    OneTailSpy
);
accepted!(replaying_the_tail_as_one_transaction_passes: TransactionalSinkStage, drive::<OneTail>);

flawed_job!(skip_empty_final, SkipEmptyFinal, SkipEmpty, SkipEmptySpy);
accepted!(skipping_an_empty_final_checkpoint_passes: TransactionalSinkStage, drive::<SkipEmpty>);

flawed_job!(
    replay_ignores_lag,
    ReplayIgnoresLag,
    EagerReplay,
    EagerReplaySpy
);
accepted!(a_replay_committing_without_lag_passes: TransactionalSinkStage, drive::<EagerReplay>);

/// The reference whose errors open with a capital letter ("Barrier_every must be at
/// least 1", "Crash_after 4 is past the end"): the brief leaves the case of a message's
/// letters to the learner, so a bad argument is still named.
mod capitalised {
    pub use solution08::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

    fn capitalised(e: anyhow::Error) -> anyhow::Error {
        let message = format!("{e:#}");
        let mut letters = message.chars();
        let first = letters.next().map(|c| c.to_uppercase().collect::<String>());
        anyhow::anyhow!("{}{}", first.unwrap_or_default(), letters.as_str())
    }

    pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
        records: &[T],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        new_sink: impl FnMut() -> S,
    ) -> anyhow::Result<Vec<T>> {
        solution08::run_exactly_once_sink_with(
            records,
            barrier_every,
            crash_after,
            commit_lag,
            new_sink,
        )
        .map_err(capitalised)
    }

    pub fn run_exactly_once_sink<T: Clone>(
        records: &[T],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<Vec<T>> {
        solution08::run_exactly_once_sink(records, barrier_every, crash_after, commit_lag)
            .map_err(capitalised)
    }
}
graders::impl_stage08!(Capitalised, CapitalisedSpy, capitalised);
accepted!(errors_opening_with_a_capital_letter_pass: TransactionalSinkStage, drive::<Capitalised>);

graders::impl_stage08!(Reference, ReferenceSpy, solution08);
accepted!(the_reference_passes: TransactionalSinkStage, drive::<Reference>);
