//! Aligners that completed the same checkpoint, whatever else differs (their number of
//! inputs, a checkpoint half aligned, records held back, a restore with another number of
//! inputs), must write the same snapshot bytes: a snapshot holds only which checkpoint was
//! completed last (06-R13). One that also writes its inputs or its buffers still restores
//! (its `restore` may ignore them), so only the bytes tell. Its own `crash` case, planned
//! after every other.

use serde::{Deserialize, Serialize};

use super::{Elem, Implementation};
use crate::harness::Failure;

/// How each aligner of a group is made before its snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Made {
    /// `BarrierAligner::new(inputs)`, nothing delivered.
    Fresh(usize),
    /// `new(inputs)`, then `B1` on every input: checkpoint 1 completed.
    Completed(usize),
    /// `new(2)`, `B1` on both, then `B2` and a record `a1` on input 0: checkpoint 2 half
    /// aligned, `a1` held back.
    HalfAligned,
    /// `restore(3, ..)` of the snapshot of `Completed(2)`.
    RestoredWider,
}

impl Made {
    /// The call that makes it, as code.
    pub fn describe(self) -> String {
        match self {
            Made::Fresh(n) => format!("BarrierAligner::new({n})"),
            Made::Completed(n) => format!("BarrierAligner::new({n}) after B1 on every input"),
            Made::HalfAligned => {
                "BarrierAligner::new(2) after B1 on both inputs, then B2 and a1 on input 0 \
                 (checkpoint 2 half aligned, a1 held back)"
                    .to_owned()
            }
            Made::RestoredWider => {
                "BarrierAligner::restore(3, ..) of the snapshot of new(2) after B1 on both inputs"
                    .to_owned()
            }
        }
    }
}

/// The groups: aligners with no checkpoint completed, then with checkpoint 1 completed.
pub const GROUPS: [&[Made]; 2] = [
    &[Made::Fresh(1), Made::Fresh(2), Made::Fresh(3)],
    &[
        Made::Completed(1),
        Made::Completed(2),
        Made::Completed(3),
        Made::HalfAligned,
        Made::RestoredWider,
    ],
];

fn make<I: Implementation>(made: Made) -> anyhow::Result<I::Aligner> {
    let completed = |n: usize| -> anyhow::Result<I::Aligner> {
        let mut aligner = I::aligner(n)?;
        for input in 0..n {
            I::on_element(&mut aligner, input, Elem::Barrier(1))?;
        }
        Ok(aligner)
    };
    match made {
        Made::Fresh(n) => I::aligner(n),
        Made::Completed(n) => completed(n),
        Made::HalfAligned => {
            let mut aligner = completed(2)?;
            I::on_element(&mut aligner, 0, Elem::Barrier(2))?;
            I::on_element(&mut aligner, 0, Elem::Record("a1".to_owned()))?;
            Ok(aligner)
        }
        Made::RestoredWider => I::restore(3, &I::snapshot(&completed(2)?)?),
    }
}

/// The snapshot of each aligner of each group (`Err` as the message of the call that
/// failed; a panic ends the case, as in every other).
pub fn run<I: Implementation>() -> Vec<Vec<Result<Vec<u8>, String>>> {
    GROUPS
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|made| {
                    make::<I>(*made)
                        .and_then(|aligner| I::snapshot(&aligner))
                        .map_err(|e| format!("{e:#}"))
                })
                .collect()
        })
        .collect()
}

/// The case as a report shows it.
pub fn describe() -> String {
    let groups: Vec<String> = GROUPS
        .iter()
        .map(|group| {
            let made: Vec<String> = group.iter().map(|m| m.describe()).collect();
            made.join("; ")
        })
        .collect();
    format!(
        "snapshot() of each of: {}; then of each of: {}",
        groups[0], groups[1]
    )
}

/// Bytes as a report shows them: text where they are UTF-8.
fn shown(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => format!("b{text:?}"),
        Err(_) => format!("{bytes:?}"),
    }
}

/// `Ok` when every aligner of a group wrote the bytes of the group's first.
pub fn judge(seen: &[Vec<Result<Vec<u8>, String>>]) -> Result<(), Failure> {
    if seen.len() != GROUPS.len() {
        return Err(Failure::new(
            format!("{} groups of snapshots", GROUPS.len()),
            format!("{}", seen.len()),
        )
        .requirement("06-R13"));
    }
    for (group, snapshots) in GROUPS.iter().zip(seen) {
        let last = if group[0] == Made::Fresh(1) {
            "none"
        } else {
            "checkpoint 1"
        };
        for (made, snapshot) in group.iter().zip(snapshots) {
            if let Err(e) = snapshot {
                return Err(Failure::new("Ok(..)", format!("Err({e})"))
                    .step(format!(
                        "{}, then snapshot(): a valid aligner",
                        made.describe()
                    ))
                    .requirement("06-R13"));
            }
        }
        let (Some(first), Some(Ok(first_bytes))) = (group.first(), snapshots.first()) else {
            continue;
        };
        for (made, snapshot) in group.iter().zip(snapshots).skip(1) {
            if let Ok(bytes) = snapshot
                && bytes != first_bytes
            {
                return Err(Failure::new(
                    format!("{}, the bytes of {}", shown(first_bytes), first.describe()),
                    shown(bytes),
                )
                .step(format!(
                    "{} and {} have both completed {last}, but their snapshots differ: a \
                     snapshot holds only which checkpoint was completed last, not the number \
                     of inputs, what is blocked or what is held back",
                    first.describe(),
                    made.describe()
                ))
                .requirement("06-R13"));
            }
        }
        if snapshots.len() != group.len() {
            return Err(Failure::new(
                format!("{} snapshots", group.len()),
                format!("{}", snapshots.len()),
            )
            .requirement("06-R13"));
        }
    }
    Ok(())
}
