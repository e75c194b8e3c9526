//! Stage 01 mutants: sources that do not replay, chains that do not compose, and (in
//! `stage01/`) the contract's edges: boundaries, going back, refused seeks, `out`, `run`.

/// `run` over a module's own `Operator` trait, for the chain mutants, which shadow the
/// reference's trait to rewrite `then`: the reference's loop, taking any operator of that
/// trait (the reference's, by the blanket impl, and the grader's pass-through one).
macro_rules! own_run {
    () => {
        pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
            let mut out = Vec::new();
            while let Some(record) = source.poll() {
                op.process(record, &mut out);
            }
            out
        }
    };
}

mod operators;
mod operators_redteam;
#[macro_use]
mod sources;
mod blame;
mod redteam;
mod redteam_bounds;
mod redteam_global;
mod redteam_long;

use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** `seek` lands one record late (`next = offset + 1`), as when the offset
/// is taken for "the last record read" rather than "the next record to read".
/// **Verdict:** `seek` fails: after `seek(0)` the first record is missing.
mod seek_one_late {
    pub use solution01::*;

    pub struct VecSource<T>(Vec<T>, usize);
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self(records, 0)
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            let r = self.0.get(self.1)?.clone();
            self.1 += 1;
            Some(r)
        }
        fn position(&self) -> Offset {
            self.1 as Offset
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            anyhow::ensure!(
                offset <= self.0.len() as Offset,
                "offset {offset} past the end"
            );
            self.1 = (offset as usize + 1).min(self.0.len());
            Ok(())
        }
    }
}
graders::impl_stage01!(SeekOneLate, seek_one_late);

/// **Mistake:** seeking past the end clamps to the end and returns `Ok`: a silent
/// default where the contract demands an error naming the offset.
/// **Verdict:** `seek-past-end` fails: `seek(len + 1)` succeeded.
mod seek_clamps {
    pub use solution01::*;

    pub struct VecSource<T>(Vec<T>, usize);
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self(records, 0)
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            let r = self.0.get(self.1)?.clone();
            self.1 += 1;
            Some(r)
        }
        fn position(&self) -> Offset {
            self.1 as Offset
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            self.1 = offset.min(self.0.len() as Offset) as usize;
            Ok(())
        }
    }
}
graders::impl_stage01!(SeekClamps, seek_clamps);

/// **Mistake (the shortcut):** the "source" is just an iterator: `seek` is accepted but
/// does nothing, so nothing can be replayed. Every chain over a fresh source is right.
/// **Verdict:** `seek` fails (seeking to 1 still yields the first record), and `crash`
/// fails (the resumed source starts from the beginning again).
mod iterator_source {
    pub use solution01::*;

    pub struct VecSource<T>(std::vec::IntoIter<T>, u64);
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self(records.into_iter(), 0)
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            let r = self.0.next()?;
            self.1 += 1;
            Some(r)
        }
        fn position(&self) -> Offset {
            self.1
        }
        fn seek(&mut self, _offset: Offset) -> anyhow::Result<()> {
            Ok(())
        }
    }
}
graders::impl_stage01!(IteratorSource, iterator_source);

/// **Mistake:** `position()` counts the records polled since the last seek rather than
/// the absolute offset, so a checkpoint would store the wrong place to resume.
/// **Verdict:** `seek` fails: after `seek(1)`, `position()` says 0.
mod position_since_seek {
    pub use solution01::*;

    pub struct VecSource<T>(Vec<T>, usize, usize);
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self(records, 0, 0)
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            let r = self.0.get(self.1)?.clone();
            self.1 += 1;
            self.2 += 1;
            Some(r)
        }
        fn position(&self) -> Offset {
            self.2 as Offset
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            anyhow::ensure!(
                offset <= self.0.len() as Offset,
                "offset {offset} past the end"
            );
            self.1 = offset as usize;
            self.2 = 0;
            Ok(())
        }
    }
}
graders::impl_stage01!(PositionSinceSeek, position_since_seek);

/// **Mistake:** `Filter` keeps the records its predicate rejects (the condition read
/// as "filter out").
/// **Verdict:** `chain` fails on the first odd record.
mod filter_inverted {
    pub use solution01::*;

    pub struct Filter<F>(pub F);
    impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
        type Out = In;
        fn process(&mut self, input: In, out: &mut Vec<In>) {
            if !(self.0)(&input) {
                out.push(input);
            }
        }
    }
}
graders::impl_stage01!(FilterInverted, filter_inverted);

/// **Mistake:** `FlatMap` keeps only the first record its function returns ("one in,
/// one out" thinking).
/// **Verdict:** `chain` fails: `FlatMap` of `x % 3` copies of `x` gives one record for a 2.
mod flat_map_first_only {
    pub use solution01::*;

    pub struct FlatMap<F>(pub F);
    impl<In, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            out.extend((self.0)(input).into_iter().next());
        }
    }
}
graders::impl_stage01!(FlatMapFirstOnly, flat_map_first_only);

