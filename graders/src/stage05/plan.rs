//! The cases of stage 05, shortest stream first.

use serde::{Deserialize, Serialize};

use super::{AssignerSpec, Element, LateRecord, oracle};
use crate::harness::enumerate::permutations;
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The assigners of the plan.
pub const ASSIGNERS: [AssignerSpec; 4] = [
    AssignerSpec::Tumbling(2),
    AssignerSpec::Tumbling(3),
    AssignerSpec::Sliding(3, 1),
    AssignerSpec::Sliding(4, 2),
];
/// The bounds the watermarks are generated with: 0 makes disorder late, 2 mostly not.
pub const MAX_DELAYS: [u64; 2] = [0, 2];
/// The largest keyed event set whose every arrival order is enumerated.
pub const MAX_RECORDS: usize = 4;

pub(super) const ASSIGN: Check = Check {
    name: "assign",
    law: "assign(ts) is every window of the assigner that contains ts",
};
pub(super) const FIRING: Check = Check {
    name: "firing",
    law: "each (key, window) fires once, in the on_watermark call where wm >= end - 1 first holds",
};
pub(super) const LATENESS: Check = Check {
    name: "lateness",
    law: "a record is late exactly when all its windows fired, and then counts nowhere",
};
pub(super) const STATE: Check = Check {
    name: "state",
    law: "state_size() is the number of open (window, key) aggregates, 0 once all fired",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "restoring the operator from bytes after any element fires exactly what the uninterrupted run fires",
};
pub(super) const WINDOW_SUMS: Check = Check {
    name: "window-sums",
    law: "window_sums returns the results in firing order and the late records",
};
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "a size of 0 or a slide outside 1..=size is an error that names the argument",
};

/// An assigner with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `Tumbling::new(0)`
    TumblingZero,
    /// `Sliding::new(0, 1)`
    SlidingSizeZero,
    /// `Sliding::new(4, 0)`
    SlideZero,
    /// `Sliding::new(4, 5)`
    SlideAboveSize,
}

impl ErrorCall {
    /// The assigner the call builds.
    pub fn spec(self) -> AssignerSpec {
        match self {
            ErrorCall::TumblingZero => AssignerSpec::Tumbling(0),
            ErrorCall::SlidingSizeZero => AssignerSpec::Sliding(0, 1),
            ErrorCall::SlideZero => AssignerSpec::Sliding(4, 0),
            ErrorCall::SlideAboveSize => AssignerSpec::Sliding(4, 5),
        }
    }

    /// The nearest valid assigner, which must be accepted and assign right: an extreme
    /// the plan's own assigners never reach (a size of 1, a slide equal to the size).
    pub fn boundary(self) -> AssignerSpec {
        match self {
            ErrorCall::TumblingZero => AssignerSpec::Tumbling(1),
            ErrorCall::SlidingSizeZero => AssignerSpec::Sliding(1, 1),
            ErrorCall::SlideZero => AssignerSpec::Sliding(4, 1),
            ErrorCall::SlideAboveSize => AssignerSpec::Sliding(4, 4),
        }
    }

    /// The word the error message must contain.
    pub fn argument(self) -> &'static str {
        match self {
            ErrorCall::TumblingZero | ErrorCall::SlidingSizeZero => "size",
            ErrorCall::SlideZero | ErrorCall::SlideAboveSize => "slide",
        }
    }
}

/// One case of stage 05. Records are `(key, ts, value)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `assign(ts)` for every `ts` in `0..=max_ts`.
    Assign {
        /// The assigner.
        spec: AssignerSpec,
        /// The largest timestamp asked about.
        max_ts: u64,
    },
    /// The operator over `elements`, judged on what `on_watermark` fires.
    Firing {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator over `elements`, judged on what `on_record` calls late.
    Lateness {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator over `elements`, judged on `state_size()`.
    State {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// The operator snapshotted and restored after `crash_after` elements.
    Crash {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
        /// Elements before the snapshot.
        crash_after: usize,
    },
    /// `window_sums(elements, assigner)`.
    WindowSums {
        /// The assigner.
        spec: AssignerSpec,
        /// The stream.
        elements: Vec<Element>,
    },
    /// An assigner with an invalid argument.
    Errors {
        /// The call.
        call: ErrorCall,
    },
}

/// The elements as `[a@3=5, W(2), ...]`.
pub fn show(elements: &[Element]) -> String {
    let shown: Vec<String> = elements.iter().map(Element::to_string).collect();
    format!("[{}]", shown.join(", "))
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Assign { .. } => ASSIGN,
            Case::Firing { .. } => FIRING,
            Case::Lateness { .. } => LATENESS,
            Case::State { .. } => STATE,
            Case::Crash { .. } => CRASH,
            Case::WindowSums { .. } => WINDOW_SUMS,
            Case::Errors { .. } => ERRORS,
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Assign { spec, max_ts } => format!("{spec}.assign(ts) for ts in 0..={max_ts}"),
            Case::Firing { spec, elements }
            | Case::Lateness { spec, elements }
            | Case::State { spec, elements }
            | Case::WindowSums { spec, elements } => {
                format!("{spec}, elements (key@ts=value) {}", show(elements))
            }
            Case::Crash {
                spec,
                elements,
                crash_after,
            } => format!(
                "{spec}, elements (key@ts=value) {}, operator snapshotted and restored after {crash_after} element(s)",
                show(elements)
            ),
            Case::Errors { call } => format!("{}, then {}", call.spec(), call.boundary()),
        }
    }
}

/// One keyed event set per size: keys `a` and `b`, timestamps in `0..8`, values in `1..=9`.
fn record_sets(rng: &mut Rng) -> Vec<Vec<LateRecord>> {
    (0..=MAX_RECORDS)
        .map(|size| {
            (0..size)
                .map(|_| {
                    let key = if rng.below(2) == 0 { "a" } else { "b" };
                    (key.to_owned(), rng.below(8), 1 + rng.below(9) as i64)
                })
                .collect()
        })
        .collect()
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 5);
    let mut cases = Vec::new();
    for spec in ASSIGNERS {
        cases.push(Case::Assign { spec, max_ts: 12 });
    }
    // (assigner, max_delay, stream), shortest stream first.
    let mut streams: Vec<(AssignerSpec, u64, Vec<Element>)> = Vec::new();
    for set in record_sets(&mut rng) {
        for order in permutations(&set) {
            for spec in ASSIGNERS {
                for max_delay in MAX_DELAYS {
                    streams.push((spec, max_delay, oracle::with_watermarks(&order, max_delay)));
                }
            }
        }
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::Firing {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::Lateness {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::State {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    // Every crash point of the streams with up to 3 records, and of the 4-record ones with
    // the bound that makes records late.
    for (spec, max_delay, elements) in &streams {
        let records = elements
            .iter()
            .filter(|e| matches!(e, Element::Record(..)))
            .count();
        if records < MAX_RECORDS || *max_delay == 0 {
            for crash_after in 0..=elements.len() {
                cases.push(Case::Crash {
                    spec: *spec,
                    elements: elements.clone(),
                    crash_after,
                });
            }
        }
    }
    for (spec, _, elements) in &streams {
        cases.push(Case::WindowSums {
            spec: *spec,
            elements: elements.clone(),
        });
    }
    for call in [
        ErrorCall::TumblingZero,
        ErrorCall::SlidingSizeZero,
        ErrorCall::SlideZero,
        ErrorCall::SlideAboveSize,
    ] {
        cases.push(Case::Errors { call });
    }
    cases
}
