//! The picture's columns: one per sink call, what the call is in the schedule, the source
//! offset after it and what its sink holds after it (open, prepared, visible); and where
//! between two columns the crash and each recovery fall.

use super::super::binding::SpyCall;
use super::super::oracle::{ModelSink, Schedule};
use super::events::{Event, events};

/// One call, what it is in the schedule, and what the sink holds after it.
pub(super) struct Column {
    pub(super) sink: usize,
    pub(super) event: Event,
    /// The source offset after the call, as the text timeline's offset column.
    pub(super) offset: usize,
    pub(super) open: Vec<u32>,
    pub(super) prepared: Vec<(u64, Vec<u32>)>,
    pub(super) visible: String,
}

/// What happens between two columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Boundary {
    /// The job crashes after this record: before the first abort on the first sink, or
    /// after its last call when it aborts nothing.
    Crash { after_record: usize },
    /// A fresh sink (1-based, as the lanes name it) takes over, replaying from `offset`.
    Recovery { sink: usize, offset: usize },
}

/// The columns of a run; the visible lane is the model's after the same calls, or
/// with `seen` what the learner's own sink showed.
pub(super) fn columns(
    len: usize,
    schedule: Schedule,
    sinks: &[Vec<SpyCall>],
    seen: Option<&[Vec<Vec<u32>>]>,
) -> Vec<Column> {
    let mut out = Vec::new();
    for ((sink, calls), events) in sinks.iter().enumerate().zip(events(len, schedule, sinks)) {
        let mut model = ModelSink::default();
        let mut offset = replay_start(len, sink, calls);
        for (n, (&call, event)) in calls.iter().zip(events).enumerate() {
            model.apply(call);
            if let SpyCall::Write(_) = call {
                offset += 1;
            }
            let visible = match seen {
                None => format!("{:?}", model.committed),
                Some(seen) => seen
                    .get(sink)
                    .and_then(|v| v.get(n))
                    .map_or("(your sink panicked)".to_owned(), |v| format!("{v:?}")),
            };
            out.push(Column {
                sink,
                event,
                offset,
                open: model.open.clone(),
                prepared: model
                    .pending
                    .iter()
                    .map(|id| (*id, model.prepared(*id).unwrap_or_default().to_vec()))
                    .collect(),
                visible,
            });
        }
    }
    out
}

/// Where sink `index` starts reading: the first at 0; a replay runs to the end of the
/// input, so it starts at `len` less its writes (as the text timeline says it).
fn replay_start(len: usize, index: usize, calls: &[SpyCall]) -> usize {
    if index == 0 {
        return 0;
    }
    let writes = calls
        .iter()
        .filter(|c| matches!(c, SpyCall::Write(_)))
        .count();
    len.saturating_sub(writes)
}

/// The crash and the recoveries, each with the index of the column it comes before
/// (`columns.len()` for after the last), in the order the text timeline prints them.
pub(super) fn boundaries(columns: &[Column], schedule: Schedule) -> Vec<(usize, Boundary)> {
    let mut marks = Vec::new();
    if let Some(after_record) = schedule.crash_after {
        let aborting = |c: &Column| matches!(c.event, Event::Abort(_) | Event::AbortOpen);
        let at = columns
            .iter()
            .position(|c| c.sink == 0 && aborting(c))
            .or_else(|| columns.iter().position(|c| c.sink > 0))
            .unwrap_or(columns.len());
        marks.push((at, Boundary::Crash { after_record }));
    }
    for (at, pair) in columns.windows(2).enumerate() {
        if pair[1].sink != pair[0].sink {
            let first = &pair[1];
            let wrote = usize::from(matches!(first.event, Event::Write(_)));
            marks.push((
                at + 1,
                Boundary::Recovery {
                    sink: first.sink + 1,
                    offset: first.offset - wrote,
                },
            ));
        }
    }
    marks.sort_by_key(|(at, _)| *at);
    marks
}
