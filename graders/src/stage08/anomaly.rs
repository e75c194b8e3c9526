//! The named ways a stage-08 run can go wrong, as failure reports and matrices show them.

/// One kind of wrong behaviour, named in a report and coded in the crash x commit lag matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Anomaly {
    /// A record of the input is missing from the output.
    LostRecord,
    /// A record is in the output more often than in the input.
    Duplicate,
    /// Records are both missing and duplicated.
    LostAndDuplicated,
    /// A checkpoint was committed before its notification was due.
    VisibleBeforeNotification,
    /// A checkpoint was committed at the barrier that brings its notification, but before
    /// that barrier's pre-commit, which comes first.
    CommittedBeforePreCommit,
    /// A checkpoint's notification was due but it was not committed.
    NotificationLate,
    /// A notification committed a checkpoint while an older one was still pending.
    NotifiedOutOfOrder,
    /// At the crash, the open transaction or an unnotified prepared one was not aborted.
    NotAborted,
    /// At the crash, an unnotified prepared transaction was not aborted on the dead sink,
    /// which holds it; its abort went to the fresh sink, which never held it.
    AbortedOnFreshSink,
    /// A transaction was aborted while the job was running normally.
    AbortedWhileRunning,
    /// What the first sink showed at the crash is not the notified checkpoints' records.
    WrongVisibleAtCrash,
    /// The fresh sink received a suffix of the input, but not from the right offset.
    ReplayFromWrongOffset,
    /// The fresh sink received records that are not a suffix of the input.
    WrongReplay,
    /// The first sink did not receive the input records in order.
    WrongWrites,
    /// The first sink was written to or checkpointed after the crash point.
    WrotePastCrash,
    /// The first sink received fewer records than the job processes before stopping.
    MissingWrites,
    /// No pre-commit at a barrier.
    MissingBarrier,
    /// A pre-commit where no barrier falls.
    PreCommitOffBarrier,
    /// A checkpoint id was pre-committed twice, on one sink or across the restart.
    ReusedCheckpointId,
    /// A commit named a checkpoint id that was never pre-committed.
    CommittedUnknownId,
    /// The job made its output without any sink.
    NoSink,
    /// After a crash, no fresh sink was created.
    NoFreshSink,
    /// More sinks than one per attempt.
    ExtraSink,
    /// At the end of the run, data was left open or prepared, never committed.
    NotCommittedAtEnd,
    /// The result is not what the sinks made visible.
    ResultNotFromSinks,
    /// Every record once, but out of the input's order, which empty sinks show when the
    /// result is read from them and each commits oldest first: a run without a spy sees
    /// no call, so it cannot tell which of these broke.
    OutOfInputOrder,
    /// The job returned an error for valid arguments.
    RejectedValidInput,
    /// The job panicked.
    Panicked,
    /// Invalid arguments were accepted.
    AcceptedBadInput,
    /// The error for invalid arguments does not name the argument.
    ErrorWithoutArgument,
    /// The sink alone disagrees with the contract.
    SinkContract,
    /// At the crash, `abort_open()` was never called on the dead sink (its open
    /// transaction held records, or none: a real system still holds it open).
    OpenNotAborted,
    /// A crash after the last record handled as a clean finish (a trailing pre-commit or
    /// final commits on the dead sink).
    CrashTreatedAsFinish,
    /// The barrier after the crash point's record was skipped: the job died before it.
    BarrierSkippedAtCrash,
    /// The fresh sink ended with data left open or prepared.
    ReplayNotCommitted,
    /// A crash with nothing left to replay created no fresh sink.
    NoFreshSinkNothingLeft,
    /// The replay's first checkpoint id is not the one after the last pre-committed
    /// before the crash.
    ReplayIdsNotCounting,
    /// The clean finish (after its trailing pre-commit) committed a pending checkpoint
    /// while an older one was pending.
    FinishedOutOfOrder,
    /// A crash after the last record (`crash_after = len`) refused as past the end.
    RejectedCrashAtEnd,
    /// The first sink's checkpoints do not take the ids 1, 2, ... in the order taken.
    IdsNotFromOne,
    /// The fresh sink was made while the first attempt was still writing or
    /// pre-committing on the first.
    FreshSinkBeforeCrash,
    /// The fresh sink was made (and the replay began, or could) before recovery's aborts
    /// on the dead sink were done.
    ReplayBeforeAborts,
    /// Recovery aborted on the dead sink, then wrote, pre-committed or committed on it
    /// again: the replay went into the dead attempt's sink.
    ReplayIntoDeadSink,
    /// After the crash, a sink was asked to commit a checkpoint that recovery aborted: a
    /// notification the dead job still owed, delivered anyway.
    NotifiedAborted,
    /// An `abort(id)` named an id the sink did not hold as a prepared transaction: a
    /// checkpoint it had committed, or an id it never pre-committed (0, the next id, the
    /// dead sink's ids sent to the fresh one).
    AbortedUnprepared,
}

