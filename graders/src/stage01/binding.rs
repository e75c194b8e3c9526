//! How a driver reaches a stage-01 implementation: a small trait, and the macro that
//! implements it inside the implementation's own crate.

use super::{ChainId, OperatorId};

/// The surface of stage 01 that the driver calls, over `u32` records.
///
/// Implemented by `impl_stage01!` for any crate (or module) with stage 01's API; nobody
/// implements it by hand.
pub trait Implementation {
    /// The implementation's `VecSource<u32>`.
    type Source;
    /// `VecSource::new(records)`.
    fn source(records: Vec<u32>) -> Self::Source;
    /// `Source::poll`.
    fn poll(source: &mut Self::Source) -> Option<u32>;
    /// `Source::position`.
    fn position(source: &Self::Source) -> u64;
    /// `Source::seek`.
    ///
    /// # Errors
    /// Whatever the implementation's `seek` returns.
    fn seek(source: &mut Self::Source, offset: u64) -> anyhow::Result<()>;
    /// `run(source, chain)` with the implementation's operators for `chain`.
    fn run(source: &mut Self::Source, chain: ChainId) -> Vec<u32>;
    /// `run(source, op)` with an operator of the grader's own that passes every record
    /// through: `run` and the source alone, whatever the implementation's operators do.
    fn run_through(source: &mut Self::Source) -> Vec<u32>;
    /// The implementation's operators for `chain`, one instance fed every record of
    /// `records` in turn with `Operator::process` into one `out`: the chain without `run`.
    fn feed(chain: ChainId, records: &[u32]) -> Vec<u32>;
    /// One `Operator::process(input, &mut out)` call on a fresh `operator`; `out` after it.
    fn process(operator: OperatorId, input: u32, out: Vec<u32>) -> Vec<u32>;
}

