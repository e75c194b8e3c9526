//! Stage 05 mutants of `restore` against bytes that are no snapshot but that serde's
//! defaults or a streaming reader take for one, or that a format grouped by window reads
//! as its last group; and the correct variants whose own fresh snapshot is `{}`, and
//! whose snapshot groups the aggregates by window.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use crate::accepted;

/// A mutant: the reference operator, but for `restore`, which first rewrites the bytes
/// with `$prepare` and then hands them to the reference; and `snapshot`, which writes
/// the reference's snapshot through `$write`. The bytes are read as a JSON tree that
/// refuses a member written twice ([`strict_json`]), or, `lenient`, as a
/// `serde_json::Value`, which keeps the last.
macro_rules! restore_through {
    ($(#[$doc:meta])* lenient $name:ident, $($rest:tt)*) => {
        restore_through!(@read serde_json::from_slice, $(#[$doc])* $name, $($rest)*);
    };
    ($(#[$doc:meta])* $name:ident, $($rest:tt)*) => {
        restore_through!(@read super::strict_json, $(#[$doc])* $name, $($rest)*);
    };
    (@read $read:path, $(#[$doc:meta])* $name:ident, $binding:ident, $operator:ident,
     write($w:ident) $write:block prepare($p:ident) $prepare:block) => {
        $(#[$doc])*
        mod $name {
            #![allow(dead_code, unused_imports)]
            use anyhow::Result;
            use serde::{Serialize, de::DeserializeOwned};
            pub use solution05::*;
            use solution05::WindowOperator as Inner;

            pub struct WindowOperator<K, A>(Inner<K, A>);

            impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner + Clone>
                WindowOperator<K, A>
            {
                pub fn new(assigner: A) -> Self {
                    Self(Inner::new(assigner))
                }
                delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
                pub fn snapshot(&self) -> Result<Vec<u8>> {
                    #[allow(unused_mut, reason = "a variant that writes nothing more")]
                    let mut $w: serde_json::Value = serde_json::from_slice(&self.0.snapshot()?)?;
                    $write
                    Ok(serde_json::to_vec(&$w)?)
                }
                pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
                    let mut $p: serde_json::Value = $read(bytes)?;
                    $prepare
                    Ok(Self(Inner::restore(assigner, &serde_json::to_vec(&$p)?)?))
                }
            }
        }
        graders::impl_stage05!($binding, $operator, $name);
    };
}

restore_through! {
    /// **Mistake:** the snapshot struct has `#[serde(default)]` ("older snapshots stay
    /// readable"), so a missing field is its default: `{}` restores a fresh operator,
    /// though this operator's snapshots always hold both fields.
    /// **Verdict:** `contract`: `restore(b"{}")` is `Ok` (05-R16).
    restore_defaults_fields, RestoreDefaultsFields, RestoreDefaultsFieldsOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(fields) = value.as_object_mut() {
            fields.entry("watermark").or_insert(serde_json::Value::Null);
            fields.entry("open").or_insert(serde_json::json!([]));
        }
    }
}

/// **Mistake:** `restore` reads the snapshot with a streaming deserializer and takes the
/// first value it finds, never asking whether bytes follow it.
/// **Verdict:** `contract`: the operator's own snapshot with ` trailing` after it
/// restores (05-R16).
mod restore_ignores_trailing {
    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>);

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner))
        }
        delegate_to_inner!(
            current_watermark,
            on_record,
            on_watermark,
            state_size,
            snapshot
        );
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let first: serde_json::Value = serde_json::Deserializer::from_slice(bytes)
                .into_iter()
                .next()
                .ok_or_else(|| anyhow::anyhow!("no snapshot"))??;
            Ok(Self(Inner::restore(
                assigner,
                &serde_json::to_vec(&first)?,
            )?))
        }
    }
}
graders::impl_stage05!(
    RestoreIgnoresTrailing,
    RestoreIgnoresTrailingOperator,
    restore_ignores_trailing
);

