//! How a driver reaches a stage-06 implementation: a small trait, the grader's folding
//! spy, and the macro that implements the trait inside the implementation's own crate.

use super::{Elem, Out};

/// The spy fold the grader hands to `aligned_snapshots`: it appends every record it is
/// given, so a snapshot shows exactly which records reached the state, and in what order.
// `&String` because the fold must be an `FnMut(&mut S, &T)` with `T = String`.
#[allow(clippy::ptr_arg)]
pub fn spy_fold(state: &mut Vec<String>, record: &String) {
    state.push(record.clone());
}

/// A record type with no trait at all. The driver names the aligner and
/// `aligned_snapshots` over it, so an implementation that puts a bound on `T` (the brief:
/// "it has no bound on `T`") does not build, though the driver's own `String` records
/// would have met the bound.
pub struct RecordWithNoTraits;

/// The surface of stage 06 that the driver calls, over `String` records. Implemented by
/// `impl_stage06!`.
pub trait Implementation {
    /// The implementation's `BarrierAligner<String>`.
    type Aligner;

    /// `inject_barriers(records, barrier_every)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn inject(records: &[String], barrier_every: usize) -> anyhow::Result<Vec<Elem>>;
    /// `BarrierAligner::new(inputs)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn aligner(inputs: usize) -> anyhow::Result<Self::Aligner>;
    /// `aligner.on_element(input, element)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn on_element(
        aligner: &mut Self::Aligner,
        input: usize,
        element: Elem,
    ) -> anyhow::Result<Vec<Out>>;
    /// `aligner.is_blocked(input)`.
    fn is_blocked(aligner: &Self::Aligner, input: usize) -> bool;
    /// `aligner.snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn snapshot(aligner: &Self::Aligner) -> anyhow::Result<Vec<u8>>;
    /// `BarrierAligner::restore(inputs, bytes)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn restore(inputs: usize, bytes: &[u8]) -> anyhow::Result<Self::Aligner>;
    /// `aligned_snapshots(inputs, schedule, Vec::new(), spy_fold)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn aligned_snapshots(
        inputs: Vec<Vec<Elem>>,
        schedule: &[usize],
    ) -> anyhow::Result<Vec<(u64, Vec<String>)>>;
}

/// Implements [`Implementation`] as `$binding` for the stage-06 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage06 {
    ($binding:ident, $($imp:ident)::+) => {
        #[doc(hidden)]
        pub struct $binding;

        impl $binding {
            fn to_element(element: $crate::stage06::Elem) -> $($imp)::+::Element<String> {
                match element {
                    $crate::stage06::Elem::Record(r) => $($imp)::+::Element::Record(r),
                    $crate::stage06::Elem::Barrier(c) => $($imp)::+::Element::Barrier(c),
                }
            }
        }

        // Never called: it only has to compile, over a record type with no traits.
        const _: () = {
            #[allow(dead_code)]
            fn no_bound_on_records(
                inputs: Vec<Vec<$($imp)::+::Element<$crate::stage06::RecordWithNoTraits>>>,
            ) {
                use $crate::stage06::RecordWithNoTraits as R;
                if let Ok(mut aligner) = $($imp)::+::BarrierAligner::<R>::new(1) {
                    let _ = aligner.on_element(0, $($imp)::+::Element::Record(R));
                    let _ = aligner.is_blocked(0);
                    let _ = aligner.snapshot();
                }
                let _ = $($imp)::+::BarrierAligner::<R>::restore(1, b"");
                let _ = $($imp)::+::aligned_snapshots(inputs, &[], (), |_: &mut (), _: &R| {});
            }
        };

        impl $crate::stage06::Implementation for $binding {
            type Aligner = $($imp)::+::BarrierAligner<String>;

            fn inject(
                records: &[String],
                barrier_every: usize,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage06::Elem>> {
                Ok($($imp)::+::inject_barriers(records, barrier_every)?
                    .into_iter()
                    .map(|element| match element {
                        $($imp)::+::Element::Record(r) => $crate::stage06::Elem::Record(r),
                        $($imp)::+::Element::Barrier(c) => $crate::stage06::Elem::Barrier(c),
                    })
                    .collect())
            }
            fn aligner(inputs: usize) -> $crate::__anyhow::Result<Self::Aligner> {
                $($imp)::+::BarrierAligner::new(inputs)
            }
            fn on_element(
                aligner: &mut Self::Aligner,
                input: usize,
                element: $crate::stage06::Elem,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage06::Out>> {
                Ok(aligner
                    .on_element(input, Self::to_element(element))?
                    .into_iter()
                    .map(|out| match out {
                        $($imp)::+::Aligned::Record(r) => $crate::stage06::Out::Record(r),
                        $($imp)::+::Aligned::Checkpoint(c) => $crate::stage06::Out::Checkpoint(c),
                    })
                    .collect())
            }
            fn is_blocked(aligner: &Self::Aligner, input: usize) -> bool {
                aligner.is_blocked(input)
            }
            fn snapshot(aligner: &Self::Aligner) -> $crate::__anyhow::Result<Vec<u8>> {
                aligner.snapshot()
            }
            fn restore(inputs: usize, bytes: &[u8]) -> $crate::__anyhow::Result<Self::Aligner> {
                $($imp)::+::BarrierAligner::restore(inputs, bytes)
            }
            fn aligned_snapshots(
                inputs: Vec<Vec<$crate::stage06::Elem>>,
                schedule: &[usize],
            ) -> $crate::__anyhow::Result<Vec<(u64, Vec<String>)>> {
                let inputs = inputs
                    .into_iter()
                    .map(|elements| elements.into_iter().map(Self::to_element).collect())
                    .collect();
                $($imp)::+::aligned_snapshots(
                    inputs,
                    schedule,
                    Vec::new(),
                    $crate::stage06::spy_fold,
                )
            }
        }
    };
}
