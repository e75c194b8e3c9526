//! One case of stage 06 and the check it belongs to, in the grader's own terms:
//! records tagged with their input and position (`a0 a1` on input 0, `b0` on input 1).

use serde::{Deserialize, Serialize};

pub use super::element::{Elem, Out, letter, list};
use crate::harness::{Check, case};

pub(super) const INJECT: Check = Check {
    name: "inject-barriers",
    law: "inject_barriers puts Barrier(c) right after record number c * barrier_every",
};
pub(super) const CONFIGURATION: Check = Check {
    name: "configuration",
    law: "barrier_every = 0 and an aligner of 0 inputs are errors that name the argument; \
          an input that does not exist and a barrier out of turn are errors",
};
pub(super) const ALIGNMENT: Check = Check {
    name: "alignment",
    law: "a blocked input is held back until Checkpoint(c), which comes out in the call that \
          delivers the last Barrier(c), followed by the held-back elements in arrival order",
};
pub(super) const SNAPSHOTS: Check = Check {
    name: "aligned-snapshots",
    law: "snapshot c is the fold of exactly the records before Barrier(c) on every input, \
          and a schedule cut short holds only the checkpoints completed by then",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every sequence of up to three calls on one aligner (barriers in and out of turn, \
          inputs that do not exist, snapshot and restore anywhere) answers what the brief fixes",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "crash at any step, restore the last completed snapshot, replay every input from \
          its cut: every record is folded exactly once and alignment continues as before",
};

/// One case of stage 06.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `inject_barriers(&records, barrier_every)` with `barrier_every >= 1`.
    Inject {
        /// The records.
        records: Vec<String>,
        /// The cadence.
        barrier_every: usize,
    },
    /// `inject_barriers(&records, 0)`: must be an error naming `barrier_every`.
    ZeroCadence {
        /// The records.
        records: Vec<String>,
    },
    /// `BarrierAligner::new(0)`: must be an error naming `inputs`.
    NoInputs,
    /// A call the brief calls an error, picked by hand.
    BadCall {
        /// The call.
        call: super::BadCall,
    },
    /// Feed the inputs to one aligner in `schedule` order, observing every call.
    Align {
        /// The inputs' elements.
        inputs: Vec<Vec<Elem>>,
        /// Which input delivers its next element at each step.
        schedule: Vec<usize>,
    },
    /// `aligned_snapshots` over every prefix of `schedule`.
    Snapshots {
        /// The inputs' elements.
        inputs: Vec<Vec<Elem>>,
        /// The full interleaving.
        schedule: Vec<usize>,
    },
    /// Align for `crash_after` steps, crash, restore the last completed snapshot, replay.
    Crash {
        /// The inputs' elements.
        inputs: Vec<Vec<Elem>>,
        /// The full interleaving.
        schedule: Vec<usize>,
        /// Steps delivered before the crash.
        crash_after: usize,
    },
    /// `new(from)` completes checkpoint 1, `restore(to, ..)` of its snapshot goes on.
    Rescale {
        /// The inputs of the aligner snapshotted.
        from: usize,
        /// The inputs of the restored one.
        to: usize,
    },
    /// `restore(2, ..)` of the implementation's own snapshot with its counter set to say
    /// `completed` checkpoints completed, then two more checkpoints.
    Far {
        /// The checkpoints the snapshot says completed.
        completed: u64,
    },
    /// A short sequence of calls on `BarrierAligner::new(inputs)`.
    Contract {
        /// The number of inputs.
        inputs: usize,
        /// The calls, in order.
        ops: Vec<super::contract::Op>,
    },
    /// The snapshots of aligners that completed the same checkpoint (`same_bytes.rs`).
    SameBytes,
}

/// `input 0 = [a0 B1 a1], input 1 = [b0 B1]; arrivals 0 0 1 0 1`.
pub fn describe_run(inputs: &[Vec<Elem>], schedule: &[usize]) -> String {
    // A wide aligner whose inputs are mostly empty is told by the ones that are not.
    let sparse = inputs.len() > 8 && inputs.iter().any(Vec::is_empty);
    let shown: Vec<String> = inputs
        .iter()
        .enumerate()
        .filter(|(_, elements)| !sparse || !elements.is_empty())
        .map(|(i, elements)| {
            let elements: Vec<String> = elements.iter().map(ToString::to_string).collect();
            format!("input {i} = [{}]", elements.join(" "))
        })
        .collect();
    let arrivals: Vec<String> = schedule.iter().map(ToString::to_string).collect();
    let arrivals = if arrivals.is_empty() {
        "(none)".to_owned()
    } else {
        arrivals.join(" ")
    };
    if sparse {
        format!(
            "{} inputs, all empty but {}; arrivals {arrivals}",
            inputs.len(),
            shown.join(", ")
        )
    } else {
        format!("{}; arrivals {arrivals}", shown.join(", "))
    }
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Inject { .. } => INJECT,
            Case::ZeroCadence { .. } | Case::NoInputs | Case::BadCall { .. } => CONFIGURATION,
            Case::Align { .. } => ALIGNMENT,
            Case::Snapshots { .. } => SNAPSHOTS,
            Case::Crash { .. } | Case::Rescale { .. } | Case::Far { .. } | Case::SameBytes => CRASH,
            Case::Contract { .. } => CONTRACT,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::Inject { .. } => vec!["06-R1"],
            Case::ZeroCadence { .. } => vec!["06-R2"],
            Case::NoInputs => vec!["06-R10"],
            Case::BadCall { call } => vec![call.requirement()],
            Case::Align { .. } => vec![
                "06-R3", "06-R4", "06-R5", "06-R6", "06-R7", "06-R8", "06-R9", "06-R12",
            ],
            Case::Snapshots { .. } => vec!["06-R15", "06-R16"],
            Case::Crash { .. } | Case::Rescale { .. } | Case::Far { .. } | Case::SameBytes => {
                vec!["06-R13"]
            }
            Case::Contract { .. } => vec![
                "06-R3", "06-R4", "06-R5", "06-R6", "06-R7", "06-R8", "06-R9", "06-R10", "06-R11",
                "06-R12", "06-R13",
            ],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Inject {
                records,
                barrier_every,
            } => format!("inject_barriers(&{records:?}, {barrier_every})"),
            Case::ZeroCadence { records } => format!("inject_barriers(&{records:?}, 0)"),
            Case::NoInputs => "BarrierAligner::new(0)".to_owned(),
            Case::BadCall { call } => call.describe().to_owned(),
            Case::Align { inputs, schedule } => describe_run(inputs, schedule),
            Case::Snapshots { inputs, schedule } => format!(
                "aligned_snapshots over {}, and over every prefix of the arrivals",
                describe_run(inputs, schedule)
            ),
            Case::Crash {
                inputs,
                schedule,
                crash_after,
            } => format!(
                "{}; crash after {crash_after} arrival(s)",
                describe_run(inputs, schedule)
            ),
            Case::Contract { inputs, ops } => super::contract::describe(*inputs, ops),
            Case::Rescale { from, to } => super::rescale::describe(*from, *to),
            Case::Far { completed } => super::far::describe(*completed),
            Case::SameBytes => super::same_bytes::describe(),
        }
    }
}
