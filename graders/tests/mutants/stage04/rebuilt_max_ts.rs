//! A generator whose snapshot is its `max_delay` and its watermark, and whose `restore`
//! rebuilds the largest timestamp from them: correct with checked arithmetic, a panic on
//! bytes that are not a snapshot without it, where the brief calls such bytes an error
//! (04-R15).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// A module whose generator snapshots `{max_delay, watermark}` and restores the largest
/// timestamp as `watermark + max_delay + 1` with `$rebuild`, the reference's combiner and
/// streams beside it. A watermark of `None` loses a largest timestamp up to `max_delay`,
/// which no later watermark depends on.
macro_rules! rebuilding_generator {
    ($(#[$doc:meta])* $name:ident |$watermark:ident, $max_delay:ident| $rebuild:expr) => {
        $(#[$doc])*
        mod $name {
            pub use solution04::*;

            #[derive(serde::Serialize, serde::Deserialize)]
            struct Snapshot {
                max_delay: u64,
                watermark: Option<u64>,
            }

            pub struct BoundedOutOfOrderness(solution04::BoundedOutOfOrderness, u64);

            impl BoundedOutOfOrderness {
                pub fn new(max_delay: Timestamp) -> Self {
                    Self(solution04::BoundedOutOfOrderness::new(max_delay), max_delay)
                }
                pub fn on_event(&mut self, ts: Timestamp) {
                    self.0.on_event(ts);
                }
                pub fn current_watermark(&self) -> Option<Timestamp> {
                    self.0.current_watermark()
                }
                pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                    let snapshot = Snapshot {
                        max_delay: self.1,
                        watermark: self.0.current_watermark(),
                    };
                    Ok(serde_json::to_vec(&snapshot)?)
                }
                pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                    let Snapshot { max_delay, watermark } = serde_json::from_slice(bytes)?;
                    let mut restored = Self::new(max_delay);
                    if let Some($watermark) = watermark {
                        let $max_delay = max_delay;
                        let max_ts: Option<u64> = $rebuild;
                        let max_ts = max_ts.ok_or_else(|| {
                            anyhow::anyhow!("watermark {} is past every timestamp", $watermark)
                        })?;
                        restored.on_event(max_ts);
                    }
                    Ok(restored)
                }
            }
        }
    };
}

rebuilding_generator! {
    /// **Mistake:** the generator's `restore` rebuilds its largest timestamp as
    /// `watermark + max_delay + 1` unchecked ("a snapshot's numbers came from a run"), so
    /// bytes whose numbers are all `u64::MAX` overflow in `restore`: a panic where the
    /// brief asks for an error (the ninth red team's w04-1).
    /// **Verdict:** `errors`: its snapshot with every number set to `u64::MAX` panics.
    rebuilds_unchecked |watermark, max_delay| Some(watermark + max_delay + 1)
}
graders::impl_stage04!(RebuildsUnchecked, rebuilds_unchecked);

rebuilding_generator! {
    /// Correct: the same format, the largest timestamp rebuilt with checked arithmetic, so
    /// a watermark no timestamp makes is refused (the ninth red team's c04-2).
    rebuilds_checked |watermark, max_delay| watermark
        .checked_add(max_delay)
        .and_then(|sum| sum.checked_add(1))
}
graders::impl_stage04!(RebuildsChecked, rebuilds_checked);

accepted!(stage04_rebuilds_checked_passes: EventTime, drive::<RebuildsChecked>);

/// Each mutant, the check that must reject it and the requirement its failure names.
#[rstest]
#[case::rebuilds_unchecked(drive::<RebuildsUnchecked>, "errors", "04-R15")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
