//! The cases of stage 08, smallest first.

use serde::{Deserialize, Serialize};

use super::commit_order::OUT_OF_ORDER;
use super::many_checkpoints::{HIGH_IDS, MANY_CHECKPOINTS, MANY_LAGS};
use super::sequences::{EVERY_SEQUENCE_UP_TO, IDLE_CALLS_AT_MAX, MAX_OPS};
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The longest input; every `barrier_every`, crash point and commit lag of every length up to
/// it is enumerated.
pub const MAX_LEN: usize = 10;
/// The largest `commit_lag`.
pub const MAX_LAG: usize = 2;
/// The checkpoint ids the sink-alone check uses.
pub const SINK_IDS: [u64; 2] = [1, 2];

pub(super) const SINK_MODEL: Check = Check {
    name: "sink-model",
    law: "the sink alone: only committed data is visible, commit publishes once, aborted data never appears, a snapshot restores it whole",
};
pub(super) const EXACTLY_ONCE: Check = Check {
    name: "exactly-once",
    law: "at every crash point and lag, the output holds every input record exactly once",
};
pub(super) const PROTOCOL: Check = Check {
    name: "protocol",
    law: "nothing is visible before its notification; a crash aborts the unnotified; the replay starts at the last notified offset",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "the protocol holds for commit lags past the number of barriers, up to usize::MAX, barrier_every up to usize::MAX, and sinks that show rows not the job's (from before it, and from another writer while it runs)",
};
pub(super) const BAD_INPUT: Check = Check {
    name: "bad-input",
    law: "a barrier_every of 0 or a crash point past the end is an error naming the argument",
};

/// One operation on a sink in the sink-alone check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SinkOp {
    /// `write(next value)`: values are 1, 2, 3, ... in write order, so every record is
    /// distinct.
    Write,
    /// `pre_commit(id)`
    PreCommit(u64),
    /// `commit(id)`
    Commit(u64),
    /// `abort(id)`
    Abort(u64),
    /// `abort_open()`
    AbortOpen,
}

impl SinkOp {
    /// Every operation of the alphabet.
    pub fn alphabet() -> Vec<SinkOp> {
        let mut ops = vec![SinkOp::Write];
        for id in SINK_IDS {
            ops.extend([SinkOp::PreCommit(id), SinkOp::Commit(id), SinkOp::Abort(id)]);
        }
        ops.push(SinkOp::AbortOpen);
        ops
    }
}

