//! What a checkpoint's saved bytes hold, against the counts of the prefix it covers: the
//! explanation of a wrong save, whether the `checkpoints` check meets it at the save or
//! the `at-least-once-output` law at the replay that restored it.

use super::oracle::{self, Call, Counts};
use super::plan::Run;

/// When the job saved checkpoint `c`, the one recovery restores, with other counts than
/// those of records `0..o`: the replay may have restored it faithfully, the save was wrong.
pub(super) fn wrong_save(run: &Run, c: u64, o: usize, calls: &[Call]) -> Option<String> {
    if c == 0 {
        return None;
    }
    let (offset, saved) = calls.iter().find_map(|call| match call {
        Call::Save { id, offset, state } if *id == c => Some((*offset, state)),
        _ => None,
    })?;
    if offset != o as u64 {
        return Some(format!(
            "checkpoint {c}, which recovery restores, was saved with offset {offset}, but it covers \
             records 0..{o}: the replay starts at the saved offset, so the save was wrong"
        ));
    }
    let want = oracle::prefix_counts(&run.words, o);
    match serde_json::from_slice::<Counts>(saved) {
        Ok(counts) if counts == want => None,
        Ok(counts) => Some(format!(
            "checkpoint {c}, which recovery restores, was saved with counts {counts:?}, but records \
             0..{o} count {want:?}: the replay starts from what was saved, so the save was wrong"
        )),
        Err(e) => Some(format!(
            "checkpoint {c}, which recovery restores, was saved as bytes that are not JSON of a \
             BTreeMap<String, u64> ({e}): the replay cannot start from them"
        )),
    }
}

/// Why checkpoint `id`, saved with the bytes `got`, is not the `want` of records
/// `0..offset`.
pub(super) fn explain_state(run: &Run, id: u64, offset: u64, want: &[u8], got: &[u8]) -> String {
    let want_counts: Counts = serde_json::from_slice(want).unwrap_or_default();
    match serde_json::from_slice::<Counts>(got) {
        Err(e) => format!(
            "checkpoint {id}'s state is not JSON of a BTreeMap<String, u64> ({e}): a checkpoint \
             must be bytes another process can read"
        ),
        Ok(counts) if counts == want_counts => {
            format!("checkpoint {id}'s state holds the right counts, encoded differently")
        }
        Ok(counts) => {
            let n = offset as usize;
            let note = if n > 0 && counts == oracle::prefix_counts(&run.words, n - 1) {
                " (the counts before the barrier's own record was applied)"
            } else {
                ""
            };
            format!(
                "checkpoint {id} saved counts {counts:?}, expected the counts of records 0..{n}: \
                 {want_counts:?}{note}"
            )
        }
    }
}

/// Whether the job's call `actual` is the protocol's `expected`: a save's state counts as
/// the map it decodes to, so any JSON serde_json reads back as the same counts (compact,
/// pretty-printed, keys in another order) is the same checkpoint.
pub(super) fn same_call(actual: &Call, expected: &Call) -> bool {
    match (actual, expected) {
        (
            Call::Save { id, offset, state },
            Call::Save {
                id: want_id,
                offset: want_offset,
                state: want_state,
            },
        ) => {
            let decoded = |bytes: &[u8]| serde_json::from_slice::<Counts>(bytes).ok();
            id == want_id
                && offset == want_offset
                && (state == want_state
                    || decoded(state).is_some_and(|c| Some(c) == decoded(want_state)))
        }
        _ => actual == expected,
    }
}
