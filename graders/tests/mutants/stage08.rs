//! Stage 08 mutants: sinks that publish too early or twice, and jobs that commit before
//! the notification, forget to abort, or replay from the wrong place.
//!
//! Each mutant is the reference with one mistake. The runner mistakes share one small
//! job ([`template::run`]) switched by a [`template::Flaw`]; the sink mistakes share one
//! sink ([`template::FlawedSink`]). Each is rejected by the check *and* with the anomaly
//! its doc comment names. A few correct variants that differ from the reference in
//! inessential ways (the replayed tail as one transaction, no checkpoint for an empty
//! trailing transaction, a replay that commits without commit lag) must pass.

use graders::harness::Fault;
use graders::stage08::{TransactionalSinkStage, drive};

use crate::accepted;

/// Fails the test, printing `why` first: the harness's panic hook keeps panic messages
/// for its reports, so a plain `panic!` message would not be shown.
fn fail(why: &str) -> ! {
    eprintln!("{why}");
    panic!("{why}");
}

/// Asserts that `check` rejects the mutant and that its report names `anomaly`.
macro_rules! rejected_with {
    ($test:ident: $binding:ty => $check:literal, $anomaly:literal) => {
        #[test]
        fn $test() {
            let report = graders::harness::expect_rejected::<TransactionalSinkStage>(
                drive::<$binding>,
                $check,
            )
            .unwrap_or_else(|why| fail(&why));
            let failure = report
                .checks
                .iter()
                .find(|c| c.name == $check)
                .and_then(|c| c.first_failure.as_ref())
                .expect("a failing check has a first failure");
            match &failure.fault {
                Fault::Wrong { actual, .. } if actual.starts_with($anomaly) => {}
                Fault::Panicked { .. } if $anomaly == "panicked" => {}
                other => fail(&format!(
                    "expected the anomaly `{}`, got {other:#?} in {failure:#?}",
                    $anomaly
                )),
            }
        }
    };
}

mod template {
    use std::collections::{BTreeMap, VecDeque};
    use std::marker::PhantomData;

    use anyhow::{Result, bail};
    use solution08::{CheckpointId, TwoPhaseCommitSink};

