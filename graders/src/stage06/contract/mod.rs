//! The `contract` check: every sequence of up to three calls (four over a smaller
//! alphabet) on one aligner of 1, 2 or 3 inputs, over arguments chosen to break
//! convenient assumptions (barriers 0, 1, 2 and `u64::MAX`, twice on one input, of a
//! completed checkpoint, out of turn, on an input that does not exist; records on
//! blocked and unblocked inputs; `snapshot` and `restore` anywhere, also mid-alignment
//! and on a fresh aligner; calls after an error and after a restore). Each call's answer
//! and `is_blocked` of every input right after it are compared with the model of
//! `model.rs`.

use serde::{Deserialize, Serialize};

mod model;

pub use model::judge_contract;

use super::driver::asked;
use super::element::{Elem, Out, letter};
use super::{Case, Implementation};
use crate::harness::enumerate::call_sequences;
use crate::stage03::guard::{Answer, caught};

/// One call of a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `on_element(input, <a record>)`; the record is tagged with its input's letter and
    /// the step number (`b2`: input 1's record delivered at step 2).
    Record(usize),
    /// `on_element(input, Barrier(c))`.
    Barrier(usize, u64),
    /// `restore(inputs, &snapshot()?)`: the aligner goes on from its bytes alone.
    Crash,
}

impl Op {
    /// The element step `step` (1-based) of this op delivers, if it delivers one.
    pub(super) fn element(self, step: usize) -> Option<(usize, Elem)> {
        match self {
            Op::Record(input) => Some((input, Elem::Record(format!("{}{step}", letter(input))))),
            Op::Barrier(input, c) => Some((input, Elem::Barrier(c))),
            Op::Crash => None,
        }
    }

    /// The call, as a report shows it.
    pub(super) fn code(self, inputs: usize, step: usize) -> String {
        match self.element(step) {
            Some((input, element)) => format!("on_element({input}, {element})"),
            None => format!("restore({inputs}, &snapshot()?)"),
        }
    }
}

/// One call's answer (`on_element`'s output; `Ok([])` for a crash) and `is_blocked(i)`
/// right after it, for every input and the first input that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// What the call answered.
    pub answer: Answer<Vec<Out>>,
    /// `is_blocked(i)` for each `i` of `driver::asked(inputs)`: every input, then inputs
    /// that do not exist; it ends early where `is_blocked` panicked (empty after the call
    /// itself panicked).
    pub blocked: Vec<bool>,
    /// The panic of `is_blocked` of the input asked after the last of `blocked`: the
    /// sequence ends there.
    pub blocked_panic: Option<String>,
}

impl Reading {
    /// Whether the sequence ended at this reading: its call or an `is_blocked` panicked.
    pub(super) fn ends_the_run(&self) -> bool {
        matches!(self.answer, Answer::Panicked(_)) || self.blocked_panic.is_some()
    }
}

/// The description of a sequence, as a report shows it.
pub fn describe(inputs: usize, ops: &[Op]) -> String {
    let calls: Vec<String> = ops
        .iter()
        .enumerate()
        .map(|(k, op)| op.code(inputs, k + 1))
        .collect();
    if calls.is_empty() {
        return format!("BarrierAligner::new({inputs})");
    }
    format!("BarrierAligner::new({inputs}), then {}", calls.join(", "))
}

/// Every contract sequence, the same under every seed, shortest first.
pub fn plan() -> Vec<Case> {
    use Op::{Barrier as B, Crash, Record as R};
    const MAX: u64 = u64::MAX;
    let families: [(usize, usize, Vec<Op>); 4] = [
        (
            1,
            3,
            vec![
                R(0),
                R(1),
                B(0, 1),
                B(0, 2),
                B(0, 0),
                B(0, MAX),
                B(1, 1),
                Crash,
            ],
        ),
        (
            2,
            3,
            vec![
                R(0),
                R(1),
                R(2),
                B(0, 1),
                B(1, 1),
                B(0, 2),
                B(0, MAX),
                B(2, 1),
                Crash,
            ],
        ),
        // Four calls: a release after a held-back barrier, a crash mid-alignment and
        // what follows it.
        (2, 4, vec![R(0), B(0, 1), B(1, 1), B(0, 2), Crash]),
        (
            3,
            3,
            vec![
                R(0),
                R(2),
                B(0, 1),
                B(1, 1),
                B(2, 1),
                B(0, 2),
                B(3, 1),
                Crash,
            ],
        ),
    ];
    let mut cases = Vec::new();
    for (inputs, max_len, alphabet) in families {
        // Two restores in a row tell nothing a single one does not.
        let keep = |ops: &[Op]| !ops.windows(2).any(|w| w == [Op::Crash, Op::Crash]);
        for ops in call_sequences(&alphabet, max_len, keep) {
            // The four-call family repeats the shorter sequences of the one before.
            if max_len == 4 && ops.len() < 4 {
                continue;
            }
            cases.push(Case::Contract { inputs, ops });
        }
    }
    cases.extend(
        chosen()
            .into_iter()
            .map(|ops| Case::Contract { inputs: 3, ops }),
    );
    cases.extend(
        restored_twice()
            .into_iter()
            .map(|(inputs, ops)| Case::Contract { inputs, ops }),
    );
    cases
}

