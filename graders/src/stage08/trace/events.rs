//! What each sink call is in the schedule's terms (a barrier's pre-commit, a notified
//! commit, a commit no notification called for, ...), told the same way for the text
//! timeline and the picture.

use std::collections::BTreeMap;

use super::super::binding::SpyCall;
use super::super::oracle::Schedule;

/// One sink call, named by its place in the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Event {
    Write(u32),
    /// The pre-commit of the barrier that falls here.
    Barrier(u64),
    /// The pre-commit of the trailing transaction at the end of the input.
    EndPreCommit(u64),
    /// A pre-commit where no barrier falls.
    PreCommit(u64),
    /// A commit whose notification has arrived.
    Notified(u64),
    /// A commit at the end of the input (what is still pending completes there).
    EndCommit(u64),
    /// A commit on the first sink that no notification called for: before the
    /// notification, or at the crash instead of an abort.
    Unnotified(u64),
    /// A commit during the replay (held only to pre-commit order, not to the lag).
    Commit(u64),
    Abort(u64),
    AbortOpen,
}

impl Event {
    /// The event's marker, its place in the schedule where it has a name (`barrier`,
    /// `notified`, `end`, `unnotified`), and the call: the text timeline prints them on one
    /// line, the picture on two.
    pub(super) fn parts(self) -> (&'static str, Option<&'static str>, String) {
        match self {
            Event::Write(r) => (" ", None, format!("write({r})")),
            Event::Barrier(id) => ("▮", Some("barrier"), format!("pre_commit({id})")),
            Event::EndPreCommit(id) => ("▮", Some("end"), format!("pre_commit({id})")),
            Event::PreCommit(id) => ("▮", None, format!("pre_commit({id})")),
            Event::Notified(id) => ("✓", Some("notified"), format!("commit({id})")),
            Event::EndCommit(id) => ("✓", Some("end"), format!("commit({id})")),
            Event::Unnotified(id) => ("!", Some("unnotified"), format!("commit({id})")),
            Event::Commit(id) => ("✓", None, format!("commit({id})")),
            Event::Abort(id) => ("✗", None, format!("abort({id})")),
            Event::AbortOpen => ("✗", None, "abort_open()".to_owned()),
        }
    }

    /// At most 26 characters, for the timeline's event column.
    pub(super) fn label(self) -> String {
        match self.parts() {
            (mark, Some(kind), call) => format!("{mark} {kind}: {call}"),
            (mark, None, call) => format!("{mark} {call}"),
        }
    }
}

/// The events of every sink's calls, sink by sink.
pub(super) fn events(len: usize, schedule: Schedule, sinks: &[Vec<SpyCall>]) -> Vec<Vec<Event>> {
    sinks
        .iter()
        .enumerate()
        .map(|(index, calls)| {
            let writes = calls
                .iter()
                .filter(|c| matches!(c, SpyCall::Write(_)))
                .count();
            // The replay runs to the end of the input, so its start is len - writes.
            let mut offset = if index == 0 {
                0
            } else {
                len.saturating_sub(writes)
            };
            let finishing = index > 0 || schedule.crash_after.is_none();
            let mut barriers = 0;
            let mut last_barrier = None;
            let mut taken = BTreeMap::new();
            calls
                .iter()
                .map(|&call| match call {
                    SpyCall::Write(r) => {
                        offset += 1;
                        Event::Write(r)
                    }
                    SpyCall::PreCommit(id)
                        if schedule.is_barrier(offset) && last_barrier != Some(offset) =>
                    {
                        last_barrier = Some(offset);
                        barriers += 1;
                        taken.insert(id, barriers);
                        Event::Barrier(id)
                    }
                    SpyCall::PreCommit(id) if offset == len => Event::EndPreCommit(id),
                    SpyCall::PreCommit(id) => Event::PreCommit(id),
                    SpyCall::Commit(id)
                        if taken
                            .get(&id)
                            .is_some_and(|b| b + schedule.commit_lag <= barriers) =>
                    {
                        Event::Notified(id)
                    }
                    SpyCall::Commit(id) if finishing && offset == len => Event::EndCommit(id),
                    SpyCall::Commit(id) if index == 0 => Event::Unnotified(id),
                    SpyCall::Commit(id) => Event::Commit(id),
                    SpyCall::Abort(id) => Event::Abort(id),
                    SpyCall::AbortOpen => Event::AbortOpen,
                })
                .collect()
        })
        .collect()
}
