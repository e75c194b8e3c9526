//! The cases of stage 04, shortest arrival order first.

use serde::{Deserialize, Serialize};

use crate::harness::enumerate::permutations;
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The largest event set whose every arrival order is enumerated.
pub const MAX_EVENTS: usize = 5;
/// The largest event set of the crash check (every order, every crash point).
pub const MAX_CRASH_EVENTS: usize = 4;
/// The bounds of out-of-orderness enumerated.
pub const MAX_DELAYS: [u64; 4] = [0, 1, 2, 3];

pub(super) const GENERATOR: Check = Check {
    name: "generator",
    law: "after each record the watermark is max_ts - max_delay - 1, None while max_ts <= max_delay",
};
pub(super) const WITH_WATERMARKS: Check = Check {
    name: "with-watermarks",
    law: "a watermark follows a record exactly when it advanced: no repeat, no regression",
};
pub(super) const LATENESS: Check = Check {
    name: "lateness",
    law: "a record is late exactly when its timestamp is <= a watermark before it",
};
pub(super) const COMBINER: Check = Check {
    name: "combiner",
    law: "the combined watermark is None until every input reported, then the running minimum",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "restoring the generator or the combiner from bytes after any element changes nothing",
};
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "0 inputs or an unknown input is an error that names the argument",
};

/// A call with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `CombinedWatermark::new(0)`
    NoInputs,
    /// `on_watermark(2, 5)` on a combiner of 2 inputs.
    UnknownInput,
}

impl ErrorCall {
    /// The call as code.
    pub fn code(self) -> &'static str {
        match self {
            ErrorCall::NoInputs => "CombinedWatermark::new(0)",
            ErrorCall::UnknownInput => "CombinedWatermark::new(2)?.on_watermark(2, 5)",
        }
    }

    /// The word the error message must contain.
    pub fn argument(self) -> &'static str {
        match self {
            ErrorCall::NoInputs => "inputs",
            ErrorCall::UnknownInput => "input",
        }
    }
}

/// One case of stage 04. Records are `(ts, id)`; the id tells equal timestamps apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `on_event` for each arrival, `current_watermark()` after each.
    Generator {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
    },
    /// `with_watermarks(arrivals, max_delay)`.
    WithWatermarks {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
    },
    /// `split_late` of the stream the bounded generator makes of `arrivals`.
    Lateness {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound the watermarks were generated with.
        max_delay: u64,
    },
    /// `on_watermark(input, ts)` for each step of `interleaving`.
    Combiner {
        /// The number of inputs.
        inputs: usize,
        /// `(input, watermark)` in arrival order.
        interleaving: Vec<(usize, u64)>,
    },
    /// The generator snapshotted and restored after `crash_after` records.
    GeneratorCrash {
        /// The records in arrival order.
        arrivals: Vec<(u64, u32)>,
        /// The bound.
        max_delay: u64,
        /// Records before the snapshot.
        crash_after: usize,
    },
    /// The combiner snapshotted and restored after `crash_after` steps.
    CombinerCrash {
        /// The number of inputs.
        inputs: usize,
        /// `(input, watermark)` in arrival order.
        interleaving: Vec<(usize, u64)>,
        /// Steps before the snapshot.
        crash_after: usize,
    },
    /// A call with an invalid argument.
    Errors {
        /// The call.
        call: ErrorCall,
    },
}

fn timestamps(arrivals: &[(u64, u32)]) -> String {
    let ts: Vec<String> = arrivals.iter().map(|(ts, _)| ts.to_string()).collect();
    format!("[{}]", ts.join(", "))
}

fn steps(interleaving: &[(usize, u64)]) -> String {
    let steps: Vec<String> = interleaving
        .iter()
        .map(|(input, ts)| format!("input {input}: {ts}"))
        .collect();
    format!("[{}]", steps.join(", "))
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Generator { .. } => GENERATOR,
            Case::WithWatermarks { .. } => WITH_WATERMARKS,
            Case::Lateness { .. } => LATENESS,
            Case::Combiner { .. } => COMBINER,
            Case::GeneratorCrash { .. } | Case::CombinerCrash { .. } => CRASH,
            Case::Errors { .. } => ERRORS,
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Generator {
                arrivals,
                max_delay,
            }
            | Case::WithWatermarks {
                arrivals,
                max_delay,
            } => format!(
                "timestamps in arrival order {}, max_delay {max_delay}",
                timestamps(arrivals)
            ),
            Case::Lateness {
                arrivals,
                max_delay,
            } => format!(
                "the stream with_watermarks makes of timestamps {} with max_delay {max_delay}",
                timestamps(arrivals)
            ),
            Case::Combiner {
                inputs,
                interleaving,
            } => format!("{inputs} inputs, watermarks {}", steps(interleaving)),
            Case::GeneratorCrash {
                arrivals,
                max_delay,
                crash_after,
            } => format!(
                "timestamps in arrival order {}, max_delay {max_delay}, generator snapshotted and restored after {crash_after} record(s)",
                timestamps(arrivals)
            ),
            Case::CombinerCrash {
                inputs,
                interleaving,
                crash_after,
            } => format!(
                "{inputs} inputs, watermarks {}, combiner snapshotted and restored after {crash_after} step(s)",
                steps(interleaving)
            ),
            Case::Errors { call } => call.code().to_owned(),
        }
    }
}

