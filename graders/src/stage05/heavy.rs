//! One aggregate fed past what narrow numbers hold: a first value of 2^53 + 1, which a
//! sum kept in an `f64` rounds away, then 2^16 records of 1, so the count passes the
//! 65,535 a `u16` holds. `W(u64::MAX)` then fires one result, its sum and count exact
//! (05-R2), and `state_size()` is 1 before it and 0 after (05-R5).
//!
//! The records are fed one call at a time and only the last call's answer is kept, so
//! the case costs what its calls cost, not a report of each.

use serde::{Deserialize, Serialize};

use super::{AssignerSpec, Fired, Implementation};
use crate::harness::Failure;
use crate::stage03::guard::{Answer, caught};

/// The assigner: `a@5` lies in `[0, 10)`.
pub const SPEC: AssignerSpec = AssignerSpec::Tumbling(10);
/// The first value: 2^53 + 1, the smallest integer an `f64` does not hold.
pub const FIRST: i64 = (1 << 53) + 1;
/// How many records of 1 follow it: with the first, one more than a `u16` counts.
pub const ONES: u64 = 1 << 16;

/// What the operator answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// Late records returned while feeding (none are late), or the call that failed.
    pub late: Answer<u64>,
    /// `state_size()` after the records.
    pub size: Answer<usize>,
    /// `on_watermark(u64::MAX)`.
    pub fired: Answer<Vec<Fired>>,
    /// `state_size()` after it.
    pub size_after: Answer<usize>,
}

impl Seen {
    /// What is seen when building the operator or feeding it failed: the rest is not
    /// reached.
    fn stopped(late: Answer<u64>) -> Seen {
        fn gone<T>() -> Answer<T> {
            Answer::Err("not reached: an earlier call failed".to_owned())
        }
        Seen {
            late,
            size: gone(),
            fired: gone(),
            size_after: gone(),
        }
    }
}

/// The case as a report shows it.
pub fn describe() -> String {
    format!(
        "{SPEC}, elements a@5={FIRST}, then a@5=1 {ONES} times, then W(MAX): one aggregate \
         whose sum an f64 rounds and whose count a u16 cannot hold"
    )
}

/// Feeds the records and fires them.
pub fn run<I: Implementation>() -> Seen {
    let mut operator = match caught(|| I::operator(SPEC)) {
        Answer::Ok(operator) => operator,
        Answer::Err(e) => return Seen::stopped(Answer::Err(e)),
        Answer::Panicked(p) => return Seen::stopped(Answer::Panicked(p)),
    };
    let late = caught(|| {
        let mut late = u64::from(I::on_record(&mut operator, "a", 5, FIRST).is_some());
        for _ in 0..ONES {
            late += u64::from(I::on_record(&mut operator, "a", 5, 1).is_some());
        }
        Ok(late)
    });
    if !late.is_ok() {
        return Seen::stopped(late);
    }
    let size = caught(|| Ok(I::state_size(&operator)));
    let fired = caught(|| Ok(I::on_watermark(&mut operator, u64::MAX)));
    let size_after = caught(|| Ok(I::state_size(&operator)));
    Seen {
        late,
        size,
        fired,
        size_after,
    }
}

/// The one result the case fires.
fn want() -> Fired {
    Fired {
        start: 0,
        end: 10,
        key: "a".to_owned(),
        sum: FIRST + ONES as i64,
        count: ONES + 1,
    }
}

/// `Ok` when every answer is exact.
pub fn judge(seen: &Seen) -> Result<(), Failure> {
    let wrong = |expected: String, actual: String, step: &str, id: &'static str| {
        Err(Failure::new(expected, actual)
            .step(step.to_owned())
            .requirement(id))
    };
    if seen.late != Answer::Ok(0) {
        return wrong(
            "no late record, and no panic".to_owned(),
            format!("{:?}", seen.late),
            "on_record(a, 5, ..) for each record: every one is on time, and the aggregate counts past 65,535",
            "05-R2",
        );
    }
    if seen.size != Answer::Ok(1) {
        return wrong(
            "state_size() = 1".to_owned(),
            format!("{:?}", seen.size),
            "state_size() after the records: one (window, key) has records",
            "05-R5",
        );
    }
    let want = want();
    if seen.fired != Answer::Ok(vec![want.clone()]) {
        return wrong(
            format!("[{want:?}]"),
            format!("{:?}", seen.fired),
            "on_watermark(u64::MAX): one result, its sum exact past 2^53 and its count past 65,535",
            "05-R2",
        );
    }
    if seen.size_after != Answer::Ok(0) {
        return wrong(
            "state_size() = 0".to_owned(),
            format!("{:?}", seen.size_after),
            "state_size() after the window fired",
            "05-R5",
        );
    }
    Ok(())
}
