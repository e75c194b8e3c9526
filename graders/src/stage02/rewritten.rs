//! The implementation's own snapshot rewritten into bytes its `snapshot` never writes,
//! whatever its format: a key renamed so that one key is listed twice or the keys are out
//! of order (by a name of another length, then of the same length), a list (of a JSON
//! snapshot) one item short or one too long, or one number changed. None of the first
//! three is a snapshot (02-R10); a changed number may be one (another count), and then
//! `restore` must read it as that snapshot.
//!
//! A format of the implementation's own is not known here, so what `restore` made of the
//! bytes is asked back: it may refuse them, or restore an operator whose own snapshot is
//! the same bytes (the same JSON tree, for JSON: spacing and the order of an object's
//! members are the writer's choice). Bytes that restore to an operator that writes other
//! bytes were no snapshot (02-R15: each state writes one snapshot) and were read as one:
//! a key read twice keeps one value, an out-of-order key is sorted back, two lists zipped
//! together lose what the longer holds, a count of the keys or a version written beside
//! them is never read.
//!
//! Last of all, not the snapshot rewritten but the state it holds written by the grader
//! in each other layout a snapshot commonly has (`harness::layouts`): the list of pairs
//! `to_bytes` writes, an object of key → value, a list of `{"key", "value"}` objects, the
//! pairs in `{"pairs": [...]}`. A `restore` that reads its own format and also one of
//! these ("legacy" snapshots, the reference's layout) reads bytes its `snapshot` never
//! writes (02-R10); the layout that is its own format is not tried.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::binding::{Implementation, SpyState};
use super::contract::Decoded;
use super::driver::decoded;
use super::padded;
use crate::harness::damaged::every_number_changed;
use crate::harness::derivable::derived;
use crate::harness::layouts::other_layouts;
use crate::harness::renamed::renamings;
use crate::harness::{Failure, strict_json};

/// How the snapshot (after [`padded::records`], keys `a` and `Ä b`) is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rewrite {
    /// Every `Ä b` written `a`: the key `a` twice, once with each value.
    KeyTwice,
    /// Every `Ä b` written `A`, which sorts before `a`: keys out of order where the
    /// format lists them in order.
    KeysOutOfOrder,
    /// Each list of a JSON snapshot in turn without its last item: two columns of
    /// unequal length, a count that no longer counts.
    ItemDropped,
    /// Each list of a JSON snapshot in turn with its last item written again.
    ItemRepeated,
    /// Each number (or `null`) in turn changed to `null` and to 0 to 9, then each run of
    /// digits (in a member's name, a string, or a format that is not JSON) to each other
    /// digit: a count or a version written beside the state and never read back.
    NumberChanged,
    /// The snapshot of `{cherry: 1, medlar: 2}` with every `medlar` written `cherry`: the
    /// key `cherry` twice, by a name of the same length, so that a format that writes
    /// each key's length before it reads on.
    SameLengthTwice,
    /// The same with every `medlar` written `banana`, which sorts before `cherry`.
    SameLengthOutOfOrder,
    /// Not the snapshot rewritten: the state it holds, written by the grader in each
    /// layout of [`other_layouts`] that is not its own (its JSON tree is not the
    /// snapshot's), the list of `[key, value]` pairs `to_bytes` writes among them.
    OtherLayout,
}

impl Rewrite {
    /// Every rewrite, in the order they are tried.
    pub const ALL: [Rewrite; 7] = [
        Rewrite::KeyTwice,
        Rewrite::KeysOutOfOrder,
        Rewrite::ItemDropped,
        Rewrite::ItemRepeated,
        Rewrite::NumberChanged,
        Rewrite::SameLengthTwice,
        Rewrite::SameLengthOutOfOrder,
    ];

    /// The rewrites planned after every other case, so that the cases before them keep
    /// their numbers.
    pub const LAST: [Rewrite; 1] = [Rewrite::OtherLayout];

    /// The records processed before the snapshot is taken and rewritten.
    pub fn records(self) -> Vec<(String, u32)> {
        match self {
            Rewrite::SameLengthTwice | Rewrite::SameLengthOutOfOrder => {
                vec![("cherry".to_owned(), 1), ("medlar".to_owned(), 2)]
            }
            _ => padded::records(),
        }
    }