/// **Mistake:** `Chain` passes only the first intermediate record on to the second
/// operator, dropping the rest when the first operator emits several.
/// **Verdict:** `chain` fails on `ThreeSteps`, whose flat map emits two records.
mod chain_first_only {
    pub use solution01::{Filter, FlatMap, Map, Source, VecSource};
    own_run!();

    pub struct Chain<A, B>(A, B);
    pub trait Operator<In> {
        type Out;
        fn process(&mut self, input: In, out: &mut Vec<Self::Out>);
        fn then<B: Operator<Self::Out>>(self, next: B) -> Chain<Self, B>
        where
            Self: Sized,
        {
            Chain(self, next)
        }
    }
    impl<In, T: solution01::Operator<In>> Operator<In> for T {
        type Out = T::Out;
        fn process(&mut self, input: In, out: &mut Vec<T::Out>) {
            solution01::Operator::process(self, input, out);
        }
    }
    impl<In, A: Operator<In>, B: Operator<A::Out>> solution01::Operator<In> for Chain<A, B> {
        type Out = B::Out;
        fn process(&mut self, input: In, out: &mut Vec<B::Out>) {
            let mut middle = Vec::new();
            self.0.process(input, &mut middle);
            if let Some(first) = middle.into_iter().next() {
                self.1.process(first, out);
            }
        }
    }
}
graders::impl_stage01!(ChainFirstOnly, chain_first_only);

graders::impl_stage01!(PollFromBack, sources::poll_reads_from_the_back);
graders::impl_stage01!(SeekOnlyForward, sources::seek_only_forward);
graders::impl_stage01!(ErrorWithoutOffset, sources::error_without_offset);
graders::impl_stage01!(SeekPanics, sources::seek_panics_past_the_end);
graders::impl_stage01!(RefusedSeekMoves, sources::refused_seek_moves);
graders::impl_stage01!(PollMovesAtTheEnd, sources::poll_moves_at_the_end);
graders::impl_stage01!(MapReplacesOut, operators::map_replaces_out);
graders::impl_stage01!(ChainKeepsMiddle, operators::chain_keeps_middle);
graders::impl_stage01!(RunFromTheStart, operators::run_from_the_start);
graders::impl_stage01!(RunFirstOutputOnly, operators::run_first_output_only);
graders::impl_stage01!(ReversedInMemory, sources::reversed_in_memory);
graders::impl_stage01!(BufferedRun, operators::buffered_run);

accepted!(stage01_reversed_in_memory_passes: Dataflow, drive::<ReversedInMemory>);
accepted!(stage01_buffered_run_passes: Dataflow, drive::<BufferedRun>);

/// Every mutant, the check that must reject it, the one requirement of the brief its
/// smallest failing case must name, and the card its report must show (the mutant's doc
/// comment says why).
#[rstest]
#[case::seek_one_late(drive::<SeekOneLate>, "seek", "01-R11", "01-offset-is-the-last-read")]
#[case::seek_clamps(drive::<SeekClamps>, "seek-past-end", "01-R4", "01-clamp-past-the-end")]
#[case::iterator_source_fails_seek(drive::<IteratorSource>, "seek", "01-R11", "01-seek-is-a-formality")]
#[case::iterator_source_fails_crash(drive::<IteratorSource>, "crash", "01-R3", "01-seek-is-a-formality")]
#[case::position_since_seek(drive::<PositionSinceSeek>, "seek", "01-R2", "01-position-counts-polls")]
#[case::filter_inverted(drive::<FilterInverted>, "process", "01-R6", "01-filter-drops-matches")]
#[case::flat_map_first_only(drive::<FlatMapFirstOnly>, "process", "01-R6", "01-one-in-one-out")]
#[case::chain_first_only(drive::<ChainFirstOnly>, "process", "01-R8", "01-chain-passes-one")]
#[case::poll_reads_from_the_back(drive::<PollFromBack>, "contract", "01-R1", "01-poll-reads-the-newest")]
#[case::seek_only_forward(drive::<SeekOnlyForward>, "contract", "01-R3", "01-seek-only-forward")]
#[case::error_without_offset(drive::<ErrorWithoutOffset>, "seek-past-end", "01-R5", "01-any-error-will-do")]
#[case::seek_panics_past_the_end(drive::<SeekPanics>, "seek-past-end", "01-R15", "01-indexing-checks-the-bound")]
#[case::refused_seek_moves(drive::<RefusedSeekMoves>, "seek-past-end", "01-R14", "01-refused-seek-may-move")]
#[case::poll_moves_at_the_end(drive::<PollMovesAtTheEnd>, "seek", "01-R13", "01-every-poll-moves-on")]
#[case::map_replaces_out(drive::<MapReplacesOut>, "process", "01-R7", "01-out-starts-empty")]
#[case::chain_keeps_middle(drive::<ChainKeepsMiddle>, "chain", "01-R12", "01-chain-buffer-is-kept")]
#[case::run_from_the_start(drive::<RunFromTheStart>, "crash", "01-R9", "01-run-reads-from-the-start")]
#[case::run_first_output_only(drive::<RunFirstOutputOnly>, "chain", "01-R10", "01-one-in-one-out")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Dataflow>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
