//! Stage 04 snapshots in a format of their own, not JSON (a line of text, JSON behind a
//! version header), from the red team of 2026-12-06: the forgeries that change a number
//! reach them all the same, each run of digits in turn. The mutants trust a number the
//! rest already says; the controls beside them check it.

use graders::harness::expect_rejected_for;
use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// `Some(ts)` as its digits, `None` as `-`.
fn show(ts: Option<u64>) -> String {
    ts.map_or("-".to_owned(), |ts| ts.to_string())
}

/// A field written by [`show`].
fn read(field: &str) -> anyhow::Result<Option<u64>> {
    Ok(match field {
        "-" => None,
        ts => Some(ts.parse()?),
    })
}

/// A combiner whose snapshot is `<combined>;<input 0>,<input 1>,..` (`-` for none);
/// `restore` reads the fields, then hands the combiner to `$check`.
macro_rules! text_combiner {
    ($check:expr) => {
        pub use solution04::*;

        pub struct CombinedWatermark {
            inputs: Vec<Option<u64>>,
            combined: Option<u64>,
        }

        impl CombinedWatermark {
            pub fn new(inputs: usize) -> anyhow::Result<Self> {
                anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
                Ok(Self {
                    inputs: vec![None; inputs],
                    combined: None,
                })
            }
            pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
                let count = self.inputs.len();
                let slot = self
                    .inputs
                    .get_mut(input)
                    .ok_or_else(|| anyhow::anyhow!("input {input} is not one of {count}"))?;
                *slot = Some(slot.map_or(ts, |old| old.max(ts)));
                let minimum = self.minimum();
                if minimum > self.combined {
                    self.combined = minimum;
                    return Ok(minimum);
                }
                Ok(None)
            }
            pub fn current(&self) -> Option<u64> {
                self.combined
            }
            fn minimum(&self) -> Option<u64> {
                self.inputs.iter().copied().min().flatten()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let inputs: Vec<String> = self.inputs.iter().map(|&ts| super::show(ts)).collect();
                Ok(format!("{};{}", super::show(self.combined), inputs.join(",")).into_bytes())
            }
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                let text = std::str::from_utf8(bytes)?;
                let (combined, inputs) = text
                    .split_once(';')
                    .ok_or_else(|| anyhow::anyhow!("not a snapshot: no ';'"))?;
                let restored = Self {
                    combined: super::read(combined)?,
                    inputs: inputs
                        .split(',')
                        .map(super::read)
                        .collect::<anyhow::Result<_>>()?,
                };
                let check: fn(&Self, &[u8]) -> anyhow::Result<()> = $check;
                check(&restored, bytes)?;
                Ok(restored)
            }
        }
    };
}

/// **Control:** (the red team's c04-03) the combiner's snapshot as text,
/// `<combined>;<input 0>,<input 1>,..`; `restore` checks that the combined watermark is
/// the minimum of the inputs' and that the bytes are exactly what `snapshot` writes.
mod combiner_text_snapshot {
    text_combiner!(|restored, bytes| {
        anyhow::ensure!(
            restored.combined == restored.minimum(),
            "not a snapshot: the combined watermark is not the minimum of the inputs'"
        );
        anyhow::ensure!(
            restored.snapshot()? == bytes,
            "not a snapshot: not written as snapshot writes it"
        );
        Ok(())
    });
}
graders::impl_stage04!(CombinerTextSnapshot, combiner_text_snapshot);
accepted!(stage04_combiner_text_snapshot_passes: EventTime, drive::<CombinerTextSnapshot>);

/// **Mistake:** (the red team's w04-04) the same text, whose `restore` keeps the combined
/// watermark it reads ("the one this combiner reported last") without checking it against
/// the inputs'.
/// **Verdict:** `errors`: its snapshot `3;3,5` with the combined watermark changed to 2
/// restores a combiner that reports 3 when input 1 reports 3, which no run makes
/// (04-R15).
mod combiner_text_trusts_combined {
    text_combiner!(|restored, bytes| {
        anyhow::ensure!(
            !restored.inputs.is_empty() && restored.snapshot()? == bytes,
            "not a snapshot"
        );
        Ok(())
    });
}
graders::impl_stage04!(CombinerTextTrustsCombined, combiner_text_trusts_combined);

/// **Mistake:** (the red team's w04-06) serde's derive and nothing more behind a version
/// header (`combiner/v1 ` and the JSON), "so that a later format can tell old snapshots
/// apart": the bytes are no longer JSON, and `restore` never checks the combined
/// watermark against the minimum of the inputs'.
/// **Verdict:** `errors`: its snapshot with the combined watermark changed, the digits
/// changed where they stand, restores a combiner no run makes (04-R15).
mod combiner_versioned_json_unchecked {
    pub use solution04::*;

