//! The `contract` check: every short sequence of `process`, `snapshot` of the live
//! operator and "snapshot, drop, restore" calls on a keyed operator running the spy, each
//! step compared with a model of what the brief fixes; and `restore` of bytes that no
//! `snapshot` wrote.
//!
//! The model is the brief: one state per key (the spy's rule says what it becomes);
//! `process` calls the function once with the record's key and that key's state, and
//! appends what it emits after what `out` held (the driver hands it an `out` that holds
//! [`held`]); "snapshot, drop, restore" leaves `state()` as it was. Restores come twice
//! in a row, first, and after a clearing record, so a snapshot that holds only what
//! changed since the last restore, or that forgets an empty state, shows.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::binding::{SpyEvent, SpyState};
use super::oracle::{EMPTIES, spy_step};
use crate::harness::Failure;
use crate::harness::enumerate::call_sequences;

/// The longest call sequence of the exhaustive part.
pub const MAX_CALLS: usize = 3;

/// One call of a contract sequence.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Call {
    /// `process((key, value), &mut out)`.
    Process(String, u32),
    /// `snapshot()` of the live operator, which goes on: a later snapshot must hold
    /// what changed after this one.
    Snapshot,
    /// `snapshot()`, drop the operator, `restore(.., &bytes)`.
    Restore,
}

impl Call {
    /// The call as code.
    pub fn describe(&self) -> String {
        match self {
            Call::Process(key, value) => format!("process(({key:?}, {value}), &mut out)"),
            Call::Snapshot => "snapshot() (the operator goes on)".to_owned(),
            Call::Restore => "snapshot, drop, restore".to_owned(),
        }
    }
}

/// The record `out` holds before every `process` call: the call must keep it first.
pub fn held() -> SpyEvent {
    SpyEvent {
        key: "out held this".to_owned(),
        value: u32::MAX,
        seen: None,
    }
}

/// Every call sequence of up to [`MAX_CALLS`] calls, shortest first (snapshots and
/// restores last in each length, so a mistake without one shows without one), then two
/// of four calls.
pub fn sequences() -> Vec<Vec<Call>> {
    let alphabet = [
        Call::Process("a".into(), 1),
        Call::Process("a".into(), 0),
        Call::Process("Ä b".into(), 2),
        Call::Process(String::new(), 3),
        Call::Snapshot,
        Call::Restore,
    ];
    let mut all = call_sequences(&alphabet, MAX_CALLS, |_| true);
    // A snapshot taken, the same key counted again (so the state changes but not its
    // number of keys), then another: a snapshot kept from the first shows only here.
    for key in ["a", "Ä b"] {
        all.push(vec![
            Call::Process(key.into(), 1),
            Call::Snapshot,
            Call::Process(key.into(), 1),
            Call::Restore,
        ]);
    }
    // A function that leaves its key an empty list (`Some(vec![])`, the type's default):
    // the key keeps that state, is lent it next, and it survives a restore.
    let empties = |key: &str| Call::Process(key.into(), EMPTIES);
    all.push(vec![empties("a"), Call::Process("a".into(), 1)]);
    all.push(vec![
        Call::Process("Ä b".into(), 2),
        empties("Ä b"),
        Call::Restore,
    ]);
    all
}

/// The bytes no `snapshot` writes: `restore` must refuse them, unless the
/// implementation's own snapshot of an empty operator is those very bytes (empty bytes,
/// or `{}` in a format of JSON objects). `{}` and `null` are what a serde struct with
/// defaulted fields, or an `Option`, reads as "nothing": no snapshot of a state. Blank
/// bytes are not the empty bytes the brief allows, and `[]` with bytes after it is what a
/// reader that stops after the first JSON value takes for an empty state (after a newline
/// too, for a reader of the first line, and a NUL, for one that trims a C string's end).
pub fn not_snapshots() -> Vec<Vec<u8>> {
    vec![
        Vec::new(),
        b"not a snapshot".to_vec(),
        vec![0xff, 0x00, 0xfe],
        b"{}".to_vec(),
        b"null".to_vec(),
        b" \n".to_vec(),
        b"[] trailing".to_vec(),
        b"[]\ngarbage".to_vec(),
        b"[]\0".to_vec(),
    ]
}

/// What one call did, as the driver saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpStep {
    /// `process` returned: `out` and `state()` after it.
    Processed {
        /// `out` after the call (it held [`held`] before).
        out: Vec<SpyEvent>,
        /// `state().snapshot()` after the call.
        state: BTreeMap<String, SpyState>,
    },
    /// A snapshot of the live operator returned (`Err` as its message), and `state()`
    /// right after.
    Snapshotted {
        /// What `snapshot()` returned.
        result: Result<(), String>,
        /// `state().snapshot()` after it.
        state: BTreeMap<String, SpyState>,
    },
    /// Snapshot and restore returned (`Err` as its message) and `state()` right after.
    Restored {
        /// What snapshot-then-restore returned.
        result: Result<(), String>,
        /// `state().snapshot()` of the restored operator.
        state: BTreeMap<String, SpyState>,
    },
    /// The call panicked (the sequence stops there).
    Panicked(String),
}

/// What `restore` did with bytes no snapshot wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decoded<T> {
    /// It succeeded, with this state.
    Ok(T),
    /// It returned this error.
    Err(String),
    /// It panicked with this message.
    Panicked(String),
}

/// The ids a sequence of `calls` can find broken.
pub fn requirements(calls: &[Call]) -> Vec<&'static str> {
    let mut ids = vec!["02-R8", "02-R9", "02-R14"];
    if calls
        .iter()
        .any(|c| matches!(c, Call::Restore | Call::Snapshot))
    {
        ids.push("02-R15");
    }
    if calls
        .iter()
        .any(|c| matches!(c, Call::Process(_, 0 | EMPTIES)))
    {
        ids.push("02-R16");
    }
    ids.sort_unstable();
    ids
}

