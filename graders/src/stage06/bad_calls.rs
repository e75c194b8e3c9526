//! The calls the stage-06 brief calls errors beyond the arguments: an input that does
//! not exist, a barrier out of turn, and schedules `aligned_snapshots` cannot follow.
//! The exhaustive shapes never make them (every input carries its barriers in turn), so
//! these cases are picked by hand.

use serde::{Deserialize, Serialize};

use super::binding::Implementation;
use super::case::Elem;

/// One call that must return an error, never a panic or an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BadCall {
    /// `on_element(2, a0)` on an aligner of 2 inputs.
    UnknownInput,
    /// `on_element(0, Barrier(2))` on a fresh aligner, which expects barrier 1.
    BarrierAhead,
    /// `Barrier(1)` on input 0, then `Barrier(2)` on input 1 while 1 is being aligned.
    BarrierOutOfTurn,
    /// `aligned_snapshots` over no inputs at all.
    SnapshotsWithoutInputs,
    /// `aligned_snapshots` with a schedule naming input 1 of a single input.
    SnapshotsUnknownInput,
    /// `aligned_snapshots` taking two elements from an input that has one.
    SnapshotsPastTheEnd,
    /// `aligned_snapshots` over an input whose first barrier is `Barrier(2)`.
    SnapshotsBarrierAhead,
}

impl BadCall {
    /// Every bad call, simplest first.
    pub const ALL: [BadCall; 7] = [
        BadCall::UnknownInput,
        BadCall::BarrierAhead,
        BadCall::BarrierOutOfTurn,
        BadCall::SnapshotsWithoutInputs,
        BadCall::SnapshotsUnknownInput,
        BadCall::SnapshotsPastTheEnd,
        BadCall::SnapshotsBarrierAhead,
    ];

    /// The call, as a report shows it.
    pub fn describe(self) -> &'static str {
        match self {
            BadCall::UnknownInput => {
                "BarrierAligner::new(2), then on_element(2, a0): input 2 does not exist"
            }
            BadCall::BarrierAhead => {
                "BarrierAligner::new(2), then on_element(0, B2): barrier 1 comes first"
            }
            BadCall::BarrierOutOfTurn => {
                "BarrierAligner::new(2), then on_element(0, B1), on_element(1, B2): checkpoint 1 is being aligned"
            }
            BadCall::SnapshotsWithoutInputs => "aligned_snapshots over no inputs",
            BadCall::SnapshotsUnknownInput => {
                "aligned_snapshots over input 0 = [a0]; arrivals 1: input 1 does not exist"
            }
            BadCall::SnapshotsPastTheEnd => {
                "aligned_snapshots over input 0 = [a0]; arrivals 0 0: input 0 has one element"
            }
            BadCall::SnapshotsBarrierAhead => {
                "aligned_snapshots over input 0 = [B2]; arrivals 0: barrier 1 comes first"
            }
        }
    }

    /// Makes the call: `Ok` with what it answered, or the error's message.
    pub fn run<I: Implementation>(self) -> Result<String, String> {
        let a0 = || Elem::Record("a0".to_owned());
        let answered =
            |r: anyhow::Result<Vec<super::case::Out>>| r.map(|out| format!("Ok({out:?})"));
        let result = match self {
            BadCall::UnknownInput => {
                I::aligner(2).and_then(|mut a| answered(I::on_element(&mut a, 2, a0())))
            }
            BadCall::BarrierAhead => {
                I::aligner(2).and_then(|mut a| answered(I::on_element(&mut a, 0, Elem::Barrier(2))))
            }
            BadCall::BarrierOutOfTurn => I::aligner(2).and_then(|mut a| {
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                answered(I::on_element(&mut a, 1, Elem::Barrier(2)))
            }),
            BadCall::SnapshotsWithoutInputs => {
                I::aligned_snapshots(Vec::new(), &[]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsUnknownInput => {
                I::aligned_snapshots(vec![vec![a0()]], &[1]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsPastTheEnd => {
                I::aligned_snapshots(vec![vec![a0()]], &[0, 0]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsBarrierAhead => {
                I::aligned_snapshots(vec![vec![Elem::Barrier(2)]], &[0])
                    .map(|s| format!("Ok({s:?})"))
            }
        };
        result.map_err(|e| format!("{e:#}"))
    }
}
