//! Operators whose snapshot is a format of their own, not `to_bytes`'s list of pairs:
//! restores that read a key twice or lists of unequal length as some state (02-R10), and
//! the same formats read strictly, which must pass.

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

accepted!(stage02_object_snapshot_passes: KeyedStateStage, drive::<ObjectSnapshot>);
accepted!(stage02_columns_snapshot_passes: KeyedStateStage, drive::<ColumnsSnapshot>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::restore_keeps_a_key_its_object_names_twice(drive::<ObjectNamesTwice>, "contract", "02-R10")]
#[case::restore_zips_unequal_columns(drive::<ZipsColumns>, "contract", "02-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