/// Implements [`Implementation`] as the type `$binding` for the stage-01 API found at
/// the path `$imp` (a crate such as `stage01`, or a module of mutants).
#[macro_export]
macro_rules! impl_stage01 {
    ($binding:ident, $($imp:ident)::+) => {
        #[doc(hidden)]
        pub struct $binding;

        impl $crate::stage01::Implementation for $binding {
            type Source = $($imp)::+::VecSource<u32>;

            fn source(records: Vec<u32>) -> Self::Source {
                // Spare capacity, as a `Vec` built by pushing has: a bound read from
                // `capacity()` rather than `len()` shows.
                let mut spare = Vec::with_capacity(records.len() + 8);
                spare.extend(records);
                $($imp)::+::VecSource::new(spare)
            }
            fn poll(source: &mut Self::Source) -> Option<u32> {
                <Self::Source as $($imp)::+::Source>::poll(source)
            }
            fn position(source: &Self::Source) -> u64 {
                <Self::Source as $($imp)::+::Source>::position(source)
            }
            fn seek(source: &mut Self::Source, offset: u64) -> $crate::__anyhow::Result<()> {
                <Self::Source as $($imp)::+::Source>::seek(source, offset)
            }
            fn run(source: &mut Self::Source, chain: $crate::stage01::ChainId) -> Vec<u32> {
                use $($imp)::+::{Filter, FlatMap, Map, Operator as _, run};
                use $crate::stage01::ChainId;
                use $crate::stage01::catalogue as f;
                match chain {
                    ChainId::Map => run(source, &mut Map(f::triple_plus_one)),
                    ChainId::Filter => run(source, &mut Filter(f::is_even)),
                    ChainId::FlatMap => run(source, &mut FlatMap(f::copies_by_remainder)),
                    ChainId::MapThenFilter => {
                        run(source, &mut Map(f::increment).then(Filter(f::is_even)))
                    }
                    ChainId::FilterThenMap => {
                        run(source, &mut Filter(f::is_even).then(Map(f::increment)))
                    }
                    ChainId::ThreeSteps => run(
                        source,
                        &mut Map(f::double)
                            .then(FlatMap(f::with_successor))
                            .then(Filter(f::not_multiple_of_three)),
                    ),
                    ChainId::Numbered => run(source, &mut Map(f::numbered())),
                    ChainId::EveryOther => run(source, &mut Filter(f::every_other())),
                    ChainId::FlatMapThenNumbered => run(
                        source,
                        &mut FlatMap(f::with_successor).then(Map(f::numbered())),
                    ),
                    ChainId::NumberedFlatMap => run(source, &mut FlatMap(f::numbered_copies())),
                }
            }
            fn run_through(source: &mut Self::Source) -> Vec<u32> {
                struct Through;
                impl $($imp)::+::Operator<u32> for Through {
                    type Out = u32;
                    fn process(&mut self, input: u32, out: &mut Vec<u32>) {
                        out.push(input);
                    }
                }
                $($imp)::+::run(source, &mut Through)
            }
            fn feed(chain: $crate::stage01::ChainId, records: &[u32]) -> Vec<u32> {
                use $($imp)::+::{Filter, FlatMap, Map, Operator};
                use $crate::stage01::ChainId;
                use $crate::stage01::catalogue as f;
                fn by_hand<O: Operator<u32, Out = u32>>(mut op: O, records: &[u32]) -> Vec<u32> {
                    let mut out = Vec::new();
                    for record in records {
                        op.process(*record, &mut out);
                    }
                    out
                }
                match chain {
                    ChainId::Map => by_hand(Map(f::triple_plus_one), records),
                    ChainId::Filter => by_hand(Filter(f::is_even), records),
                    ChainId::FlatMap => by_hand(FlatMap(f::copies_by_remainder), records),
                    ChainId::MapThenFilter => {
                        by_hand(Map(f::increment).then(Filter(f::is_even)), records)
                    }
                    ChainId::FilterThenMap => {
                        by_hand(Filter(f::is_even).then(Map(f::increment)), records)
                    }
                    ChainId::ThreeSteps => by_hand(
                        Map(f::double)
                            .then(FlatMap(f::with_successor))
                            .then(Filter(f::not_multiple_of_three)),
                        records,
                    ),
                    ChainId::Numbered => by_hand(Map(f::numbered()), records),
                    ChainId::EveryOther => by_hand(Filter(f::every_other()), records),
                    ChainId::FlatMapThenNumbered => {
                        by_hand(FlatMap(f::with_successor).then(Map(f::numbered())), records)
                    }
                    ChainId::NumberedFlatMap => by_hand(FlatMap(f::numbered_copies()), records),
                }
            }
            fn process(
                operator: $crate::stage01::OperatorId,
                input: u32,
                mut out: Vec<u32>,
            ) -> Vec<u32> {
                use $($imp)::+::{Filter, FlatMap, Map, Operator};
                use $crate::stage01::OperatorId;
                use $crate::stage01::catalogue as f;
                fn once<O: Operator<u32, Out = u32>>(mut op: O, input: u32, out: &mut Vec<u32>) {
                    op.process(input, out);
                }
                match operator {
                    OperatorId::Map => once(Map(f::triple_plus_one), input, &mut out),
                    OperatorId::Filter => once(Filter(f::is_even), input, &mut out),
                    OperatorId::FlatMapCopies => {
                        once(FlatMap(f::copies_by_remainder), input, &mut out)
                    }
                    OperatorId::FlatMapScrambled => {
                        once(FlatMap(f::scrambled_neighbours), input, &mut out)
                    }
                    OperatorId::FlatMapThenMap => once(
                        FlatMap(f::scrambled_neighbours).then(Map(f::increment)),
                        input,
                        &mut out,
                    ),
                    OperatorId::FlatMapThenFlatMap => once(
                        FlatMap(f::with_successor).then(FlatMap(f::scrambled_neighbours)),
                        input,
                        &mut out,
                    ),
                    OperatorId::ThreeSteps => once(
                        Map(f::triple_plus_one)
                            .then(Filter(f::is_even))
                            .then(FlatMap(f::scrambled_neighbours)),
                        input,
                        &mut out,
                    ),
                    OperatorId::FlatMapRange => once(FlatMap(f::range_below), input, &mut out),
                }
                out
            }
        }
    };
}
