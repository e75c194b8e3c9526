//! The implementation's own snapshot of `a@3=7`, then of `W(5)` and `a@7=7`, with one
//! number (or `null`) changed at a time, to `null` and to 0 to 9, or, in a format that is not JSON, one run of digits
//! changed to each other digit (`harness::damaged::one_number_changed`). A restore may
//! refuse it or take it: a changed sum, count or watermark may be a state some run makes.
//! What it takes must be a state an operator is in (05-R16): `state_size()` the number of
//! aggregates that `W(u64::MAX)` then fires, and 0 after. A count of the aggregates kept
//! beside them, and trusted by `restore`, says otherwise.
//!
//! A panic in that `W(u64::MAX)` is not judged here: a changed window bound may make a
//! window no assigner makes, which the brief does not ask `restore` to refuse. A panic in
//! `restore` itself is: it neither refuses the bytes nor restores a state.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::{Deserialize, Serialize};

use super::Implementation;
use super::forged::{SPEC, SUM, quotes_numbers_of, requoted, snapshot_after};
use crate::harness::damaged::one_number_changed;
use crate::stage03::guard::{Answer, caught};

/// A restore of a changed snapshot that gave no state an operator is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inconsistent {
    /// The changed snapshot, as text.
    pub bytes: String,
    /// What the restore did with it.
    pub how: Restored,
}

/// What a restore of a changed snapshot did that no restore of a snapshot does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Restored {
    /// It restored an operator that counts other aggregates than it fires.
    Miscounted {
        /// `state_size()` right after the restore.
        size: usize,
        /// How many results `W(u64::MAX)` then fired.
        fired: usize,
        /// `state_size()` after that.
        size_after: usize,
    },
    /// `restore` itself panicked, with this message: neither an error nor a state.
    Panicked(String),
}

impl Inconsistent {
    /// What the report says was restored.
    pub fn describe(&self) -> String {
        match &self.how {
            Restored::Miscounted {
                size,
                fired,
                size_after,
            } => format!(
                "its snapshot of the aggregate a [0, 10) with one number changed, {:?}: it \
                 restored with state_size() = {size}, then W(u64::MAX) fired {fired} \
                 result(s) and left state_size() = {size_after}, a state no operator is in",
                self.bytes
            ),
            Restored::Panicked(message) => format!(
                "its snapshot of an aggregate with one number changed, {:?}: restore \
                 panicked ({message}) instead of refusing it",
                self.bytes
            ),
        }
    }
}

/// The first changed snapshot (in the order of `one_number_changed`) that restores to an
/// operator whose size disagrees with what it fires, if any.
pub fn first_inconsistent<I: Implementation>() -> Option<Inconsistent> {
    // Then the same after `W(5)`: with a watermark, `restore` asks whether each window
    // has fired, of windows a changed bound makes (an end of 0 among them).
    let bases = [
        snapshot_after::<I>(None, &[("a", 3, SUM)]),
        snapshot_after::<I>(Some(5), &[("a", 7, SUM)]),
    ];
    let quoted = quotes_numbers_of::<I>();
    let mut changed = bases
        .into_iter()
        .flatten()
        .flat_map(|base| one_number_changed(&base));
    changed.find_map(|changed| {
        let bytes = if quoted { requoted(&changed) } else { changed };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut operator = match caught(|| I::restore(SPEC, &bytes)) {
            Answer::Ok(operator) => operator,
            Answer::Err(_) => return None,
            Answer::Panicked(message) => {
                return Some(Inconsistent {
                    bytes: text,
                    how: Restored::Panicked(message),
                });
            }
        };
        let size = I::state_size(&operator);
        let fired = catch_unwind(AssertUnwindSafe(|| {
            I::on_watermark(&mut operator, u64::MAX).len()
        }))
        .ok()?;
        let size_after = I::state_size(&operator);
        (fired != size || size_after != 0).then_some(Inconsistent {
            bytes: text,
            how: Restored::Miscounted {
                size,
                fired,
                size_after,
            },
        })
    })
}
