//! The verdict of one cell of a grid (one run at one crash point and commit lag): the
//! anomaly that names the kind of wrong, and the first wrong step.

use super::anomaly::Anomaly;
use crate::harness::diff::multiset_diff;

/// Why one run (one cell of a grid) is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellFailure {
    /// The kind of wrong.
    pub anomaly: Anomaly,
    /// The first wrong step, in the stage's terms.
    pub step: String,
}

pub(super) fn fail<T>(anomaly: Anomaly, step: impl Into<String>) -> Result<T, CellFailure> {
    Err(CellFailure {
        anomaly,
        step: step.into(),
    })
}

/// The anomaly of an output that is not the input as a multiset, if any.
pub fn multiset_anomaly(records: &[u32], output: &[u32]) -> Option<CellFailure> {
    let diff = multiset_diff(records, output);
    let anomaly = match (diff.missing.is_empty(), diff.extra.is_empty()) {
        (true, true) => return None,
        (false, true) => Anomaly::LostRecord,
        (true, false) => Anomaly::Duplicate,
        (false, false) => Anomaly::LostAndDuplicated,
    };
    Some(CellFailure {
        anomaly,
        step: format!(
            "the output {output:?} is not the input {records:?} with each record once (missing {:?}, extra {:?})",
            diff.missing, diff.extra
        ),
    })
}
