//! Stage 04 mutants of the combiner: combined by the maximum or over the inputs that
//! reported, an input where it last said, zero inputs accepted, `current()` not kept.

/// A `CombinedWatermark` whose candidate is `$combine(per-input watermarks)`, reported when
/// it advances.
macro_rules! combiner {
    ($combine:expr) => {
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
                anyhow::ensure!(input < self.inputs.len(), "unknown input {input}");
                self.inputs[input] = self.inputs[input].max(Some(ts));
                let combine: fn(&[Option<u64>]) -> Option<u64> = $combine;
                let candidate = combine(&self.inputs);
                if candidate > self.combined {
                    self.combined = candidate;
                    return Ok(candidate);
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
    };
}

/// **Mistake:** the combined watermark is the maximum of the inputs', as if the fastest
/// input spoke for all: records of a slower input would all be late.
/// **Verdict:** `combiner` fails: with inputs at 3 and 5, it reports 5, expected 3.
mod combined_by_max {
    pub use solution04::*;
    combiner!(|inputs| if inputs.iter().all(Option::is_some) {
        inputs.iter().flatten().max().copied()
    } else {
        None
    });
}
graders::impl_stage04!(CombinedByMax, combined_by_max);

/// **Mistake:** an input's watermark is the latest it reported, not the largest, so a
/// smaller value later takes the promise back and holds the minimum down.
/// **Verdict:** `combiner` fails on the fixed run `(0, 5), (1, 4), (0, 2), (1, 6)`: the
/// last call returns `None`, expected `Some(5)`.
mod latest_input_watermark {
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
            anyhow::ensure!(input < self.inputs.len(), "unknown input {input}");
            self.inputs[input] = Some(ts);
            let candidate = if self.inputs.iter().all(Option::is_some) {
                self.inputs.iter().flatten().min().copied()
            } else {
                None
            };
            if candidate > self.combined {
                self.combined = candidate;
                return Ok(candidate);
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
graders::impl_stage04!(LatestInputWatermark, latest_input_watermark);

/// **Mistake:** inputs that have not reported are left out of the minimum, so the first
/// input's watermark is reported before the others have said anything.
/// **Verdict:** `combiner` fails: the very first `on_watermark` returns `Some`.
mod min_over_reported {
    pub use solution04::*;
    combiner!(|inputs| inputs.iter().flatten().min().copied());
}
graders::impl_stage04!(MinOverReported, min_over_reported);

/// **Mistake:** `CombinedWatermark::new(0)` is accepted: an operator with no inputs whose
/// watermark can never be computed (and `on_watermark` on it would index out of bounds).
/// **Verdict:** `errors` fails: `CombinedWatermark::new(0)` returned `Ok`.
mod zero_inputs_accepted {
    pub use solution04::*;

    pub struct CombinedWatermark(Option<solution04::CombinedWatermark>);
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self(solution04::CombinedWatermark::new(inputs).ok()))
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.0.as_mut().expect("an input").on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.0
                .as_ref()
                .and_then(solution04::CombinedWatermark::current)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.as_ref().expect("an input").snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self(Some(solution04::CombinedWatermark::restore(bytes)?)))
        }
    }
}
graders::impl_stage04!(ZeroInputsAccepted, zero_inputs_accepted);

/// **Mistake:** the combined watermark is kept twice, in the field `on_watermark`
/// compares against and in a second one that `current()` reads, and only the first is
/// ever updated: "`on_watermark` returns it, so `current()` needs no care".
/// **Verdict:** `combiner` fails: after the first step that reports a watermark,
/// `current()` is `None`.
mod combined_not_stored {
    pub use solution04::*;

    pub struct CombinedWatermark {
        inner: solution04::CombinedWatermark,
        blank: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution04::CombinedWatermark::new(inputs)?,
                blank: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.inner.on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.blank
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution04::CombinedWatermark::restore(bytes)?,
                blank: None,
            })
        }
    }
}
graders::impl_stage04!(CombinedNotStored, combined_not_stored);
