//! How a driver reaches a stage-05 implementation: a small trait, the grader's mirrors of
//! the stage's values, and the macro that implements the trait inside the
//! implementation's own crate.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An assigner of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssignerSpec {
    /// `Tumbling::new(size)`.
    Tumbling(u64),
    /// `Sliding::new(size, slide)`.
    Sliding(u64, u64),
}

impl fmt::Display for AssignerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssignerSpec::Tumbling(size) => write!(f, "Tumbling::new({size})"),
            AssignerSpec::Sliding(size, slide) => write!(f, "Sliding::new({size}, {slide})"),
        }
    }
}

/// A keyed record `(key, ts, value)`, as `on_record` takes it and `Late` returns it.
pub type LateRecord = (String, u64, i64);

/// A stream element as the grader sees it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Element {
    /// `Record(Event { ts, value: (key, value) })`.
    Record(String, u64, i64),
    /// `Watermark(wm)`.
    Watermark(u64),
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Record(key, ts, value) => write!(f, "{key}@{ts}={value}"),
            Element::Watermark(u64::MAX) => write!(f, "W(MAX)"),
            Element::Watermark(wm) => write!(f, "W({wm})"),
        }
    }
}

/// A `WindowResult` as the grader sees it. Field order gives the required result order:
/// by window (`start`, then `end`), then key.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Fired {
    /// `window.start`.
    pub start: u64,
    /// `window.end`.
    pub end: u64,
    /// `key`.
    pub key: String,
    /// `sum`.
    pub sum: i64,
    /// `count`.
    pub count: u64,
}

impl fmt::Debug for Fired {
    // Reports list many results: the short form reads better than the derived one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Fired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}) sum {} count {}",
            self.key, self.start, self.end, self.sum, self.count
        )
    }
}

/// The surface of stage 05 that the driver calls. Implemented by `impl_stage05!`.
pub trait Implementation {
    /// The implementation's `WindowOperator<String, A>` for either assigner.
    type Operator;

    /// `A::new(..)?.assign(ts)`, as `(start, end)` pairs.
    ///
    /// # Errors
    /// When the assigner cannot be built.
    fn assign(spec: AssignerSpec, ts: u64) -> anyhow::Result<Vec<(u64, u64)>>;
    /// `WindowOperator::new(A::new(..)?)`.
    ///
    /// # Errors
    /// When the assigner cannot be built.
    fn operator(spec: AssignerSpec) -> anyhow::Result<Self::Operator>;
    /// `on_record(key, ts, value)`, the late record if one came back.
    fn on_record(
        operator: &mut Self::Operator,
        key: &str,
        ts: u64,
        value: i64,
    ) -> Option<LateRecord>;
    /// `on_watermark(wm)`.
    fn on_watermark(operator: &mut Self::Operator, wm: u64) -> Vec<Fired>;
    /// `state_size()`.
    fn state_size(operator: &Self::Operator) -> usize;
    /// `current_watermark()`.
    fn current_watermark(operator: &Self::Operator) -> Option<u64>;
    /// `snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn snapshot(operator: &Self::Operator) -> anyhow::Result<Vec<u8>>;
    /// `WindowOperator::restore(A::new(..)?, bytes)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn restore(spec: AssignerSpec, bytes: &[u8]) -> anyhow::Result<Self::Operator>;
    /// `window_sums(elements, A::new(..)?)`.
    ///
    /// # Errors
    /// When the assigner cannot be built.
    fn window_sums(
        spec: AssignerSpec,
        elements: &[Element],
    ) -> anyhow::Result<(Vec<Fired>, Vec<LateRecord>)>;
}

