//! The implementation's own snapshot of `a@3=7` with one number (or `null`) changed at a
//! time, to `null` and to 0 to 9, or, in a format that is not JSON, one run of digits
//! changed to each other digit (`harness::damaged::one_number_changed`). A restore may
//! refuse it or take it: a changed sum, count or watermark may be a state some run makes.
//! What it takes must be a state an operator is in (05-R16): `state_size()` the number of
//! aggregates that `W(u64::MAX)` then fires, and 0 after. A count of the aggregates kept
//! beside them, and trusted by `restore`, says otherwise.
//!
//! A panic in that `W(u64::MAX)` is not judged here: a changed window bound may make a
//! window no assigner makes, which the brief does not ask `restore` to refuse.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::{Deserialize, Serialize};

use super::Implementation;
use super::forged::{SPEC, SUM, quotes_numbers_of, requoted, snapshot_after};
use crate::harness::damaged::one_number_changed;

/// A restore of a changed snapshot whose operator counts other aggregates than it fires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inconsistent {
    /// The changed snapshot, as text.
    pub bytes: String,
    /// `state_size()` right after the restore.
    pub size: usize,
    /// How many results `W(u64::MAX)` then fired.
    pub fired: usize,
    /// `state_size()` after that.
    pub size_after: usize,
}

impl Inconsistent {
    /// What the report says was restored.
    pub fn describe(&self) -> String {
        format!(
            "its snapshot of the aggregate a [0, 10) with one number changed, {:?}: it \
             restored with state_size() = {}, then W(u64::MAX) fired {} result(s) and left \
             state_size() = {}, a state no operator is in",
            self.bytes, self.size, self.fired, self.size_after
        )
    }
}

/// The first changed snapshot (in the order of `one_number_changed`) that restores to an
/// operator whose size disagrees with what it fires, if any.
pub fn first_inconsistent<I: Implementation>() -> Option<Inconsistent> {
    let base = snapshot_after::<I>(None, &[("a", 3, SUM)])?;
    let quoted = quotes_numbers_of::<I>();
    one_number_changed(&base).into_iter().find_map(|changed| {
        let bytes = if quoted { requoted(&changed) } else { changed };
        let mut operator = I::restore(SPEC, &bytes).ok()?;
        let size = I::state_size(&operator);
        let fired = catch_unwind(AssertUnwindSafe(|| {
            I::on_watermark(&mut operator, u64::MAX).len()
        }))
        .ok()?;
        let size_after = I::state_size(&operator);
        (fired != size || size_after != 0).then(|| Inconsistent {
            bytes: String::from_utf8_lossy(&bytes).into_owned(),
            size,
            fired,
            size_after,
        })
    })
}
