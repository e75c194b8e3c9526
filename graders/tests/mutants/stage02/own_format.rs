//! Operators whose snapshot is a format of their own, not `to_bytes`'s list of pairs:
//! restores that read a key twice, lists of unequal length or a count that does not
//! count as some state (02-R10), and the same formats read strictly, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** the snapshot is a JSON object whose members are named by each key's
/// JSON, read back into a map ("the map refuses nothing it cannot hold"), so an object
/// that names one key twice restores its last value, though no snapshot names a key
/// twice.
/// **Verdict:** `contract`: its own snapshot with `"Ä b"` written `"a"` restores `a`
/// alone.
pub mod restore_keeps_a_key_its_object_names_twice {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::object::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let members: std::collections::BTreeMap<String, F::State> =
                serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (name, value) in members {
                op.state.put(serde_json::from_str(&name)?, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** the same object, read as a tree that refuses a member named twice.
pub mod object_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::object::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let tree = graders::harness::strict_json::read(bytes)?;
            let members = tree.as_object().ok_or_else(|| anyhow::anyhow!("not an object"))?;
            let mut op = Self::new(key_fn, function);
            for (name, value) in members {
                let value = serde_json::from_value(value.clone())?;
                op.state.put(serde_json::from_str(name)?, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** the snapshot is two columns, the keys and their values, and `restore`
/// zips them back together ("they were written side by side"): it refuses a key twice
/// or out of order, but a column longer than the other loses its tail unseen.
/// **Verdict:** `contract`: its own snapshot with the keys' column one item short
/// restores `a` alone.
pub mod restore_zips_unequal_columns {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::columns::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let columns: super::columns::Columns<K, F::State> = serde_json::from_slice(bytes)?;
            columns.ensure_in_order()?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in columns.keys.into_iter().zip(columns.values) {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** the same columns, refused unless they are of one length.
pub mod columns_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::columns::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let columns: super::columns::Columns<K, F::State> = serde_json::from_slice(bytes)?;
            columns.ensure_in_order()?;
            anyhow::ensure!(
                columns.keys.len() == columns.values.len(),
                "not a snapshot: {} keys and {} values",
                columns.keys.len(),
                columns.values.len()
            );
            let mut op = Self::new(key_fn, function);
            for (key, value) in columns.keys.into_iter().zip(columns.values) {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** (the red team's w02-01) the snapshot is a line with the number of keys,
/// "for whoever reads the file", then `to_bytes`; `restore` reads the number to skip the
/// line and never compares it with the pairs.
/// **Verdict:** `contract`: its own snapshot with the count changed restores an operator
/// whose own snapshot writes the count it holds, not the bytes restored.
pub mod key_count_never_checked {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::counted::write(&this.state) }
        fn restore(key_fn, function, bytes) {
            let (_count, state) = super::counted::read(bytes)?;
            let mut op = Self::new(key_fn, function);
            op.state = state;
            Ok(op)
        }
    }
}

/// **Control:** the same count line, refused unless it counts the pairs.
pub mod key_count_checked {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::counted::write(&this.state) }
        fn restore(key_fn, function, bytes) {
            let (count, state) = super::counted::read(bytes)?;
            anyhow::ensure!(
                count == state.len(),
                "not a snapshot: it says {count} keys and holds {}",
                state.len()
            );
            let mut op = Self::new(key_fn, function);
            op.state = state;
            Ok(op)
        }
    }
}

/// **Mistake:** (the red team's w02-03) a JSON object whose members are named by the hex
/// of each key's JSON (`"226122"` for `"a"`), "so that any key is a plain member name",
/// read back into a map: a member named twice keeps its last value.
/// **Verdict:** `contract`: its own snapshot with `"Ä b"` written `"a"` (found as the hex
/// of its JSON string) restores `a` alone.
pub mod members_named_by_hex_of_json {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) {
            let mut members = serde_json::Map::new();
            for (key, value) in &this.state.snapshot() {
                let hex: String = serde_json::to_string(key)?
                    .bytes()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                members.insert(hex, serde_json::to_value(value)?);
            }
            Ok(serde_json::to_vec(&members)?)
        }
        fn restore(key_fn, function, bytes) {
            let members: std::collections::BTreeMap<String, F::State> =
                serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (hex, value) in members {
                anyhow::ensure!(hex.len() % 2 == 0, "not a snapshot: {hex:?}");
                let json = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                    .collect::<Result<Vec<u8>, _>>()?;
                op.state.put(serde_json::from_slice(&json)?, value);
            }
            Ok(op)
        }
    }
}

/// The counted format: the number of keys and a newline, then `to_bytes`'s list.
mod counted {
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use solution02::KeyedState;

    pub fn write<
        K: Ord + Clone + Serialize + DeserializeOwned,
        V: Clone + Serialize + DeserializeOwned,
    >(
        state: &KeyedState<K, V>,
    ) -> anyhow::Result<Vec<u8>> {
        let mut bytes = format!("{}\n", state.snapshot().len()).into_bytes();
        bytes.extend(state.to_bytes()?);
        Ok(bytes)
    }

    /// The count written, and the state of the pairs after it.
    pub fn read<
        K: Ord + Clone + Serialize + DeserializeOwned,
        V: Clone + Serialize + DeserializeOwned,
    >(
        bytes: &[u8],
    ) -> anyhow::Result<(usize, KeyedState<K, V>)> {
        let newline = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| anyhow::anyhow!("not a snapshot: no count"))?;
        let count: usize = std::str::from_utf8(&bytes[..newline])?.parse()?;
        Ok((count, KeyedState::from_bytes(&bytes[newline + 1..])?))
    }
}

/// The object format: `{"<key as JSON>": value, ...}`, in the keys' order.
mod object {
    use serde::Serialize;

    pub fn write<K: Serialize, V: Serialize>(
        state: &std::collections::BTreeMap<K, V>,
    ) -> anyhow::Result<Vec<u8>> {
        let mut members = serde_json::Map::new();
        for (key, value) in state {
            members.insert(serde_json::to_string(key)?, serde_json::to_value(value)?);
        }
        Ok(serde_json::to_vec(&members)?)
    }
}

/// The columns format: `{"keys": [...], "values": [...]}`.
mod columns {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Columns<K, V> {
        pub keys: Vec<K>,
        pub values: Vec<V>,
    }

    impl<K: Ord, V> Columns<K, V> {
        /// Refuses a key twice or out of order, as the state never writes them.
        pub fn ensure_in_order(&self) -> anyhow::Result<()> {
            anyhow::ensure!(
                self.keys.windows(2).all(|pair| pair[0] < pair[1]),
                "not a snapshot: its keys are repeated or out of order"
            );
            Ok(())
        }
    }

    pub fn write<K: Serialize + Clone, V: Serialize + Clone>(
        state: &std::collections::BTreeMap<K, V>,
    ) -> anyhow::Result<Vec<u8>> {
        Ok(serde_json::to_vec(&Columns {
            keys: state.keys().cloned().collect::<Vec<_>>(),
            values: state.values().cloned().collect::<Vec<_>>(),
        })?)
    }
}

graders::impl_stage02!(
    ObjectNamesTwice,
    ObjectNamesTwiceSpy,
    restore_keeps_a_key_its_object_names_twice
);
graders::impl_stage02!(ObjectSnapshot, ObjectSnapshotSpy, object_snapshot);
graders::impl_stage02!(ZipsColumns, ZipsColumnsSpy, restore_zips_unequal_columns);
graders::impl_stage02!(ColumnsSnapshot, ColumnsSnapshotSpy, columns_snapshot);
graders::impl_stage02!(
    CountNeverChecked,
    CountNeverCheckedSpy,
    key_count_never_checked
);
graders::impl_stage02!(CountChecked, CountCheckedSpy, key_count_checked);
graders::impl_stage02!(
    MembersNamedByHexOfJson,
    MembersNamedByHexOfJsonSpy,
    members_named_by_hex_of_json
);

accepted!(stage02_object_snapshot_passes: KeyedStateStage, drive::<ObjectSnapshot>);
accepted!(stage02_columns_snapshot_passes: KeyedStateStage, drive::<ColumnsSnapshot>);
accepted!(stage02_key_count_checked_passes: KeyedStateStage, drive::<CountChecked>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::restore_keeps_a_key_its_object_names_twice(drive::<ObjectNamesTwice>, "contract", "02-R10")]
#[case::restore_zips_unequal_columns(drive::<ZipsColumns>, "contract", "02-R10")]
#[case::key_count_never_checked(drive::<CountNeverChecked>, "contract", "02-R10")]
#[case::members_named_by_hex_of_json(drive::<MembersNamedByHexOfJson>, "contract", "02-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
