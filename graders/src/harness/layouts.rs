//! A keyed state written by the grader in the JSON layouts a snapshot commonly has: the
//! list of `[key, value]` pairs (what stage 02's `KeyedState::to_bytes` writes), an
//! object of key → value, a list of `{"key": .., "value": ..}` objects, and the pairs
//! inside an object (`{"pairs": [...]}`).
//!
//! Stages 02 and 03 hand `restore` each layout that is not the implementation's own
//! snapshot of that state. A `restore` that reads one of them reads bytes its `snapshot`
//! never writes: a "legacy" format kept beside the one it writes (the reference's list of
//! pairs, say, after the snapshot grew a version or a `max_parallelism`). No layout is
//! tried that the implementation itself writes: one whose JSON tree is its own snapshot's
//! is its format, and is left out.

use serde_json::{Map, Value};

use super::strict_json;

/// One layout of a keyed state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `[[key, value], ...]`, in key order.
    Pairs,
    /// `{"key": value, ...}`: only where every key is a JSON string.
    Object,
    /// `[{"key": key, "value": value}, ...]`, in key order.
    Entries,
    /// `{"pairs": [[key, value], ...]}`.
    WrappedPairs,
}

impl Layout {
    /// Every layout, in the order they are tried.
    pub const ALL: [Layout; 4] = [
        Layout::Pairs,
        Layout::Object,
        Layout::Entries,
        Layout::WrappedPairs,
    ];

    /// `pairs` (each key and value as JSON, in key order) in this layout, or `None` where
    /// it cannot hold them (an object's member names are strings, so it holds no key
    /// written as a list of bytes).
    pub fn write(self, pairs: &[(Value, Value)]) -> Option<Value> {
        let list = || {
            Value::Array(
                pairs
                    .iter()
                    .map(|(key, value)| Value::Array(vec![key.clone(), value.clone()]))
                    .collect(),
            )
        };
        Some(match self {
            Layout::Pairs => list(),
            Layout::Object => {
                let mut members = Map::new();
                for (key, value) in pairs {
                    members.insert(key.as_str()?.to_owned(), value.clone());
                }
                Value::Object(members)
            }
            Layout::Entries => Value::Array(
                pairs
                    .iter()
                    .map(|(key, value)| {
                        let mut entry = Map::new();
                        entry.insert("key".to_owned(), key.clone());
                        entry.insert("value".to_owned(), value.clone());
                        Value::Object(entry)
                    })
                    .collect(),
            ),
            Layout::WrappedPairs => {
                let mut members = Map::new();
                members.insert("pairs".to_owned(), list());
                Value::Object(members)
            }
        })
    }
}

/// Each layout of each way of writing the state (`writings`: the same pairs, their keys
/// encoded one way or another), as bytes, but those whose JSON tree is `own`'s (the
/// implementation's own snapshot of the state: its format, not another) and repeats.
pub fn other_layouts(own: &[u8], writings: &[Vec<(Value, Value)>]) -> Vec<Vec<u8>> {
    let own = strict_json::read(own).ok();
    let mut trees: Vec<Value> = Vec::new();
    for pairs in writings {
        for tree in Layout::ALL.iter().filter_map(|layout| layout.write(pairs)) {
            if own.as_ref() != Some(&tree) && !trees.contains(&tree) {
                trees.push(tree);
            }
        }
    }
    trees
        .iter()
        .map(|tree| serde_json::to_vec(tree).expect("a JSON tree is JSON"))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Layout, other_layouts};

    fn state() -> Vec<(Value, Value)> {
        vec![(json!("a"), json!([1])), (json!("Ä b"), json!([2]))]
    }

    fn texts(bytes: Vec<Vec<u8>>) -> Vec<String> {
        bytes
            .into_iter()
            .map(|b| String::from_utf8(b).unwrap())
            .collect()
    }

    #[test]
    fn every_layout_holds_the_state() {
        let written: Vec<String> = Layout::ALL
            .iter()
            .map(|layout| layout.write(&state()).unwrap().to_string())
            .collect();
        assert_eq!(
            written,
            [
                r#"[["a",[1]],["Ä b",[2]]]"#,
                r#"{"a":[1],"Ä b":[2]}"#,
                r#"[{"key":"a","value":[1]},{"key":"Ä b","value":[2]}]"#,
                r#"{"pairs":[["a",[1]],["Ä b",[2]]]}"#,
            ]
        );
    }

    #[test]
    fn a_layout_that_is_the_own_snapshot_is_left_out() {
        // The reference's own snapshot, spaced and escaped otherwise: the same tree.
        let own = br#"[ ["a", [1]], ["\u00c4 b", [2]] ]"#;
        let others = texts(other_layouts(own, &[state()]));
        assert_eq!(others.len(), 3);
        assert!(!others.contains(&r#"[["a",[1]],["Ä b",[2]]]"#.to_owned()));
        // An object's members in another order are the same tree too.
        let own = r#"{"Ä b":[2],"a":[1]}"#.as_bytes();
        let others = texts(other_layouts(own, &[state()]));
        assert!(!others.contains(&r#"{"a":[1],"Ä b":[2]}"#.to_owned()));
    }

    #[test]
    fn a_snapshot_of_its_own_layout_meets_every_one() {
        // A versioned envelope, or no JSON at all: every layout is another.
        let envelope = r#"{"version":2,"pairs":[["a",[1]],["Ä b",[2]]]}"#;
        for own in [envelope.as_bytes(), b"a=1;"] {
            assert_eq!(other_layouts(own, &[state()]).len(), 4);
        }
    }

    #[test]
    fn keys_of_bytes_have_no_object_and_repeats_are_written_once() {
        let bytes = vec![(json!([107]), json!(1))];
        let text = vec![(json!("k"), json!(1))];
        assert_eq!(Layout::Object.write(&bytes), None);
        let others = texts(other_layouts(b"", &[bytes.clone(), text, bytes]));
        assert_eq!(
            others,
            [
                "[[[107],1]]",
                r#"[{"key":[107],"value":1}]"#,
                r#"{"pairs":[[[107],1]]}"#,
                r#"[["k",1]]"#,
                r#"{"k":1}"#,
                r#"[{"key":"k","value":1}]"#,
                r#"{"pairs":[["k",1]]}"#,
            ]
        );
    }
}
