//! The id no sink pre-commits: after every sequence of the round trips (up to
//! [`SNAPSHOT_AFTER_UP_TO`] operations), `commit(0)` and `abort(0)` on the sink. Checkpoint
//! ids count from 1, so 0 names no transaction: both calls are ignored, whatever the sink
//! holds. A sink that files its open transaction under 0 publishes it at `commit(0)` or
//! loses it at `abort(0)`; the sequences of 1 and 2 never name 0, so without these it
//! passes. Planned beside the enumerated sequences, not into them: each round-trip
//! sequence gains five runs here, where adding 0 to the alphabet would multiply them all.
//!
//! [`SNAPSHOT_AFTER_UP_TO`]: super::sink_snapshot::SNAPSHOT_AFTER_UP_TO

use super::plan::SinkOp;
use super::sink_snapshot::{finishing, snapshot_sequences};

/// The id no sink pre-commits.
pub const NEVER_PRE_COMMITTED: u64 = 0;

/// The sequences of the id-zero case starting with `first`, each judged by the sink
/// model on a fresh sink: after each round-trip sequence `ops`, `ops` then `commit(0)`,
/// and `ops` then `abort(0)` (nothing published, nothing lost at once), each followed by
/// the round trip's `finishing` calls (the open and prepared transactions are as
/// before), and `ops` then those calls alone, so a failure can blame the abort (the
/// same calls without it pass).
pub fn id_zero_sequences(first: SinkOp) -> Vec<Vec<SinkOp>> {
    let mut sequences = Vec::new();
    for ops in snapshot_sequences(first) {
        let then = finishing(&ops);
        let with = |zero: &[SinkOp], after: &[SinkOp]| -> Vec<SinkOp> {
            ops.iter().chain(zero).chain(after).copied().collect()
        };
        for zero in [
            SinkOp::Commit(NEVER_PRE_COMMITTED),
            SinkOp::Abort(NEVER_PRE_COMMITTED),
        ] {
            sequences.push(with(&[zero], &[]));
            sequences.push(with(&[zero], &then));
        }
        sequences.push(with(&[], &then));
    }
    sequences
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage08::sequences::model_after;

    /// The calls on 0 are idle in the model: every sequence ends as the same calls
    /// without them do.
    #[test]
    fn id_zero_changes_nothing_in_the_model() {
        for first in SinkOp::alphabet() {
            for ops in id_zero_sequences(first) {
                let without: Vec<SinkOp> = ops
                    .iter()
                    .copied()
                    .filter(|op| !matches!(op, SinkOp::Commit(0) | SinkOp::Abort(0)))
                    .collect();
                assert_eq!(model_after(&ops), model_after(&without), "{ops:?}");
            }
        }
    }

    /// Five runs per round-trip sequence, far fewer than the enumerated sequences.
    #[test]
    fn five_runs_per_round_trip() {
        let runs: usize = SinkOp::alphabet()
            .into_iter()
            .map(|first| id_zero_sequences(first).len())
            .sum();
        let trips: usize = SinkOp::alphabet()
            .into_iter()
            .map(|first| snapshot_sequences(first).len())
            .sum();
        assert_eq!(runs, 5 * trips);
    }
}
