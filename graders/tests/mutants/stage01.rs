//! Stage 01 mutants: sources that do not replay, chains that do not compose.

use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

use crate::rejects;

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
            anyhow::ensure!(offset <= self.0.len() as Offset, "offset past the end");
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
            anyhow::ensure!(offset <= self.0.len() as Offset, "offset past the end");
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
/// **Verdict:** `chain` fails: `FlatMap(|x| vec![x; x % 3])` of a 2 gives one record.
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
    pub use solution01::{Filter, FlatMap, Map, Source, VecSource, run};

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

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::seek_one_late(drive::<SeekOneLate>, "seek", "01-offset-is-the-last-read")]
#[case::seek_clamps(drive::<SeekClamps>, "seek-past-end", "01-clamp-past-the-end")]
#[case::iterator_source_fails_seek(drive::<IteratorSource>, "seek", "01-seek-is-a-formality")]
#[case::iterator_source_fails_crash(drive::<IteratorSource>, "crash", "01-seek-is-a-formality")]
#[case::position_since_seek(drive::<PositionSinceSeek>, "seek", "01-position-counts-polls")]
#[case::filter_inverted(drive::<FilterInverted>, "chain", "01-filter-drops-matches")]
#[case::flat_map_first_only(drive::<FlatMapFirstOnly>, "chain", "01-one-in-one-out")]
#[case::chain_first_only(drive::<ChainFirstOnly>, "chain", "01-chain-passes-one")]
fn is_rejected(#[case] drive: fn(&Case) -> Observation, #[case] check: &str, #[case] card: &str) {
    crate::cards::shows(&rejects::<Dataflow>(drive, check), card);
}
