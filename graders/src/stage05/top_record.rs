//! The `lateness` check's record at `u64::MAX`: no window holds `u64::MAX` itself, so
//! `assign(u64::MAX)` may answer its windows cut short there, or none (05-R21). The
//! operator must agree with its own assigner: the record counts in the windows `assign`
//! gives it, and where it gives none, all of its windows (none) have fired, so the record
//! is late (05-R10), never dropped without a word; and a snapshot holds those windows as
//! it holds any other (05-R15).

use serde::{Deserialize, Serialize};

use super::oracle::on_grid;
use super::readings::show_windows;
use super::{AssignerSpec, Element, Fired, Implementation, LateRecord};
use crate::harness::Failure;
use crate::stage03::guard::{Answer, caught};

/// The record's key.
const KEY: &str = "a";
/// The record's value.
const VALUE: i64 = 7;

/// What the case saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopRecord {
    /// `assign(u64::MAX)`.
    pub windows: Answer<Vec<(u64, u64)>>,
    /// On a new operator, `on_record("a", u64::MAX, 7)`, then `on_watermark(u64::MAX)`.
    pub answers: Answer<(Option<LateRecord>, Vec<Fired>)>,
    /// The same record on another new operator, then `restore` of its snapshot, then
    /// `on_watermark(u64::MAX)` on the restored one.
    pub restored: Answer<Vec<Fired>>,
}

/// Asks the assigner about `u64::MAX`, then gives a new operator a record there and the
/// end-of-input watermark.
pub fn run<I: Implementation>(spec: AssignerSpec) -> TopRecord {
    TopRecord {
        windows: caught(|| I::assign(spec, u64::MAX)),
        answers: caught(|| {
            let mut operator = I::operator(spec)?;
            let late = I::on_record(&mut operator, KEY, u64::MAX, VALUE);
            Ok((late, I::on_watermark(&mut operator, u64::MAX)))
        }),
        restored: caught(|| {
            let mut operator = I::operator(spec)?;
            I::on_record(&mut operator, KEY, u64::MAX, VALUE);
            let mut restored = I::restore(spec, &I::snapshot(&operator)?)?;
            Ok(I::on_watermark(&mut restored, u64::MAX))
        }),
    }
}

/// The case as a report names it.
pub fn describe(spec: AssignerSpec) -> String {
    format!(
        "{spec}: assign(u64::MAX), then on a new operator on_record(\"{KEY}\", u64::MAX, {VALUE}) and on_watermark(u64::MAX), and the same with restore(assigner, &snapshot()?) before the watermark"
    )
}

/// The record is late exactly when its own `assign` gives it no window; otherwise it
/// counts in each of them, and the end-of-input watermark fires them (05-R10).
pub fn judge(spec: AssignerSpec, seen: &TopRecord) -> Result<(), Failure> {
    // A wrong or failed `assign(u64::MAX)` is the `assign` check's to report: without
    // an answer of the assigner there is nothing to agree with.
    let Answer::Ok(windows) = &seen.windows else {
        return Ok(());
    };
    if !windows.iter().all(|&window| on_grid(spec, window)) {
        return Ok(());
    }
    let record = format!("on_record(\"{KEY}\", u64::MAX, {VALUE})");
    let assigned = format!("{spec}.assign(u64::MAX) is {}", show_windows(windows));
    let (late, fired) = match &seen.answers {
        Answer::Ok(answers) => answers,
        other => {
            return Err(Failure::new(
                format!("{record}, then on_watermark(u64::MAX), answered"),
                other.show(),
            )
            .step(format!(
                "{assigned}, and the operator could not take the record"
            ))
            .requirement("05-R10"));
        }
    };
    let mut own: Vec<(u64, u64)> = windows.clone();
    own.sort_unstable();
    own.dedup();
    let want_late = own.is_empty().then(|| (KEY.to_owned(), u64::MAX, VALUE));
    if *late != want_late {
        let why = if own.is_empty() {
            "the record has no window, so all of its windows (none) have fired: it is late, returned as given, not dropped"
        } else {
            "windows that have not fired: the record counts in them, and is not late"
        };
        return Err(
            Failure::new(format!("{record} = {}", shown(&want_late)), shown(late))
                .step(format!("{assigned}: {why}"))
                .requirement("05-R10"),
        );
    }
    let want_fired: Vec<Fired> = own
        .iter()
        .map(|&(start, end)| Fired {
            start,
            end,
            key: KEY.to_owned(),
            sum: VALUE,
            count: 1,
        })
        .collect();
    if *fired != want_fired {
        return Err(Failure::new(
            format!("on_watermark(u64::MAX) = {want_fired:?}"),
            format!("{fired:?}"),
        )
        .step(format!(
            "{assigned}: the record counts in each of those windows, and the end-of-input watermark fires each once"
        ))
        .requirement("05-R10"));
    }
    // A window cut short at `u64::MAX` is a window like any other, also in a snapshot:
    // `[u64::MAX, u64::MAX)`, which holds no timestamp, included.
    if seen.restored != Answer::Ok(want_fired.clone()) {
        return Err(Failure::new(
            format!("on_watermark(u64::MAX) = {want_fired:?}"),
            seen.restored.show(),
        )
        .step(format!(
            "{assigned}: {record}, then restore(assigner, &snapshot()?): the restored operator holds the record's windows, cut short or not, and the end-of-input watermark fires each once"
        ))
        .requirement("05-R15"));
    }
    Ok(())
}

/// `on_record`'s answer as the brief writes it: `None`, or `Some(Late(a@MAX=7))`.
fn shown(late: &Option<LateRecord>) -> String {
    match late {
        None => "None".to_owned(),
        Some((key, ts, value)) => {
            format!("Some(Late({}))", Element::Record(key.clone(), *ts, *value))
        }
    }
}
