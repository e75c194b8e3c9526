//! One run drawn as rows (step, sink, event, source offset, open transaction, prepared
//! transactions, visible output), rebuilt from the calls on the sinks alone, and the
//! first step where two runs differ.

use std::fmt::Write as _;

use super::super::binding::SpyCall;
use super::super::oracle::{ModelSink, Schedule};
use super::events::events;
use super::{Mark, Paint};

pub(super) fn flatten(sinks: &[Vec<SpyCall>]) -> Vec<(usize, SpyCall)> {
    sinks
        .iter()
        .enumerate()
        .flat_map(|(i, calls)| calls.iter().map(move |c| (i, *c)))
        .collect()
}

/// The first step (over all sinks, in order) where the two runs differ.
pub(super) fn first_divergence(reference: &[Vec<SpyCall>], mine: &[Vec<SpyCall>]) -> Option<usize> {
    let (a, b) = (flatten(reference), flatten(mine));
    (0..a.len().max(b.len())).find(|i| a.get(*i) != b.get(*i))
}

pub(super) fn describe(call: SpyCall) -> String {
    match call {
        SpyCall::Write(r) => format!("write({r})"),
        SpyCall::PreCommit(id) => format!("pre_commit({id})"),
        SpyCall::Commit(id) => format!("commit({id})"),
        SpyCall::Abort(id) => format!("abort({id})"),
        SpyCall::AbortOpen => "abort_open()".to_owned(),
    }
}

/// What the learner's own sink showed, drawn in place of the model's visible output:
/// `committed()` after each call, per sink, and the step where it first departs.
pub(super) struct Seen<'a> {
    pub(super) visible: &'a [Vec<Vec<u32>>],
    pub(super) departed: Option<usize>,
}

/// One run as rows: step, sink, event, source offset, open, prepared, visible (the
/// model's after the same calls, or with `seen` what the learner's sink showed).
pub(super) fn timeline(
    records: &[u32],
    schedule: Schedule,
    sinks: &[Vec<SpyCall>],
    highlight: Option<usize>,
    seen: Option<&Seen<'_>>,
    paint: &Paint<'_>,
) -> String {
    let mut out = format!(
        "  {:>4}  {:<4}  {:<26} {:>6}  {:<14} {:<22} {}\n",
        "step", "sink", "event", "offset", "open", "prepared", "visible"
    );
    let events = events(records.len(), schedule, sinks);
    let mut step = 0;
    for (index, (calls, events)) in sinks.iter().zip(&events).enumerate() {
        let writes = calls
            .iter()
            .filter(|c| matches!(c, SpyCall::Write(_)))
            .count();
        // The replay runs to the end of the input, so its start is len - writes.
        let mut offset = if index == 0 {
            0
        } else {
            records.len().saturating_sub(writes)
        };
        if index > 0 {
            let _ = writeln!(
                out,
                "  {}",
                paint(
                    Mark::Warn,
                    &format!(
                        "↻ RECOVERY: fresh sink #{}, replay from offset {offset}",
                        index + 1
                    )
                )
            );
        }
        let mut model = ModelSink::default();
        let mut crash_marked = false;
        for (n, (&call, event)) in calls.iter().zip(events).enumerate() {
            let aborting = matches!(call, SpyCall::Abort(_) | SpyCall::AbortOpen);
            if index == 0
                && !crash_marked
                && aborting
                && let Some(k) = schedule.crash_after
            {
                crash_marked = true;
                let _ = writeln!(
                    out,
                    "  {}",
                    paint(Mark::Bad, &format!("✗ CRASH after record {k}"))
                );
            }
            if let SpyCall::Write(_) = call {
                offset += 1;
            }
            model.apply(call);
            let prepared = model
                .pending
                .iter()
                .map(|id| format!("c{id}{:?}", model.prepared(*id).unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(" ");
            let visible = match seen {
                None => format!("{:?}", model.committed),
                Some(seen) => seen
                    .visible
                    .get(index)
                    .and_then(|v| v.get(n))
                    .map_or("(your sink panicked)".to_owned(), |v| format!("{v:?}")),
            };
            let departed = seen.is_some_and(|s| s.departed == Some(step));
            let marker = if highlight == Some(step) {
                "▶"
            } else if departed {
                "◆"
            } else {
                " "
            };
            let row = format!(
                "{marker} {:>4}  #{:<3}  {:<26} {:>6}  {:<14} {:<22} {visible}",
                step + 1,
                index + 1,
                event.label(),
                offset,
                format!("{:?}", model.open),
                if prepared.is_empty() {
                    "-".to_owned()
                } else {
                    prepared
                },
            );
            let row = if highlight == Some(step) || departed {
                paint(Mark::Bad, &row)
            } else {
                row
            };
            let _ = writeln!(out, "{row}");
            step += 1;
        }
        if index == 0
            && !crash_marked
            && let Some(k) = schedule.crash_after
        {
            let _ = writeln!(
                out,
                "  {}",
                paint(Mark::Bad, &format!("✗ CRASH after record {k}"))
            );
        }
    }
    if highlight.is_some_and(|h| h >= step) {
        let _ = writeln!(
            out,
            "{}",
            paint(Mark::Bad, &format!("▶ {:>4}  (no more calls)", step + 1))
        );
    }
    out
}
