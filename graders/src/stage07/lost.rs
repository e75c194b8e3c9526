//! The restart after a store that lost its latest checkpoints: the spy store, asked at
//! the recovery, hands out an older checkpoint than the one the job completed last (or
//! none), and the restarted job resumes from exactly that one, its offset and its state.
//! A job that takes either from what it remembered of its first attempt resumes from the
//! same place whenever the store hands out the latest checkpoint; here it does not.

use super::oracle::{self, Call, Counts, Expected};
use super::output::saved_after_the_recovery;
use super::plan::Run;
use crate::harness::Failure;

/// What the store handed out at the recovery, as the reports say it.
pub(super) fn handed_out(want: &Expected) -> String {
    let what = match want.restored {
        (0, _) => {
            "no checkpoint (latest_completed() returned None: offset 0, empty counts)".to_owned()
        }
        (c, o) => format!("checkpoint {c} (offset {o})"),
    };
    format!(
        "asked after the crash, the store had lost its later checkpoints and handed out {what}, \
         older than the checkpoint the job completed last"
    )
}

/// Judges where the replay after the crash started, read from its emissions: a replay
/// from another offset than the handed-out checkpoint's, whether from that checkpoint's
/// counts or from another cut's, took its restart point from the dead job's memory.
/// Emissions of any other shape are left to the other judges, and so are those that only
/// look like a later start: the job's `calls` show a save after the recovery that such a
/// replay never takes (a replay that went quiet, not one that started late).
pub(super) fn resumed_where_handed(
    run: &Run,
    want: &Expected,
    got: &[(String, u64)],
    calls: &[Call],
) -> Result<(), Failure> {
    let words = &run.words;
    let len = words.len();
    let k = run.crash_after.unwrap_or(len);
    if got == want.emitted.as_slice() || got.get(..k) != want.emitted.get(..k) {
        return Ok(());
    }
    let tail = &got[k..];
    let (c, o) = want.restored;
    let o = o as usize;
    let handed = oracle::prefix_counts(words, o);
    let replay = |start: usize, counts: Counts| oracle::emissions(words, start, len, counts);
    let fail = |why: String| {
        Err(
            Failure::new(format!("{:?}", want.emitted), format!("{got:?}"))
                .step(format!(
                    "after the crash after {k} record(s): {}; {why}: the restart point is the one \
                     the store hands out, its offset and its state, whatever the dead job remembered",
                    handed_out(want)
                ))
                .multiset(&want.emitted, got)
                .requirement("07-R12"),
        )
    };
    let state = if c == 0 {
        "from empty counts".to_owned()
    } else {
        format!("from checkpoint {c}'s counts")
    };
    let quiet = |start: usize| start > o && saved_after_the_recovery(calls, start).is_some();
    for start in (0..=len).filter(|s| *s != o && !quiet(*s)) {
        if tail == replay(start, handed.clone()).as_slice() {
            return fail(format!(
                "the emissions after the crash are those of a replay {state}, but from offset \
                 {start}, not {o}"
            ));
        }
        if tail == replay(start, oracle::prefix_counts(words, start)).as_slice() {
            return fail(format!(
                "the emissions after the crash are those of a replay from offset {start}, with \
                 the counts of records 0..{start}: another cut than the one handed out"
            ));
        }
    }
    Ok(())
}