/// One case of stage 08.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// Every well-formed operation sequence starting with `first`, on fresh sinks,
    /// observing `committed()` after each operation.
    SinkModel {
        /// The first operation of every sequence of this case.
        first: SinkOp,
    },
    /// Every well-formed operation sequence starting with `first`, up to
    /// `SNAPSHOT_AFTER_UP_TO` (3) calls, then `restore(&snapshot()?)` and calls that
    /// finish what the sink held.
    SinkSnapshot {
        /// The first operation of every sequence of this case.
        first: SinkOp,
    },
    /// One transaction of one record under each of [`HIGH_IDS`] on a fresh
    /// `TransactionalSink`, then every way to end them (see [`high_ids`]).
    ///
    /// [`HIGH_IDS`]: super::many_checkpoints::HIGH_IDS
    /// [`high_ids`]: super::many_checkpoints::high_ids
    SinkHighIds,
    /// `checkpoints` transactions of one record each on a fresh `TransactionalSink`, each
    /// committed `lag` pre-commits after its own, observing `committed()` after every
    /// operation (every prefix of [`many_checkpoints`]).
    ///
    /// [`many_checkpoints`]: super::many_checkpoints::many_checkpoints
    SinkMany {
        /// How many checkpoints.
        checkpoints: u64,
        /// How many pre-commits a commit trails its own by.
        lag: u64,
    },
    /// `run_exactly_once_sink` at every crash point and commit lag, for one input and
    /// `barrier_every`.
    ExactlyOnce {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval.
        barrier_every: usize,
    },
    /// `run_exactly_once_sink_with` a spying sink, at every crash point and commit lag.
    Protocol {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval.
        barrier_every: usize,
    },
    /// `run_exactly_once_sink_with` a spying sink at every crash point and each lag of
    /// [`CONTRACT_LAGS`]: the arguments the grid never reaches.
    Contract {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval.
        barrier_every: usize,
    },
    /// `run_exactly_once_sink_with` spying sinks that already show rows from before the
    /// job ([`SHOWN_BEFORE`]) and gain one from another writer right after the job's first
    /// commit ([`OTHER_WRITER`]), at every crash point and commit lag: the output is what
    /// the sinks show, and the replay's offset is not counted from it.
    ShownBefore {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval.
        barrier_every: usize,
    },
    /// Every well-formed operation sequence starting with `first`, up to
    /// `SNAPSHOT_AFTER_UP_TO` (3) calls, then `commit(0)` or `abort(0)`, which change
    /// nothing (see [`id_zero_sequences`]).
    ///
    /// [`id_zero_sequences`]: super::id_zero::id_zero_sequences
    SinkIdZero {
        /// The first operation of every sequence of this case.
        first: SinkOp,
    },
    /// The `ShownBefore` runs, with one more row ([`AT_CRASH`]) another writer commits to
    /// the first sink right after the job's write of the crash point's record, its last
    /// before the crash: the output is the first sink's `committed()` at the crash.
    WriterAtCrash {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval.
        barrier_every: usize,
    },
    /// `MANY_CHECKPOINTS_AT_ONCE` (1100) transactions of one record each on a fresh
    /// `TransactionalSink`, all prepared before the first commit, then committed oldest
    /// first; `committed()` observed at the end only (one sequence: its prefixes would
    /// take a million calls).
    SinkManyAtOnce,
    /// Every prefix of `OUT_OF_ORDER` (`commit_order.rs`) on a fresh `TransactionalSink`:
    /// commits out of id order, then repeated.
    SinkCommitOrder,
    /// Every prefix of `OUT_OF_ORDER` (`commit_order.rs`), then `restore(&snapshot()?)`
    /// and calls that finish what the sink held.
    SinkCommitOrderSnapshot,
    /// `run_exactly_once_sink_with` a spying sink over `pending_at_once_input()`, a barrier
    /// after every record and a commit lag past every barrier (`BEYOND_U32`), with no
    /// crash and with a crash after the last record: every checkpoint pends at once.
    ManyPending,
    /// Arguments the job must refuse.
    BadInput {
        /// The input.
        records: Vec<u32>,
        /// The barrier interval (0 is invalid).
        barrier_every: usize,
        /// The crash point (past the end is invalid).
        crash_after: Option<usize>,
    },
}

impl Case {
    /// The crash points of a grid, in plan order: `None`, then `0..=len`.
    pub fn crash_points(len: usize) -> Vec<Option<usize>> {
        std::iter::once(None).chain((0..=len).map(Some)).collect()
    }

    /// The `(crash_after, commit_lag)` cells of a contract case over `len` records.
    pub fn contract_cells(len: usize) -> Vec<(Option<usize>, usize)> {
        Self::crash_points(len)
            .into_iter()
            .flat_map(|crash| CONTRACT_LAGS.map(|commit_lag| (crash, commit_lag)))
            .collect()
    }

    /// The `(crash_after, commit_lag)` cells of [`Case::ManyPending`]: no crash, then a
    /// crash after the last record, each with every checkpoint pending.
    pub fn many_pending_cells(len: usize) -> Vec<(Option<usize>, usize)> {
        vec![(None, BEYOND_U32), (Some(len), BEYOND_U32)]
    }

