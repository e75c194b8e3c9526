//! The sink alone over many checkpoints: more transactions prepared at once, and higher
//! ids, than the enumerated sequences (ids 1 and 2, at most two prepared) ever reach, up
//! to 1100 prepared at once ([`all_prepared_at_once`]).
//!
//! A sink that keeps only the last few prepared transactions (a "timeout" that aborts the
//! oldest), or that remembers its ids in a fixed-width bitmask or array, passes every
//! short sequence; nothing in the contract bounds how many transactions wait for their
//! commit (a commit lag of 9 keeps ten prepared) or how high the ids go (one per
//! barrier). Nor does it fix where they start: [`high_ids`] pre-commits under `u64::MAX`
//! and under an id past `u32::MAX` whose low 32 bits are another id's.

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

/// The one sequence of `checkpoints` times a write and a pre-commit under the next id,
/// then a commit of each, oldest first: every transaction prepared at once. Its prefixes
/// are [`many_checkpoints`]'s at a lag of `checkpoints`; only the whole is run, since they
/// would take a number of calls that grows with the square of `checkpoints`.
pub fn all_prepared_at_once(checkpoints: u64) -> Vec<SinkOp> {
    (1..=checkpoints)
        .flat_map(|id| [SinkOp::Write, SinkOp::PreCommit(id)])
        .chain((1..=checkpoints).map(SinkOp::Commit))
        .collect()
}

/// The ids of [`high_ids`], in pre-commit order: the largest, then 1, then the id whose
/// low 32 bits are 1 (`2^32 + 1`), which an id kept in a `u32` mistakes for 1.
pub const HIGH_IDS: [u64; 3] = [u64::MAX, 1, (1 << 32) + 1];

/// A write and a pre-commit under each of [`HIGH_IDS`], then every way to end the three
/// transactions: each committed or aborted, in every order (48 endings); every prefix
/// once, each before the sequences that extend it.
///
/// Why `u64::MAX` first: a sink that keeps its transactions in a `Vec` indexed by id
/// fails there at once (an index past `usize` or an overflow of `id + 1`, a panic),
/// before `2^32 + 1` could ask it for a vector of four billion slots. Why every ending:
/// three prepared at once, one of them ended, are what a sink that keeps them in a
/// sorted vector and removes with `swap_remove` needs before a lookup goes wrong.
pub fn high_ids() -> Vec<Vec<SinkOp>> {
    fn end(path: &mut Vec<SinkOp>, left: &[u64], out: &mut Vec<Vec<SinkOp>>) {
        out.push(path.clone());
        for &id in left {
            let rest: Vec<u64> = left.iter().copied().filter(|&other| other != id).collect();
            for op in [SinkOp::Commit(id), SinkOp::Abort(id)] {
                path.push(op);
                end(path, &rest, out);
                path.pop();
            }
        }
    }
    let mut whole = Vec::new();
    for id in HIGH_IDS {
        whole.extend([SinkOp::Write, SinkOp::PreCommit(id)]);
    }
    let mut out: Vec<Vec<SinkOp>> = (1..whole.len()).map(|len| whole[..len].to_vec()).collect();
    end(&mut whole, &HIGH_IDS, &mut out);
    out
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

    /// The high ids take 6 calls to prepare, then 48 endings of 3 calls, whose prefixes
    /// are listed once each; committing all three in pre-commit order shows every record.
    #[test]
    fn high_ids_end_every_way() {
        let sequences = high_ids();
        assert_eq!(sequences.len(), 6 + 6 + 24 + 48);
        assert_eq!(sequences.iter().filter(|ops| ops.len() == 9).count(), 48);
        let in_order: Vec<SinkOp> = HIGH_IDS.into_iter().map(SinkOp::Commit).collect();
        let all = sequences
            .iter()
            .find(|ops| ops.len() == 9 && ops[6..] == in_order[..])
            .unwrap();
        assert_eq!(model_after(all).committed, vec![1, 2, 3]);
        assert_eq!(HIGH_IDS[2] as u32 as u64, HIGH_IDS[1]);
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
