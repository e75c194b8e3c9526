//! Stage 01 mutants of the second red team, written from the brief alone: bounds kept in
//! a narrower integer or counted from the last index, an error naming another number,
//! a `run` that tidies up after itself, operators that reorder; and correct sources
//! written otherwise (a consuming queue, a read counter that runs past the end), which
//! must pass.

use graders::harness::expect_rejected_for;
use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

use crate::accepted;

source! {
    /// **Mistake:** the read position is a `u32` ("no log has four billion records"), and
    /// `seek` converts the offset before checking it, so `seek(2^32)` lands at 0. The
    /// largest offset, `u64::MAX`, becomes `u32::MAX` and is still refused.
    /// **Verdict:** `seek-past-end`: `seek(4294967296)` succeeds.
    mod seek_truncates_to_u32 { next: u32 = 0 }
    poll(self) {
        let record = self.records.get(self.next as usize)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { Offset::from(self.next) }
    seek(self, offset) {
        let offset = offset as u32;
        anyhow::ensure!(offset as usize <= self.records.len(), "offset {offset} is past the end");
        self.next = offset;
        Ok(())
    }
}

source! {
    /// **Mistake:** the bound is computed from the last index (`len - 1`, saturating),
    /// plus one for the end: right for every source but the empty one, where the last
    /// index of nothing is taken as 0 and `seek(1)` passes.
    /// **Verdict:** `seek-past-end`: `seek(1)` on `[]` succeeds.
    mod bound_from_the_last_index { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next.min(self.records.len()) as Offset }
    seek(self, offset) {
        let last = self.records.len().saturating_sub(1) as Offset;
        anyhow::ensure!(offset <= last + 1, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the error names how far past the end the offset is
    /// (`offset - len`), not the offset: the same number for an empty source only.
    /// **Verdict:** `seek-past-end`: on `[x]`, `seek(2)`'s message says `1`.
    mod error_names_the_overshoot { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        let len = self.records.len() as Offset;
        anyhow::ensure!(offset <= len, "{} record(s) past the end", offset - len);
        self.next = offset as usize;
        Ok(())
    }
}

/// **Mistake:** `run` puts the source back where it found it ("running a job must not
/// use up its input"), so the caller's source is never drained.
/// **Verdict:** `chain`: after `run`, `position()` is where it started, not the end.
pub mod run_rewinds_after {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let start = source.position();
        let mut out = Vec::new();
        while let Some(record) = source.poll() {
            op.process(record, &mut out);
        }
        source.seek(start).expect("the start was a valid offset");
        out
    }
}

/// **Mistake:** `FlatMap` collects its function's records into a `BTreeSet` first ("one
/// of each"), so they come out sorted and without repeats.
/// **Verdict:** `process`: `FlatMap(|x| vec![x + 2, x, x + 1])` emits them sorted.
pub mod flat_map_as_a_set {
    pub use solution01::{Filter, Map, Operator, Source, VecSource, run};

    pub struct FlatMap<F>(pub F);
    impl<In, Out: Ord, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            let set: std::collections::BTreeSet<Out> = (self.0)(input).into_iter().collect();
            out.extend(set);
        }
    }
}

/// **Mistake:** `Chain` lets the first operator write into `out` and then moves all of
/// `out` through the second, records that were there before the call included.
/// **Verdict:** `process`: with `out = [9, 4]`, the chain's second operator also maps
/// 9 and 4.
pub mod chain_reprocesses_out {
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
    // Only chains whose two operators emit the same type can share one `out` this way:
    // every chain of the grader's is over `u32`.
    impl<In, M, A, B> solution01::Operator<In> for Chain<A, B>
    where
        A: Operator<In, Out = M>,
        B: Operator<M, Out = M>,
    {
        type Out = M;
        fn process(&mut self, input: In, out: &mut Vec<M>) {
            self.0.process(input, out);
            for middle in std::mem::take(out) {
                self.1.process(middle, out);
            }
        }
    }
}