    /// The rewritten bytes, as the report names them.
    pub fn describe(self) -> &'static str {
        match self {
            Rewrite::KeyTwice => "its own snapshot with \"Ä b\" written \"a\" (the key a twice)",
            Rewrite::KeysOutOfOrder => {
                "its own snapshot with \"Ä b\" written \"A\" (which sorts before \"a\")"
            }
            Rewrite::ItemDropped => "its own JSON snapshot with one list's last item dropped",
            Rewrite::ItemRepeated => "its own JSON snapshot with one list's last item repeated",
            Rewrite::NumberChanged => {
                "its own snapshot with one number (or run of digits, or, if it is not JSON, one byte) changed"
            }
            Rewrite::SameLengthTwice => {
                "its own snapshot of {cherry: 1, medlar: 2} with \"medlar\" written \"cherry\" (the key cherry twice)"
            }
            Rewrite::SameLengthOutOfOrder => {
                "its own snapshot of {cherry: 1, medlar: 2} with \"medlar\" written \"banana\" (which sorts before \"cherry\")"
            }
            Rewrite::OtherLayout => {
                "the state its own snapshot holds, in each other layout a snapshot commonly has ([[key, value], ..], {key: value, ..}, [{\"key\": key, \"value\": value}, ..], {\"pairs\": [[key, value], ..]})"
            }
        }
    }

    /// `snapshot` rewritten, each way this rewrite has (none where the snapshot holds no
    /// `Ä b` in an encoding [`renamings`] knows, or, for a list, is no JSON).
    pub fn forge(self, snapshot: &[u8]) -> Vec<Vec<u8>> {
        match self {
            Rewrite::KeyTwice => renamings(snapshot, "Ä b".as_bytes(), b"a"),
            Rewrite::KeysOutOfOrder => renamings(snapshot, "Ä b".as_bytes(), b"A"),
            Rewrite::ItemDropped => each_list(snapshot, |items| items.pop().is_some()),
            Rewrite::ItemRepeated => each_list(snapshot, |items| match items.last() {
                Some(last) => {
                    items.push(last.clone());
                    true
                }
                None => false,
            }),
            Rewrite::NumberChanged => every_number_changed(snapshot),
            Rewrite::SameLengthTwice => renamings(snapshot, b"medlar", b"cherry"),
            Rewrite::SameLengthOutOfOrder => renamings(snapshot, b"medlar", b"banana"),
            Rewrite::OtherLayout => other_layouts(snapshot, &[state_pairs(self.records())]),
        }
    }
}

/// The state the spy leaves after `records`, as JSON pairs in key order: what every
/// layout writes.
fn state_pairs(records: Vec<(String, u32)>) -> Vec<(Value, Value)> {
    let (_, state) = super::oracle::spy_run(&records);
    state
        .into_iter()
        .map(|(key, values)| (Value::from(key), Value::from(values)))
        .collect()
}

/// `snapshot` read as JSON, once for each of its lists (in the order they are written)
/// with that list changed by `change`, where it changes it.
fn each_list(snapshot: &[u8], change: impl Fn(&mut Vec<Value>) -> bool) -> Vec<Vec<u8>> {
    fn count(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(count).sum::<usize>(),
            Value::Object(members) => members.values().map(count).sum(),
            _ => 0,
        }
    }
    /// Changes the `n`th list (counted down as lists are passed), once `value` holds it:
    /// whether `change` changed it.
    fn nth(
        value: &mut Value,
        n: &mut usize,
        change: &dyn Fn(&mut Vec<Value>) -> bool,
    ) -> Option<bool> {
        let inner: Box<dyn Iterator<Item = &mut Value>> = match value {
            Value::Array(items) if *n == 0 => return Some(change(items)),
            Value::Array(items) => {
                *n -= 1;
                Box::new(items.iter_mut())
            }
            Value::Object(members) => Box::new(members.values_mut()),
            _ => return None,
        };
        inner.into_iter().find_map(|item| nth(item, n, change))
    }
    let Ok(tree) = strict_json::read(snapshot) else {
        return Vec::new();
    };
    (0..count(&tree))
        .filter_map(|n| {
            let mut changed = tree.clone();
            let changed_it = nth(&mut changed, &mut { n }, &change) == Some(true);
            changed_it
                .then(|| serde_json::to_vec(&changed).ok())
                .flatten()
        })
        .collect()
}

