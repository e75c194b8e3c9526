//! Runs one stage-06 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::contract::{Reading, drive_contract};
use super::{Case, Elem, Implementation, Out, oracle};
use crate::stage03::guard::{Answer, caught};

/// Inputs that do not exist, past `u32::MAX`: an input kept in a `u32` (`input as u32`)
/// takes them for inputs 0, 1 and `u32::MAX`, and answers that they are blocked.
pub const FAR_INPUTS: [usize; 3] = [1 << 32, (1 << 32) + 1, usize::MAX];

/// The inputs `is_blocked` is asked about after each call, in order: every input of an
/// aligner of `inputs`, then the first that does not exist, then [`FAR_INPUTS`].
pub fn asked(inputs: usize) -> impl Iterator<Item = usize> {
    (0..=inputs).chain(FAR_INPUTS)
}

/// The first input that does not exist (of an aligner of `inputs`) for which `blocked`,
/// the answers to [`asked`], says `true`.
pub fn blocked_absent(inputs: usize, blocked: &[bool]) -> Option<usize> {
    asked(inputs)
        .zip(blocked)
        .skip(inputs)
        .find_map(|(input, &is)| is.then_some(input))
}

/// What one `on_element` call returned, and `is_blocked` of every input after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The elements returned, in order.
    pub out: Vec<Out>,
    /// `is_blocked(i)` for every input `i` of `asked` (every input, and inputs that do
    /// not exist), after the call.
    pub blocked: Vec<bool>,
}

/// Every snapshot `aligned_snapshots` returned: `(checkpoint, folded records)`.
pub type Snapshots = Vec<(u64, Vec<String>)>;

/// The state of the operator at one checkpoint, and the aligner's bytes there.
type Completed = (u64, Vec<String>, Vec<u8>);

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// What `inject_barriers` returned.
    Inject {
        /// The stream, or the error message.
        result: Result<Vec<Elem>, String>,
    },
    /// What `BarrierAligner::new(0)` returned.
    NoInputs {
        /// `Ok` or the error message.
        result: Result<(), String>,
    },
    /// What a bad call answered: `Ok` with its answer, or the error's message.
    BadCall {
        /// The answer or the error.
        result: Result<String, String>,
    },
    /// Every call of an aligned run.
    Align {
        /// One entry per call that returned `Ok`.
        steps: Vec<Step>,
        /// The first error, naming the call that returned it.
        error: Option<String>,
    },
    /// `aligned_snapshots` over every prefix of the schedule, the empty one first.
    Snapshots {
        /// One result per prefix length.
        prefixes: Vec<Result<Snapshots, String>>,
    },
    /// The snapshots of each group of `same_bytes::GROUPS` (`Err` as the message).
    SameBytes {
        /// One list per group, one snapshot per aligner.
        snapshots: Vec<Vec<Result<Vec<u8>, String>>>,
    },
    /// A run with a crash, a restore and a replay.
    Crash {
        /// The calls before the crash.
        before: Vec<Step>,
        /// The checkpoint restored (0: none completed, a fresh aligner).
        restored: u64,
        /// The calls of the replay.
        after: Vec<Step>,
        /// Every record the operator folded, restored snapshot included, in order.
        final_state: Vec<String>,
        /// The first error, naming the call that returned it.
        error: Option<String>,
    },
    /// A case that does not apply to the implementation (its snapshots hold no counter
    /// that can be told), counted as passed.
    Moot {
        /// Why.
        why: String,
    },
    /// Every step of a contract sequence (`Err`: `BarrierAligner::new` failed).
    Contract {
        /// The fresh aligner's reading, then one per call.
        readings: Result<Vec<Reading>, String>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::Inject {
            records,
            barrier_every,
        } => Observation::Inject {
            // A panic on a valid cadence is a wrong answer: judged against 06-R1.
            result: match caught(|| I::inject(records, *barrier_every)) {
                Answer::Ok(stream) => Ok(stream),
                Answer::Err(message) => Err(message),
                Answer::Panicked(message) => Err(format!("panicked: {message}")),
            },
        },
        Case::ZeroCadence { records } => Observation::Inject {
            result: I::inject(records, 0).map_err(|e| format!("{e:#}")),
        },
        Case::NoInputs => Observation::NoInputs {
            result: I::aligner(0).map(|_| ()).map_err(|e| format!("{e:#}")),
        },
        Case::BadCall { call } => Observation::BadCall {
            // A panic is an answer too, and a wrong one: the brief says errors, never
            // panics, so the judge names the rule the call breaks.
            result: match caught(|| call.run::<I>().map_err(anyhow::Error::msg)) {
                Answer::Ok(answer) => Ok(answer),
                Answer::Err(message) => Err(message),
                Answer::Panicked(message) => Ok(format!("panicked: {message}")),
            },
        },
        Case::Align { inputs, schedule } => {
            let mut steps = Vec::new();
            let error = match I::aligner(inputs.len()) {
                Ok(mut aligner) => {
                    let starts = vec![0; inputs.len()];
                    feed::<I>(
                        &mut aligner,
                        inputs,
                        schedule,
                        &starts,
                        &mut steps,
                        |_, _| Ok(()),
                    )
                    .err()
                }
                Err(e) => Some(format!(
                    "BarrierAligner::new({}) failed: {e:#}",
                    inputs.len()
                )),
            };
            Observation::Align { steps, error }
        }
        Case::Snapshots { inputs, schedule } => Observation::Snapshots {
            prefixes: (0..=schedule.len())
                .map(|p| {
                    I::aligned_snapshots(inputs.clone(), &schedule[..p])
                        .map_err(|e| format!("{e:#}"))
                })
                .collect(),
        },
        Case::Crash {
            inputs,
            schedule,
            crash_after,
        } => crash::<I>(inputs, schedule, *crash_after),
        Case::Contract { inputs, ops } => Observation::Contract {
            readings: drive_contract::<I>(*inputs, ops),
        },
        Case::Rescale { from, to } => super::rescale::drive_rescale::<I>(*from, *to),
        Case::Far { completed } => super::far::drive_far::<I>(*completed),
        Case::SameBytes => Observation::SameBytes {
            snapshots: super::same_bytes::run::<I>(),
        },
    }
}