    /// One mistake (or inessential difference) of the job.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Flaw {
        Shortcut,
        IgnoreLag,
        LateByOne,
        NewestFirst,
        NoAbortOnCrash,
        AbortOnlyOpen,
        CommitPendingOnCrash,
        TailNeverCommitted,
        ReplayFromZero,
        ReplayFromLastTaken,
        ReplayIntoOldSink,
        NoFinalPreCommit,
        CrashBeforeBarrier,
        FinalReusesId,
        NoBarrierCheck,
        ClampCrash,
        UnnamedError,
        // Correct variants.
        TailAsOneTransaction,
        SkipEmptyFinal,
        ReplayIgnoresLag,
    }

    struct Job<S> {
        flaw: Flaw,
        sink: S,
        barrier_every: usize,
        commit_lag: usize,
        next_id: CheckpointId,
        pending: VecDeque<(CheckpointId, usize)>,
        last_notified: usize,
        last_taken: usize,
        written_since_barrier: usize,
        replaying: bool,
    }

    impl<S> Job<S> {
        fn write<T>(&mut self, record: T)
        where
            S: TwoPhaseCommitSink<T>,
        {
            self.sink.write(record);
            self.written_since_barrier += 1;
        }

        fn barrier<T>(&mut self, offset: usize)
        where
            S: TwoPhaseCommitSink<T>,
        {
            let id = self.next_id;
            self.next_id += 1;
            self.sink.pre_commit(id);
            self.written_since_barrier = 0;
            self.pending.push_back((id, offset));
            self.last_taken = offset;
            let commit_lag = match self.flaw {
                Flaw::IgnoreLag => 0,
                Flaw::ReplayIgnoresLag if self.replaying => 0,
                Flaw::LateByOne => self.commit_lag + 1,
                _ => self.commit_lag,
            };
            while self.pending.len() > commit_lag {
                let (id, offset) = if self.flaw == Flaw::NewestFirst {
                    self.pending.pop_back()
                } else {
                    self.pending.pop_front()
                }
                .unwrap_or_default();
                self.sink.commit(id);
                self.last_notified = offset;
            }
        }

        fn finish<T>(&mut self, len: usize)
        where
            S: TwoPhaseCommitSink<T>,
        {
            let skip = match self.flaw {
                Flaw::NoFinalPreCommit => true,
                Flaw::SkipEmptyFinal => self.written_since_barrier == 0,
                _ => false,
            };
            if !skip {
                if self.flaw == Flaw::FinalReusesId {
                    self.next_id -= 1;
                }
                let id = self.next_id;
                self.sink.pre_commit(id);
                self.pending.push_back((id, len));
            }
            for (id, _) in self.pending.drain(..) {
                self.sink.commit(id);
            }
        }

        fn run<T: Clone>(&mut self, records: &[T], from: usize, until: usize, barriers: bool)
        where
            S: TwoPhaseCommitSink<T>,
        {
            for (i, record) in records.iter().enumerate().take(until).skip(from) {
                let position = i + 1;
                self.write(record.clone());
                if !barriers || position % self.barrier_every != 0 {
                    continue;
                }
                if self.flaw == Flaw::CrashBeforeBarrier && position == until && !self.replaying {
                    return;
                }
                self.barrier(position);
            }
        }
    }

    pub fn run<T: Clone, S: TwoPhaseCommitSink<T>>(
        flaw: Flaw,
        records: &[T],
        barrier_every: usize,
        mut crash_after: Option<usize>,
        commit_lag: usize,
        mut new_sink: impl FnMut() -> S,
    ) -> Result<Vec<T>> {
        let len = records.len();
        match flaw {
            Flaw::UnnamedError if barrier_every == 0 || crash_after.is_some_and(|k| k > len) => {
                bail!("invalid configuration")
            }
            Flaw::NoBarrierCheck => {}
            _ if barrier_every == 0 => bail!("barrier_every must be at least 1, got 0"),
            Flaw::ClampCrash => crash_after = crash_after.filter(|k| *k <= len),
            _ if crash_after.is_some_and(|k| k > len) => {
                bail!("crash_after must be at most {len}, got {crash_after:?}")
            }
            _ => {}
        }
        if flaw == Flaw::Shortcut {
            return Ok(records.to_vec());
        }
        let mut job = Job {
            flaw,
            sink: new_sink(),
            barrier_every,
            commit_lag,
            next_id: 1,
            pending: VecDeque::new(),
            last_notified: 0,
            last_taken: 0,
            written_since_barrier: 0,
            replaying: false,
        };
        let Some(k) = crash_after else {
            job.run(records, 0, len, true);
            job.finish(len);
            return Ok(job.sink.committed().to_vec());
        };
        job.run(records, 0, k, true);
        match flaw {
            Flaw::NoAbortOnCrash => {}
            Flaw::AbortOnlyOpen => job.sink.abort_open(),
            Flaw::CommitPendingOnCrash => {
                for (id, _) in job.pending.drain(..) {
                    job.sink.commit(id);
                }
            }
            _ => {
                job.sink.abort_open();
                for (id, _) in job.pending.drain(..) {
                    job.sink.abort(id);
                }
            }
        }
        job.pending.clear();
        let from = match flaw {
            Flaw::ReplayFromZero => 0,
            Flaw::ReplayFromLastTaken => job.last_taken,
            _ => job.last_notified,
        };
        if flaw == Flaw::ReplayIntoOldSink {
            job.run(records, from, len, true);
            job.finish(len);
            return Ok(job.sink.committed().to_vec());
        }
        let mut output = job.sink.committed().to_vec();
        job.sink = new_sink();
        job.replaying = true;
        job.written_since_barrier = 0;
        if flaw == Flaw::TailAsOneTransaction {
            // A fresh sink numbers its own transactions from 1.
            job.next_id = 1;
        }
        job.run(records, from, len, flaw != Flaw::TailAsOneTransaction);
        if flaw != Flaw::TailNeverCommitted {
            job.finish(len);
        }
        output.extend_from_slice(job.sink.committed());
        Ok(output)
    }

    /// One mistake of the sink.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SinkFlaw {
        CommitNotIdempotent,
        WriteVisibleAtOnce,
        AbortIgnored,
        AbortOpenIgnored,
        PreCommitKeepsOpen,
        UnknownCommitPublishesOpen,
    }

    pub trait Flawed {
        const FLAW: SinkFlaw;
    }

    pub struct FlawedSink<T, F> {
        open: Vec<T>,
        prepared: BTreeMap<CheckpointId, Vec<T>>,
        committed: Vec<T>,
        flaw: PhantomData<F>,
    }

    impl<T, F> FlawedSink<T, F> {
        pub fn new() -> Self {
            Self {
                open: Vec::new(),
                prepared: BTreeMap::new(),
                committed: Vec::new(),
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
            self.prepared.entry(id).or_insert(sealed);
        }
        fn commit(&mut self, id: CheckpointId) {
            match self.prepared.get(&id) {
                Some(records) if F::FLAW == SinkFlaw::CommitNotIdempotent => {
                    self.committed.extend(records.iter().cloned());
                }
                Some(_) => {
                    let records = self.prepared.remove(&id).unwrap_or_default();
                    if F::FLAW != SinkFlaw::WriteVisibleAtOnce {
                        self.committed.extend(records);
                    }
                }
                None if F::FLAW == SinkFlaw::UnknownCommitPublishesOpen => {
                    self.committed.append(&mut self.open);
                }
                None => {}
            }
        }
        fn abort(&mut self, id: CheckpointId) {
            if F::FLAW != SinkFlaw::AbortIgnored {
                self.prepared.remove(&id);
            }
        }
        fn abort_open(&mut self) {
            if F::FLAW != SinkFlaw::AbortOpenIgnored {
                self.open.clear();
            }
        }
        fn committed(&self) -> &[T] {
            &self.committed
        }
    }
}