impl Anomaly {
    /// The anomaly in words, as a report's headline.
    pub fn name(self) -> &'static str {
        match self {
            Anomaly::LostRecord => "lost record",
            Anomaly::Duplicate => "duplicate",
            Anomaly::LostAndDuplicated => "lost and duplicated records",
            Anomaly::VisibleBeforeNotification => "visible before notification",
            Anomaly::CommittedBeforePreCommit => "committed before the barrier's pre-commit",
            Anomaly::NotificationLate => "notification late",
            Anomaly::NotifiedOutOfOrder => "notified out of order",
            Anomaly::FinishedOutOfOrder => "finished out of order",
            Anomaly::RejectedCrashAtEnd => "crash at the end refused",
            Anomaly::NotAborted | Anomaly::AbortedOnFreshSink => "not aborted",
            Anomaly::AbortedWhileRunning => "aborted while running",
            Anomaly::WrongVisibleAtCrash => "wrong output visible at the crash",
            Anomaly::ReplayFromWrongOffset => "replay from the wrong offset",
            Anomaly::WrongReplay => "wrong replay",
            Anomaly::WrongWrites => "wrong writes",
            Anomaly::WrotePastCrash => "sink used past the crash",
            Anomaly::MissingWrites => "records never written",
            Anomaly::MissingBarrier => "missing barrier",
            Anomaly::PreCommitOffBarrier => "pre-commit off a barrier",
            Anomaly::ReusedCheckpointId => "reused checkpoint id",
            Anomaly::CommittedUnknownId => "commit of an id never pre-committed",
            Anomaly::NoSink => "no sink",
            Anomaly::NoFreshSink => "no fresh sink",
            Anomaly::ExtraSink => "extra sink",
            Anomaly::NotCommittedAtEnd => "not committed at the end",
            Anomaly::ResultNotFromSinks => "result not from the sinks",
            Anomaly::OutOfInputOrder => "out of input order",
            Anomaly::RejectedValidInput => "rejected valid input",
            Anomaly::Panicked => "panicked",
            Anomaly::AcceptedBadInput => "accepted bad input",
            Anomaly::ErrorWithoutArgument => "error does not name the argument",
            Anomaly::SinkContract => "sink breaks the contract",
            Anomaly::OpenNotAborted => "not aborted",
            Anomaly::CrashTreatedAsFinish => "sink used past the crash",
            Anomaly::BarrierSkippedAtCrash => "missing barrier",
            Anomaly::ReplayNotCommitted => "not committed at the end",
            Anomaly::NoFreshSinkNothingLeft => "no fresh sink",
            Anomaly::ReplayIdsNotCounting => "replay ids do not count on",
            Anomaly::IdsNotFromOne => "checkpoint ids do not count from 1",
            Anomaly::FreshSinkBeforeCrash => "fresh sink made before the crash",
            Anomaly::ReplayBeforeAborts => "replay before the aborts",
            Anomaly::ReplayIntoDeadSink => "replay into the dead sink",
            Anomaly::NotifiedAborted => "aborted checkpoint notified",
            Anomaly::AbortedUnprepared => "abort of an id not prepared",
        }
    }

    /// At most 7 characters, for a matrix cell.
    pub fn code(self) -> &'static str {
        match self {
            Anomaly::LostRecord => "LOST",
            Anomaly::Duplicate => "DUP",
            Anomaly::LostAndDuplicated => "LOST+DUP",
            Anomaly::VisibleBeforeNotification => "EARLY",
            Anomaly::CommittedBeforePreCommit => "PRE1ST",
            Anomaly::NotificationLate => "LATE",
            Anomaly::NotifiedOutOfOrder => "ORDER",
            Anomaly::FinishedOutOfOrder => "ENDORD",
            Anomaly::RejectedCrashAtEnd => "ERREND",
            Anomaly::NotAborted | Anomaly::AbortedOnFreshSink => "NOABORT",
            Anomaly::AbortedWhileRunning => "ABORT",
            Anomaly::WrongVisibleAtCrash => "VISIBLE",
            Anomaly::ReplayFromWrongOffset => "OFFSET",
            Anomaly::WrongReplay => "REPLAY",
            Anomaly::WrongWrites => "WRITES",
            Anomaly::WrotePastCrash => "PASTCR",
            Anomaly::MissingWrites => "UNWRIT",
            Anomaly::MissingBarrier => "NOBARR",
            Anomaly::PreCommitOffBarrier => "OFFBARR",
            Anomaly::ReusedCheckpointId => "REUSED",
            Anomaly::CommittedUnknownId => "UNKNOWN",
            Anomaly::NoSink => "NOSINK",
            Anomaly::NoFreshSink => "NOFRESH",
            Anomaly::ExtraSink => "XSINK",
            Anomaly::NotCommittedAtEnd => "UNCOMM",
            Anomaly::ResultNotFromSinks => "RESULT",
            Anomaly::OutOfInputOrder => "REORDER",
            Anomaly::RejectedValidInput => "ERR",
            Anomaly::Panicked => "PANIC",
            Anomaly::AcceptedBadInput => "ACCEPT",
            Anomaly::ErrorWithoutArgument => "UNNAMED",
            Anomaly::SinkContract => "SINK",
            Anomaly::OpenNotAborted => "NOABORT",
            Anomaly::CrashTreatedAsFinish => "PASTCR",
            Anomaly::BarrierSkippedAtCrash => "NOBARR",
            Anomaly::ReplayNotCommitted => "UNCOMM",
            Anomaly::NoFreshSinkNothingLeft => "NOFRESH",
            Anomaly::ReplayIdsNotCounting => "IDGAP",
            Anomaly::IdsNotFromOne => "IDS",
            Anomaly::FreshSinkBeforeCrash => "EARLYNS",
            Anomaly::ReplayBeforeAborts => "RPLY1ST",
            Anomaly::ReplayIntoDeadSink => "OLDSINK",
            Anomaly::NotifiedAborted => "NOTIFAB",
            Anomaly::AbortedUnprepared => "NOPREP",
        }
    }

    /// The id of the brief's requirement (`08-R13`) a run with this anomaly breaks. The
    /// argument errors name theirs by argument, and the sink alone by operation.
    pub fn requirement(self) -> &'static str {
        match self {
            Anomaly::WrongWrites | Anomaly::MissingWrites => "08-R7",
            Anomaly::MissingBarrier | Anomaly::PreCommitOffBarrier | Anomaly::IdsNotFromOne => {
                "08-R8"
            }
            Anomaly::NotificationLate
            | Anomaly::CommittedBeforePreCommit
            | Anomaly::NotifiedOutOfOrder
            | Anomaly::CommittedUnknownId
            | Anomaly::WrongVisibleAtCrash => "08-R9",
            Anomaly::NotCommittedAtEnd | Anomaly::FinishedOutOfOrder => "08-R10",
            Anomaly::WrotePastCrash | Anomaly::BarrierSkippedAtCrash => "08-R11",
            Anomaly::CrashTreatedAsFinish | Anomaly::RejectedCrashAtEnd => "08-R12",
            Anomaly::NotAborted | Anomaly::AbortedOnFreshSink | Anomaly::NotifiedAborted => {
                "08-R13"
            }
            Anomaly::OpenNotAborted => "08-R14",
            Anomaly::ReplayFromWrongOffset
            | Anomaly::WrongReplay
            | Anomaly::NoFreshSink
            | Anomaly::ReplayNotCommitted
            | Anomaly::ReplayBeforeAborts
            | Anomaly::ReplayIntoDeadSink => "08-R15",
            Anomaly::NoFreshSinkNothingLeft => "08-R16",
            Anomaly::ReplayIdsNotCounting => "08-R17",
            Anomaly::ReusedCheckpointId | Anomaly::AbortedUnprepared => "08-R18",
            Anomaly::ResultNotFromSinks | Anomaly::OutOfInputOrder => "08-R19",
            Anomaly::AcceptedBadInput | Anomaly::ErrorWithoutArgument => "08-R20",
            Anomaly::LostRecord
            | Anomaly::Duplicate
            | Anomaly::LostAndDuplicated
            | Anomaly::AbortedWhileRunning
            | Anomaly::RejectedValidInput
            | Anomaly::Panicked => "08-R22",
            Anomaly::VisibleBeforeNotification => "08-R23",
            Anomaly::SinkContract => "08-R3",
            Anomaly::NoSink | Anomaly::ExtraSink | Anomaly::FreshSinkBeforeCrash => "08-R25",
        }
    }
}