restore_through! {
    /// **Mistake:** the snapshot keeps the first watermark that would still advance,
    /// `wm + 1` (saturating, so that it never overflows), and `restore` takes one off:
    /// an operator snapshotted after `W(MAX)` comes back at `W(MAX-1)`.
    /// **Verdict:** `crash`: restored after `W(MAX)`, `current_watermark()` is
    /// `Some(MAX-1)` where the uninterrupted run has `Some(MAX)` (05-R15).
    watermark_saved_plus_one, WatermarkSavedPlusOne, WatermarkSavedPlusOneOperator,
    write(snapshot) {
        if let Some(wm) = snapshot["watermark"].as_u64() {
            snapshot["watermark"] = serde_json::json!(wm.saturating_add(1));
        }
    }
    prepare(value) {
        if let Some(next) = value["watermark"].as_u64() {
            value["watermark"] = serde_json::json!(next.saturating_sub(1));
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` reads the watermark as a number when it is one and as none
    /// otherwise (`as_u64()`), so a snapshot of the wrong types restores without it.
    /// **Verdict:** `contract`: its own snapshot with its numbers written as `"x"`
    /// restores (05-R16).
    restore_lenient_watermark, RestoreLenientWatermark, RestoreLenientWatermarkOperator,
    write(snapshot) {}
    prepare(value) {
        if value["watermark"].as_u64().is_none() {
            value["watermark"] = serde_json::Value::Null;
        }
        if let Some(open) = value["open"].as_array_mut() {
            open.retain(|entry| {
                let window = &entry[0];
                window["start"].is_u64() && window["end"].is_u64() && entry[2].is_i64() && entry[3].is_u64()
            });
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` takes a string of digits for the number it spells ("be
    /// liberal in what you accept"), so its own snapshot with `"7"` where it wrote 7
    /// restores, though no snapshot writes it.
    /// **Verdict:** `contract`: its own snapshot with its numbers written as strings of
    /// their digits restores (05-R16).
    restore_quoted_numbers, RestoreQuotedNumbers, RestoreQuotedNumbersOperator,
    write(snapshot) {}
    prepare(value) {
        fn unquote(value: &mut serde_json::Value) {
            match value {
                serde_json::Value::String(digits) => {
                    if let Ok(number) = digits.parse::<i64>() {
                        *value = serde_json::json!(number);
                    }
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(unquote),
                serde_json::Value::Object(fields) => fields.values_mut().for_each(unquote),
                _ => {}
            }
        }
        unquote(&mut value);
    }
}

restore_through! {
    /// **Mistake:** `restore` reads every number as a float and casts it back ("JSON
    /// numbers are floats"), so its own snapshot with `7.5` where it wrote 7 restores.
    /// **Verdict:** `contract`: its own snapshot with a half added to its numbers
    /// restores (05-R16).
    restore_truncated_floats, RestoreTruncatedFloats, RestoreTruncatedFloatsOperator,
    write(snapshot) {}
    prepare(value) {
        fn truncate(value: &mut serde_json::Value) {
            match value {
                serde_json::Value::Number(n) if n.is_f64() => {
                    *value = serde_json::json!(n.as_f64().unwrap_or_default() as i64);
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(truncate),
                serde_json::Value::Object(fields) => fields.values_mut().for_each(truncate),
                _ => {}
            }
        }
        truncate(&mut value);
    }
}

restore_through! {
    /// **Mistake:** `restore` takes an aggregate of count 0 for no aggregate and skips it
    /// ("nothing was counted, so nothing is lost"), though `snapshot` never writes one: an
    /// aggregate exists from its first record.
    /// **Verdict:** `contract`: its own snapshot with the count set to 0 restores
    /// (05-R16).
    restore_skips_count_zero, RestoreSkipsCountZero, RestoreSkipsCountZeroOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(open) = value["open"].as_array_mut() {
            open.retain(|entry| entry[3].as_u64() != Some(0));
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` inserts each entry into the map of aggregates, so an entry
    /// listed twice overwrites the first, though `snapshot` lists each `(window, key)`
    /// once.
    /// **Verdict:** `contract`: its own snapshot with an aggregate listed twice restores
    /// (05-R16).
    restore_overwrites_a_repeat, RestoreOverwritesARepeat, RestoreOverwritesARepeatOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(open) = value["open"].as_array_mut() {
            let mut kept: Vec<serde_json::Value> = Vec::new();
            for entry in open.drain(..) {
                kept.retain(|k| (&k[0], &k[1]) != (&entry[0], &entry[1]));
                kept.push(entry);
            }
            *open = kept;
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` drops the aggregates of windows its watermark has fired, as
    /// `on_watermark` would, instead of refusing them: `snapshot` never holds a fired
    /// window open, so such bytes are no snapshot.
    /// **Verdict:** `contract`: its own snapshot of an open `[0, 10)` with the watermark
    /// set to 9 restores (05-R16).
    restore_drops_fired_windows, RestoreDropsFiredWindows, RestoreDropsFiredWindowsOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(wm) = value["watermark"].as_u64()
            && let Some(open) = value["open"].as_array_mut()
        {
            open.retain(|entry| {
                entry[0]["end"].as_u64().is_some_and(|end| end.saturating_sub(1) > wm)
            });
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` checks for an aggregate listed twice by comparing each entry
    /// with the one before it ("a snapshot is sorted, so a repeat sits next to itself"),
    /// and inserts the others into the map, so a repeat further down overwrites the first.
    /// **Verdict:** `contract`: its own snapshot of `a` and `b` with the first listed
    /// again after the second restores (05-R16).
    restore_compares_neighbours, RestoreComparesNeighbours, RestoreComparesNeighboursOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(open) = value["open"].as_array_mut() {
            let mut kept: Vec<serde_json::Value> = Vec::new();
            for entry in open.drain(..) {
                let same = |k: &serde_json::Value| (&k[0], &k[1]) == (&entry[0], &entry[1]);
                // A neighbour repeated is left for the reference to refuse.
                if !kept.last().is_some_and(same) {
                    kept.retain(|k| !same(k));
                }
                kept.push(entry);
            }
            *open = kept;
        }
    }
}

restore_through! {
    /// **Mistake:** `restore` asks only of the first aggregate whether the watermark has
    /// fired its window ("the oldest window comes first"), and drops the others that it
    /// fired, as `on_watermark` would: listed newest first, a fired window restores.
    /// **Verdict:** `contract`: its own snapshot of the open `a [0, 10)` and `a [10, 20)`,
    /// listed in the opposite order, with the watermark set to 9 restores (05-R16).
    restore_checks_the_first_window, RestoreChecksTheFirstWindow, RestoreChecksTheFirstWindowOperator,
    write(snapshot) {}
    prepare(value) {
        if let Some(wm) = value["watermark"].as_u64()
            && let Some(open) = value["open"].as_array_mut()
        {
            let mut first = true;
            open.retain(|entry| {
                let kept = first
                    || entry[0]["end"].as_u64().is_some_and(|end| end.saturating_sub(1) > wm);
                first = false;
                kept
            });
        }
    }
}

restore_through! {
    /// A correct variant: the snapshot leaves out the fields of a fresh operator (no
    /// watermark, nothing open), so its fresh snapshot is `{}`, which it reads back.
    fresh_snapshot_is_empty_object, FreshIsEmptyObject, FreshIsEmptyObjectOperator,
    write(snapshot) {
        if let Some(fields) = snapshot.as_object_mut() {
            fields.retain(|_, v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()));
        }
    }
    prepare(value) {
        if let Some(fields) = value.as_object_mut() {
            fields.entry("watermark").or_insert(serde_json::Value::Null);
            fields.entry("open").or_insert(serde_json::json!([]));
        }
    }
}

accepted!(stage05_fresh_snapshot_as_empty_object_passes: Windows, drive::<FreshIsEmptyObject>);

/// `bytes` as a JSON tree, refusing an object with a member written twice (the mutants
/// that rewrite the bytes before the reference reads them must not lose what the
/// reference would refuse).
pub(super) fn strict_json(bytes: &[u8]) -> anyhow::Result<serde_json::Value> {
    graders::harness::strict_json::read(bytes)
}

/// The reference's flat list of `[window, key, sum, count]` entries grouped by window, as
/// the operator keeps them: `[window, [[key, sum, count], ...]]` per window, in order.
fn grouped_by_window(open: &serde_json::Value) -> Vec<(serde_json::Value, serde_json::Value)> {
    let mut groups: Vec<(serde_json::Value, Vec<serde_json::Value>)> = Vec::new();
    for entry in open.as_array().into_iter().flatten() {
        let keyed = serde_json::json!([entry[1], entry[2], entry[3]]);
        match groups.last_mut() {
            Some((window, keys)) if *window == entry[0] => keys.push(keyed),
            _ => groups.push((entry[0].clone(), vec![keyed])),
        }
    }
    groups
        .into_iter()
        .map(|(window, keys)| (window, keys.into()))
        .collect()
}

/// Groups of `(window, [[key, sum, count], ...])` back in the reference's flat form, for
/// the reference to read (and refuse, where a group or entry is of another shape).
fn flattened<'a>(
    groups: impl IntoIterator<Item = (&'a serde_json::Value, &'a serde_json::Value)>,
) -> serde_json::Value {
    let mut open = Vec::new();
    for (window, keys) in groups {
        match keys.as_array() {
            Some(keys) => open.extend(keys.iter().map(|entry| match entry.as_array() {
                Some(fields) => [&[window.clone()][..], fields].concat().into(),
                None => entry.clone(),
            })),
            None => open.push(keys.clone()),
        }
    }
    open.into()
}

restore_through! {
    /// A correct variant: the snapshot lists the aggregates grouped by window, as the
    /// operator keeps them (`[window, [[key, sum, count], ...]]` per window), and
    /// `restore` reads every group's entries, so a window listed twice lists its keys
    /// twice, which it refuses.
    grouped_by_window_reads_every_group, GroupedByWindow, GroupedByWindowOperator,
    write(snapshot) {
        if let Some(open) = snapshot.get_mut("open") {
            *open = super::grouped_by_window(open).into_iter().map(|(w, keys)| serde_json::json!([w, keys])).collect();
        }
    }
    prepare(value) {
        if let Some(open) = value.get_mut("open") {
            let groups = open.as_array().cloned().unwrap_or_default();
            *open = super::flattened(groups.iter().map(|group| (&group[0], &group[1])));
        }
    }
}

accepted!(stage05_snapshot_grouped_by_window_passes: Windows, drive::<GroupedByWindow>);

restore_through! {
    /// **Mistake:** the snapshot lists the aggregates grouped by window
    /// (`[window, [[key, sum, count], ...]]` per window), and `restore` refuses a key
    /// listed twice inside one window's list but puts each window's keys in with
    /// `open.insert(window, per_key)`, so a window listed twice replaces the first: a
    /// `(window, key)` listed twice, as a whole group, restores.
    /// **Verdict:** `contract`: its own snapshot of `a [0, 10)` with the window's group
    /// listed twice restores (05-R16).
    grouped_window_replaced, GroupedWindowReplaced, GroupedWindowReplacedOperator,
    write(snapshot) {
        if let Some(open) = snapshot.get_mut("open") {
            *open = super::grouped_by_window(open).into_iter().map(|(w, keys)| serde_json::json!([w, keys])).collect();
        }
    }
    prepare(value) {
        if let Some(open) = value.get_mut("open") {
            let mut by_window = std::collections::BTreeMap::new();
            for group in open.as_array().cloned().unwrap_or_default() {
                by_window.insert(group[0].to_string(), (group[0].clone(), group[1].clone()));
            }
            *open = super::flattened(by_window.values().map(|(w, keys)| (w, keys)));
        }
    }
}

restore_through! {
    /// **Mistake:** the snapshot keeps the aggregates in a JSON object keyed by window
    /// (its JSON text: `{"{\"start\":0,\"end\":10}": [[key, sum, count], ...]}`), and
    /// `restore` reads it into a map, which keeps the last of a key written twice:
    /// a window listed twice, with its keys, restores.
    /// **Verdict:** `contract`: its own snapshot of `a [0, 10)` with the window's member
    /// written twice restores (05-R16).
    lenient window_object_keeps_last, WindowObjectKeepsLast, WindowObjectKeepsLastOperator,
    write(snapshot) {
        if let Some(open) = snapshot.get_mut("open") {
            *open = super::grouped_by_window(open).into_iter().map(|(w, keys)| (w.to_string(), keys)).collect();
        }
    }
    prepare(value) {
        if let Some(open) = value.get_mut("open") {
            let groups: Vec<(serde_json::Value, serde_json::Value)> = open
                .as_object()
                .into_iter()
                .flatten()
                .map(|(w, keys)| (serde_json::from_str(w).unwrap_or_default(), keys.clone()))
                .collect();
            *open = super::flattened(groups.iter().map(|(w, keys)| (w, keys)));
        }
    }
}

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: a new mistake).
#[rstest]
#[case::restore_defaults_fields(drive::<RestoreDefaultsFields>, "contract", "05-R16")]
#[case::restore_ignores_trailing(drive::<RestoreIgnoresTrailing>, "contract", "05-R16")]
#[case::restore_lenient_watermark(drive::<RestoreLenientWatermark>, "contract", "05-R16")]
#[case::restore_quoted_numbers(drive::<RestoreQuotedNumbers>, "contract", "05-R16")]
#[case::restore_truncated_floats(drive::<RestoreTruncatedFloats>, "contract", "05-R16")]
#[case::watermark_saved_plus_one(drive::<WatermarkSavedPlusOne>, "crash", "05-R15")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement) {
        crate::fail(&why);
    }
}

/// The mutants that take bytes of the snapshot's types for a state, whatever state they
/// describe, and the card their reports show.
#[rstest]
#[case::restore_skips_count_zero(drive::<RestoreSkipsCountZero>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::restore_overwrites_a_repeat(drive::<RestoreOverwritesARepeat>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::restore_drops_fired_windows(drive::<RestoreDropsFiredWindows>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::restore_compares_neighbours(drive::<RestoreComparesNeighbours>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::restore_checks_the_first_window(drive::<RestoreChecksTheFirstWindow>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::grouped_window_replaced(drive::<GroupedWindowReplaced>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::window_object_keeps_last(drive::<WindowObjectKeepsLast>, "contract", "05-R16", "05-parsed-is-a-state")]
fn is_rejected_with_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// Its own snapshot with bytes after it, read back: the card of bytes taken for "nothing
/// to restore" (empty, cut short) is another belief and must not be shown.
#[test]
fn restore_ignores_trailing_shows_no_card() {
    crate::cards::rejected_without_card::<Windows>(
        drive::<RestoreIgnoresTrailing>,
        "contract",
        "05-R16",
    );
}
