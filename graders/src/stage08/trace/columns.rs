//! The picture's columns: one per sink call, what the call is in the schedule and what
//! its sink holds after it (open, prepared, visible).

use super::super::binding::SpyCall;
use super::super::oracle::{ModelSink, Schedule};
use super::events::{Event, events};

/// One call, what it is in the schedule, and what the sink holds after it.
pub(super) struct Column {
    pub(super) sink: usize,
    pub(super) call: SpyCall,
    pub(super) event: Event,
    pub(super) open: Vec<u32>,
    pub(super) prepared: Vec<(u64, Vec<u32>)>,
    pub(super) visible: String,
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
        for (n, (&call, event)) in calls.iter().zip(events).enumerate() {
            model.apply(call);
            let visible = match seen {
                None => format!("{:?}", model.committed),
                Some(seen) => seen
                    .get(sink)
                    .and_then(|v| v.get(n))
                    .map_or("(panicked)".to_owned(), |v| format!("{v:?}")),
            };
            out.push(Column {
                sink,
                call,
                event,
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
