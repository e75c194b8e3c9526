//! Judges a contract-check run step by step against the model of the brief: the first
//! step whose answer, `state_size()` or `current_watermark()` differs, and the
//! requirement it breaks.

use super::contract::{Answer, Call, Step, show};
use super::explain;
use super::late_fault::{Handed, record_fault};
use super::oracle::Model;
use super::readings::build_fault;
use super::wide_counts::{WideAnswer, WideSeen};
use super::{AssignerSpec, Time};
use crate::harness::Failure;

fn answer(a: &Answer) -> String {
    match a {
        Answer::Late(None) => "None".to_owned(),
        Answer::Late(Some((k, t, v))) => format!("Some(Late({k}@{t}={v}))"),
        Answer::Fired(fired) => format!("{fired:?}"),
        Answer::Restored(Ok(())) => "Ok".to_owned(),
        Answer::Restored(Err(e)) => format!("Err({e})"),
        Answer::AcceptedJunk(bytes) => format!("Ok (of b{bytes:?})"),
        Answer::AcceptedTrailing => "Ok (of its snapshot + b\" trailing\")".to_owned(),
        Answer::AcceptedRetyped(how) => {
            format!("Ok (of its snapshot with its numbers {})", how.describe())
        }
        Answer::AcceptedForged(how) => format!("Ok (of {})", how.describe()),
        Answer::AcceptedInconsistent(inconsistent) => {
            format!("Ok (of {})", inconsistent.describe())
        }
        Answer::WideCounts(seen) => format!("{seen:?}"),
        Answer::AcceptedRelaid(relaid) => format!("Ok (of {})", relaid.describe()),
    }
}

/// `Ok` when every step of `steps` is what the brief fixes for `calls`.
pub fn judge(
    spec: AssignerSpec,
    calls: &[Call],
    steps: &Result<Vec<Step>, String>,
) -> Result<(), Failure> {
    let steps = steps.as_ref().map_err(|e| {
        Failure::new("a window operator", format!("Err({e})"))
            .step(format!("{spec} could not be built"))
            .requirement(build_fault(spec))
    })?;
    // The driver records every call: it never stops early.
    if steps.len() != calls.len() {
        return Err(Failure::incomplete_record(calls.len(), steps.len()));
    }
    let mut model = Model::new(spec);
    let mut answered = explain::Answered::default();
    let mut restored_at: Option<usize> = None;
    for (i, (call, step)) in calls.iter().zip(steps).enumerate() {
        let before = model.clone();
        let at = |reason: String| {
            format!(
                "{spec}, calls {}: at call {} ({call}): {reason}",
                show(calls),
                i + 1
            )
        };
        // A difference after a restore is the restore's, by construction: the same
        // sequence without the restore is shorter and came first.
        let restored = restored_at;
        let id = |natural: &'static str| restored.map_or(natural, |_| "05-R15");
        let after_restore = restored.map_or(String::new(), |k| {
            format!(" (after the restore at call {}: the snapshot must hold everything the operator needs to answer as before)", k + 1)
        });
        let wrong = |want: String, reason: String, natural: &'static str| -> Result<(), Failure> {
            Err(Failure::new(want, answer(&step.answer))
                .step(at(format!("{reason}{after_restore}")))
                .requirement(id(natural)))
        };
        match call {
            Call::Record(key, ts, value) => {
                let want = model.record(key, *ts, *value);
                if step.answer != Answer::Late(want.clone()) {
                    let got = match &step.answer {
                        Answer::Late(got) => got.clone(),
                        _ => None,
                    };
                    let handed = Handed { key, ts: *ts };
                    let (reason, natural) = record_fault(
                        spec,
                        &before,
                        &handed,
                        want.as_ref(),
                        got.as_ref(),
                        &answered,
                    );
                    return wrong(answer(&Answer::Late(want)), reason, natural);
                }
                answered.late.push(want.is_some());
            }
            Call::Watermark(wm) => {
                let want = model.watermark(*wm);
                if step.watermark != model.current() {
                    let natural = if !before.advances(*wm) {
                        "05-R13"
                    } else if before.current().is_none() {
                        "05-R11"
                    } else {
                        "05-R14"
                    };
                    let reason = format!(
                        "current_watermark() is {:?} right after it, expected {:?}",
                        step.watermark,
                        model.current()
                    );
                    return Err(Failure::new(
                        format!("current_watermark() = {:?}", model.current()),
                        format!("current_watermark() = {:?}", step.watermark),
                    )
                    .step(at(format!("{reason}{after_restore}")))
                    .requirement(id(natural)));
                }
                let got = match &step.answer {
                    Answer::Fired(got) => got.clone(),
                    _ => Vec::new(),
                };
                if got != want {
                    let (reason, natural) =
                        explain::watermark_fault(&before, *wm, &want, &got, &answered);
                    return wrong(format!("{want:?}"), reason, natural);
                }
                answered.fired.extend(got.into_iter().map(|f| (f, *wm)));
            }
            Call::Restore => match &step.answer {
                Answer::Restored(Ok(())) => restored_at = Some(i),
                _ => {
                    return wrong(
                        "Ok".to_owned(),
                        "snapshot() then restore(..) of its bytes must succeed".to_owned(),
                        "05-R15",
                    );
                }
            },
            Call::RestoreWideCounts => {
                if let Answer::WideCounts(seen) = &step.answer {
                    wide_count_fault(seen).map_or(Ok(()), |(want, got, reason)| {
                        Err(Failure::new(want, got)
                            .step(at(reason))
                            .requirement("05-R15"))
                    })?;
                }
            }
            Call::RestoreDamaged
            | Call::RestoreEmpty
            | Call::RestoreForged
            | Call::RestoreRenumbered
            | Call::RestoreRelaid => {
                let what = match (&step.answer, call) {
                    (Answer::Restored(Ok(())), Call::RestoreDamaged) => {
                        Some("a snapshot cut short".to_owned())
                    }
                    (Answer::AcceptedTrailing, _) => Some(
                        "its own snapshot with b\" trailing\" after it: nothing may follow the bytes snapshot() wrote".to_owned(),
                    ),
                    (Answer::AcceptedRetyped(how), _) => Some(format!(
                        "its own snapshot with its numbers {}: the wrong types are no snapshot",
                        how.describe()
                    )),
                    (Answer::AcceptedForged(how), _) => Some(how.describe().to_owned()),
                    (Answer::AcceptedInconsistent(inconsistent), _) => Some(inconsistent.describe()),
                    (Answer::AcceptedRelaid(relaid), _) => Some(relaid.describe()),
                    (Answer::AcceptedJunk(bytes), _) if bytes.is_empty() => {
                        Some("empty bytes".to_owned())
                    }
                    (Answer::AcceptedJunk(bytes), _) => Some(format!(
                        "b{bytes:?}, which this operator's snapshot of a fresh operator is not"
                    )),
                    _ => None,
                };
                if let Some(what) = what {
                    return wrong(
                        "an error".to_owned(),
                        format!(
                            "restore of bytes that are not a snapshot ({what}) must be an error"
                        ),
                        "05-R16",
                    );
                }
            }
        }
        let id = |natural: &'static str| restored_at.map_or(natural, |_| "05-R15");
        let after_restore = restored_at.map_or(String::new(), |k| {
            format!(" (after the restore at call {}: the snapshot must hold everything the operator needs to answer as before)", k + 1)
        });
        let want_size = model.open().len();
        if step.size != want_size {
            let listed: Vec<String> = model
                .open()
                .iter()
                .map(|((s, e), k)| format!("{k} [{}, {})", Time(*s), Time(*e)))
                .collect();
            return Err(Failure::new(
                format!("state_size() = {want_size}"),
                format!("state_size() = {}", step.size),
            )
            .step(at(format!(
                "right after it, the aggregates held are [{}]{after_restore}",
                listed.join(", ")
            )))
            .requirement(id("05-R5")));
        }
        if step.watermark != model.current() {
            return Err(Failure::new(
                format!("current_watermark() = {:?}", model.current()),
                format!("current_watermark() = {:?}", step.watermark),
            )
            .step(at(format!(
                "current_watermark() is the largest watermark seen{after_restore}"
            )))
            .requirement(id("05-R14")));
        }
        answered.watermark = step.watermark;
    }
    Ok(())
}

