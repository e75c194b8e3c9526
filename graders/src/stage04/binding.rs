//! How a driver reaches a stage-04 implementation: a small trait, the grader's mirror of
//! a stream element, and the macro that implements the trait inside the implementation's
//! own crate.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A stream element as the grader sees it: a record `(ts, id)` or a watermark.
///
/// Records carry an id (their position in the event set) so that two records with the
/// same timestamp remain two records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Element {
    /// `StreamElement::Record(Event { ts, value: id })`.
    Record(u64, u32),
    /// `StreamElement::Watermark(ts)`.
    Watermark(u64),
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Record(ts, _) => write!(f, "{ts}"),
            Element::Watermark(wm) => write!(f, "W({wm})"),
        }
    }
}

/// A record as the grader sees it: `(timestamp, id)`.
pub type TimedRecord = (u64, u32);

/// What `split_late` returns: `(on_time, late)`.
pub type Split = (Vec<TimedRecord>, Vec<TimedRecord>);

/// The surface of stage 04 that the driver calls. Implemented by `impl_stage04!`.
pub trait Implementation {
    /// The implementation's `BoundedOutOfOrderness`.
    type Generator;
    /// The implementation's `CombinedWatermark`.
    type Combiner;

    /// `BoundedOutOfOrderness::new(max_delay)`.
    fn generator(max_delay: u64) -> Self::Generator;
    /// `on_event(ts)`.
    fn on_event(generator: &mut Self::Generator, ts: u64);
    /// `current_watermark()`.
    fn current_watermark(generator: &Self::Generator) -> Option<u64>;
    /// `snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn generator_snapshot(generator: &Self::Generator) -> anyhow::Result<Vec<u8>>;
    /// `BoundedOutOfOrderness::restore(bytes)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn generator_restore(bytes: &[u8]) -> anyhow::Result<Self::Generator>;

    /// `with_watermarks(events, max_delay)` over records `(ts, id)`.
    fn with_watermarks(events: &[(u64, u32)], max_delay: u64) -> Vec<Element>;
    /// `split_late(elements)`, as `(on_time, late)` records `(ts, id)`.
    fn split_late(elements: &[Element]) -> Split;

    /// `CombinedWatermark::new(inputs)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn combiner(inputs: usize) -> anyhow::Result<Self::Combiner>;
    /// `on_watermark(input, ts)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn on_watermark(
        combiner: &mut Self::Combiner,
        input: usize,
        ts: u64,
    ) -> anyhow::Result<Option<u64>>;
    /// `CombinedWatermark::current()`.
    fn combiner_current(combiner: &Self::Combiner) -> Option<u64>;
    /// `snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn combiner_snapshot(combiner: &Self::Combiner) -> anyhow::Result<Vec<u8>>;
    /// `CombinedWatermark::restore(bytes)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn combiner_restore(bytes: &[u8]) -> anyhow::Result<Self::Combiner>;
}

/// Implements [`Implementation`] as `$binding` for the stage-04 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage04 {
    ($binding:ident, $($imp:ident)::+) => {
        #[doc(hidden)]
        pub struct $binding;

        impl $binding {
            fn to_element(
                element: &$crate::stage04::Element,
            ) -> $($imp)::+::StreamElement<$($imp)::+::Event<u32>> {
                match *element {
                    $crate::stage04::Element::Record(ts, value) => {
                        $($imp)::+::StreamElement::Record($($imp)::+::Event { ts, value })
                    }
                    $crate::stage04::Element::Watermark(wm) => {
                        $($imp)::+::StreamElement::Watermark(wm)
                    }
                }
            }
            fn from_element(
                element: &$($imp)::+::StreamElement<$($imp)::+::Event<u32>>,
            ) -> $crate::stage04::Element {
                match element {
                    $($imp)::+::StreamElement::Record(e) => {
                        $crate::stage04::Element::Record(e.ts, e.value)
                    }
                    $($imp)::+::StreamElement::Watermark(wm) => {
                        $crate::stage04::Element::Watermark(*wm)
                    }
                }
            }
        }

        impl $crate::stage04::Implementation for $binding {
            type Generator = $($imp)::+::BoundedOutOfOrderness;
            type Combiner = $($imp)::+::CombinedWatermark;

            fn generator(max_delay: u64) -> Self::Generator {
                $($imp)::+::BoundedOutOfOrderness::new(max_delay)
            }
            fn on_event(generator: &mut Self::Generator, ts: u64) {
                generator.on_event(ts);
            }
            fn current_watermark(generator: &Self::Generator) -> Option<u64> {
                generator.current_watermark()
            }
            fn generator_snapshot(
                generator: &Self::Generator,
            ) -> $crate::__anyhow::Result<Vec<u8>> {
                generator.snapshot()
            }
            fn generator_restore(bytes: &[u8]) -> $crate::__anyhow::Result<Self::Generator> {
                $($imp)::+::BoundedOutOfOrderness::restore(bytes)
            }

            fn with_watermarks(
                events: &[(u64, u32)],
                max_delay: u64,
            ) -> Vec<$crate::stage04::Element> {
                let events: Vec<$($imp)::+::Event<u32>> = events
                    .iter()
                    .map(|&(ts, value)| $($imp)::+::Event { ts, value })
                    .collect();
                $($imp)::+::with_watermarks(&events, max_delay)
                    .iter()
                    .map(Self::from_element)
                    .collect()
            }
            fn split_late(elements: &[$crate::stage04::Element]) -> $crate::stage04::Split {
                let elements: Vec<_> = elements.iter().map(Self::to_element).collect();
                let (on_time, late) = $($imp)::+::split_late(&elements);
                let pairs = |events: Vec<$($imp)::+::Event<u32>>| -> Vec<(u64, u32)> {
                    events.into_iter().map(|e| (e.ts, e.value)).collect()
                };
                (pairs(on_time), pairs(late))
            }

            fn combiner(inputs: usize) -> $crate::__anyhow::Result<Self::Combiner> {
                $($imp)::+::CombinedWatermark::new(inputs)
            }
            fn on_watermark(
                combiner: &mut Self::Combiner,
                input: usize,
                ts: u64,
            ) -> $crate::__anyhow::Result<Option<u64>> {
                combiner.on_watermark(input, ts)
            }
            fn combiner_current(combiner: &Self::Combiner) -> Option<u64> {
                combiner.current()
            }
            fn combiner_snapshot(combiner: &Self::Combiner) -> $crate::__anyhow::Result<Vec<u8>> {
                combiner.snapshot()
            }
            fn combiner_restore(bytes: &[u8]) -> $crate::__anyhow::Result<Self::Combiner> {
                $($imp)::+::CombinedWatermark::restore(bytes)
            }
        }
    };
}