/// Every interleaving of `sequences` that keeps each one's order, as `(input, value)`.
pub(super) fn interleavings(sequences: &[Vec<u64>]) -> Vec<Vec<(usize, u64)>> {
    if sequences.iter().all(Vec::is_empty) {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (input, sequence) in sequences.iter().enumerate() {
        if let Some((&first, rest)) = sequence.split_first() {
            let mut remaining = sequences.to_vec();
            remaining[input] = rest.to_vec();
            for mut tail in interleavings(&remaining) {
                tail.insert(0, (input, first));
                all.push(tail);
            }
        }
    }
    all
}

/// Event sets, smallest first: two per size up to 4, one of size 5. Timestamps are drawn
/// from a range barely wider than the set, so duplicates and small values (near the
/// `None` of the formula) are common.
fn event_sets(rng: &mut Rng) -> Vec<Vec<(u64, u32)>> {
    let mut sets = Vec::new();
    for size in 0..=MAX_EVENTS {
        let copies = if size < MAX_EVENTS { 2 } else { 1 };
        for _ in 0..copies {
            let set: Vec<(u64, u32)> = (0u32..)
                .take(size)
                .map(|id| (rng.below(size as u64 + 4), id))
                .collect();
            sets.push(set);
        }
    }
    sets
}

/// Per-input watermark sequences for 2 and 3 inputs, fewest steps first.
fn combiner_inputs(rng: &mut Rng) -> Vec<Vec<Vec<u64>>> {
    let shapes: [&[usize]; 6] = [
        &[1, 1],
        &[2, 1],
        &[2, 2],
        &[1, 1, 1],
        &[2, 1, 1],
        &[2, 2, 1],
    ];
    let mut all = Vec::new();
    for shape in shapes {
        for _ in 0..2 {
            all.push(
                shape
                    .iter()
                    .map(|&len| (0..len).map(|_| rng.below(8)).collect())
                    .collect(),
            );
        }
    }
    all
}

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 4);
    let sets = event_sets(&mut rng);
    let orders: Vec<Vec<(u64, u32)>> = sets.iter().flat_map(|s| permutations(s)).collect();
    let mut cases = Vec::new();
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::Generator {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::WithWatermarks {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    for arrivals in &orders {
        for max_delay in MAX_DELAYS {
            cases.push(Case::Lateness {
                arrivals: arrivals.clone(),
                max_delay,
            });
        }
    }
    let combiner_runs: Vec<(usize, Vec<(usize, u64)>)> = combiner_inputs(&mut rng)
        .iter()
        .flat_map(|sequences| {
            interleavings(sequences)
                .into_iter()
                .map(|i| (sequences.len(), i))
        })
        .collect();
    for (inputs, interleaving) in &combiner_runs {
        cases.push(Case::Combiner {
            inputs: *inputs,
            interleaving: interleaving.clone(),
        });
    }
    for arrivals in orders.iter().filter(|o| o.len() <= MAX_CRASH_EVENTS) {
        for max_delay in MAX_DELAYS {
            for crash_after in 0..=arrivals.len() {
                cases.push(Case::GeneratorCrash {
                    arrivals: arrivals.clone(),
                    max_delay,
                    crash_after,
                });
            }
        }
    }
    for (inputs, interleaving) in &combiner_runs {
        for crash_after in 0..=interleaving.len() {
            cases.push(Case::CombinerCrash {
                inputs: *inputs,
                interleaving: interleaving.clone(),
                crash_after,
            });
        }
    }
    for call in [ErrorCall::NoInputs, ErrorCall::UnknownInput] {
        cases.push(Case::Errors { call });
    }
    cases
}
