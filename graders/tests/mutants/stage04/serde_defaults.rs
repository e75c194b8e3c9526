//! Stage 04 mutants whose snapshots carry `#[serde(default)]` ("older snapshots stay
//! readable"): `restore(b"{}")` then builds a generator or a combiner out of nothing
//! where the brief asks for an error (04-R15); and the correct variant whose own snapshot
//! of a fresh generator is `{}`, which may restore it (and only a JSON object).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// A generator whose snapshot fields all default; `$skip` leaves default fields out of
/// the snapshot, so that a fresh `new(0)` writes `{}`.
macro_rules! defaulted_generator {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $skip:literal) => {
        $(#[$doc])*
        mod $name {
            use anyhow::Result;
            use serde::{Deserialize, Serialize};
            pub use solution04::*;

            fn is_default<T: Default + PartialEq>(value: &T) -> bool {
                $skip && *value == T::default()
            }

            #[derive(Debug, Clone, Default, Serialize, Deserialize)]
            #[serde(default)]
            pub struct BoundedOutOfOrderness {
                #[serde(skip_serializing_if = "is_default")]
                max_delay: Timestamp,
                #[serde(skip_serializing_if = "is_default")]
                max_ts: Option<Timestamp>,
            }

            impl BoundedOutOfOrderness {
                pub fn new(max_delay: Timestamp) -> Self {
                    Self { max_delay, max_ts: None }
                }
                pub fn on_event(&mut self, ts: Timestamp) {
                    self.max_ts = Some(self.max_ts.map_or(ts, |max| max.max(ts)));
                }
                pub fn current_watermark(&self) -> Option<Timestamp> {
                    self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
                }
                pub fn snapshot(&self) -> Result<Vec<u8>> {
                    Ok(serde_json::to_vec(self)?)
                }
                /// Reads only a JSON object, the form its snapshots take: serde would read
                /// the struct from a list too, and with every field defaulted, from `[]`.
                pub fn restore(bytes: &[u8]) -> Result<Self> {
                    let value: serde_json::Value = serde_json::from_slice(bytes)?;
                    anyhow::ensure!(value.is_object(), "not a generator's snapshot");
                    Ok(serde_json::from_value(value)?)
                }
            }
        }
        graders::impl_stage04!($binding, $name);
    };
}

defaulted_generator!(
    /// **Mistake:** the generator's snapshot is `#[serde(default)]`: `restore(b"{}")` is
    /// a generator with `max_delay = 0`, made out of bytes no generator wrote.
    /// **Verdict:** `errors`: `BoundedOutOfOrderness::restore(b"{}")` is `Ok` (04-R15).
    generator_from_nothing, GeneratorFromNothing, false
);

defaulted_generator!(
    /// The same generator, writing only the fields that differ from their default: its
    /// own snapshot of `new(0)` is `{}`, so `{}` is a snapshot and may restore (but `[]`,
    /// which it never writes, may not: its `restore` reads only an object).
    generator_fresh_is_empty_object, GeneratorFreshIsEmptyObject, true
);
crate::accepted!(a_generator_whose_fresh_snapshot_is_an_empty_object_passes: EventTime, drive::<GeneratorFreshIsEmptyObject>);

/// **Mistake:** the combiner's snapshot is `#[serde(default)]`: `restore(b"{}")` is a
/// combiner of no inputs, which `new(0)` refuses.
/// **Verdict:** `errors`: `CombinedWatermark::restore(b"{}")` is `Ok` (04-R15).
mod combiner_from_nothing {
    use anyhow::{Result, bail};
    use serde::{Deserialize, Serialize};
    pub use solution04::*;

    #[derive(Debug, Clone, Default, Serialize, Deserialize)]
    #[serde(default)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<Timestamp>>,
        combined: Option<Timestamp>,
    }

    impl CombinedWatermark {
        pub fn new(inputs: usize) -> Result<Self> {
            if inputs == 0 {
                bail!("inputs must be at least 1");
            }
            Ok(Self {
                inputs: vec![None; inputs],
                combined: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: Timestamp) -> Result<Option<Timestamp>> {
            let Some(slot) = self.inputs.get_mut(input) else {
                bail!("no input {input}");
            };
            *slot = Some(slot.map_or(ts, |old| old.max(ts)));
            let minimum = self.inputs.iter().copied().min().flatten();
            if minimum > self.combined {
                self.combined = minimum;
                return Ok(minimum);
            }
            Ok(None)
        }
        pub fn current(&self) -> Option<Timestamp> {
            self.combined
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(CombinerFromNothing, combiner_from_nothing);

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the card its report shows: both take a snapshot's missing fields for their defaults.
#[rstest]
#[case::generator_from_nothing(drive::<GeneratorFromNothing>, "errors", "04-R15", "04-missing-fields-take-defaults")]
#[case::combiner_from_nothing(drive::<CombinerFromNothing>, "errors", "04-R15", "04-missing-fields-take-defaults")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