/// The first restore of a wide count ([`super::wide_counts`]) that was refused or
/// panicked, or whose operator did not count on from it: what was expected, what came,
/// and why.
fn wide_count_fault(seen: &[WideSeen]) -> Option<(String, String, String)> {
    seen.iter().find_map(|seen| {
        let n = seen.count;
        let snapshot = format!(
            "its snapshot of a@3=7 with the count set to {n}, the state after a@3=7 and {} records of 0 (no count of records is outside a u64)",
            n - 1
        );
        let late = if WideSeen::adds_a_record(n) {
            "a@4=1, then "
        } else {
            ""
        };
        let want = vec![WideSeen::expected(n)];
        match &seen.answer {
            WideAnswer::Refused(e) => Some((
                "Ok".to_owned(),
                format!("Err({e})"),
                format!("restore of {snapshot} must succeed"),
            )),
            WideAnswer::Panicked(m) => Some((
                format!("{want:?}"),
                format!("panicked: {m}"),
                format!("restore of {snapshot}, then {late}W(9), must count on from {n}"),
            )),
            WideAnswer::CountedOn { late: Some(record), .. } => Some((
                "None".to_owned(),
                format!("Some({record:?})"),
                format!(
                    "after the restore of {snapshot}, a@4=1 lies in [0, 10), which has not fired"
                ),
            )),
            WideAnswer::CountedOn { fired, .. } => (*fired != want).then(|| {
                (
                    format!("{want:?}"),
                    format!("{fired:?}"),
                    format!(
                        "after the restore of {snapshot}, {late}W(9) fires a [0, 10) counted on from {n}"
                    ),
                )
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_with_fewer_steps_than_calls_is_refused() {
        let calls = [Call::Watermark(5)];
        let failure = judge(AssignerSpec::Tumbling(10), &calls, &Ok(Vec::new())).unwrap_err();
        assert!(failure.requirement.is_none(), "{failure:?}");
    }
}
