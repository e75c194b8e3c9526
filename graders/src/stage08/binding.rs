//! How a driver reaches a stage-08 implementation: a small trait, a spying sink, and the
//! macro that implements both inside the implementation's own crate.

use std::cell::RefCell;
use std::rc::Rc;

use super::oracle::{ModelSink, OtherWriter};
use super::plan::SinkOp;

pub use super::call::SpyCall;

/// More calls than this on one sink means the job is not going to stop: the spy panics
/// rather than let the driver eat all memory.
pub const MAX_CALLS_PER_SINK: usize = 10_000;

/// What the spies of one run saw, shared by them.
#[derive(Debug, Default, Clone)]
pub struct SpyBook {
    /// The calls on every sink the job created, in creation order.
    pub sinks: Vec<Vec<SpyCall>>,
    /// Which sink every event was on, in the order the events happened: a sink's first
    /// event is its creation by `new_sink()`, each later one a call on it. The per-sink
    /// lists cannot say whether the fresh sink was made before the crash, or written
    /// before recovery had aborted what the dead sink held.
    pub order: Vec<usize>,
    /// What each sink (in creation order) already shows when `new_sink()` makes it: rows
    /// from before the job. None past the end.
    pub shown_before: Vec<Vec<u32>>,
    /// The row another writer commits to each sink's table (in creation order) right after
    /// the job's first commit on it. None past the end.
    pub other_writer: Vec<u32>,
    /// The row another writer commits to the first sink's table right after the job's
    /// write number `.0` (the crash point's record), if any.
    pub at_crash: Option<(usize, u32)>,
}

/// The book the spies of one run share.
pub type SpyLog = Rc<RefCell<SpyBook>>;

/// What the implementation's own sink showed as `committed()` after each call, per
/// sink in creation order, shared by the spies that delegate to it.
pub type SeenLog = Rc<RefCell<Vec<Vec<Vec<u32>>>>>;

/// The grader's side of a spying sink: a correct sink (the model) that logs every call.
///
/// `impl_stage08!` wraps it in a local type that implements the implementation's
/// `TwoPhaseCommitSink<u32>` (which the orphan rule forbids doing from here). That type
/// either answers `committed()` from the model, or, for `byo trace 08 --mine`, delegates
/// every call to the implementation's own sink and records what it shows ([`SeenLog`]).
#[derive(Debug)]
pub struct Spy {
    log: SpyLog,
    index: usize,
    model: ModelSink,
    /// The other writer's rows still to come.
    other: OtherWriter,
    seen: Option<SeenLog>,
}

impl Spy {
    /// A new sink, registered as the next one in `log`.
    pub fn new(log: &SpyLog) -> Self {
        let (index, shown, other) = {
            let mut book = log.borrow_mut();
            book.sinks.push(Vec::new());
            let index = book.sinks.len() - 1;
            book.order.push(index);
            (
                index,
                book.shown_before.get(index).cloned().unwrap_or_default(),
                OtherWriter::new(
                    book.other_writer.get(index).copied(),
                    book.at_crash.filter(|_| index == 0),
                ),
            )
        };
        crate::harness::driver::begin_part(|| format!("sink {}", index + 1));
        Self {
            log: Rc::clone(log),
            index,
            model: ModelSink {
                committed: shown,
                ..ModelSink::default()
            },
            other,
            seen: None,
        }
    }

    /// A new sink in front of the implementation's own, registered as the next one in
    /// `log` and in `seen`.
    pub fn delegating(log: &SpyLog, seen: &SeenLog) -> Self {
        seen.borrow_mut().push(Vec::new());
        Self {
            seen: Some(Rc::clone(seen)),
            ..Self::new(log)
        }
    }

    /// Records what the implementation's own sink shows after the call just logged.
    pub fn saw(&self, visible: &[u32]) {
        if let Some(seen) = &self.seen
            && let Some(sink) = seen.borrow_mut().get_mut(self.index)
        {
            sink.push(visible.to_vec());
        }
    }

    /// Logs `call` and applies it to the model.
    pub fn call(&mut self, call: SpyCall) {
        {
            let mut book = self.log.borrow_mut();
            let calls = &mut book.sinks[self.index];
            assert!(
                calls.len() < MAX_CALLS_PER_SINK,
                "the job made more than {MAX_CALLS_PER_SINK} calls on one sink: does it ever stop?"
            );
            calls.push(call);
            book.order.push(self.index);
        }
        self.model.apply_beside(call, &mut self.other);
    }

    /// What the model shows as visible.
    pub fn committed(&self) -> &[u32] {
        self.model.committed()
    }
}

/// The surface of stage 08 that the driver calls. Implemented by `impl_stage08!`.
pub trait Implementation {
    /// The implementation's `TransactionalSink<u32>`.
    type Sink;

    /// `TransactionalSink::new()`.
    fn sink_new() -> Self::Sink;
    /// Applies one operation through the `TwoPhaseCommitSink` trait; `value` is the
    /// record a `Write` writes.
    fn sink_apply(sink: &mut Self::Sink, op: SinkOp, value: u32);
    /// `committed().to_vec()`.
    fn sink_committed(sink: &Self::Sink) -> Vec<u32>;
    /// `TransactionalSink::restore(&sink.snapshot()?)` (both given).
    ///
    /// # Errors
    /// Whatever `snapshot` or `restore` returns.
    fn sink_round_trip(sink: &Self::Sink) -> anyhow::Result<Self::Sink>;

    /// `run_exactly_once_sink(records, barrier_every, crash_after, commit_lag)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn run(
        records: &[u32],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<Vec<u32>>;

