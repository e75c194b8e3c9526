//! Stage 04 snapshots that carry what the rest already says (a cached watermark, a count
//! of the inputs that reported, the combined watermark), read back by a `restore` that
//! trusts it: mutants from a red-team round, and the correct variants beside them.

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// A generator that keeps its watermark cached beside `max_ts` and writes all three
/// fields; `restore` is the body given.
macro_rules! cached_generator {
    (restore($bytes:ident) $restore:block) => {
        pub use solution04::*;

        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct BoundedOutOfOrderness {
            max_delay: u64,
            max_ts: Option<u64>,
            watermark: Option<u64>,
        }
        impl BoundedOutOfOrderness {
            pub fn new(max_delay: u64) -> Self {
                Self {
                    max_delay,
                    max_ts: None,
                    watermark: None,
                }
            }
            fn computed(&self) -> Option<u64> {
                self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
            }
            pub fn on_event(&mut self, ts: u64) {
                self.max_ts = self.max_ts.max(Some(ts));
                self.watermark = self.computed();
            }
            pub fn current_watermark(&self) -> Option<u64> {
                self.watermark
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                Ok(serde_json::to_vec(self)?)
            }
            pub fn restore($bytes: &[u8]) -> anyhow::Result<Self> $restore
        }
    };
}