    /// The `(crash_after, commit_lag)` cells of a grid over `len` records, in order.
    pub fn cells(len: usize) -> Vec<(Option<usize>, usize)> {
        Self::crash_points(len)
            .into_iter()
            .flat_map(|crash| (0..=MAX_LAG).map(move |commit_lag| (crash, commit_lag)))
            .collect()
    }
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::SinkModel { .. }
            | Case::SinkSnapshot { .. }
            | Case::SinkHighIds
            | Case::SinkMany { .. }
            | Case::SinkManyAtOnce
            | Case::SinkIdZero { .. }
            | Case::SinkCommitOrder
            | Case::SinkCommitOrderSnapshot => SINK_MODEL,
            Case::ExactlyOnce { .. } => EXACTLY_ONCE,
            Case::Protocol { .. } => PROTOCOL,
            Case::Contract { .. }
            | Case::ShownBefore { .. }
            | Case::WriterAtCrash { .. }
            | Case::ManyPending => CONTRACT,
            Case::BadInput { .. } => BAD_INPUT,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        // The job's requirements, as the protocol judge names them.
        const JOB: [&str; 17] = [
            "08-R7", "08-R8", "08-R9", "08-R10", "08-R11", "08-R12", "08-R13", "08-R14", "08-R15",
            "08-R16", "08-R17", "08-R18", "08-R19", "08-R22", "08-R23", "08-R24", "08-R25",
        ];
        match self {
            Case::SinkModel { .. }
            | Case::SinkHighIds
            | Case::SinkMany { .. }
            | Case::SinkManyAtOnce
            | Case::SinkIdZero { .. }
            | Case::SinkCommitOrder => {
                vec![
                    "08-R1", "08-R2", "08-R3", "08-R4", "08-R5", "08-R6", "08-R24",
                ]
            }
            Case::SinkSnapshot { .. } | Case::SinkCommitOrderSnapshot => vec!["08-R27"],
            Case::ExactlyOnce { .. } => vec!["08-R19", "08-R22"],
            Case::Protocol { .. }
            | Case::Contract { .. }
            | Case::ShownBefore { .. }
            | Case::WriterAtCrash { .. }
            | Case::ManyPending => JOB.to_vec(),
            Case::BadInput {
                barrier_every: 0, ..
            } => vec!["08-R20", "08-R26"],
            Case::BadInput { .. } => vec!["08-R21", "08-R26"],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::SinkModel { first } => format!(
                "every sequence of up to {EVERY_SEQUENCE_UP_TO} operations, and of {MAX_OPS} with at most {IDLE_CALLS_AT_MAX} idle call, on a fresh TransactionalSink starting with {first:?}"
            ),
            Case::SinkHighIds => format!(
                "write then pre_commit under each of the ids {HIGH_IDS:?} on a fresh TransactionalSink, then every way to end the three (each committed or aborted, in every order): nothing fixes where the ids start or how high they go"
            ),
            Case::SinkMany { checkpoints, lag } => format!(
                "{checkpoints} times write then pre_commit(1, 2, ...) on a fresh TransactionalSink, each checkpoint committed {lag} pre-commits after its own (the rest at the end, oldest first)"
            ),
            Case::SinkSnapshot { first } => format!(
                "every sequence of up to {} operations on a fresh TransactionalSink starting with {first:?}, then restore(&sink.snapshot()?) and, on the restored sink, a write, a pre-commit under a new id and a commit of every id",
                super::sink_snapshot::SNAPSHOT_AFTER_UP_TO
            ),
            Case::ExactlyOnce {
                records,
                barrier_every,
            } => format!(
                "run_exactly_once_sink(&{records:?}, {barrier_every}, crash_after, commit_lag) at every crash point and lag 0..={MAX_LAG}"
            ),
            Case::Protocol {
                records,
                barrier_every,
            } => format!(
                "run_exactly_once_sink_with(&{records:?}, {barrier_every}, crash_after, commit_lag, spy) at every crash point and lag 0..={MAX_LAG}"
            ),
            Case::Contract {
                records,
                barrier_every,
            } => format!(
                "run_exactly_once_sink_with(&{records:?}, {barrier_every}, crash_after, commit_lag, spy) at every crash point and lag {CONTRACT_LAGS:?}"
            ),
            Case::ShownBefore {
                records,
                barrier_every,
            } => format!(
                "run_exactly_once_sink_with(&{records:?}, {barrier_every}, crash_after, commit_lag, spy) at every crash point and lag 0..={MAX_LAG}, the first sink already showing {:?} and the fresh one {:?} from before the job, and another writer committing {} and {} to them right after the job's first commit on each",
                SHOWN_BEFORE[0], SHOWN_BEFORE[1], OTHER_WRITER[0], OTHER_WRITER[1]
            ),
            Case::SinkIdZero { first } => format!(
                "every sequence of up to {} operations on a fresh TransactionalSink starting with {first:?}, then commit(0) or abort(0) (0 is an id no sink pre-commits: nothing changes), alone and followed by a write, a pre-commit under a new id and a commit of every id",
                super::sink_snapshot::SNAPSHOT_AFTER_UP_TO
            ),
            Case::WriterAtCrash {
                records,
                barrier_every,
            } => format!(
                "run_exactly_once_sink_with(&{records:?}, {barrier_every}, crash_after, commit_lag, spy) at every crash point and lag 0..={MAX_LAG}, the first sink already showing {:?} and the fresh one {:?} from before the job, another writer committing {} and {} to them right after the job's first commit on each, and {} to the first sink right after the job's write of record crash_after (its last before the crash)",
                SHOWN_BEFORE[0], SHOWN_BEFORE[1], OTHER_WRITER[0], OTHER_WRITER[1], AT_CRASH
            ),
            Case::SinkManyAtOnce => format!(
                "{MANY_CHECKPOINTS_AT_ONCE} times write then pre_commit(1, 2, ...) on a fresh TransactionalSink, then commit(1, 2, ...) of every one, oldest first: {MANY_CHECKPOINTS_AT_ONCE} transactions prepared at once (nothing bounds how many wait)"
            ),
            Case::SinkCommitOrder => format!(
                "on a fresh TransactionalSink, {}, committed() read after each call: commits out of id order, then repeated",
                super::sink_model::describe_ops(&OUT_OF_ORDER, 0..OUT_OF_ORDER.len())
            ),
            Case::SinkCommitOrderSnapshot => format!(
                "on a fresh TransactionalSink, each prefix of {}, then restore(&sink.snapshot()?) and, on the restored sink, a write, a pre-commit under a new id and a commit of every id",
                super::sink_model::describe_ops(&OUT_OF_ORDER, 0..OUT_OF_ORDER.len())
            ),
            Case::ManyPending => format!(
                "run_exactly_once_sink_with(&[{PENDING_LEN} records: 0, 1, 2, 3, 4, 5, 0, 1, ...], 1, crash_after, {BEYOND_U32}, spy) with no crash and with a crash after the last record: {PENDING_LEN} checkpoints pending at once (nothing bounds how many wait)"
            ),
            Case::BadInput {
                records,
                barrier_every,
                crash_after,
            } => {
                format!("run_exactly_once_sink(&{records:?}, {barrier_every}, {crash_after:?}, 0)")
            }
        }
    }
}