/// Judges the steps of `calls` against the model.
pub fn judge(calls: &[Call], steps: &[OpStep]) -> Result<(), Failure> {
    let mut model: BTreeMap<String, SpyState> = BTreeMap::new();
    let mut cleared: Vec<String> = Vec::new();
    let mut restored = false;
    for (i, call) in calls.iter().enumerate() {
        let at = |what: &str| format!("call {} ({}): {what}", i + 1, call.describe());
        let step = steps.get(i);
        let (key, value) = match call {
            Call::Snapshot => {
                match step {
                    Some(OpStep::Snapshotted {
                        result: Ok(()),
                        state,
                    }) if *state == model => {}
                    other => {
                        return Err(Failure::new(
                            format!("Ok(..), then state() = {model:?}"),
                            format!("{other:?}"),
                        )
                        .step(at("a snapshot fails or changes the state"))
                        .requirement("02-R15"));
                    }
                }
                continue;
            }
            Call::Restore => {
                restored = true;
                let fail = |want: String, got: String, what: &str| {
                    Err(Failure::new(want, got).step(at(what)).requirement("02-R15"))
                };
                match step {
                    Some(OpStep::Restored {
                        result: Ok(()),
                        state,
                    }) if *state == model => {}
                    Some(OpStep::Restored {
                        result: Ok(()),
                        state,
                    }) => {
                        return fail(
                            format!("state() = {model:?}"),
                            format!("state() = {state:?}"),
                            "state() right after the restore is not the snapshotted one",
                        );
                    }
                    Some(OpStep::Restored { result: Err(e), .. }) => {
                        return fail(
                            "Ok(..)".into(),
                            format!("Err({e})"),
                            "snapshot or restore failed",
                        );
                    }
                    other => {
                        return fail(
                            "a restored operator".into(),
                            format!("{other:?}"),
                            "snapshot or restore",
                        );
                    }
                }
                continue;
            }
            Call::Process(key, value) => (key, *value),
        };
        let seen = model.get(key).cloned();
        let want_event = SpyEvent {
            key: key.clone(),
            value,
            seen: seen.clone(),
        };
        let was_cleared = seen.is_none() && cleared.contains(key);
        // A wrong state lent: after a clear it is the clearing rule, after a restore
        // durability (without the restore a shorter sequence would have failed first).
        let state_rule = if was_cleared {
            "02-R16"
        } else if restored {
            "02-R15"
        } else {
            "02-R14"
        };
        match spy_step(seen.clone(), value) {
            Some(next) => {
                model.insert(key.clone(), next);
            }
            None => {
                model.remove(key);
                cleared.push(key.clone());
            }
        }
        let (out, state) = match step {
            Some(OpStep::Processed { out, state }) => (out, state),
            other => {
                return Err(Failure::new("process returns", format!("{other:?}"))
                    .step(at("process did not return"))
                    .requirement(state_rule));
            }
        };
        let want_out = vec![held(), want_event.clone()];
        if *out != want_out {
            let (rule, what) = match out.as_slice() {
                [first, ..] if *first != held() => (
                    "02-R9",
                    "out no longer starts with the record it held before the call",
                ),
                [] => (
                    "02-R9",
                    "out no longer starts with the record it held before the call",
                ),
                [_, call] if call.key != want_event.key || call.value != value => (
                    "02-R8",
                    "the function was not handed this record and its key",
                ),
                [_, _] => (
                    state_rule,
                    "the function was lent the wrong state for its key",
                ),
                _ => (
                    "02-R8",
                    "the function was not called exactly once for the record",
                ),
            };
            return Err(
                Failure::new(format!("out = {want_out:?}"), format!("out = {out:?}"))
                    .step(at(what))
                    .requirement(rule),
            );
        }
        if *state != model {
            // Kept after a None, or gone after an empty state that is not None: only None
            // deletes.
            let emptied = model.get(key).is_some_and(Vec::is_empty) && !state.contains_key(key);
            let rule = if emptied || !model.contains_key(key) && state.contains_key(key) {
                "02-R16"
            } else if restored {
                "02-R15"
            } else {
                "02-R14"
            };
            return Err(Failure::new(
                format!("state() = {model:?}"),
                format!("state() = {state:?}"),
            )
            .step(at("state() after it is not what the function left"))
            .requirement(rule));
        }
    }
    Ok(())
}

/// Judges `call` (`restore` or `from_bytes`) of `bytes`, which no snapshot wrote unless
/// `empty_snapshot` (the implementation's own snapshot of an empty state) is them.
pub fn judge_not_a_snapshot<V: std::fmt::Debug>(
    call: &str,
    bytes: &[u8],
    empty_snapshot: Option<&[u8]>,
    restored: &Decoded<BTreeMap<String, V>>,
) -> Result<(), Failure> {
    let what = match restored {
        Decoded::Err(_) => return Ok(()),
        // Empty bytes may be a format's snapshot of an empty state, and so may any bytes
        // the implementation's own snapshot of an empty state writes.
        Decoded::Ok(state)
            if state.is_empty() && (bytes.is_empty() || empty_snapshot == Some(bytes)) =>
        {
            return Ok(());
        }
        Decoded::Ok(_) => format!("{call} accepted bytes that no snapshot wrote"),
        Decoded::Panicked(_) => format!("{call} panicked on bytes that no snapshot wrote"),
    };
    Err(Failure::new("Err(..)", format!("{restored:?}"))
        .step(what)
        .requirement("02-R10"))
}