/// **Mistake:** the generator caches its watermark in a field, writes it in the
/// snapshot, and `restore` takes it as written ("the snapshot says where it was"), never
/// checking it against `max_ts - max_delay - 1`.
/// **Verdict:** `errors` fails: its own snapshot with one number changed restores a
/// generator no run makes (04-R15): `{"max_delay":2,"max_ts":3,"watermark":null}` reads
/// `None` at once, where a generator at `max_ts` 3 reads `Some(0)`.
mod generator_cached_watermark_trusted {
    cached_generator! {
        restore(bytes) {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(
    GeneratorCachedWatermarkTrusted,
    generator_cached_watermark_trusted
);

/// A generator whose whole state is `max_delay` and the watermark ("the promise made so
/// far decides every later one", which is right); `restore` is the body given.
macro_rules! watermark_only_generator {
    (restore($bytes:ident) $restore:block) => {
        pub use solution04::*;

        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct BoundedOutOfOrderness {
            max_delay: u64,
            watermark: Option<u64>,
        }
        impl BoundedOutOfOrderness {
            pub fn new(max_delay: u64) -> Self {
                Self {
                    max_delay,
                    watermark: None,
                }
            }
            pub fn on_event(&mut self, ts: u64) {
                let promise = ts.checked_sub(self.max_delay).and_then(|w| w.checked_sub(1));
                self.watermark = self.watermark.max(promise);
            }
            pub fn current_watermark(&self) -> Option<u64> {
                self.watermark
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                Ok(serde_json::to_vec(self)?)
            }
            pub fn restore($bytes: &[u8]) -> anyhow::Result<Self> $restore
        }
    };
}

/// **Mistake:** the generator keeps only `max_delay` and its watermark, and `restore`
/// takes both as written (the fifteenth red team's w04-08): a watermark no `max_ts`
/// makes, `u64::MAX` (past `u64::MAX - max_delay - 1`), restores.
/// **Verdict:** `errors` fails: its snapshot with every number set to `u64::MAX`
/// restores a generator whose watermark is `u64::MAX`, which no run makes (04-R15).
mod generator_watermark_trusted {
    watermark_only_generator! {
        restore(bytes) {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(GeneratorWatermarkTrusted, generator_watermark_trusted);

/// Correct: the same two numbers, and `restore` refuses a watermark that no largest
/// timestamp makes (`watermark + max_delay + 1` past `u64::MAX`).
mod generator_watermark_checked {
    watermark_only_generator! {
        restore(bytes) {
            let generator: Self = serde_json::from_slice(bytes)?;
            if let Some(w) = generator.watermark {
                anyhow::ensure!(
                    w.checked_add(generator.max_delay)
                        .and_then(|sum| sum.checked_add(1))
                        .is_some(),
                    "not a snapshot: no largest timestamp makes watermark {w} under max_delay {}",
                    generator.max_delay
                );
            }
            Ok(generator)
        }
    }
}
graders::impl_stage04!(GeneratorWatermarkChecked, generator_watermark_checked);
accepted!(a_generator_of_its_watermark_alone_checked_on_restore_passes: EventTime, drive::<GeneratorWatermarkChecked>);

/// Correct: the same cached watermark, which `restore` works out again and refuses when
/// the snapshot's differs.
mod generator_cached_watermark_checked {
    cached_generator! {
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(
                restored.watermark == restored.computed(),
                "not a snapshot: its watermark is not max_ts - max_delay - 1"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(
    GeneratorCachedWatermarkChecked,
    generator_cached_watermark_checked
);
accepted!(stage04_generator_cached_watermark_checked_passes: EventTime, drive::<GeneratorCachedWatermarkChecked>);

/// Correct: the generator also counts the records it has seen (for a metric no rule
/// reads) and writes the count; `restore` takes any count, since every count is one some
/// run reaches. Its snapshot with the count changed is bytes of a state `snapshot` can
/// write, and the instance answers as any generator does.
mod generator_counts_records {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct BoundedOutOfOrderness {
        max_delay: u64,
        max_ts: Option<u64>,
        records: u64,
    }
    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self {
                max_delay,
                max_ts: None,
                records: 0,
            }
        }
        pub fn on_event(&mut self, ts: u64) {
            self.max_ts = self.max_ts.max(Some(ts));
            self.records = self.records.saturating_add(1);
        }
        pub fn current_watermark(&self) -> Option<u64> {
            self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(
                restored.max_ts.is_some() || restored.records == 0,
                "not a snapshot: records counted but no timestamp"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(GeneratorCountsRecords, generator_counts_records);
accepted!(stage04_generator_counts_records_passes: EventTime, drive::<GeneratorCountsRecords>);

/// A combiner that keeps its inputs' watermarks, the combined one and how many inputs
/// have reported; `restore` is the body given.
macro_rules! counting_combiner {
    (restore($bytes:ident) $restore:block) => {
        pub use solution04::*;

        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct CombinedWatermark {
            inputs: Vec<Option<u64>>,
            combined: Option<u64>,
            reported: usize,
        }
        impl CombinedWatermark {
            pub fn new(inputs: usize) -> anyhow::Result<Self> {
                anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
                Ok(Self {
                    inputs: vec![None; inputs],
                    combined: None,
                    reported: 0,
                })
            }
            pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
                let Some(slot) = self.inputs.get_mut(input) else {
                    anyhow::bail!("input {input} does not exist");
                };
                if slot.is_none() {
                    self.reported += 1;
                }
                *slot = (*slot).max(Some(ts));
                if self.reported < self.inputs.len() {
                    return Ok(None);
                }
                let minimum = self.inputs.iter().flatten().copied().min();
                if minimum > self.combined {
                    self.combined = minimum;
                    return Ok(minimum);
                }
                Ok(None)
            }
            pub fn current(&self) -> Option<u64> {
                self.combined
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                Ok(serde_json::to_vec(self)?)
            }
            pub fn restore($bytes: &[u8]) -> anyhow::Result<Self> $restore
        }
    };
}

/// **Mistake:** the combiner counts the inputs that have reported and writes the count;
/// `restore` checks the combined watermark against the inputs that reported, but takes
/// the count as written ("the snapshot knows how many reported").
/// **Verdict:** `errors` fails: its snapshot after input 0 alone reported 4, with one
/// number changed (input 0's watermark to `null`, the count left at 1), restores a
/// combiner whose count disagrees with its inputs, and which reports a combined
/// watermark after one report where no run's would (04-R15).
mod combiner_reported_count_trusted {
    counting_combiner! {
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let minimum = restored.inputs.iter().flatten().copied().min();
            let all = restored.reported >= restored.inputs.len();
            anyhow::ensure!(
                restored.combined == minimum.filter(|_| all),
                "not a snapshot: the combined watermark is not the minimum"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(
    CombinerReportedCountTrusted,
    combiner_reported_count_trusted
);

/// **Mistake:** the combiner's `restore` checks the combined watermark against the
/// minimum of the inputs' only when there is one ("a fresh combiner writes `null`"), so a
/// snapshot whose inputs all reported but whose combined watermark is `null` restores.
/// **Verdict:** `errors` fails: its snapshot at inputs 3 and 5 with the combined
/// watermark changed to `null` restores a combiner that reports 3 a second time (04-R15).
mod combiner_null_combined_trusted {
    counting_combiner! {
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let reported = restored.inputs.iter().flatten().count();
            anyhow::ensure!(restored.reported == reported, "not a snapshot: the count is off");
            if restored.combined.is_some() {
                let minimum = restored.inputs.iter().copied().min().flatten();
                anyhow::ensure!(restored.combined == minimum, "not a snapshot: not the minimum");
            }
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerNullCombinedTrusted, combiner_null_combined_trusted);

/// **Mistake:** the combiner's `restore` checks only that the combined watermark is one
/// of the inputs' watermarks ("it is always some input's"), not that it is the smallest.
/// **Verdict:** `errors` fails: its snapshot at inputs 3 and 5 with the combined
/// watermark set to 5, the other input's, restores (04-R15).
mod combiner_combined_is_some_input {
    counting_combiner! {
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let reported = restored.inputs.iter().flatten().count();
            anyhow::ensure!(restored.reported == reported, "not a snapshot: the count is off");
            let all = reported == restored.inputs.len();
            let fits = match restored.combined {
                None => !all,
                Some(combined) => all && restored.inputs.contains(&Some(combined)),
            };
            anyhow::ensure!(fits, "not a snapshot: no input is at the combined watermark");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerCombinedIsSomeInput, combiner_combined_is_some_input);

/// Correct: the counting combiner whose `restore` checks the count against the inputs
/// and the combined watermark against their minimum once all have reported.
mod combiner_reported_count_checked {
    counting_combiner! {
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let reported = restored.inputs.iter().flatten().count();
            anyhow::ensure!(restored.reported == reported, "not a snapshot: the count is off");
            let all = reported == restored.inputs.len();
            let minimum = restored.inputs.iter().flatten().copied().min();
            anyhow::ensure!(
                restored.combined == minimum.filter(|_| all),
                "not a snapshot: the combined watermark is not the minimum"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(
    CombinerReportedCountChecked,
    combiner_reported_count_checked
);
accepted!(stage04_combiner_reported_count_checked_passes: EventTime, drive::<CombinerReportedCountChecked>);

/// The mutants above (no card: each trusts a field it could check, a slip rather than a
/// belief about watermarks), the check that rejects each and the requirement it names.
#[rstest]
#[case::generator_cached_watermark_trusted(drive::<GeneratorCachedWatermarkTrusted>, "errors", "04-R15")]
#[case::generator_watermark_trusted(drive::<GeneratorWatermarkTrusted>, "errors", "04-R15")]
#[case::combiner_reported_count_trusted(drive::<CombinerReportedCountTrusted>, "errors", "04-R15")]
#[case::combiner_null_combined_trusted(drive::<CombinerNullCombinedTrusted>, "errors", "04-R15")]
#[case::combiner_combined_is_some_input(drive::<CombinerCombinedIsSomeInput>, "errors", "04-R15")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<EventTime>(drive, check, requirement);
}