/// What a restore of rewritten bytes gave: the state, and the restored operator's own
/// snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restored {
    /// `state()` of the restored operator.
    pub state: BTreeMap<String, SpyState>,
    /// `snapshot()` of the restored operator.
    pub snapshot: Decoded<Vec<u8>>,
}

/// What the driver saw: the operator's own snapshot, and what `restore` did with each
/// rewriting of it, in the order of [`Rewrite::forge`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewrittenRestores {
    /// `snapshot()` of the operator after the rewrite's records.
    pub snapshot: Decoded<Vec<u8>>,
    /// `restore` of each rewriting.
    pub restored: Vec<Decoded<Restored>>,
}

/// Processes the rewrite's [`records`](Rewrite::records), snapshots, and restores each
/// rewriting of the snapshot.
pub fn run<I: Implementation>(rewrite: Rewrite) -> RewrittenRestores {
    let snapshot = decoded(|| {
        let mut operator = I::operator();
        for record in rewrite.records() {
            I::process(&mut operator, record);
        }
        I::snapshot(&operator).map_err(|e| format!("{e:#}"))
    });
    let restored = match &snapshot {
        Decoded::Ok(bytes) => rewrite
            .forge(bytes)
            .iter()
            .map(|forged| {
                decoded(|| {
                    let operator = I::restore(forged).map_err(|e| format!("{e:#}"))?;
                    Ok(Restored {
                        state: I::keyed_state(&operator),
                        snapshot: decoded(|| I::snapshot(&operator).map_err(|e| format!("{e:#}"))),
                    })
                })
            })
            .collect(),
        _ => Vec::new(),
    };
    RewrittenRestores { snapshot, restored }
}

/// Each rewriting must be refused, or restore an operator whose own snapshot is those
/// bytes; a snapshot that cannot be taken is left to the checks that take one.
pub fn judge(rewrite: Rewrite, seen: &RewrittenRestores) -> Result<(), Failure> {
    let Decoded::Ok(snapshot) = &seen.snapshot else {
        return Ok(());
    };
    let forged = rewrite.forge(snapshot);
    if forged.len() != seen.restored.len() {
        return Err(Failure::new(
            format!("{} restores", forged.len()),
            format!("{} restores", seen.restored.len()),
        )
        .step("the driver's report of the rewritten snapshots")
        .requirement("02-R10"));
    }
    // Bytes in another layout are no rewriting of the snapshot: the report says which
    // layout was read, and what the snapshot writes instead.
    let layout = rewrite == Rewrite::OtherLayout;
    for (bytes, restored) in forged.iter().zip(&seen.restored) {
        let accepted = if layout {
            format!(
                "restore read bytes in another layout, {:?}, which your snapshot never writes",
                String::from_utf8_lossy(bytes)
            )
        } else {
            "restore accepted bytes that no snapshot writes".to_owned()
        };
        let what = match restored {
            Decoded::Err(_) => continue,
            Decoded::Ok(Restored {
                snapshot: Decoded::Ok(again),
                ..
            }) if same_snapshot(bytes, again) => continue,
            // What a derived `Deserialize` of its own type reads (a struct written as the
            // list of its fields, say) is no second format of its own.
            Decoded::Ok(Restored {
                snapshot: Decoded::Ok(again),
                ..
            }) if layout && derived(bytes, again) => continue,
            Decoded::Ok(Restored { state, snapshot }) => format!(
                "{accepted}: the operator it restored holds {state:?} and its own snapshot is {}",
                match snapshot {
                    Decoded::Ok(again) => format!("{:?}", String::from_utf8_lossy(again)),
                    other => format!("{other:?}"),
                }
            ),
            Decoded::Panicked(message) if layout => format!(
                "restore panicked on bytes in another layout, which your snapshot never \
                 writes: {message}"
            ),
            Decoded::Panicked(message) => {
                format!("restore panicked on bytes that no snapshot writes: {message}")
            }
        };
        let how = if layout {
            "the state of its own snapshot, in another layout; its own snapshot is"
        } else {
            "rewritten from its own snapshot"
        };
        return Err(Failure::new(
            "Err(..), or an operator whose own snapshot is these bytes",
            what,
        )
        .step(format!(
            "KeyedProcessOperator::restore(key_of, Spy, {:?}), {how} {:?}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(snapshot)
        ))
        .requirement("02-R10"));
    }
    Ok(())
}

