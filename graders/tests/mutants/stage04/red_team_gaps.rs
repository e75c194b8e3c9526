//! Stage 04 mutants of the third red team, written from the brief alone, which the grader
//! once accepted: the inputs that reported kept in a `u64` bitmask, snapshots read as
//! lists whose missing fields take defaults, and an unknown input that changes the state
//! before its error (whose failure was once blamed on 04-R8, not on the refused call).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// **Mistake:** the combiner keeps which inputs reported as the bits of a `u64` ("no
/// operator has more than 64 inputs"), and waits for as many bits as inputs.
/// **Verdict:** `combiner` fails on the run of 65 inputs: the report of input 64, the
/// last silent one, shifts past the mask's bits (a panic in a debug build, a wrapped bit
/// otherwise), and no combined watermark comes out (04-R8).
mod combined_bitmask {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct CombinedWatermark {
        marks: Vec<u64>,
        reported: u64,
        combined: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                marks: vec![0; inputs],
                reported: 0,
                combined: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            anyhow::ensure!(input < self.marks.len(), "input {input} does not exist");
            let bit = 1u64 << input;
            self.marks[input] = if self.reported & bit == 0 {
                ts
            } else {
                self.marks[input].max(ts)
            };
            self.reported |= bit;
            if (self.reported.count_ones() as usize) < self.marks.len() {
                return Ok(None);
            }
            let minimum = self.marks.iter().min().copied();
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
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(CombinedBitmask, combined_bitmask);

/// A generator kept as its delay and the largest timestamp seen, as the reference does,
/// whose `snapshot` and `restore` are the mutant's bodies.
macro_rules! generator {
    (snapshot($s:ident) $snapshot:block restore($bytes:ident) $restore:block) => {
        pub use solution04::*;

        pub struct BoundedOutOfOrderness {
            max_delay: u64,
            max_ts: Option<u64>,
        }
        impl BoundedOutOfOrderness {
            pub fn new(max_delay: u64) -> Self {
                Self {
                    max_delay,
                    max_ts: None,
                }
            }
            pub fn on_event(&mut self, ts: u64) {
                self.max_ts = self.max_ts.max(Some(ts));
            }
            pub fn current_watermark(&self) -> Option<u64> {
                self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
            }
            pub fn snapshot(&$s) -> anyhow::Result<Vec<u8>> $snapshot
            pub fn restore($bytes: &[u8]) -> anyhow::Result<Self> $restore
        }
    };
}

/// **Mistake:** the generator's snapshot is the list `[max_delay, max_ts]`, and `restore`
/// reads any list (or `null`), each missing field taking its default ("older snapshots
/// stay readable").
/// **Verdict:** `errors` fails: `BoundedOutOfOrderness::restore(b"[]")` is a generator
/// with `max_delay` 0, made of bytes no generator wrote (04-R15).
mod restore_lenient_array {
    generator! {
        snapshot(self) {
            Ok(serde_json::to_vec(&[Some(self.max_delay), self.max_ts])?)
        }
        restore(bytes) {
            let fields: Option<Vec<Option<u64>>> = serde_json::from_slice(bytes)?;
            let fields = fields.unwrap_or_default();
            Ok(Self {
                max_delay: fields.first().copied().flatten().unwrap_or(0),
                max_ts: fields.get(1).copied().flatten(),
            })
        }
    }
}
graders::impl_stage04!(RestoreLenientArray, restore_lenient_array);

/// **Mistake:** the generator's `restore` reads each field as a number or as a string of
/// digits ("be liberal in what you accept"), so its own snapshot with `"7"` where it
/// wrote 7 restores the generator it was taken from.
/// **Verdict:** `errors` fails: its snapshot after `on_event(7)` with its numbers written
/// as strings of their digits restores (04-R15).
mod generator_quoted_numbers {
    generator! {
        snapshot(self) {
            let snapshot = serde_json::json!({"max_delay": self.max_delay, "max_ts": self.max_ts});
            Ok(serde_json::to_vec(&snapshot)?)
        }
        restore(bytes) {
            fn number(value: &serde_json::Value) -> anyhow::Result<u64> {
                match value {
                    serde_json::Value::String(digits) => Ok(digits.parse()?),
                    other => other.as_u64().ok_or_else(|| anyhow::anyhow!("not a number")),
                }
            }
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            let fields = value.as_object().ok_or_else(|| anyhow::anyhow!("not a snapshot"))?;
            let field = |name: &str| fields.get(name).ok_or_else(|| anyhow::anyhow!("no {name}"));
            let max_ts = field("max_ts")?;
            Ok(Self {
                max_delay: number(field("max_delay")?)?,
                max_ts: if max_ts.is_null() { None } else { Some(number(max_ts)?) },
            })
        }
    }
}
graders::impl_stage04!(GeneratorQuotedNumbers, generator_quoted_numbers);

/// **Mistake:** the generator's `restore` reads `max_ts` alone as a number or a string of
/// its digits ("as some JSON tools write big integers"), `max_delay` strictly (the
/// twentieth red team's w04-13): its snapshot with every number quoted is refused, by
/// `max_delay`, and the one with `max_ts` alone quoted restores.
/// **Verdict:** `errors` fails: its snapshot after `on_event(7)` with number 2 of its 2
/// written as a string of its digits restores (04-R15).
mod generator_quoted_max_ts {
    generator! {
        snapshot(self) {
            let snapshot = serde_json::json!({"max_delay": self.max_delay, "max_ts": self.max_ts});
            Ok(serde_json::to_vec(&snapshot)?)
        }
        restore(bytes) {
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            let fields = value.as_object().ok_or_else(|| anyhow::anyhow!("not a snapshot"))?;
            let field = |name: &str| fields.get(name).ok_or_else(|| anyhow::anyhow!("no {name}"));
            let max_delay = field("max_delay")?.as_u64().ok_or_else(|| anyhow::anyhow!("max_delay is no number"))?;
            let max_ts = match field("max_ts")? {
                serde_json::Value::Null => None,
                serde_json::Value::String(digits) => Some(digits.parse()?),
                other => Some(other.as_u64().ok_or_else(|| anyhow::anyhow!("max_ts is no number"))?),
            };
            Ok(Self { max_delay, max_ts })
        }
    }
}
graders::impl_stage04!(GeneratorQuotedMaxTs, generator_quoted_max_ts);

/// A combiner kept as its inputs' watermarks and the combined one, reported to as the
/// reference does, whose `snapshot` and `restore` are the mutant's bodies.
macro_rules! combiner {
    (snapshot($s:ident) $snapshot:block restore($bytes:ident) $restore:block) => {
        pub use solution04::*;

        #[derive(serde::Serialize, serde::Deserialize)]
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
                let Some(slot) = self.inputs.get_mut(input) else {
                    anyhow::bail!("input {input} does not exist");
                };
                *slot = (*slot).max(Some(ts));
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
            pub fn snapshot(&$s) -> anyhow::Result<Vec<u8>> $snapshot
            pub fn restore($bytes: &[u8]) -> anyhow::Result<Self> $restore
        }
    };
}

/// **Mistake:** the combiner's snapshot is the list `[combined, input 0, input 1, ..]`,
/// and `restore` reads any list (or `null`): the first entry, if any, is the combined
/// watermark, the rest the inputs.
/// **Verdict:** `errors` fails: `CombinedWatermark::restore(b"[]")` is a combiner of no
/// input, which `new(0)` refuses (04-R15).
mod combiner_lenient_array {
    combiner! {
        snapshot(self) {
            let mut fields = vec![self.combined];
            fields.extend(&self.inputs);
            Ok(serde_json::to_vec(&fields)?)
        }
        restore(bytes) {
            let fields: Option<Vec<Option<u64>>> = serde_json::from_slice(bytes)?;
            let fields = fields.unwrap_or_default();
            let (combined, inputs) = match fields.split_first() {
                Some((combined, inputs)) => (*combined, inputs.to_vec()),
                None => (None, Vec::new()),
            };
            Ok(Self { inputs, combined })
        }
    }
}
graders::impl_stage04!(CombinerLenientArray, combiner_lenient_array);

/// **Mistake:** the combiner's `restore` is serde's derive and nothing more ("serde
/// checks the format"): a snapshot whose inputs list is empty reads as a combiner of no
/// inputs, which `new(0)` refuses.
/// **Verdict:** `errors` fails: its own snapshot with its lists emptied restores (04-R15).
mod combiner_restore_unchecked {
    combiner! {
        snapshot(self) {
            Ok(serde_json::to_vec(self)?)
        }
        restore(bytes) {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(CombinerRestoreUnchecked, combiner_restore_unchecked);

/// **Mistake:** the combiner's `restore` checks that the snapshot has inputs, but takes
/// its combined watermark as written ("the snapshot says what was reported"), though
/// `snapshot` only ever writes the minimum of the inputs': a combined watermark above it
/// restores, and the combiner then withholds the advance to it.
/// **Verdict:** `errors` fails: its own snapshot at inputs 3 and 5 with the combined
/// watermark set to 4 restores (04-R15).
mod combiner_restore_out_of_step {
    combiner! {
        snapshot(self) {
            Ok(serde_json::to_vec(self)?)
        }
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerRestoreOutOfStep, combiner_restore_out_of_step);

/// **Mistake:** the combiner's `restore` checks that the combined watermark is the
/// minimum of its inputs', but not for a combiner of one input ("nothing to combine"),
/// though the minimum of one input's watermark is that watermark (the tenth red team's
/// w04-01).
/// **Verdict:** `errors` fails: its own snapshot of `new(1)` after input 0 reported 3,
/// its combined watermark set to 4, restores (04-R15).
mod combiner_single_input_trusted {
    combiner! {
        snapshot(self) {
            Ok(serde_json::to_vec(self)?)
        }
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let minimum = restored.inputs.iter().copied().min().flatten();
            anyhow::ensure!(
                restored.inputs.len() == 1 || restored.combined == minimum,
                "the combined watermark is not the minimum of the inputs'"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerSingleInputTrusted, combiner_single_input_trusted);

/// **Mistake:** the combiner's `restore` refuses a combined watermark ahead of its
/// slowest input ("it can never be ahead"), but not one behind it, though `snapshot` only
/// ever writes the minimum itself: a combiner restored behind reports an advance it
/// already reported.
/// **Verdict:** `errors` fails: its own snapshot at inputs 3 and 5 with the combined
/// watermark set to 2 restores (04-R15).
mod combiner_restore_behind {
    combiner! {
        snapshot(self) {
            Ok(serde_json::to_vec(self)?)
        }
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let slowest = restored.inputs.iter().copied().min().flatten();
            anyhow::ensure!(restored.combined <= slowest, "combined ahead of its inputs");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerRestoreBehind, combiner_restore_behind);

/// **Mistake:** the combiner's `restore` checks the combined watermark against the
/// minimum of the inputs that have reported ("a silent input has no watermark to
/// count"), though `snapshot` writes no combined watermark while an input is silent: a
/// combiner restored so reports a watermark before every input has spoken.
/// **Verdict:** `errors` fails: its own snapshot after input 0 alone reported 4, with
/// the combined watermark set to 4, restores (04-R15).
mod combiner_restore_min_of_reported {
    combiner! {
        snapshot(self) {
            Ok(serde_json::to_vec(self)?)
        }
        restore(bytes) {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "a combiner of no inputs");
            let reported = restored.inputs.iter().flatten().copied().min();
            anyhow::ensure!(
                restored.combined.is_none() || restored.combined == reported,
                "combined is not the minimum of the inputs that reported"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(
    CombinerRestoreMinOfReported,
    combiner_restore_min_of_reported
);

/// **Mistake:** the combiner counts its silent inputs down at each input's first report,
/// and does so before it checks that the input exists: `on_watermark(2, 0)` on 2 inputs
/// returns its error, but one silent input fewer is counted.
/// **Verdict:** `contract` fails: after the refused `on_watermark(2, 0)`,
/// `on_watermark(0, 3)` returns `Some(3)` while input 1 is silent; the failure names the
/// refused call's rule, 04-R12 (it once named 04-R8).
mod error_changes_silent_count {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct CombinedWatermark {
        marks: Vec<Option<u64>>,
        silent: usize,
        combined: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                marks: vec![None; inputs],
                silent: inputs,
                combined: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            // An input's first report: one silent input fewer.
            if self.marks.get(input).is_none_or(Option::is_none) {
                self.silent = self.silent.saturating_sub(1);
            }
            let Some(slot) = self.marks.get_mut(input) else {
                anyhow::bail!("input {input} does not exist");
            };
            *slot = (*slot).max(Some(ts));
            if self.silent > 0 {
                return Ok(None);
            }
            let minimum = self.marks.iter().flatten().min().copied();
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
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(ErrorChangesSilentCount, error_changes_silent_count);

/// The mutants with a card, the check that must reject each, the requirement its
/// smallest failing case must name and the card its report must show.
#[rstest]
#[case::restore_lenient_array(drive::<RestoreLenientArray>, "errors", "04-R15", "04-missing-fields-take-defaults")]
#[case::combiner_lenient_array(drive::<CombinerLenientArray>, "errors", "04-R15", "04-missing-fields-take-defaults")]
#[case::error_changes_silent_count(drive::<ErrorChangesSilentCount>, "contract", "04-R12", "04-an-error-after-the-work")]
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

/// A mutant no card explains (a width chosen too small is a slip, not a belief about
/// watermarks): rejected for its requirement, with no card shown.
#[rstest]
#[case::combined_bitmask(drive::<CombinedBitmask>, "combiner", "04-R8")]
#[case::combiner_restore_unchecked(drive::<CombinerRestoreUnchecked>, "errors", "04-R15")]
#[case::combiner_restore_out_of_step(drive::<CombinerRestoreOutOfStep>, "errors", "04-R15")]
#[case::combiner_restore_behind(drive::<CombinerRestoreBehind>, "errors", "04-R15")]
#[case::combiner_restore_min_of_reported(drive::<CombinerRestoreMinOfReported>, "errors", "04-R15")]
#[case::combiner_single_input_trusted(drive::<CombinerSingleInputTrusted>, "errors", "04-R15")]
#[case::generator_quoted_numbers(drive::<GeneratorQuotedNumbers>, "errors", "04-R15")]
#[case::generator_quoted_max_ts(drive::<GeneratorQuotedMaxTs>, "errors", "04-R15")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<EventTime>(drive, check, requirement);
}
