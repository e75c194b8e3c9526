//! When each store call of a run was made, in the job's terms (no crash, before the
//! crash, after the recovery), told by the calls themselves, and what the calls after a
//! restore show of the checkpoints saved before it.

use super::oracle::{Call, Expected};
use super::plan::Run;

/// When a store call was made, in the job's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Made {
    /// In a run without a crash.
    NoCrash,
    /// Before the crash.
    BeforeCrash,
    /// After the recovery, which restored this checkpoint (`None`: none had completed).
    AfterRecovery(Option<u64>),
    /// In a run with a crash whose recovery never asked the store, so the calls alone
    /// cannot tell which side of the crash it fell on.
    Unknown,
}

impl Made {
    pub(super) fn describe(self, k: usize) -> String {
        match self {
            Made::NoCrash => "no crash".to_owned(),
            Made::BeforeCrash => format!("before the crash after {k} record(s)"),
            Made::AfterRecovery(None) => format!(
                "after the crash after {k} record(s), recovered with no completed checkpoint (latest_completed() returned None)"
            ),
            Made::AfterRecovery(Some(c)) => format!(
                "after the crash after {k} record(s), recovered from checkpoint {c} (latest_completed() returned it)"
            ),
            Made::Unknown => format!(
                "in a run with a crash after {k} record(s) whose recovery never asked latest_completed()"
            ),
        }
    }

    /// Whether two calls fall on different sides of the crash (unknown sides never do).
    pub(super) fn other_side(self, other: Made) -> bool {
        matches!(
            (self, other),
            (Made::BeforeCrash, Made::AfterRecovery(_))
                | (Made::AfterRecovery(_), Made::BeforeCrash)
        )
    }
}

/// When each call other than `latest_completed()` was made, told by the calls themselves
/// (not by where the protocol expects a call of that number): the recovery is the job's
/// last `latest_completed()`, the one a job asks after the crash.
pub(super) fn made<'a>(run: &Run, calls: &'a [Call]) -> Vec<(&'a Call, Made)> {
    let recovery = calls.iter().enumerate().rev().find_map(|(i, c)| match c {
        Call::LatestCompleted { returned } => Some((i, *returned)),
        _ => None,
    });
    calls
        .iter()
        .enumerate()
        .filter(|(_, c)| !matches!(c, Call::LatestCompleted { .. }))
        .map(|(i, call)| {
            let when = match (run.crash_after, recovery) {
                (None, _) => Made::NoCrash,
                (Some(_), None) => Made::Unknown,
                (Some(_), Some((r, _))) if i < r => Made::BeforeCrash,
                (Some(_), Some((_, returned))) => Made::AfterRecovery(returned),
            };
            (call, when)
        })
        .collect()
}

/// When the protocol makes its call number `n`.
pub(super) fn expected_made(want: &Expected, run: &Run, n: usize) -> Made {
    match run.crash_after {
        None => Made::NoCrash,
        Some(_) if n < want.before_crash => Made::BeforeCrash,
        Some(_) => Made::AfterRecovery(Some(want.restored.0).filter(|c| *c > 0)),
    }
}

/// Whether checkpoint `id` was saved after the recovery, among the calls `made` so far.
pub(super) fn saved_since_the_restore(made: &[(&Call, Made)], id: u64) -> bool {
    made.iter().any(|(call, when)| {
        matches!(when, Made::AfterRecovery(_))
            && matches!(call, Call::Save { id: s, .. } if *s == id)
    })
}

/// Whether the restarted job, by the last of the calls `made`, completed checkpoint `id`
/// more often than it saved it since the restore: one of those completions is for the
/// save made before the crash, which the restarted job knows nothing of.
pub(super) fn completes_past_the_saves(made: &[(&Call, Made)], id: u64) -> bool {
    let after = || {
        made.iter()
            .filter(|(_, when)| matches!(when, Made::AfterRecovery(_)))
    };
    let saves = after()
        .filter(|(call, _)| matches!(call, Call::Save { id: s, .. } if *s == id))
        .count();
    let completes = after()
        .filter(|(call, _)| matches!(call, Call::Complete { id: c } if *c == id))
        .count();
    completes > saves
}

/// The rule a replay breaks by not saving checkpoint `id` where the protocol retakes it:
/// 07-R13 when `id` was saved before the crash (in flight then, so the replay takes it
/// again under the same id), else `otherwise`.
pub(super) fn retake_rule(want: &Expected, id: u64, otherwise: &'static str) -> &'static str {
    let saved_before = want.calls[..want.before_crash]
        .iter()
        .any(|c| matches!(c, Call::Save { id: s, .. } if *s == id));
    if saved_before { "07-R13" } else { otherwise }
}
