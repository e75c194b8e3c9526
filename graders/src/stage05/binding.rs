//! How a driver reaches a stage-05 implementation: a small trait, and the macro that
//! implements it inside the implementation's own crate.

use super::{AssignerSpec, Element, Fired, LateRecord};

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
    /// `WindowOperator<(String, u64), Tumbling>` of `Tumbling::new(size)`: `on_record((key,
    /// ts), ts, value)` for each of `records`, `restore` of its `snapshot()`, then
    /// `on_watermark(wm)`, each result's key shown as `key/ts`.
    ///
    /// # Errors
    /// When the assigner cannot be built, or the snapshot or the restore fails.
    fn pair_keys(size: u64, records: &[LateRecord], wm: u64) -> anyhow::Result<Vec<Fired>>;
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
            fn pair_keys(
                size: u64,
                records: &[$crate::stage05::LateRecord],
                wm: u64,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage05::Fired>> {
                type Pairs = $($imp)::+::WindowOperator<(String, u64), $($imp)::+::Tumbling>;
                let mut op: Pairs = $($imp)::+::WindowOperator::new($($imp)::+::Tumbling::new(size)?);
                for (key, ts, value) in records {
                    let _ = op.on_record((key.clone(), *ts), *ts, *value);
                }
                let bytes = op.snapshot()?;
                let mut op: Pairs =
                    $($imp)::+::WindowOperator::restore($($imp)::+::Tumbling::new(size)?, &bytes)?;
                Ok(op
                    .on_watermark(wm)
                    .into_iter()
                    .map(|r| $crate::stage05::Fired {
                        start: r.window.start,
                        end: r.window.end,
                        key: format!("{}/{}", r.key.0, r.key.1),
                        sum: r.sum,
                        count: r.count,
                    })
                    .collect())
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