/// **Control:** the source consumes a queue: `poll` pops the front, and `seek` rebuilds
/// the queue from a copy of the records, so every read is a pop and going back copies.
pub mod consuming_queue {
    pub use solution01::*;

    pub struct VecSource<T> {
        records: Vec<T>,
        queue: std::collections::VecDeque<T>,
    }
    impl<T: Clone> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            let queue = records.iter().cloned().collect();
            Self { records, queue }
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            self.queue.pop_front()
        }
        fn position(&self) -> Offset {
            (self.records.len() - self.queue.len()) as Offset
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            let at = usize::try_from(offset)
                .ok()
                .filter(|at| *at <= self.records.len())
                .ok_or_else(|| anyhow::anyhow!("cannot seek to offset {offset}: past the end"))?;
            self.queue = self.records[at..].iter().cloned().collect();
            Ok(())
        }
    }
}

source! {
    /// **Control:** `poll` counts every call, past the end too, and `position()` and the
    /// next read clamp the count to the length: the counter is not the position, but
    /// nothing observable tells them apart.
    mod counter_runs_past_the_end { reads: u64 = 0 }
    poll(self) {
        let at = self.reads;
        self.reads = self.reads.saturating_add(1);
        self.records.get(usize::try_from(at).ok()?).cloned()
    }
    position(self) { self.reads.min(self.records.len() as Offset) }
    seek(self, offset) {
        if offset > self.records.len() as Offset {
            anyhow::bail!("seek({offset}) refused: the source holds {} record(s)", self.records.len());
        }
        self.reads = offset;
        Ok(())
    }
}

source! {
    /// **Mistake:** `seek`'s bound is `records.capacity()`, an autocompleted slip for
    /// `len()`: the same for a `Vec` built to size, larger for one built by pushing.
    /// **Verdict:** `seek-past-end`: on a source with spare capacity, `seek(len + 1)`
    /// succeeds.
    mod bound_from_the_capacity { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next.min(self.records.len()) as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.capacity() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

graders::impl_stage01!(SeekTruncatesToU32, seek_truncates_to_u32);
graders::impl_stage01!(BoundFromTheCapacity, bound_from_the_capacity);
graders::impl_stage01!(BoundFromTheLastIndex, bound_from_the_last_index);
graders::impl_stage01!(ErrorNamesTheOvershoot, error_names_the_overshoot);
graders::impl_stage01!(RunRewindsAfter, run_rewinds_after);
graders::impl_stage01!(FlatMapAsASet, flat_map_as_a_set);
graders::impl_stage01!(ChainReprocessesOut, chain_reprocesses_out);
graders::impl_stage01!(ConsumingQueue, consuming_queue);
graders::impl_stage01!(CounterRunsPastTheEnd, counter_runs_past_the_end);

accepted!(stage01_consuming_queue_passes: Dataflow, drive::<ConsumingQueue>);
accepted!(stage01_counter_runs_past_the_end_passes: Dataflow, drive::<CounterRunsPastTheEnd>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::seek_truncates_to_u32(drive::<SeekTruncatesToU32>, "seek-past-end", "01-R4")]
#[case::bound_from_the_last_index(drive::<BoundFromTheLastIndex>, "seek-past-end", "01-R4")]
#[case::bound_from_the_capacity(drive::<BoundFromTheCapacity>, "seek-past-end", "01-R4")]
#[case::error_names_the_overshoot(drive::<ErrorNamesTheOvershoot>, "seek-past-end", "01-R5")]
#[case::run_rewinds_after(drive::<RunRewindsAfter>, "chain", "01-R9")]
#[case::flat_map_as_a_set(drive::<FlatMapAsASet>, "process", "01-R6")]
#[case::chain_reprocesses_out(drive::<ChainReprocessesOut>, "process", "01-R7")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Dataflow>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