/// Feeds `schedule` (inputs starting at `starts`) to `aligner`, recording every call,
/// handing every call's output to `operator` (with the aligner, for snapshots). `Err`
/// names the call that failed.
pub(super) fn feed<I: Implementation>(
    aligner: &mut I::Aligner,
    inputs: &[Vec<Elem>],
    schedule: &[usize],
    starts: &[usize],
    steps: &mut Vec<Step>,
    mut operator: impl FnMut(&I::Aligner, &[Out]) -> Result<(), String>,
) -> Result<(), String> {
    let mut next = starts.to_vec();
    for (k, &input) in schedule.iter().enumerate() {
        let element = inputs[input][next[input]].clone();
        next[input] += 1;
        let shown = element.to_string();
        let out = I::on_element(aligner, input, element).map_err(|e| {
            format!(
                "step {} (input {input} delivers {shown}): on_element returned Err({e:#})",
                k + 1
            )
        })?;
        // Inputs that do not exist too: they are never blocked.
        let blocked = asked(inputs.len())
            .map(|i| I::is_blocked(aligner, i))
            .collect();
        operator(aligner, &out)?;
        steps.push(Step { out, blocked });
    }
    Ok(())
}

fn crash<I: Implementation>(
    inputs: &[Vec<Elem>],
    schedule: &[usize],
    crash_after: usize,
) -> Observation {
    let n = inputs.len();
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut restored = 0;
    let mut final_state = Vec::new();
    let mut run = || -> Result<(), String> {
        let mut aligner =
            I::aligner(n).map_err(|e| format!("BarrierAligner::new({n}) failed: {e:#}"))?;
        // The operator: folds records; at each checkpoint keeps its state and the
        // aligner's snapshot, as a job would write them to durable storage.
        let mut state: Vec<String> = Vec::new();
        let mut last: Option<Completed> = None;
        let starts = vec![0; n];
        feed::<I>(
            &mut aligner,
            inputs,
            &schedule[..crash_after],
            &starts,
            &mut before,
            |aligner, out| {
                let mut completed = None;
                for o in out {
                    match o {
                        Out::Record(r) => state.push(r.clone()),
                        Out::Checkpoint(c) => completed = Some((*c, state.clone())),
                    }
                }
                if let Some((c, snapshot)) = completed {
                    let bytes = I::snapshot(aligner)
                        .map_err(|e| format!("snapshot() after Checkpoint({c}) failed: {e:#}"))?;
                    last = Some((c, snapshot, bytes));
                }
                Ok(())
            },
        )?;
        // The crash: the aligner, its buffers and the operator's live state are gone.
        drop(aligner);
        drop(state);
        let (c, mut state, mut aligner) = match last {
            None => {
                let aligner = I::aligner(n).map_err(|e| {
                    format!("BarrierAligner::new({n}) after the crash failed: {e:#}")
                })?;
                (0, Vec::new(), aligner)
            }
            Some((c, snapshot, bytes)) => {
                let aligner = I::restore(n, &bytes).map_err(|e| {
                    format!(
                        "BarrierAligner::restore({n}, snapshot at checkpoint {c}) failed: {e:#}"
                    )
                })?;
                (c, snapshot, aligner)
            }
        };
        restored = c;
        let cuts = oracle::cuts(inputs, c);
        let replay = oracle::replay_schedule(schedule, &cuts);
        let outcome = feed::<I>(
            &mut aligner,
            inputs,
            &replay,
            &cuts,
            &mut after,
            |_, out| {
                for o in out {
                    if let Out::Record(r) = o {
                        state.push(r.clone());
                    }
                }
                Ok(())
            },
        );
        final_state = state;
        outcome.map_err(|e| format!("after restoring checkpoint {c}, replay {e}"))
    };
    let error = run().err();
    Observation::Crash {
        before,
        restored,
        after,
        final_state,
        error,
    }
}