/// The input of length `len` for `seed`: values 0..6, so duplicates are common.
pub fn input(seed: u64, len: usize) -> Vec<u32> {
    let mut rng = Rng::new(seed, 0x0800 + len as u64);
    rng.values(len, 6)
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut cases: Vec<Case> = SinkOp::alphabet()
        .into_iter()
        .map(|first| Case::SinkModel { first })
        .collect();
    cases.extend(
        SinkOp::alphabet()
            .into_iter()
            .map(|first| Case::SinkSnapshot { first }),
    );
    cases.push(Case::SinkHighIds);
    cases.extend(MANY_LAGS.map(|lag| Case::SinkMany {
        checkpoints: MANY_CHECKPOINTS,
        lag,
    }));
    let inputs: Vec<Vec<u32>> = (0..=MAX_LEN).map(|len| input(seed, len)).collect();
    let grids = || {
        inputs.iter().flat_map(|records| {
            (1..=records.len() + 1).map(move |barrier_every| (records.clone(), barrier_every))
        })
    };
    cases.extend(grids().map(|(records, barrier_every)| Case::ExactlyOnce {
        records,
        barrier_every,
    }));
    cases.extend(grids().map(|(records, barrier_every)| Case::Protocol {
        records,
        barrier_every,
    }));
    for records in inputs.iter().take(4) {
        let len = records.len();
        for crash_after in [None, Some(0), Some(len)] {
            cases.push(Case::BadInput {
                records: records.clone(),
                barrier_every: 0,
                crash_after,
            });
        }
        for crash_after in [len + 1, len + 7, BEYOND_U32, usize::MAX] {
            cases.push(Case::BadInput {
                records: records.clone(),
                barrier_every: 1,
                crash_after: Some(crash_after),
            });
        }
    }
    for records in CONTRACT_INPUTS {
        let len = records.len();
        let mut everies = vec![1, 2, len.max(1), BEYOND_U32, usize::MAX];
        everies.sort_unstable();
        everies.dedup();
        for barrier_every in everies {
            cases.push(Case::Contract {
                records: records.to_vec(),
                barrier_every,
            });
        }
    }
    for records in inputs.iter().skip(1).take(SHOWN_BEFORE_UP_TO) {
        cases.extend(
            (1..=records.len() + 1).map(|barrier_every| Case::ShownBefore {
                records: records.clone(),
                barrier_every,
            }),
        );
    }
    // After them, so the cases above keep their numbers.
    cases.extend(
        SinkOp::alphabet()
            .into_iter()
            .map(|first| Case::SinkIdZero { first }),
    );
    for records in inputs.iter().skip(1).take(SHOWN_BEFORE_UP_TO) {
        cases.extend(
            (1..=records.len() + 1).map(|barrier_every| Case::WriterAtCrash {
                records: records.clone(),
                barrier_every,
            }),
        );
    }
    // After them too: a bound on how many transactions wait, past every size above.
    cases.extend([Case::SinkManyAtOnce, Case::ManyPending]);
    // After them, so the cases above keep their numbers: commits out of id order, then
    // repeated, and the same through a round trip.
    cases.extend([Case::SinkCommitOrder, Case::SinkCommitOrderSnapshot]);
    cases
}

