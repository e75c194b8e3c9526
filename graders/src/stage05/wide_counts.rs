//! The implementation's own snapshot of `a@3=7` with its count set past a `u32`'s range
//! and up to `u64::MAX`: states some run makes (records of 0 after the first add to the
//! count, not to the sum), so `restore` must take them (05-R15), and the restored
//! operator counts on from there: one more record, `a@4=1`, then `W(9)` fires
//! `a [0, 10)` with the sum 8 and the count one more (at `u64::MAX`, no record more:
//! `W(9)` fires the count as it is). A count kept in a `u32` (refused, or cut, or
//! wrapped) or in an `i64` answers otherwise. Made where the format is JSON that tells
//! where the count is, as the forgeries are ([`super::forged`]).

use serde::{Deserialize, Serialize};

use super::Implementation;
use super::forged::{SPEC, SUM, quotes_numbers_of, requoted, snapshot_after};
use super::values::{Fired, LateRecord};
use crate::harness::counter::Counter;
use crate::stage03::guard::{Answer, caught};

/// The counts restored: the largest a `u32` holds (one more record takes it past), the
/// first past it, the first an `i64` does not hold, and the largest of all.
pub const COUNTS: [u64; 4] = [u32::MAX as u64, (1 << 32) + 1, 1 << 63, u64::MAX];

/// What one restore of a wide count answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WideSeen {
    /// The count the snapshot was given.
    pub count: u64,
    /// What the restore, and the operator it gave, did.
    pub answer: WideAnswer,
}

/// How a restore of a wide count went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WideAnswer {
    /// `restore` refused the snapshot, with this message.
    Refused(String),
    /// A call panicked (the restore, the record or the watermark), with this message.
    Panicked(String),
    /// The operator restored and counted on.
    CountedOn {
        /// What `a@4=1` returned, where a record was added.
        late: Option<LateRecord>,
        /// What `W(9)` then fired.
        fired: Vec<Fired>,
    },
}

impl WideSeen {
    /// Whether a record is added before `W(9)`: not past `u64::MAX`.
    pub fn adds_a_record(count: u64) -> bool {
        count < u64::MAX
    }

    /// What `W(9)` must fire.
    pub fn expected(count: u64) -> Fired {
        let (sum, count) = if Self::adds_a_record(count) {
            (SUM + 1, count + 1)
        } else {
            (SUM, count)
        };
        Fired {
            start: 0,
            end: 10,
            key: "a".to_owned(),
            sum,
            count,
        }
    }
}

/// Each of [`COUNTS`] restored and counted on; empty where the format does not tell
/// where the count is, or does not restore a count of 6, a state some run makes.
pub fn wide_counts<I: Implementation>() -> Vec<WideSeen> {
    let records = [("a", 3, SUM), ("a", 3, 0), ("a", 3, 0)];
    let [one, two, three] = [1, 2, 3].map(|n| snapshot_after::<I>(None, &records[..n]));
    let (Some(one), Some(two), Some(three)) = (one, two, three) else {
        return Vec::new();
    };
    let Some(counter) = Counter::find([&one, &two, &three]) else {
        return Vec::new();
    };
    let quoted = quotes_numbers_of::<I>();
    let written = |count: u64| {
        // The counter holds `base` for one record: a format may write the count less one.
        let bytes = counter.set_to(counter.base.checked_add(count - 1)?);
        Some(if quoted { requoted(&bytes) } else { bytes })
    };
    if written(6).is_none_or(|bytes| I::restore(SPEC, &bytes).is_err()) {
        return Vec::new();
    }
    COUNTS
        .into_iter()
        .filter_map(|count| {
            let bytes = written(count)?;
            let counted_on = caught(|| {
                let mut operator = I::restore(SPEC, &bytes)?;
                let late = if WideSeen::adds_a_record(count) {
                    I::on_record(&mut operator, "a", 4, 1)
                } else {
                    None
                };
                Ok((late, I::on_watermark(&mut operator, 9)))
            });
            let answer = match counted_on {
                Answer::Ok((late, fired)) => WideAnswer::CountedOn { late, fired },
                Answer::Err(e) => WideAnswer::Refused(e),
                Answer::Panicked(m) => WideAnswer::Panicked(m),
            };
            Some(WideSeen { count, answer })
        })
        .collect()
}
