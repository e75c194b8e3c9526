//! The sink alone over many checkpoints: more transactions prepared at once, and higher
//! ids, than the enumerated sequences (ids 1 and 2, at most two prepared) ever reach.
//!
//! A sink that keeps only the last few prepared transactions (a "timeout" that aborts the
//! oldest), or that remembers its ids in a fixed-width bitmask or array, passes every
//! short sequence; nothing in the contract bounds how many transactions wait for their
//! commit (a commit lag of 9 keeps ten prepared) or how high the ids go (one per
//! barrier).

use super::plan::SinkOp;

/// How many checkpoints the sequences take: past 64, the width of a `u64` bitmask.
pub const MANY_CHECKPOINTS: u64 = 70;
/// How many pre-commits each commit trails its own by, per case: past 8 prepared at
/// once, and every transaction prepared before the first commit.
pub const MANY_LAGS: [u64; 2] = [9, MANY_CHECKPOINTS];

/// Every prefix, shortest first, of: `checkpoints` times a write and a pre-commit under
/// the next id (1, 2, ...), each transaction committed once `lag` more pre-commits have
/// followed its own, then the rest committed oldest first.
pub fn many_checkpoints(checkpoints: u64, lag: u64) -> Vec<Vec<SinkOp>> {
    let mut whole = Vec::new();
    for id in 1..=checkpoints {
        whole.extend([SinkOp::Write, SinkOp::PreCommit(id)]);
        if id > lag {
            whole.push(SinkOp::Commit(id - lag));
        }
    }
    let first_left = checkpoints.saturating_sub(lag) + 1;
    whole.extend((first_left..=checkpoints).map(SinkOp::Commit));
    (1..=whole.len()).map(|len| whole[..len].to_vec()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage08::sequences::model_after;

    /// Every sequence ends with every record visible, in write order (commits oldest
    /// first), and every id from 1 to `MANY_CHECKPOINTS` was used.
    #[test]
    fn every_record_ends_visible_in_order() {
        for lag in MANY_LAGS {
            let sequences = many_checkpoints(MANY_CHECKPOINTS, lag);
            let whole = sequences.last().unwrap();
            let model = model_after(whole);
            let want: Vec<u32> = (1..=MANY_CHECKPOINTS as u32).collect();
            assert_eq!(model.committed, want, "lag {lag}");
            assert!(whole.contains(&SinkOp::PreCommit(MANY_CHECKPOINTS)));
            assert_eq!(sequences.len(), whole.len());
        }
    }

    /// With the smaller lag, ten transactions are prepared at once before the first
    /// commit.
    #[test]
    fn more_than_eight_are_prepared_at_once() {
        let sequences = many_checkpoints(MANY_CHECKPOINTS, MANY_LAGS[0]);
        let most = sequences
            .iter()
            .map(|ops| model_after(ops).pending.len())
            .max()
            .unwrap();
        assert_eq!(most, 10);
    }
}
