//! Runs one stage-05 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::plan::{Case, MAX_UNCAUGHT, TOP_TIMESTAMPS, WIDE_TIMESTAMPS};
use super::{Element, Fired, Implementation, LateRecord};
use crate::stage03::guard::{Answer, caught};

/// What one call of the operator returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Output {
    /// `on_record`: the late record, if one came back.
    Late(Option<LateRecord>),
    /// `on_watermark`: the results.
    Fired(Vec<Fired>),
}

/// The operator's answers to a stream.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Run {
    /// One output per element.
    pub outputs: Vec<Output>,
    /// `state_size()` after each element.
    pub sizes: Vec<usize>,
    /// `current_watermark()` after each element.
    pub watermarks: Vec<Option<u64>>,
    /// In the long stream only (see `plan::MAX_UNCAUGHT`): the call that panicked
    /// (`on_record`, `on_watermark`, `state_size` or `current_watermark`) and its
    /// message; the run ends there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panicked: Option<(String, String)>,
}

impl Run {
    /// How many elements were answered in full: all of them, unless a call panicked.
    pub fn answered(&self) -> usize {
        self.outputs
            .len()
            .min(self.sizes.len())
            .min(self.watermarks.len())
    }
}

/// What the driver saw while running one case. `Err` holds an error's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `assign(ts)` for `ts` in `0..=max_ts`, as `(start, end)` pairs.
    Assign {
        /// One entry per timestamp.
        windows: Vec<Result<Vec<(u64, u64)>, String>>,
    },
    /// `assign(ts)` for each of `TOP_TIMESTAMPS` (`u64::MAX - 2..=u64::MAX`), a panic
    /// caught.
    AssignTop {
        /// One answer per timestamp.
        windows: Vec<Answer<Vec<(u64, u64)>>>,
    },
    /// `assign(ts)` for each of `WIDE_TIMESTAMPS` (`0..=3`), a panic caught.
    AssignWide {
        /// One answer per timestamp.
        windows: Vec<Answer<Vec<(u64, u64)>>>,
    },
    /// The operator over the whole stream.
    Run {
        /// `Err` when the operator could not be built.
        run: Result<Run, String>,
    },
    /// The operator cut by a snapshot and a restore, beside the uninterrupted run.
    Crash {
        /// `Err` when building, snapshot or restore failed.
        restore: Result<(), String>,
        /// `state_size()` right after the restore.
        restored_size: usize,
        /// The cut run (its elements up to the failure, if any).
        cut: Run,
        /// The same operator over the same stream, uninterrupted.
        uninterrupted: Result<Run, String>,
    },
    /// What `window_sums` returned.
    Sums {
        /// `(fired, late)`, or the error.
        result: Result<(Vec<Fired>, Vec<LateRecord>), String>,
    },
    /// What the operator answered in the heavy case.
    Heavy(super::heavy::Seen),
    /// The dense state's snapshot length and what its restore fired (`dense.rs`).
    Dense(super::dense::DenseRun),
    /// `assign(u64::MAX)` and a record there (`top_record.rs`).
    TopRecord(super::top_record::TopRecord),
    /// Snapshots of the same state under two assigners (`assigner_free.rs`).
    AssignerFree(super::assigner_free::AssignerFree),
    /// The steps of a contract-check call sequence, or the error building the operator.
    Contract {
        /// One step per call.
        steps: Result<Vec<super::contract::Step>, String>,
    },
    /// The result of an invalid call: `Ok` if it built, or the error.
    Errors {
        /// What the call returned.
        result: Result<String, String>,
        /// `assign(ts)` of the nearest valid assigner, for `ts` in `0..=BOUNDARY_MAX_TS`.
        boundary: Vec<Result<Vec<(u64, u64)>, String>>,
    },
}

/// The largest timestamp the `errors` check asks a boundary assigner about.
pub const BOUNDARY_MAX_TS: u64 = 9;