    const VERSION: &[u8] = b"combiner/v1 ";

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<u64>>,
        combined: Option<u64>,
    }

    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                inputs: vec![None; inputs],
                combined: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            let count = self.inputs.len();
            let slot = self
                .inputs
                .get_mut(input)
                .ok_or_else(|| anyhow::anyhow!("input {input} is not one of {count}"))?;
            *slot = Some(slot.map_or(ts, |old| old.max(ts)));
            let minimum = self.inputs.iter().copied().min().flatten();
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
            Ok([VERSION.to_vec(), serde_json::to_vec(self)?].concat())
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let json = bytes
                .strip_prefix(VERSION)
                .ok_or_else(|| anyhow::anyhow!("not a snapshot: no version"))?;
            let restored: Self = serde_json::from_slice(json)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "not a snapshot: no inputs");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(
    CombinerVersionedJsonUnchecked,
    combiner_versioned_json_unchecked
);

/// A generator whose snapshot is `<max_delay> <max_ts>[ <watermark>]` (`-` for none), the
/// watermark written and kept when `$cached`; `restore` reads the fields, then hands the
/// generator and the bytes to `$check`.
macro_rules! text_generator {
    ($cached:expr, $check:expr) => {
        pub use solution04::*;

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
            pub fn on_event(&mut self, ts: u64) {
                self.max_ts = Some(self.max_ts.map_or(ts, |max| max.max(ts)));
                self.watermark = self
                    .max_ts
                    .and_then(|max| max.checked_sub(self.max_delay)?.checked_sub(1));
            }
            pub fn current_watermark(&self) -> Option<u64> {
                if $cached {
                    self.watermark
                } else {
                    self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
                }
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let mut text = format!("{} {}", self.max_delay, super::show(self.max_ts));
                if $cached {
                    text.push_str(&format!(" {}", super::show(self.watermark)));
                }
                Ok(text.into_bytes())
            }
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                let text = std::str::from_utf8(bytes)?;
                let fields: Vec<&str> = text.split(' ').collect();
                let (max_delay, max_ts, watermark) = match fields[..] {
                    [d, ts] if !$cached => (d, ts, "-"),
                    [d, ts, wm] if $cached => (d, ts, wm),
                    _ => anyhow::bail!("not a snapshot: {} fields", fields.len()),
                };
                let restored = Self {
                    max_delay: super::read(max_delay)?
                        .ok_or_else(|| anyhow::anyhow!("not a snapshot: no max_delay"))?,
                    max_ts: super::read(max_ts)?,
                    watermark: super::read(watermark)?,
                };
                let check: fn(&Self, &[u8]) -> anyhow::Result<()> = $check;
                check(&restored, bytes)?;
                Ok(restored)
            }
        }
    };
}

/// **Control:** the generator's snapshot as text, `<max_delay> <max_ts>`; `restore`
/// takes only the bytes `snapshot` writes (no `+2`, no `007`).
mod generator_text_snapshot {
    text_generator!(false, |restored, bytes| {
        anyhow::ensure!(
            restored.snapshot()? == bytes,
            "not a snapshot: not written as snapshot writes it"
        );
        Ok(())
    });
}
graders::impl_stage04!(GeneratorTextSnapshot, generator_text_snapshot);
accepted!(stage04_generator_text_snapshot_passes: EventTime, drive::<GeneratorTextSnapshot>);

/// **Mistake:** (the red team's w04-05) the generator caches its watermark, writes it in
/// its text snapshot `<max_delay> <max_ts> <watermark>`, and `restore` trusts it.
/// **Verdict:** `errors`: its snapshot `2 5 2` with the watermark changed to 9 restores a
/// generator at 9 that falls back to 2 after `on_event(0)`, which no run makes (04-R15).
mod generator_text_trusts_cached_watermark {
    text_generator!(true, |restored, bytes| {
        anyhow::ensure!(restored.snapshot()? == bytes, "not a snapshot");
        Ok(())
    });
}
graders::impl_stage04!(
    GeneratorTextTrustsCachedWatermark,
    generator_text_trusts_cached_watermark
);

/// The mutants above, the check that must reject each and the requirement it must name.
#[rstest]
#[case::combiner_text_trusts_combined(drive::<CombinerTextTrustsCombined>, "errors", "04-R15")]
#[case::combiner_versioned_json_unchecked(drive::<CombinerVersionedJsonUnchecked>, "errors", "04-R15")]
#[case::generator_text_trusts_cached_watermark(drive::<GeneratorTextTrustsCachedWatermark>, "errors", "04-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
