//! Stage 01 mutants of the operators and of `run`: what one call appends to `out`, what
//! a chain keeps between records, and where `run` starts and what it collects.

/// **Mistake:** `Map` replaces `out` by its one record ("`out` is mine to fill"), which
/// goes unseen as long as every caller hands it an empty buffer.
/// **Verdict:** `process` fails: with `out = [9, 4]`, `Map` leaves only its own record.
pub mod map_replaces_out {
    pub use solution01::*;

    pub struct Map<F>(pub F);
    impl<In, Out, F: FnMut(In) -> Out> Operator<In> for Map<F> {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            *out = vec![(self.0)(input)];
        }
    }
}

/// **Mistake:** the chain keeps its buffer of intermediate records as a field and never
/// empties it, so each record also re-sends the intermediate records of earlier ones.
/// One call on a fresh chain is right; a stream is not.
/// **Verdict:** `chain` fails on the first chain of two operators fed two records.
pub mod chain_keeps_middle {
    pub use solution01::{Filter, FlatMap, Map, Source, VecSource};
    own_run!();

    pub struct Chain<A, B, M>(A, B, Vec<M>);
    pub trait Operator<In> {
        type Out;
        fn process(&mut self, input: In, out: &mut Vec<Self::Out>);
        fn then<B: Operator<Self::Out>>(self, next: B) -> Chain<Self, B, Self::Out>
        where
            Self: Sized,
        {
            Chain(self, next, Vec::new())
        }
    }
    impl<In, T: solution01::Operator<In>> Operator<In> for T {
        type Out = T::Out;
        fn process(&mut self, input: In, out: &mut Vec<T::Out>) {
            solution01::Operator::process(self, input, out);
        }
    }
    impl<In, A, B, M> solution01::Operator<In> for Chain<A, B, M>
    where
        A: Operator<In, Out = M>,
        M: Clone,
        B: Operator<M>,
    {
        type Out = B::Out;
        fn process(&mut self, input: In, out: &mut Vec<B::Out>) {
            self.0.process(input, &mut self.2);
            for record in self.2.clone() {
                self.1.process(record, out);
            }
        }
    }
}

/// **Mistake:** `run` rewinds the source to 0 before reading ("run reads the source"),
/// so a resumed job replays everything.
/// **Verdict:** `crash` fails: resumed at 1, the run emits the first record's output again.
pub mod run_from_the_start {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let _ = source.seek(0);
        solution01::run(source, op)
    }
}

/// **Mistake:** `run` keeps one output per record polled ("one record in, one out").
/// **Verdict:** `chain` fails on the first record a flat map turns into two.
pub mod run_first_output_only {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let mut out = Vec::new();
        while let Some(record) = source.poll() {
            let mut emitted = Vec::new();
            op.process(record, &mut emitted);
            out.extend(emitted.into_iter().take(1));
        }
        out
    }
}

/// **Control:** a correct `run` and `FlatMap` written otherwise: `run` collects each
/// record's outputs in a buffer of their own and appends it; `FlatMap` pushes one by one.
pub mod buffered_run {
    pub use solution01::{Filter, Map, Operator, Source, VecSource};

    pub struct FlatMap<F>(pub F);
    impl<In, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            for record in (self.0)(input) {
                out.push(record);
            }
        }
    }

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let mut out = Vec::new();
        loop {
            let Some(record) = source.poll() else {
                break out;
            };
            let mut emitted = Vec::new();
            op.process(record, &mut emitted);
            out.append(&mut emitted);
        }
    }
}