fn message(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::Assign { spec, max_ts } => Observation::Assign {
            windows: (0..=*max_ts)
                .map(|ts| I::assign(*spec, ts).map_err(message))
                .collect(),
        },
        Case::AssignTop { spec } => Observation::AssignTop {
            windows: TOP_TIMESTAMPS
                .iter()
                .map(|&ts| caught(|| I::assign(*spec, ts)))
                .collect(),
        },
        Case::AssignWide { spec } => Observation::AssignWide {
            windows: WIDE_TIMESTAMPS
                .iter()
                .map(|&ts| caught(|| I::assign(*spec, ts)))
                .collect(),
        },
        Case::Firing { spec, elements }
        | Case::Lateness { spec, elements }
        | Case::State { spec, elements } => Observation::Run {
            run: whole::<I>(*spec, elements),
        },
        Case::Crash {
            spec,
            elements,
            crash_after,
        } => {
            let uninterrupted = whole::<I>(*spec, elements);
            let mut cut = Run::default();
            let mut restored_size = 0;
            let restore = (|| -> Result<(), String> {
                let mut operator = I::operator(*spec).map_err(message)?;
                feed::<I>(&mut operator, &elements[..*crash_after], &mut cut);
                let bytes = I::snapshot(&operator).map_err(message)?;
                // Only the bytes survive the crash.
                drop(operator);
                let mut operator = I::restore(*spec, &bytes).map_err(message)?;
                restored_size = I::state_size(&operator);
                feed::<I>(&mut operator, &elements[*crash_after..], &mut cut);
                Ok(())
            })();
            Observation::Crash {
                restore,
                restored_size,
                cut,
                uninterrupted,
            }
        }
        Case::WindowSums { spec, elements } => Observation::Sums {
            result: I::window_sums(*spec, elements).map_err(message),
        },
        Case::PairKeys => {
            use super::pair_keys::{SIZE, WATERMARK, records};
            Observation::Sums {
                result: I::pair_keys(SIZE, &records(), WATERMARK)
                    .map(|fired| (fired, Vec::new()))
                    .map_err(message),
            }
        }
        Case::Heavy => Observation::Heavy(super::heavy::run::<I>()),
        Case::DenseSnapshot => Observation::Dense(super::dense::run::<I>()),
        Case::RecordAtTop { spec } => Observation::TopRecord(super::top_record::run::<I>(*spec)),
        Case::AssignerFree => Observation::AssignerFree(super::assigner_free::run::<I>()),
        Case::Contract { spec, calls } => Observation::Contract {
            steps: super::contract::drive::<I>(*spec, calls),
        },
        Case::Errors { call } => Observation::Errors {
            result: I::operator(call.spec())
                .map(|_| "an operator".to_owned())
                .map_err(message),
            boundary: (0..=BOUNDARY_MAX_TS)
                .map(|ts| I::assign(call.boundary(), ts).map_err(message))
                .collect(),
        },
    }
}

fn whole<I: Implementation>(
    spec: super::AssignerSpec,
    elements: &[Element],
) -> Result<Run, String> {
    let mut operator = I::operator(spec).map_err(message)?;
    let mut run = Run::default();
    if elements.len() > MAX_UNCAUGHT {
        feed_caught::<I>(&mut operator, elements, &mut run);
    } else {
        feed::<I>(&mut operator, elements, &mut run);
    }
    Ok(run)
}

/// [`feed`], a panic caught: the run ends at the call that panicked, which
/// `run.panicked` names.
fn feed_caught<I: Implementation>(operator: &mut I::Operator, elements: &[Element], run: &mut Run) {
    fn answer<T>(call: &str, answer: Answer<T>, run: &mut Run) -> Option<T> {
        match answer {
            Answer::Ok(value) => Some(value),
            Answer::Err(m) | Answer::Panicked(m) => {
                run.panicked = Some((call.to_owned(), m));
                None
            }
        }
    }
    for element in elements {
        let output = match element {
            Element::Record(key, ts, value) => answer(
                "on_record",
                caught(|| Ok(Output::Late(I::on_record(operator, key, *ts, *value)))),
                run,
            ),
            Element::Watermark(wm) => answer(
                "on_watermark",
                caught(|| Ok(Output::Fired(I::on_watermark(operator, *wm)))),
                run,
            ),
        };
        let Some(output) = output else { return };
        run.outputs.push(output);
        let Some(size) = answer("state_size", caught(|| Ok(I::state_size(operator))), run) else {
            return;
        };
        run.sizes.push(size);
        let Some(watermark) = answer(
            "current_watermark",
            caught(|| Ok(I::current_watermark(operator))),
            run,
        ) else {
            return;
        };
        run.watermarks.push(watermark);
    }
}

fn feed<I: Implementation>(operator: &mut I::Operator, elements: &[Element], run: &mut Run) {
    for element in elements {
        run.outputs.push(match element {
            Element::Record(key, ts, value) => {
                Output::Late(I::on_record(operator, key, *ts, *value))
            }
            Element::Watermark(wm) => Output::Fired(I::on_watermark(operator, *wm)),
        });
        run.sizes.push(I::state_size(operator));
        run.watermarks.push(I::current_watermark(operator));
    }
}
