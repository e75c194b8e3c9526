//! The `crash` check's snapshots under two assigners: the assigner is configuration, not
//! state, and `restore` takes it again (05-R15), so operators of `Tumbling::new(10)` and
//! `Tumbling::new(5)` that hold the same state (no aggregate, and no watermark or `W(9)`)
//! write the same bytes. A snapshot that also writes its assigner tells them apart.

use serde::{Deserialize, Serialize};

use super::{AssignerSpec, Implementation};
use crate::harness::Failure;
use crate::stage03::guard::{Answer, caught};

/// The two assigners, of windows of different sizes.
pub const SPECS: [AssignerSpec; 2] = [AssignerSpec::Tumbling(10), AssignerSpec::Tumbling(5)];

/// The watermark of the second pair: it fires nothing, as no record came.
pub const WATERMARK: u64 = 9;

/// What the case saw: for a new operator, then for one after `W(9)`, the snapshot under
/// each of [`SPECS`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignerFree {
    /// `snapshot()` of a new operator, under each assigner.
    pub fresh: Vec<Answer<Vec<u8>>>,
    /// `snapshot()` after `on_watermark(9)`, under each assigner.
    pub after_watermark: Vec<Answer<Vec<u8>>>,
}

/// Snapshots a new operator, and one after `W(9)`, under each assigner.
pub fn run<I: Implementation>() -> AssignerFree {
    let snapshot = |watermark: Option<u64>| {
        SPECS
            .iter()
            .map(|&spec| {
                caught(|| {
                    let mut operator = I::operator(spec)?;
                    if let Some(wm) = watermark {
                        I::on_watermark(&mut operator, wm);
                    }
                    I::snapshot(&operator)
                })
            })
            .collect()
    };
    AssignerFree {
        fresh: snapshot(None),
        after_watermark: snapshot(Some(WATERMARK)),
    }
}

/// The case as a report names it.
pub fn describe() -> String {
    let [first, second] = SPECS;
    format!(
        "snapshot() of a new operator of {first} and of {second}, then of each after on_watermark({WATERMARK})"
    )
}

/// Each pair must be the same bytes: the same state under two assigners (05-R15).
pub fn judge(seen: &AssignerFree) -> Result<(), Failure> {
    let [first, second] = SPECS;
    for (snapshots, after) in [
        (&seen.fresh, "before any call"),
        (&seen.after_watermark, "after on_watermark(9)"),
    ] {
        match &snapshots[..] {
            [Answer::Ok(one), Answer::Ok(other)] if one == other => {}
            [Answer::Ok(one), Answer::Ok(other)] => {
                return Err(Failure::new(
                    format!("the same bytes under {second} as under {first}: {}", bytes(one)),
                    bytes(other),
                )
                .step(format!(
                    "{after}, both operators hold no aggregate and the same watermark: the same state, so the same snapshot; the assigner is configuration, which restore takes again, not state"
                ))
                .requirement("05-R15"));
            }
            [_, _] => {
                let shown: Vec<String> = snapshots.iter().map(Answer::show).collect();
                return Err(Failure::new(
                    "snapshot() = Ok(..) under each assigner",
                    shown.join(", "),
                )
                .step(format!("{after}, a snapshot failed"))
                .requirement("05-R15"));
            }
            _ => {
                return Err(Failure::new(
                    format!("{} snapshots", SPECS.len()),
                    format!("{} snapshots", snapshots.len()),
                )
                .requirement("05-R15"));
            }
        }
    }
    Ok(())
}

/// Snapshot bytes as text, where they are UTF-8.
fn bytes(snapshot: &[u8]) -> String {
    match std::str::from_utf8(snapshot) {
        Ok(text) => format!("{text:?}"),
        Err(_) => format!("{snapshot:?}"),
    }
}