/// A restore of a restored aligner, then the next checkpoint's barriers: the restored
/// aligner's own snapshot must hold the checkpoint it was restored from (it is the last
/// completed one), or the second restore expects `Barrier(1)` again. The enumeration
/// prunes two restores in a row, and never follows them with a barrier within its length.
fn restored_twice() -> Vec<(usize, Vec<Op>)> {
    use Op::{Barrier as B, Crash};
    vec![
        (1, vec![B(0, 1), Crash, Crash, B(0, 2)]),
        (2, vec![B(0, 1), B(1, 1), Crash, Crash, B(0, 2), B(1, 2)]),
    ]
}

/// Longer sequences on 3 inputs, picked by hand: two inputs hold elements back at once,
/// interleaved (`b a b` and `a b a`), so only one buffer in arrival order releases them
/// right; then a held-back barrier blocks again and checkpoint 2 completes on 3 inputs;
/// then held-back barriers block two inputs again at once, so the re-feed must hold back
/// what both delivered after them, not only the last one blocked again; then two inputs
/// hold nine elements back between them (input 0's `Barrier(2)` among them), more than
/// any shape above holds, so an aligner that bounds what it buffers refuses one of them,
/// and the release re-feeds all nine in arrival order. The enumerated shapes never hold
/// back on two inputs at once.
fn chosen() -> Vec<Vec<Op>> {
    use Op::{Barrier as B, Record as R};
    vec![
        vec![B(0, 1), B(1, 1), R(1), R(0), R(1), B(2, 1)],
        vec![B(1, 1), B(0, 1), R(0), R(1), R(0), B(2, 1)],
        vec![
            B(0, 1),
            B(1, 1),
            R(0),
            B(1, 2),
            R(1),
            R(0),
            B(2, 1),
            B(0, 2),
            B(2, 2),
        ],
        vec![
            B(0, 1),
            B(1, 1),
            B(0, 2),
            B(1, 2),
            R(0),
            R(1),
            B(2, 1),
            B(2, 2),
        ],
        vec![
            B(0, 1),
            B(1, 1),
            R(0),
            R(1),
            R(0),
            R(1),
            B(0, 2),
            R(0),
            R(1),
            R(0),
            R(1),
            B(2, 1),
            B(1, 2),
            B(2, 2),
        ],
    ]
}

/// Runs the sequence on `BarrierAligner::new(inputs)`: the fresh aligner's reading,
/// then one per call; a panic, of a call or of an `is_blocked`, ends it. `Err` when `new`
/// itself fails.
pub fn drive_contract<I: Implementation>(
    inputs: usize,
    ops: &[Op],
) -> Result<Vec<Reading>, String> {
    let mut aligner = I::aligner(inputs).map_err(|e| format!("{e:#}"))?;
    let mut readings = Vec::new();
    for step in 0..=ops.len() {
        let answer = match step.checked_sub(1).map(|k| ops[k].element(step)) {
            None => Answer::Ok(Vec::new()),
            Some(Some((input, element))) => caught(|| I::on_element(&mut aligner, input, element)),
            Some(None) => match caught(|| I::restore(inputs, &I::snapshot(&aligner)?)) {
                Answer::Ok(restored) => {
                    aligner = restored;
                    Answer::Ok(Vec::new())
                }
                Answer::Err(e) => Answer::Err(e),
                Answer::Panicked(m) => Answer::Panicked(m),
            },
        };
        let mut blocked = Vec::new();
        let mut blocked_panic = None;
        if !matches!(answer, Answer::Panicked(_)) {
            for i in asked(inputs) {
                match caught(|| Ok(I::is_blocked(&aligner, i))) {
                    Answer::Ok(b) => blocked.push(b),
                    Answer::Err(m) | Answer::Panicked(m) => {
                        blocked_panic = Some(m);
                        break;
                    }
                }
            }
        }
        let reading = Reading {
            answer,
            blocked,
            blocked_panic,
        };
        let ends = reading.ends_the_run();
        readings.push(reading);
        if ends {
            break;
        }
    }
    Ok(readings)
}
