//! The `at-least-once-output` law: `emitted` against the at-least-once sequence, a wrong
//! replay explained by where it started and from which state, told from the job's own
//! store calls where they show it.

use super::oracle::{self, Call, Counts, Expected};
use super::plan::Run;
use super::recovered::wrong_restore;
use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// Judges `got` against `want.emitted`; `calls` are the spy's (empty for the job's own
/// store), read to tell a wrong save from a wrong restore.
pub(super) fn judge_emitted(
    run: &Run,
    want: &Expected,
    got: &[(String, u64)],
    calls: &[Call],
) -> Result<(), Failure> {
    if got == want.emitted.as_slice() {
        return Ok(());
    }
    let words = &run.words;
    let len = words.len();
    let k = run.crash_after.unwrap_or(len);
    let before = &want.emitted[..k];
    let prefix_lost = got.len() < k || &got[..k] != before;
    if k > 0 && prefix_lost && got == &want.emitted[k..] {
        return Err(
            Failure::new(format!("{:?}", want.emitted), format!("{got:?}"))
                .step(format!(
                    "the {k} emission(s) before the crash are missing: what the job emitted before it \
                     died has left it, and stays in `emitted`, followed by the replay's"
                ))
                .multiset(&want.emitted, got)
                .requirement("07-R21"),
        );
    }
    if prefix_lost {
        return expect_sequence("emitted", &want.emitted, got).map_err(|f| f.requirement("07-R6"));
    }
    let tail = &got[k..];
    let (c, o) = want.restored;
    let o = o as usize;
    let explain = |why: String, rule: &'static str| {
        Err(
            Failure::new(format!("{:?}", want.emitted), format!("{got:?}"))
                .step(format!("after the crash after {k} record(s): {why}"))
                .multiset(&want.emitted, got)
                .requirement(rule),
        )
    };
    if let Some((why, rule)) = wrong_restore(run, want, calls) {
        return explain(why, rule);
    }
    let latest = if c == 0 {
        "no checkpoint had completed (replay from offset 0, empty counts)".to_owned()
    } else {
        format!("the latest completed checkpoint was {c} (offset {o})")
    };
    // Nothing after the crash: a replay that emitted nothing, unless the job restored an
    // in-flight checkpoint at the end of the input (then the loop below says so).
    if tail.is_empty() && !restored_at_the_end_in_flight(run, c, calls) {
        return explain(
            format!(
                "nothing was emitted after the crash, but {latest}: records {o}..{len} must be \
                 replayed and emitted again"
            ),
            "07-R21",
        );
    }
    for start in 0..=len {
        if tail
            == oracle::emissions(words, start, len, oracle::prefix_counts(words, start)).as_slice()
        {
            // The emissions alone only look like a replay from `start`: the job's calls
            // after the recovery may show that it went through earlier records unheard.
            if start > o
                && let Some((id, at)) = saved_after_the_recovery(calls, start)
            {
                return explain(
                    format!(
                        "the replay emitted only the records from offset {start} on, but after the \
                         recovery it saved checkpoint {id} at offset {at}, which a replay from offset \
                         {start} never takes: it went through the records before offset {start} \
                         without emitting them again, where every replayed record is emitted again; \
                         {latest}"
                    ),
                    "07-R21",
                );
            }
            let every = run.barrier_every;
            let from = start / every;
            let seen =
                format!("the emissions after the crash are those of a replay from offset {start}");
            return if start % every != 0 {
                explain(format!("{seen}, which is no checkpoint's offset"), "07-R12")
            } else if from as u64 > c {
                explain(
                    format!(
                        "{seen}, checkpoint {from}'s, which was still in flight at the crash \
                         (commit_lag = {}): only completed checkpoints may be restored; {latest}",
                        run.commit_lag
                    ),
                    "07-R20",
                )
            } else {
                explain(format!("{seen}, but {latest}"), "07-R12")
            };
        }
    }
    let restored = oracle::prefix_counts(words, o);
    if tail == oracle::emissions(words, 0, len, restored).as_slice() {
        return explain(
            format!(
                "the replay started at offset 0 on top of the counts restored from checkpoint {c}: \
                 records 0..{o} were counted twice (seek the source to the checkpoint's offset)"
            ),
            "07-R12",
        );
    }
    if tail == oracle::emissions(words, o, len, oracle::prefix_counts(words, k)).as_slice() {
        return explain(
            format!(
                "the replay from offset {o} continued from the counts in memory at the crash: nothing \
                 in memory survives a crash, the counts must come from the checkpoint's bytes"
            ),
            "07-R22",
        );
    }
    if tail == oracle::emissions(words, o, len, Counts::new()).as_slice() {
        return explain(
            format!(
                "the replay from offset {o} started from empty counts: restore the checkpoint's state"
            ),
            "07-R12",
        );
    }
    expect_sequence("emitted", &want.emitted, got).map_err(|f| f.requirement("07-R21"))
}

/// The first checkpoint, `(id, offset)`, that the job saved after the recovery (its last
/// `latest_completed()`) at an offset up to `start`: a replay from `start` takes none.
pub(super) fn saved_after_the_recovery(calls: &[Call], start: usize) -> Option<(u64, u64)> {
    let recovery = calls
        .iter()
        .rposition(|call| matches!(call, Call::LatestCompleted { .. }))?;
    calls[recovery..].iter().find_map(|call| match call {
        Call::Save { id, offset, .. } if *offset <= start as u64 => Some((*id, *offset)),
        _ => None,
    })
}

/// Whether the job saved a checkpoint at offset `len` before the crash, which had not
/// completed (its id is past `c`, the latest completed), and replayed nothing after the
/// recovery: it restored that in-flight checkpoint, so it had nothing left to emit.
fn restored_at_the_end_in_flight(run: &Run, c: u64, calls: &[Call]) -> bool {
    let len = run.words.len();
    if len == 0 || !len.is_multiple_of(run.barrier_every) {
        return false;
    }
    let last = (len / run.barrier_every) as u64;
    let recovery = calls
        .iter()
        .rposition(|call| matches!(call, Call::LatestCompleted { .. }));
    let Some(recovery) = recovery else {
        return false;
    };
    let saved_before = calls[..recovery]
        .iter()
        .any(|call| matches!(call, Call::Save { id, .. } if *id == last));
    let replayed = calls[recovery..]
        .iter()
        .any(|call| matches!(call, Call::Save { .. }));
    last > c && saved_before && !replayed
}
