//! The operation sequences of the `sink-model` check: every well-formed sequence up to
//! [`EVERY_SEQUENCE_UP_TO`] calls, and the [`MAX_OPS`]-call ones that are nearly all work.
//!
//! Why the longest ones are thinned: the one rule of the sink that needs six calls to
//! show (two non-empty transactions committed against their pre-commit order:
//! `write, pre_commit(1), write, pre_commit(2), commit(2), commit(1)`) needs every one of
//! them to do something. A call that leaves the model as it was (a repeated commit, an
//! abort of an id that is not prepared, `abort_open()` of an empty transaction) can still
//! trip a wrong sink, but the shorter sequences already make it after every state that
//! four calls reach; six calls are needed only for states that take five calls to build.
//! So the six-call sequences are kept when at most one of their calls is idle: 11,217 of
//! 178,848. All of them cost most of `byo test 08`'s judging; this costs a fifth.

use super::call::SpyCall;
use super::oracle::ModelSink;
use super::plan::SinkOp;

/// The longest operation sequence the sink-alone check enumerates.
pub const MAX_OPS: usize = 6;
/// Every well-formed sequence up to this length is enumerated.
pub const EVERY_SEQUENCE_UP_TO: usize = 5;
/// How many idle calls (calls that leave the model's sink as it was) a sequence of
/// [`MAX_OPS`] calls may hold.
pub const IDLE_CALLS_AT_MAX: usize = 1;

impl SinkOp {
    /// This operation as the call it makes, `written` records having been written
    /// before it in its sequence (writes write 1, 2, 3, ... in order).
    pub fn call(self, written: u32) -> SpyCall {
        match self {
            SinkOp::Write => SpyCall::Write(written + 1),
            SinkOp::PreCommit(id) => SpyCall::PreCommit(id),
            SinkOp::Commit(id) => SpyCall::Commit(id),
            SinkOp::Abort(id) => SpyCall::Abort(id),
            SinkOp::AbortOpen => SpyCall::AbortOpen,
        }
    }
}

/// The model's sink after `ops` on a fresh one.
pub fn model_after(ops: &[SinkOp]) -> ModelSink {
    let mut model = ModelSink::default();
    let mut written = 0;
    for &op in ops {
        model.apply(op.call(written));
        if op == SinkOp::Write {
            written += 1;
        }
    }
    model
}

/// Every sequence of the check that extends `prefix`, the prefix itself first, in
/// depth-first order (so every sequence's prefixes come before it). Well-formed: an id is
/// pre-committed at most once (ids are unique per sink; the contract leaves a reuse
/// undefined).
pub fn sequences_from(prefix: &[SinkOp]) -> Vec<Vec<SinkOp>> {
    sequences_up_to(prefix, MAX_OPS)
}

/// [`sequences_from`], cut at `longest` calls.
pub fn sequences_up_to(prefix: &[SinkOp], longest: usize) -> Vec<Vec<SinkOp>> {
    struct Walk {
        alphabet: Vec<SinkOp>,
        longest: usize,
        out: Vec<Vec<SinkOp>>,
    }
    impl Walk {
        /// `model` is the sink after `path`, which wrote `written` records and made
        /// `idle` idle calls.
        fn visit(&mut self, path: &mut Vec<SinkOp>, model: &ModelSink, written: u32, idle: usize) {
            self.out.push(path.clone());
            if path.len() >= self.longest {
                return;
            }
            for i in 0..self.alphabet.len() {
                let op = self.alphabet[i];
                if let SinkOp::PreCommit(id) = op
                    && path.contains(&SinkOp::PreCommit(id))
                {
                    continue;
                }
                let mut next = model.clone();
                let idle = idle + usize::from(!next.apply(op.call(written)));
                if path.len() + 1 > EVERY_SEQUENCE_UP_TO && idle > IDLE_CALLS_AT_MAX {
                    continue;
                }
                path.push(op);
                self.visit(path, &next, written + u32::from(op == SinkOp::Write), idle);
                path.pop();
            }
        }
    }
    let mut model = ModelSink::default();
    let (mut written, mut idle) = (0, 0);
    for &op in prefix {
        idle += usize::from(!model.apply(op.call(written)));
        written += u32::from(op == SinkOp::Write);
    }
    let mut walk = Walk {
        alphabet: SinkOp::alphabet(),
        longest: longest.min(MAX_OPS),
        out: Vec::new(),
    };
    walk.visit(&mut prefix.to_vec(), &model, written, idle);
    walk.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_sequence() -> Vec<Vec<SinkOp>> {
        SinkOp::alphabet()
            .into_iter()
            .flat_map(|first| sequences_from(&[first]))
            .collect()
    }

    /// The brief states how many sequences the check runs; it must be this count.
    #[test]
    fn the_brief_states_the_number_of_sequences() {
        let brief = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../stages/08-transactional-sink/README.md"
        ))
        .unwrap();
        let count = every_sequence().len();
        let written = format!("({},{:03} sequences)", count / 1000, count % 1000);
        assert!(brief.contains(&written), "the brief does not say {written}");
    }

    /// Up to five calls nothing is left out, and every prefix of a sequence is one.
    #[test]
    fn short_sequences_are_all_there_and_prefixes_come_first() {
        let all = every_sequence();
        let short = all
            .iter()
            .filter(|s| s.len() <= EVERY_SEQUENCE_UP_TO)
            .count();
        assert_eq!(short, 29_050);
        let seen: std::collections::BTreeSet<&[SinkOp]> = all.iter().map(Vec::as_slice).collect();
        for s in &all {
            assert!(seen.contains(&s[..s.len() - 1]) || s.len() == 1, "{s:?}");
        }
    }

    /// A call is idle exactly when the model's sink is the same after it.
    #[test]
    fn idle_means_unchanged() {
        for ops in every_sequence() {
            let (last, before) = ops.split_last().unwrap();
            let model = model_after(before);
            let written = before.iter().filter(|op| **op == SinkOp::Write).count() as u32;
            let mut after = model.clone();
            let changed = after.apply(last.call(written));
            assert_eq!(changed, after != model, "{ops:?}");
        }
    }

    /// The six-call sequence that shows commit order is in the check.
    #[test]
    fn commits_against_pre_commit_order_are_enumerated() {
        use SinkOp::*;
        let order = vec![
            Write,
            PreCommit(1),
            Write,
            PreCommit(2),
            Commit(2),
            Commit(1),
        ];
        assert!(sequences_from(&[Write]).contains(&order));
        let model = model_after(&order);
        assert_eq!(model.committed, vec![2, 1]);
    }
}
