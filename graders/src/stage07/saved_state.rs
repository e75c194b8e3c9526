//! What a checkpoint's saved bytes hold, against the counts of the prefix it covers: the
//! explanation of a wrong save, whether the `checkpoints` check meets it at the save or
//! the `at-least-once-output` law at the replay that restored it.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

use super::oracle::{self, Call, Counts};
use super::plan::Run;

/// The fewest keys a saved state must have for the order of its JSON object's keys to
/// be judged. The JSON of a `BTreeMap<String, u64>` lists them sorted; a state kept in a
/// `HashMap` lists them in an order that changes from map to map, sorted by chance once
/// in n! for n keys: 1 in 40,320 for 8. Below that, such a state would pass or fail by
/// the draw of its hasher, and its smallest failing case would change from run to run;
/// from 8 on it essentially never escapes (the `contract` check's nine distinct words
/// reach 8 and 9 keys).
pub(super) const SORTED_FROM: usize = 8;

/// The keys of a JSON object of counts, in the order its bytes list them.
struct KeyOrder(Vec<String>);

impl<'de> Deserialize<'de> for KeyOrder {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object of counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, _)) = map.next_entry::<String, u64>()? {
                    keys.push(key);
                }
                Ok(KeyOrder(keys))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// The keys of `state`, in the order its JSON object lists them, when it is a JSON object
/// of string to u64 of at least [`SORTED_FROM`] keys that are not in sorted (strictly
/// increasing: a key twice is out of order too) order.
pub(super) fn keys_out_of_order(state: &[u8]) -> Option<Vec<String>> {
    let KeyOrder(keys) = serde_json::from_slice(state).ok()?;
    let sorted = keys.windows(2).all(|pair| pair[0] < pair[1]);
    (keys.len() >= SORTED_FROM && !sorted).then_some(keys)
}

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
        Ok(counts) if counts == want_counts => match keys_out_of_order(got) {
            Some(keys) => format!(
                "checkpoint {id}'s state holds the right counts, but its JSON object lists its \
                 keys out of order ({keys:?}): the JSON of a BTreeMap<String, u64> lists them \
                 sorted ({:?}), so that the same counts always give the same bytes (a HashMap's \
                 order is arbitrary)",
                counts.keys().collect::<Vec<_>>()
            ),
            None => format!("checkpoint {id}'s state holds the right counts, encoded differently"),
        },
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
/// pretty-printed) is the same checkpoint, provided it lists the keys sorted, as the JSON
/// of a `BTreeMap` does (judged from [`SORTED_FROM`] keys on).
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
                    || (decoded(state).is_some_and(|c| Some(c) == decoded(want_state))
                        && keys_out_of_order(state).is_none()))
        }
        _ => actual == expected,
    }
}