/// Implements [`Implementation`] as `$binding` (with a local operator type `$operator`)
/// for the stage-05 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage05 {
    ($binding:ident, $operator:ident, $($imp:ident)::+) => {
        /// The implementation's window operator, for either assigner of the plan.
        #[doc(hidden)]
        pub enum $operator {
            /// Over tumbling windows.
            Tumbling($($imp)::+::WindowOperator<String, $($imp)::+::Tumbling>),
            /// Over sliding windows.
            Sliding($($imp)::+::WindowOperator<String, $($imp)::+::Sliding>),
        }

        #[doc(hidden)]
        pub struct $binding;

        impl $binding {
            fn fired(results: Vec<$($imp)::+::WindowResult<String>>) -> Vec<$crate::stage05::Fired> {
                results
                    .into_iter()
                    .map(|r| $crate::stage05::Fired {
                        start: r.window.start,
                        end: r.window.end,
                        key: r.key,
                        sum: r.sum,
                        count: r.count,
                    })
                    .collect()
            }
            fn late(late: $($imp)::+::Late<String>) -> $crate::stage05::LateRecord {
                let event = late.0;
                (event.value.0, event.ts, event.value.1)
            }
            fn sums<A: $($imp)::+::WindowAssigner>(
                assigner: A,
                elements: &[$crate::stage05::Element],
            ) -> (Vec<$crate::stage05::Fired>, Vec<$crate::stage05::LateRecord>) {
                use $($imp)::+::{Event, StreamElement};
                let elements: Vec<StreamElement<Event<(String, i64)>>> = elements
                    .iter()
                    .map(|e| match e {
                        $crate::stage05::Element::Record(key, ts, value) => {
                            StreamElement::Record(Event { ts: *ts, value: (key.clone(), *value) })
                        }
                        $crate::stage05::Element::Watermark(wm) => StreamElement::Watermark(*wm),
                    })
                    .collect();
                let (fired, late) = $($imp)::+::window_sums(&elements, assigner);
                let late = late.into_iter().map(|e| (e.value.0, e.ts, e.value.1)).collect();
                (Self::fired(fired), late)
            }
        }

        impl $crate::stage05::Implementation for $binding {
            type Operator = $operator;

            fn assign(
                spec: $crate::stage05::AssignerSpec,
                ts: u64,
            ) -> $crate::__anyhow::Result<Vec<(u64, u64)>> {
                use $($imp)::+::WindowAssigner as _;
                let windows = match spec {
                    $crate::stage05::AssignerSpec::Tumbling(size) => {
                        $($imp)::+::Tumbling::new(size)?.assign(ts)
                    }
                    $crate::stage05::AssignerSpec::Sliding(size, slide) => {
                        $($imp)::+::Sliding::new(size, slide)?.assign(ts)
                    }
                };
                Ok(windows.into_iter().map(|w| (w.start, w.end)).collect())
            }
            fn operator(spec: $crate::stage05::AssignerSpec) -> $crate::__anyhow::Result<$operator> {
                Ok(match spec {
                    $crate::stage05::AssignerSpec::Tumbling(size) => $operator::Tumbling(
                        $($imp)::+::WindowOperator::new($($imp)::+::Tumbling::new(size)?),
                    ),
                    $crate::stage05::AssignerSpec::Sliding(size, slide) => $operator::Sliding(
                        $($imp)::+::WindowOperator::new($($imp)::+::Sliding::new(size, slide)?),
                    ),
                })
            }
            fn on_record(
                operator: &mut $operator,
                key: &str,
                ts: u64,
                value: i64,
            ) -> Option<$crate::stage05::LateRecord> {
                match operator {
                    $operator::Tumbling(op) => op.on_record(key.to_owned(), ts, value),
                    $operator::Sliding(op) => op.on_record(key.to_owned(), ts, value),
                }
                .map(Self::late)
            }
            fn on_watermark(operator: &mut $operator, wm: u64) -> Vec<$crate::stage05::Fired> {
                Self::fired(match operator {
                    $operator::Tumbling(op) => op.on_watermark(wm),
                    $operator::Sliding(op) => op.on_watermark(wm),
                })
            }
            fn state_size(operator: &$operator) -> usize {
                match operator {
                    $operator::Tumbling(op) => op.state_size(),
                    $operator::Sliding(op) => op.state_size(),
                }
            }
            fn current_watermark(operator: &$operator) -> Option<u64> {
                match operator {
                    $operator::Tumbling(op) => op.current_watermark(),
                    $operator::Sliding(op) => op.current_watermark(),
                }
            }
            fn snapshot(operator: &$operator) -> $crate::__anyhow::Result<Vec<u8>> {
                match operator {
                    $operator::Tumbling(op) => op.snapshot(),
                    $operator::Sliding(op) => op.snapshot(),
                }
            }
            fn restore(
                spec: $crate::stage05::AssignerSpec,
                bytes: &[u8],
            ) -> $crate::__anyhow::Result<$operator> {
                Ok(match spec {
                    $crate::stage05::AssignerSpec::Tumbling(size) => $operator::Tumbling(
                        $($imp)::+::WindowOperator::restore($($imp)::+::Tumbling::new(size)?, bytes)?,
                    ),
                    $crate::stage05::AssignerSpec::Sliding(size, slide) => $operator::Sliding(
                        $($imp)::+::WindowOperator::restore(
                            $($imp)::+::Sliding::new(size, slide)?,
                            bytes,
                        )?,
                    ),
                })
            }
            fn window_sums(
                spec: $crate::stage05::AssignerSpec,
                elements: &[$crate::stage05::Element],
            ) -> $crate::__anyhow::Result<(
                Vec<$crate::stage05::Fired>,
                Vec<$crate::stage05::LateRecord>,
            )> {
                Ok(match spec {
                    $crate::stage05::AssignerSpec::Tumbling(size) => {
                        Self::sums($($imp)::+::Tumbling::new(size)?, elements)
                    }
                    $crate::stage05::AssignerSpec::Sliding(size, slide) => {
                        Self::sums($($imp)::+::Sliding::new(size, slide)?, elements)
                    }
                })
            }
        }
    };
}