/// A mutant module whose job has `$flaw` (the reference's sink).
macro_rules! flawed_job {
    ($module:ident, $flaw:ident, $binding:ident, $spy:ident) => {
        mod $module {
            pub use solution08::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

            pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                new_sink: impl FnMut() -> S,
            ) -> anyhow::Result<Vec<T>> {
                super::template::run(
                    super::template::Flaw::$flaw,
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
    ($module:ident, $flaw:ident, $binding:ident, $spy:ident) => {
        mod $module {
            pub use solution08::{CheckpointId, TwoPhaseCommitSink, run_exactly_once_sink_with};

            pub struct Flaw;
            impl super::template::Flawed for Flaw {
                const FLAW: super::template::SinkFlaw = super::template::SinkFlaw::$flaw;
            }
            pub type TransactionalSink<T> = super::template::FlawedSink<T, Flaw>;

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

// ---- the sink ----

/// **Mistake:** `commit` publishes the prepared records but leaves the transaction
/// prepared, so a repeated notification publishes them again.
/// **Verdict:** `sink-model`, "sink breaks the contract" (`commit(1), commit(1)`).
const _COMMIT_NOT_IDEMPOTENT: () = ();
flawed_sink!(
    commit_not_idempotent,
    CommitNotIdempotent,
    CommitTwice,
    CommitTwiceSpy
);
rejected_with!(commit_not_idempotent_is_rejected: CommitTwice => "sink-model", "sink breaks the contract");

/// **Mistake:** `write` publishes at once (an at-least-once sink dressed as a
/// transactional one).
/// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1)` is visible), and
/// `exactly-once` finds the duplicates a crash produces.
const _WRITE_VISIBLE_AT_ONCE: () = ();
flawed_sink!(write_visible_at_once, WriteVisibleAtOnce, Eager, EagerSpy);
rejected_with!(write_visible_at_once_is_rejected: Eager => "sink-model", "sink breaks the contract");
rejected_with!(write_visible_at_once_duplicates: Eager => "exactly-once", "duplicate");

/// **Mistake:** `abort` does nothing, so a later `commit` of the id publishes aborted data.
/// **Verdict:** `sink-model`, "sink breaks the contract".
const _ABORT_IGNORED: () = ();
flawed_sink!(abort_ignored, AbortIgnored, NoAbort, NoAbortSpy);
rejected_with!(abort_ignored_is_rejected: NoAbort => "sink-model", "sink breaks the contract");

/// **Mistake:** `abort_open` does nothing: the aborted records ride along in the next
/// pre-commit. The job never reuses a crashed sink, so only the sink alone shows it.
/// **Verdict:** `sink-model`, "sink breaks the contract".
const _ABORT_OPEN_IGNORED: () = ();
flawed_sink!(
    abort_open_ignored,
    AbortOpenIgnored,
    NoAbortOpen,
    NoAbortOpenSpy
);
rejected_with!(abort_open_ignored_is_rejected: NoAbortOpen => "sink-model", "sink breaks the contract");

/// **Mistake:** `pre_commit` copies the open transaction instead of moving it, so the
/// records are sealed again at the next barrier.
/// **Verdict:** `sink-model`, "sink breaks the contract"; `exactly-once`, "duplicate".
const _PRE_COMMIT_KEEPS_OPEN: () = ();
flawed_sink!(
    pre_commit_keeps_open,
    PreCommitKeepsOpen,
    KeepsOpen,
    KeepsOpenSpy
);
rejected_with!(pre_commit_keeps_open_is_rejected: KeepsOpen => "sink-model", "sink breaks the contract");
rejected_with!(pre_commit_keeps_open_duplicates: KeepsOpen => "exactly-once", "duplicate");

/// **Mistake:** `commit` of an id it does not know commits "the current transaction"
/// (the open one) instead of being ignored.
/// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1), commit(1)`).
const _UNKNOWN_COMMIT: () = ();
flawed_sink!(
    unknown_commit_publishes_open,
    UnknownCommitPublishesOpen,
    Unknown,
    UnknownSpy
);
rejected_with!(unknown_commit_is_rejected: Unknown => "sink-model", "sink breaks the contract");

// ---- the job: barriers and notifications ----

/// **Mistake (the shortcut):** validate the arguments, then return the input; no sink,
/// no protocol. The output is even right.
/// **Verdict:** `protocol`, "no sink".
const _SHORTCUT: () = ();
flawed_job!(shortcut, Shortcut, Shortcut, ShortcutSpy);
rejected_with!(shortcut_is_rejected: Shortcut => "protocol", "no sink");

/// **Mistake:** commit at the barrier itself, whatever `commit_lag` says (the
/// notification is assumed instant). Consistent enough to output each record once.
/// **Verdict:** `protocol`, "visible before notification".
const _IGNORE_LAG: () = ();
flawed_job!(ignore_lag, IgnoreLag, IgnoreLag, IgnoreLagSpy);
rejected_with!(ignore_lag_is_rejected: IgnoreLag => "protocol", "visible before notification");

/// **Mistake:** off by one in the queue: commit when more than `commit_lag + 1` are
/// pending.
/// **Verdict:** `protocol`, "notification late".
const _LATE_BY_ONE: () = ();
flawed_job!(late_by_one, LateByOne, LateByOne, LateByOneSpy);
rejected_with!(late_by_one_is_rejected: LateByOne => "protocol", "notification late");

/// **Mistake:** the pending queue is a stack: a notification commits the newest pending
/// checkpoint.
/// **Verdict:** `protocol`, "notified out of order".
const _NEWEST_FIRST: () = ();
flawed_job!(newest_first, NewestFirst, NewestFirst, NewestFirstSpy);
rejected_with!(newest_first_is_rejected: NewestFirst => "protocol", "notified out of order");

/// **Mistake:** the barrier of record `k` is skipped when the job crashes after record
/// `k` (the crash is checked before the barrier).
/// **Verdict:** `protocol`, "missing barrier".
const _CRASH_BEFORE_BARRIER: () = ();
flawed_job!(
    crash_before_barrier,
    CrashBeforeBarrier,
    CrashEarly,
    CrashEarlySpy
);
rejected_with!(crash_before_barrier_is_rejected: CrashEarly => "protocol", "missing barrier");

/// **Mistake:** the clean finish commits what is pending but never pre-commits the
/// trailing open transaction.
/// **Verdict:** `exactly-once`, "lost record".
const _NO_FINAL_PRE_COMMIT: () = ();
flawed_job!(no_final_pre_commit, NoFinalPreCommit, NoFinal, NoFinalSpy);
rejected_with!(no_final_pre_commit_is_rejected: NoFinal => "exactly-once", "lost record");

/// **Mistake:** the final checkpoint reuses the id of the last barrier's checkpoint.
/// **Verdict:** `protocol`, "reused checkpoint id".
const _FINAL_REUSES_ID: () = ();
flawed_job!(final_reuses_id, FinalReusesId, ReusedId, ReusedIdSpy);
rejected_with!(final_reuses_id_is_rejected: ReusedId => "protocol", "reused checkpoint id");

// ---- the job: crash handling and replay ----

/// **Mistake:** recovery aborts nothing: the dead sink keeps its open and prepared
/// transactions (in a real system, locks and staged data forever).
/// **Verdict:** `protocol`, "not aborted".
const _NO_ABORT_ON_CRASH: () = ();
flawed_job!(
    no_abort_on_crash,
    NoAbortOnCrash,
    NoAbortCrash,
    NoAbortCrashSpy
);
rejected_with!(no_abort_on_crash_is_rejected: NoAbortCrash => "protocol", "not aborted");

/// **Mistake:** recovery aborts the open transaction but forgets the prepared ones
/// whose checkpoints were never notified.
/// **Verdict:** `protocol`, "not aborted".
const _ABORT_ONLY_OPEN: () = ();
flawed_job!(abort_only_open, AbortOnlyOpen, OnlyOpen, OnlyOpenSpy);
rejected_with!(abort_only_open_is_rejected: OnlyOpen => "protocol", "not aborted");

/// **Mistake:** the replay writes the tail into the fresh sink but never finishes: no
/// last pre-commit, no commit of what the replay's checkpoints left pending.
/// **Verdict:** `exactly-once`, "lost record"; `protocol`, "not committed at the end".
const _TAIL_NEVER_COMMITTED: () = ();
flawed_job!(
    tail_never_committed,
    TailNeverCommitted,
    NoTailCommit,
    NoTailCommitSpy
);
rejected_with!(tail_never_committed_loses: NoTailCommit => "exactly-once", "lost record");
rejected_with!(tail_never_committed_is_rejected: NoTailCommit => "protocol", "not committed at the end");

/// **Mistake:** at the crash the job "flushes": it commits every pending checkpoint
/// instead of aborting it.
/// **Verdict:** `exactly-once`, "duplicate" (the replay writes them again), and
/// `protocol`, "visible before notification".
const _COMMIT_PENDING_ON_CRASH: () = ();
flawed_job!(
    commit_pending_on_crash,
    CommitPendingOnCrash,
    Flush,
    FlushSpy
);
rejected_with!(commit_pending_on_crash_duplicates: Flush => "exactly-once", "duplicate");
rejected_with!(commit_pending_on_crash_is_early: Flush => "protocol", "visible before notification");

/// **Mistake:** the replay starts from the beginning of the input.
/// **Verdict:** `exactly-once`, "duplicate"; `protocol`, "replay from the wrong offset".
const _REPLAY_FROM_ZERO: () = ();
flawed_job!(replay_from_zero, ReplayFromZero, FromZero, FromZeroSpy);
rejected_with!(replay_from_zero_duplicates: FromZero => "exactly-once", "duplicate");
rejected_with!(replay_from_zero_is_rejected: FromZero => "protocol", "replay from the wrong offset");

/// **Mistake:** the replay starts from the last checkpoint *taken*, which may never have
/// been notified (stage 07's bug, one stage later).
/// **Verdict:** `exactly-once`, "lost record"; `protocol`, "replay from the wrong offset".
const _REPLAY_FROM_LAST_TAKEN: () = ();
flawed_job!(
    replay_from_last_taken,
    ReplayFromLastTaken,
    LastTaken,
    LastTakenSpy
);
rejected_with!(replay_from_last_taken_loses: LastTaken => "exactly-once", "lost record");
rejected_with!(replay_from_last_taken_is_rejected: LastTaken => "protocol", "replay from the wrong offset");

/// **Mistake:** the replay goes into the crashed sink instead of a fresh one.
/// **Verdict:** `protocol`, "sink used past the crash" (records, or with an empty
/// input the final checkpoint, go to the dead attempt's sink).
const _REPLAY_INTO_OLD_SINK: () = ();
flawed_job!(replay_into_old_sink, ReplayIntoOldSink, OldSink, OldSinkSpy);
rejected_with!(replay_into_old_sink_is_rejected: OldSink => "protocol", "sink used past the crash");

// ---- bad input ----

/// **Mistake:** no check of `barrier_every`: `position % 0` panics on any record, and
/// an empty input is accepted.
/// **Verdict:** `bad-input`, "accepted bad input" on the empty input (the smallest case).
const _NO_BARRIER_CHECK: () = ();
flawed_job!(no_barrier_check, NoBarrierCheck, DivZero, DivZeroSpy);
rejected_with!(no_barrier_check_is_rejected: DivZero => "bad-input", "accepted bad input");

/// **Mistake:** a crash point past the end is silently treated as no crash.
/// **Verdict:** `bad-input`, "accepted bad input".
const _CLAMP_CRASH: () = ();
flawed_job!(clamp_crash, ClampCrash, Clamp, ClampSpy);
rejected_with!(clamp_crash_is_rejected: Clamp => "bad-input", "accepted bad input");

/// **Mistake:** bad arguments are refused with a message that does not say which.
/// **Verdict:** `bad-input`, "error does not name the argument".
const _UNNAMED_ERROR: () = ();
flawed_job!(unnamed_error, UnnamedError, Unnamed, UnnamedSpy);
rejected_with!(unnamed_error_is_rejected: Unnamed => "bad-input", "error does not name the argument");

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

graders::impl_stage08!(Reference, ReferenceSpy, solution08);
accepted!(the_reference_passes: TransactionalSinkStage, drive::<Reference>);
