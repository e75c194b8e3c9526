//! Stage 02 operators of the sixteenth red team whose snapshot is a versioned envelope,
//! `{"version": 2, "pairs": [...]}`: one whose `restore` also reads the bare list of pairs
//! the reference writes, as a "legacy" format (w02-01), which must fail, and the envelope
//! read strictly, nothing else (c02-02), which must pass; and a snapshot that is a list of
//! derived `{"key", "value"}` structs, whose derived reader also takes the bare list of
//! pairs (serde reads a struct from the list of its fields) into the same state, which
//! must pass too.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// The envelope both operators write, and its strict reader: an object, no other member,
/// version 2, each key once and in order.
mod envelope {
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use solution02::KeyedState;

    const VERSION: u32 = 2;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Envelope<P> {
        version: u32,
        pairs: P,
    }

    pub fn write<K, V>(state: &KeyedState<K, V>) -> anyhow::Result<Vec<u8>>
    where
        K: Ord + Clone + Serialize,
        V: Clone + Serialize,
    {
        let pairs: Vec<(K, V)> = state.snapshot().into_iter().collect();
        Ok(serde_json::to_vec(&Envelope {
            version: VERSION,
            pairs,
        })?)
    }

    pub fn read<K, V>(bytes: &[u8]) -> anyhow::Result<KeyedState<K, V>>
    where
        K: Ord + Clone + DeserializeOwned,
        V: Clone + DeserializeOwned,
    {
        // An object first: a derived struct also reads a list of its fields in order.
        let tree: serde_json::Value = serde_json::from_slice(bytes)?;
        anyhow::ensure!(tree.is_object(), "not a snapshot: not an object");
        let envelope: Envelope<Vec<(K, V)>> = serde_json::from_slice(bytes)?;
        anyhow::ensure!(
            envelope.version == VERSION,
            "not a snapshot: version {} (expected {VERSION})",
            envelope.version
        );
        anyhow::ensure!(
            envelope.pairs.windows(2).all(|w| w[0].0 < w[1].0),
            "not a snapshot: keys repeated or out of order"
        );
        let mut state = KeyedState::new();
        for (key, value) in envelope.pairs {
            state.put(key, value);
        }
        Ok(state)
    }
}

/// **Mistake:** (the sixteenth red team's w02-01) the snapshot is the versioned envelope,
/// read strictly, but `restore` also reads the bare list of pairs `KeyedState::to_bytes`
/// writes ("snapshots from before the version field"), which its own `snapshot` never
/// writes.
/// **Verdict:** `contract`: the state `{"a": [1], "Ä b": [2]}` written as
/// `[["a",[1]],["Ä b",[2]]]` restores an operator whose own snapshot is the envelope
/// (02-R10).
pub mod restore_reads_legacy_pairs {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::envelope::write(&this.state) }
        fn restore(key_fn, function, bytes) {
            let state = match super::envelope::read(bytes) {
                Ok(state) => state,
                Err(error) => KeyedState::from_bytes(bytes).map_err(|_| error)?,
            };
            let mut op = Self::new(key_fn, function);
            op.state = state;
            Ok(op)
        }
    }
}

/// Correct: the versioned envelope, and `restore` reads nothing else (a matching version
/// beside the state is allowed; the red team's c02-02).
pub mod versioned_envelope {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::envelope::write(&this.state) }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = super::envelope::read(bytes)?;
            Ok(op)
        }
    }
}

/// A list of derived entries, in key order: serde also reads each entry from the list of
/// its fields, `["a", [1]]`, which is the bare list of pairs' layout.
mod entries {
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use solution02::KeyedState;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Entry<K, V> {
        key: K,
        value: V,
    }

    pub fn write<K, V>(state: &KeyedState<K, V>) -> anyhow::Result<Vec<u8>>
    where
        K: Ord + Clone + Serialize,
        V: Clone + Serialize,
    {
        let entries: Vec<Entry<K, V>> = state
            .snapshot()
            .into_iter()
            .map(|(key, value)| Entry { key, value })
            .collect();
        Ok(serde_json::to_vec(&entries)?)
    }

    pub fn read<K, V>(bytes: &[u8]) -> anyhow::Result<KeyedState<K, V>>
    where
        K: Ord + Clone + DeserializeOwned,
        V: Clone + DeserializeOwned,
    {
        let entries: Vec<Entry<K, V>> = serde_json::from_slice(bytes)?;
        anyhow::ensure!(
            entries.windows(2).all(|w| w[0].key < w[1].key),
            "not a snapshot: keys repeated or out of order"
        );
        let mut state = KeyedState::new();
        for Entry { key, value } in entries {
            state.put(key, value);
        }
        Ok(state)
    }
}

/// Correct: a list of derived `{"key", "value"}` entries. Its derived reader also takes
/// `[["a",[1]],["Ä b",[2]]]`, each entry from the list of its fields, into the very state
/// its own snapshot writes as entries: a derive's reading, not a second format of its own.
pub mod derived_entries {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::entries::write(&this.state) }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = super::entries::read(bytes)?;
            Ok(op)
        }
    }
}

graders::impl_stage02!(DerivedEntries, DerivedEntriesSpy, derived_entries);
accepted!(stage02_derived_entries_pass: KeyedStateStage, drive::<DerivedEntries>);

graders::impl_stage02!(
    ReadsLegacyPairs,
    ReadsLegacyPairsSpy,
    restore_reads_legacy_pairs
);
graders::impl_stage02!(VersionedEnvelope, VersionedEnvelopeSpy, versioned_envelope);

accepted!(stage02_versioned_envelope_passes: KeyedStateStage, drive::<VersionedEnvelope>);

/// The mutant, the check that must reject it and the one requirement its smallest failing
/// case must name (no card: a new mistake, which no card's test shows yet).
#[rstest]
#[case::restore_reads_legacy_pairs(drive::<ReadsLegacyPairs>, "contract", "02-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