/// Whether `again`, a restored operator's own snapshot, is the snapshot `bytes` were:
/// the same JSON tree where both are JSON, else the same bytes.
fn same_snapshot(bytes: &[u8], again: &[u8]) -> bool {
    match (strict_json::read(bytes), strict_json::read(again)) {
        (Ok(forged), Ok(written)) => forged == written,
        _ => bytes == again,
    }
}

#[cfg(test)]
mod tests {
    use super::{Rewrite, same_snapshot};

    const PAIRS: &str = r#"[["a",[1]],["\u00c4 b",[2]],["Ä b",[2]]]"#;

    #[test]
    fn a_key_is_renamed_only_where_it_is_written_as_text() {
        assert_eq!(
            Rewrite::KeyTwice.forge(PAIRS.as_bytes()),
            vec![br#"[["a",[1]],["\u00c4 b",[2]],["a",[2]]]"#.to_vec()]
        );
        assert!(Rewrite::KeysOutOfOrder.forge(br#"[["a",[1]]]"#).is_empty());
    }

    #[test]
    fn each_list_is_changed_in_turn() {
        let columns = br#"{"keys":["a","b"],"values":[[1],[]]}"#;
        let dropped: Vec<String> = Rewrite::ItemDropped
            .forge(columns)
            .into_iter()
            .map(|b| String::from_utf8(b).unwrap())
            .collect();
        assert_eq!(
            dropped,
            [
                r#"{"keys":["a"],"values":[[1],[]]}"#,
                r#"{"keys":["a","b"],"values":[[1]]}"#,
                r#"{"keys":["a","b"],"values":[[],[]]}"#,
            ]
        );
        assert_eq!(Rewrite::ItemRepeated.forge(columns).len(), 3);
        assert!(Rewrite::ItemDropped.forge(b"not json").is_empty());
    }

    #[test]
    fn the_state_is_written_in_every_layout_but_its_own() {
        let own = r#"[["a",[1]],["Ä b",[2]]]"#;
        let others = Rewrite::OtherLayout.forge(own.as_bytes());
        assert_eq!(others.len(), 3);
        assert!(!others.contains(&own.as_bytes().to_vec()));
        assert!(others.contains(&r#"{"a":[1],"Ä b":[2]}"#.as_bytes().to_vec()));
        // A versioned envelope meets the reference's list of pairs among the four.
        let envelope = r#"{"version":2,"pairs":[["a",[1]],["Ä b",[2]]]}"#;
        let others = Rewrite::OtherLayout.forge(envelope.as_bytes());
        assert_eq!(others.len(), 4);
        assert_eq!(others[0], own.as_bytes());
        // Planned apart, after every other case.
        assert!(!Rewrite::ALL.contains(&Rewrite::OtherLayout));
    }

    #[test]
    fn a_snapshot_is_the_same_tree_or_the_same_bytes() {
        assert!(same_snapshot(
            br#"{"b":[1],"a":2}"#,
            br#"{ "a": 2, "b": [1] }"#
        ));
        assert!(!same_snapshot(br#"{"a":[1],"a":[2]}"#, br#"{"a":[2]}"#));
        assert!(!same_snapshot(b"[1,2]", b"[2,1]"));
        assert!(same_snapshot(b"a=1;", b"a=1;"));
        assert!(!same_snapshot(b"a=1;a=2;", b"a=2;"));
    }
}