/// What the sinks of a `ShownBefore` case already show when `new_sink()` makes them, in
/// creation order: rows from before the job, none of them a record of the input (whose
/// values are below 6), and a different one for each sink.
pub const SHOWN_BEFORE: [&[u32]; 2] = [&[100], &[200]];
/// The row another writer commits to each sink of a `ShownBefore` case (in creation order)
/// right after the job's first commit on it: the table is shared, and what it shows grows
/// by rows that are not the job's while the job runs.
pub const OTHER_WRITER: [u32; 2] = [300, 400];
/// The row another writer commits to the first sink of a `WriterAtCrash` case right
/// after the job's write of the crash point's record (its last write before the crash):
/// what the first sink shows at the crash holds it, though no commit of the job came
/// after it.
pub const AT_CRASH: u32 = 500;
/// The longest input of the `ShownBefore` cases (from length 1).
pub const SHOWN_BEFORE_UP_TO: usize = 3;

/// The inputs of the `contract` check, the same under every seed: the extreme values
/// among duplicates, and `PENDING_AT_ONCE`.
pub const CONTRACT_INPUTS: [&[u32]; 6] = [
    &[],
    &[u32::MAX],
    &[0, 0],
    &[u32::MAX, 0, u32::MAX],
    &[7, 7, 0, u32::MAX],
    &PENDING_AT_ONCE,
];
/// An input long enough that, with a barrier after every record and a lag past the
/// barriers, 17 checkpoints are pending at once: a job that notifies early to keep at
/// most 4, 8 or 16 pending shows.
pub const PENDING_AT_ONCE: [u32; 17] = [7, 7, 0, u32::MAX, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 9, 7];
/// How many checkpoints [`Case::ManyPending`] leaves pending at once, and how many
/// transactions [`Case::SinkManyAtOnce`] prepares at once: past the round numbers a job
/// or a sink might cap them at ("at most 32", "100", "1000", "1024").
pub const PENDING_LEN: usize = 1100;
/// See [`PENDING_LEN`].
pub const MANY_CHECKPOINTS_AT_ONCE: u64 = PENDING_LEN as u64;

/// The input of [`Case::ManyPending`], the same under every seed: `0, 1, ..., 5` over and
/// over, [`PENDING_LEN`] records.
pub fn pending_at_once_input() -> Vec<u32> {
    (0..6).cycle().take(PENDING_LEN).collect()
}

/// The commit lags of the `contract` check: more than there are barriers, the first past
/// `u32::MAX`, and the largest.
pub const CONTRACT_LAGS: [usize; 3] = [3, BEYOND_U32, usize::MAX];
/// `u32::MAX + 1`, which a count squeezed into a `u32` reads as 0 (`usize::MAX` reads as
/// `u32::MAX`, still huge, so it alone cannot show the squeeze).
pub const BEYOND_U32: usize = 1 << 32;
