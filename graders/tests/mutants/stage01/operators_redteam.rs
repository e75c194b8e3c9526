//! Stage 01 mutants of the operators and of `run` written from the brief alone: state an
//! operator keeps from one record to the next, the order a chain hands records on, and
//! where `run` stops; and a correct chain that keeps its buffer, which must pass.

/// The scaffolding of a `Chain` mutant: a trait of its own (so `then` builds the
/// mutant's chain) over the reference's operators, and a chain carrying a buffer `M`.
macro_rules! chain {
    (
        $(#[$doc:meta])*
        mod $name:ident;
        process($s:ident, $input:ident, $out:ident) $process:block
    ) => {
        $(#[$doc])*
        pub mod $name {
            pub use solution01::{Filter, FlatMap, Map, Source, VecSource};
            own_run!();

            // The buffer is the control's; the mutants leave it empty.
            pub struct Chain<A, B, M>(A, B, #[allow(dead_code)] Vec<M>);
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
                B: Operator<M>,
            {
                type Out = B::Out;
                fn process(&mut $s, $input: In, $out: &mut Vec<B::Out>) $process
            }
        }
    };
}

/// **Mistake:** `Filter` behaves as `take_while`: once a record fails the predicate,
/// nothing passes any more. One call on a fresh filter is right.
/// **Verdict:** `chain` fails on the first even record after an odd one.
pub mod filter_take_while {
    pub use solution01::{FlatMap, Map, Operator, Source, VecSource, run};

    pub struct Filter<F> {
        predicate: F,
        closed: bool,
    }
    #[allow(non_snake_case)]
    pub fn Filter<F>(predicate: F) -> Filter<F> {
        Filter {
            predicate,
            closed: false,
        }
    }
    impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
        type Out = In;
        fn process(&mut self, input: In, out: &mut Vec<In>) {
            self.closed = self.closed || !(self.predicate)(&input);
            if !self.closed {
                out.push(input);
            }
        }
    }
}

/// **Mistake:** `Filter` behaves as `skip_while` of the negation: once a record passes
/// the predicate, every later record passes too.
/// **Verdict:** `chain` fails on the first odd record after an even one.
pub mod filter_skip_while {
    pub use solution01::{FlatMap, Map, Operator, Source, VecSource, run};

    pub struct Filter<F> {
        predicate: F,
        opened: bool,
    }
    #[allow(non_snake_case)]
    pub fn Filter<F>(predicate: F) -> Filter<F> {
        Filter {
            predicate,
            opened: false,
        }
    }
    impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
        type Out = In;
        fn process(&mut self, input: In, out: &mut Vec<In>) {
            self.opened = self.opened || (self.predicate)(&input);
            if self.opened {
                out.push(input);
            }
        }
    }
}

chain! {
    /// **Mistake:** the chain hands the first operator's records on by popping them off
    /// its buffer, so the second operator sees them last first.
    /// **Verdict:** `process` fails: `FlatMap(|x| vec![x + 2, x, x + 1]).then(..)` emits
    /// them reversed.
    mod chain_pops_middle;
    process(self, input, out) {
        let mut middle = Vec::new();
        self.0.process(input, &mut middle);
        while let Some(record) = middle.pop() {
            self.1.process(record, out);
        }
    }
}

chain! {
    /// **Mistake:** the chain hands the first operator's records to the second last
    /// first, then reverses what came out, "since only the order of `out` shows": the
    /// second operator's function, if it keeps state, sees the records backwards.
    /// **Verdict:** `chain` fails on `FlatMap(|x| vec![x, x + 1]).then(Map(numbered))`:
    /// the numbers go to the records in reverse (01-R8).
    mod chain_feeds_last_first;
    process(self, input, out) {
        let mut middle = Vec::new();
        self.0.process(input, &mut middle);
        let mut scratch = Vec::new();
        for record in middle.into_iter().rev() {
            let before = scratch.len();
            self.1.process(record, &mut scratch);
            scratch[before..].reverse();
        }
        scratch.reverse();
        out.extend(scratch);
    }
}

/// **Mistake:** `FlatMap` calls its function once to count the records, then again to
/// emit them, "so that `out` grows once, to the exact size": a function that keeps state
/// is called twice per record.
/// **Verdict:** `chain` fails on the flat map whose function numbers its calls (01-R6).
pub mod flat_map_counts_then_copies {
    pub use solution01::{Filter, Map, Operator, Source, VecSource, run};

    pub struct FlatMap<F>(pub F);
    impl<In: Clone, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            let count = (self.0)(input.clone()).into_iter().count();
            out.reserve_exact(count);
            out.extend((self.0)(input));
        }
    }
}

