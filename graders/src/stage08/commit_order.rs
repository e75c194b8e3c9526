//! The sink over commits out of id order, then repeated: `write, pre_commit(1), write,
//! pre_commit(2), commit(2), commit(1), commit(1), commit(2)`. What shows is in commit
//! order (08-R6), `[2, 1]`, and a repeated notification changes nothing (08-R3, 08-R24),
//! not even where a transaction stands; through `restore(&sink.snapshot()?)` the order
//! stays (08-R27).
//!
//! Why a case of its own: the enumerated sequences reach two commits out of order only
//! at six calls, where at most one more call may change nothing, and their round trips
//! stop at three calls. A sink that rebuilds its output in id order (on a repeated
//! commit, or in `restore`) shows the same as a correct one on every one of those.

use super::plan::SinkOp;

/// The sequence: two transactions committed newest first, then each committed again.
pub const OUT_OF_ORDER: [SinkOp; 8] = [
    SinkOp::Write,
    SinkOp::PreCommit(1),
    SinkOp::Write,
    SinkOp::PreCommit(2),
    SinkOp::Commit(2),
    SinkOp::Commit(1),
    SinkOp::Commit(1),
    SinkOp::Commit(2),
];

/// Every prefix of [`OUT_OF_ORDER`], shortest first.
pub fn out_of_order_prefixes() -> Vec<Vec<SinkOp>> {
    (1..=OUT_OF_ORDER.len())
        .map(|len| OUT_OF_ORDER[..len].to_vec())
        .collect()
}