    /// `run_exactly_once_sink_with(..)` with a `new_sink` that makes spies logging into
    /// `log` in front of the implementation's own `TransactionalSink`, whose
    /// `committed()` after each call goes into `seen`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn run_own_sink(
        records: &[u32],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        log: &SpyLog,
        seen: &SeenLog,
    ) -> anyhow::Result<Vec<u32>>;

    /// `run_exactly_once_sink_with(..)` with a `new_sink` that makes spies logging into `log`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn run_spied(
        records: &[u32],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        log: &SpyLog,
    ) -> anyhow::Result<Vec<u32>>;
}

/// Implements [`Implementation`] as `$binding` (with a spying sink type `$spy`) for the
/// stage-08 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage08 {
    ($binding:ident, $spy:ident, $($imp:ident)::+) => {
        /// The grader's spying sink: a correct sink that logs every call, or (with the
        /// implementation's own sink inside) one that delegates to it.
        #[doc(hidden)]
        pub struct $spy(
            $crate::stage08::Spy,
            Option<$($imp)::+::TransactionalSink<u32>>,
        );

        impl $($imp)::+::TwoPhaseCommitSink<u32> for $spy {
            fn write(&mut self, record: u32) {
                self.0.call($crate::stage08::SpyCall::Write(record));
                if let Some(own) = &mut self.1 {
                    $($imp)::+::TwoPhaseCommitSink::write(own, record);
                    self.0.saw($($imp)::+::TwoPhaseCommitSink::committed(own));
                }
            }
            fn pre_commit(&mut self, id: $($imp)::+::CheckpointId) {
                self.0.call($crate::stage08::SpyCall::PreCommit(id));
                if let Some(own) = &mut self.1 {
                    $($imp)::+::TwoPhaseCommitSink::pre_commit(own, id);
                    self.0.saw($($imp)::+::TwoPhaseCommitSink::committed(own));
                }
            }
            fn commit(&mut self, id: $($imp)::+::CheckpointId) {
                self.0.call($crate::stage08::SpyCall::Commit(id));
                if let Some(own) = &mut self.1 {
                    $($imp)::+::TwoPhaseCommitSink::commit(own, id);
                    self.0.saw($($imp)::+::TwoPhaseCommitSink::committed(own));
                }
            }
            fn abort(&mut self, id: $($imp)::+::CheckpointId) {
                self.0.call($crate::stage08::SpyCall::Abort(id));
                if let Some(own) = &mut self.1 {
                    $($imp)::+::TwoPhaseCommitSink::abort(own, id);
                    self.0.saw($($imp)::+::TwoPhaseCommitSink::committed(own));
                }
            }
            fn abort_open(&mut self) {
                self.0.call($crate::stage08::SpyCall::AbortOpen);
                if let Some(own) = &mut self.1 {
                    $($imp)::+::TwoPhaseCommitSink::abort_open(own);
                    self.0.saw($($imp)::+::TwoPhaseCommitSink::committed(own));
                }
            }
            fn committed(&self) -> &[u32] {
                match &self.1 {
                    Some(own) => $($imp)::+::TwoPhaseCommitSink::committed(own),
                    None => self.0.committed(),
                }
            }
        }

        #[doc(hidden)]
        pub struct $binding;

        impl $crate::stage08::Implementation for $binding {
            type Sink = $($imp)::+::TransactionalSink<u32>;

            fn sink_new() -> Self::Sink {
                $($imp)::+::TransactionalSink::new()
            }
            fn sink_apply(sink: &mut Self::Sink, op: $crate::stage08::SinkOp, value: u32) {
                use $($imp)::+::TwoPhaseCommitSink as _;
                use $crate::stage08::SinkOp;
                match op {
                    SinkOp::Write => sink.write(value),
                    SinkOp::PreCommit(id) => sink.pre_commit(id),
                    SinkOp::Commit(id) => sink.commit(id),
                    SinkOp::Abort(id) => sink.abort(id),
                    SinkOp::AbortOpen => sink.abort_open(),
                }
            }
            fn sink_committed(sink: &Self::Sink) -> Vec<u32> {
                <Self::Sink as $($imp)::+::TwoPhaseCommitSink<u32>>::committed(sink).to_vec()
            }
            fn sink_round_trip(sink: &Self::Sink) -> $crate::__anyhow::Result<Self::Sink> {
                $($imp)::+::TransactionalSink::restore(&sink.snapshot()?)
            }
            fn run(
                records: &[u32],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> $crate::__anyhow::Result<Vec<u32>> {
                $($imp)::+::run_exactly_once_sink(records, barrier_every, crash_after, commit_lag)
            }
            fn run_spied(
                records: &[u32],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                log: &$crate::stage08::SpyLog,
            ) -> $crate::__anyhow::Result<Vec<u32>> {
                $($imp)::+::run_exactly_once_sink_with(
                    records,
                    barrier_every,
                    crash_after,
                    commit_lag,
                    || $spy($crate::stage08::Spy::new(log), None),
                )
            }
            fn run_own_sink(
                records: &[u32],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                log: &$crate::stage08::SpyLog,
                seen: &$crate::stage08::SeenLog,
            ) -> $crate::__anyhow::Result<Vec<u32>> {
                $($imp)::+::run_exactly_once_sink_with(
                    records,
                    barrier_every,
                    crash_after,
                    commit_lag,
                    || {
                        $spy(
                            $crate::stage08::Spy::delegating(log, seen),
                            Some($($imp)::+::TransactionalSink::new()),
                        )
                    },
                )
            }
        }
    };
}