chain! {
    /// **Control:** a correct chain that keeps its buffer between records and drains it
    /// each time (one allocation for the whole stream).
    mod drained_middle;
    process(self, input, out) {
        self.0.process(input, &mut self.2);
        for record in self.2.drain(..) {
            self.1.process(record, out);
        }
    }
}

/// **Mistake:** `Filter` asks its predicate twice, "to decide, then to confirm", harmless
/// for a pure predicate: one with state (a counter) answers the second call differently.
/// **Verdict:** `chain` fails on the filter keeping every other call's record (01-R6).
pub mod filter_asks_twice {
    pub use solution01::{FlatMap, Map, Operator, Source, VecSource, run};

    pub struct Filter<F>(pub F);
    impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
        type Out = In;
        fn process(&mut self, input: In, out: &mut Vec<In>) {
            if (self.0)(&input) && (self.0)(&input) {
                out.push(input);
            }
        }
    }
}

/// **Mistake:** `Map` calls a fresh copy of its function for every record, "so records
/// share no state": a counter in the function restarts at every record.
/// **Verdict:** `chain` fails on the map numbering its calls (01-R6).
pub mod map_copies_its_function {
    pub use solution01::{Filter, FlatMap, Operator, Source, VecSource, run};

    pub struct Map<F>(pub F);
    impl<In, Out, F: FnMut(In) -> Out + Clone> Operator<In> for Map<F> {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            let mut fresh = self.0.clone();
            out.push(fresh(input));
        }
    }
}

/// **Mistake:** `Map` puts its record at the front of `out` ("newest first").
/// **Verdict:** `process` fails: with `out = [9, 4]`, the record comes before 9.
pub mod map_prepends {
    pub use solution01::{Filter, FlatMap, Operator, Source, VecSource, run};

    pub struct Map<F>(pub F);
    impl<In, Out, F: FnMut(In) -> Out> Operator<In> for Map<F> {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            out.insert(0, (self.0)(input));
        }
    }
}

/// **Mistake:** `run` stops at the first record the operator emits nothing for, taking
/// "nothing came out" for "the source is exhausted".
/// **Verdict:** `chain` fails: the filter drops an odd record and `run` returns with
/// records left in the source.
pub mod run_stops_on_silence {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let mut out = Vec::new();
        while let Some(record) = source.poll() {
            let before = out.len();
            op.process(record, &mut out);
            if out.len() == before {
                break;
            }
        }
        out
    }
}

/// **Mistake:** `run` processes each record one poll late (it holds the record until the
/// next one arrives) and forgets the held record when the source runs dry.
/// **Verdict:** `chain` fails: the last record's output is missing.
pub mod run_one_behind {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let mut out = Vec::new();
        let mut held = None;
        while let Some(record) = source.poll() {
            if let Some(previous) = held.replace(record) {
                op.process(previous, &mut out);
            }
        }
        out
    }
}

/// **Mistake:** `run` declares its output buffer inside the loop, so it returns only the
/// last record's outputs.
/// **Verdict:** `chain` fails on the first source of two records that both emit.
pub mod run_last_record_only {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        let mut last = Vec::new();
        while let Some(record) = source.poll() {
            let mut out = Vec::new();
            op.process(record, &mut out);
            last = out;
        }
        last
    }
}

/// **Mistake:** `FlatMap` copies as many records as the iterator's `size_hint` promises
/// at least ("reserve once, then copy exactly that many"), which is all of them for a
/// vector and none for an iterator that does not know its length.
/// **Verdict:** `process` fails: the flat map of `x % 3` copies, handed out lazily, gives
/// nothing for a 2.
pub mod flat_map_trusts_size_hint {
    pub use solution01::{Filter, Map, Operator, Source, VecSource, run};

    pub struct FlatMap<F>(pub F);
    impl<In, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            let mut records = (self.0)(input).into_iter();
            let promised = records.size_hint().0;
            out.reserve(promised);
            out.extend(records.by_ref().take(promised));
        }
    }
}

/// **Mistake:** `FlatMap` copies up to the iterator's upper bound, read as "the length
/// of the collection the function returned", with none read as an empty one.
/// **Verdict:** `process` fails: the lazy flat map of `x % 3` copies gives nothing for a 2.
pub mod flat_map_trusts_upper_bound {
    pub use solution01::{Filter, Map, Operator, Source, VecSource, run};

    pub struct FlatMap<F>(pub F);
    impl<In, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            let records = (self.0)(input).into_iter();
            let length = records.size_hint().1.unwrap_or(0);
            out.reserve_exact(length);
            out.extend(records.take(length));
        }
    }
}
