//! Stage 03 subtasks of the second red team, written from the brief alone: a snapshot
//! that reads its keys as text, a removal that skips the ownership check, a restore that
//! lets the same pair through twice; and a snapshot keyed by hex, which must pass. Also
//! the fifth red team's restore that skips a snapshot it cannot read.

/// The methods a wrapped reference subtask passes through unchanged: `new`, `key_groups`
/// and `state`, inside an `impl` of a `KeyedSubtask<V>(solution03::KeyedSubtask<V>)`.
macro_rules! reference_methods {
    () => {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            solution03::KeyedSubtask::new(index, parallelism, max_parallelism).map(Self)
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.0.key_groups()
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            self.0.state()
        }
    };
}

/// `update` and `snapshot` passed through to the reference, for a mutant that shadows
/// only `restore`.
macro_rules! reference_update_and_snapshot {
    () => {
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            self.0.update(key, f)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.snapshot()
        }
    };
}

/// A subtask that delegates to the reference but for the items a mutant shadows.
macro_rules! subtask_around_the_reference {
    (snapshot($s:ident) $snapshot:block restore($bytes:ident) $restore:block) => {
        pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            reference_methods!();
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                self.0.update(key, f)
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let $s = self.0.state().snapshot();
                $snapshot
            }
            /// The pairs the snapshots hold, each kept if this subtask owns its key, a key
            /// met twice refused.
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let mut subtask =
                    solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
                let owned = subtask.key_groups();
                for $bytes in snapshots {
                    let pairs: Vec<(Vec<u8>, V)> = $restore;
                    for (key, value) in pairs {
                        if !owned.contains(&key_group_for(&key, max_parallelism)?) {
                            continue;
                        }
                        anyhow::ensure!(
                            subtask.state().get(&key).is_none(),
                            "key {key:?} is in two snapshots"
                        );
                        subtask.update(&key, |_| Some(value))?;
                    }
                }
                Ok(Self(subtask))
            }
        }
    };
}

/// **Mistake:** the snapshot sidesteps the brief's serde_json trap by decoding each key
/// as text (`String::from_utf8_lossy`) and writing a JSON object: every key the learner
/// tried was text, but the API's keys are bytes.
/// **Verdict:** `contract`: a key that is not UTF-8 comes back from the restore as
/// another key (its bad bytes replaced by U+FFFD).
pub mod snapshot_keys_as_text {
    pub use solution03::*;

    subtask_around_the_reference! {
        snapshot(state) {
            let text: std::collections::BTreeMap<String, V> = state
                .into_iter()
                .map(|(k, v)| (String::from_utf8_lossy(&k).into_owned(), v))
                .collect();
            Ok(serde_json::to_vec(&text)?)
        }
        restore(bytes) {
            let text: std::collections::BTreeMap<String, V> = serde_json::from_slice(bytes)?;
            text.into_iter().map(|(k, v)| (k.into_bytes(), v)).collect()
        }
    }
}

/// **Mistake:** `update` checks ownership only before storing a value: an `f` that
/// returns `None` "only removes", so a removal of a key the subtask does not own passes.
/// **Verdict:** `contract`: `update(foreign, |_| None)` returns `Ok(())`.
pub mod removal_skips_ownership {
    pub use solution03::*;

    pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        reference_methods!();
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            let current = self.0.state().get(&key.to_vec()).cloned();
            match f(current) {
                Some(value) => self.0.update(key, |_| Some(value)),
                // A foreign key has no value here, so there is nothing to remove.
                None if self.0.state().get(&key.to_vec()).is_none() => Ok(()),
                None => self.0.update(key, |_| None),
            }
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, snapshots)
                .map(Self)
        }
    }
}

/// **Mistake:** `restore` refuses a key found in two snapshots only when the values
/// differ; the same pair twice is kept once ("nothing is doubled").
/// **Verdict:** `contract`: a restore from `[snapshot(), snapshot()]` succeeds.
pub mod restore_equal_duplicates_pass {
    pub use solution03::*;

    pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        reference_methods!();
        reference_update_and_snapshot!();
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
            let owned = subtask.key_groups();
            for bytes in snapshots {
                let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
                for (key, value) in old.snapshot() {
                    if !owned.contains(&key_group_for(&key, max_parallelism)?) {
                        continue;
                    }
                    // `V` need not be comparable: compared as JSON.
                    if let Some(held) = subtask.state().get(&key) {
                        anyhow::ensure!(
                            serde_json::to_vec(held)? == serde_json::to_vec(&value)?,
                            "key {key:?} is in two snapshots with two values"
                        );
                        continue;
                    }
                    subtask.update(&key, |_| Some(value))?;
                }
            }
            Ok(Self(subtask))
        }
    }
}

/// **Control:** the serde_json trap handled with hex: the snapshot is a JSON object
/// whose keys are the keys' bytes in hexadecimal, so any bytes round-trip; read member by
/// member, so that a key written twice is refused (a map would keep the last of the two).
pub mod hex_keyed_snapshot {
    pub use solution03::*;

    /// A JSON object's members as written, a member written twice kept twice.
    struct Members<V>(Vec<(String, V)>);

    impl<'de, V: serde::de::DeserializeOwned> serde::Deserialize<'de> for Members<V> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Visit<V>(std::marker::PhantomData<V>);
            impl<'de, V: serde::de::DeserializeOwned> serde::de::Visitor<'de> for Visit<V> {
                type Value = Members<V>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object of hex keys")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<Self::Value, A::Error> {
                    let mut members = Vec::new();
                    while let Some(member) = map.next_entry::<String, V>()? {
                        members.push(member);
                    }
                    Ok(Members(members))
                }
            }
            d.deserialize_map(Visit(std::marker::PhantomData))
        }
    }

    subtask_around_the_reference! {
        snapshot(state) {
            let hex: std::collections::BTreeMap<String, V> = state
                .into_iter()
                .map(|(k, v)| (k.iter().map(|b| format!("{b:02x}")).collect(), v))
                .collect();
            Ok(serde_json::to_vec(&hex)?)
        }
        restore(bytes) {
            let hex: Members<V> = serde_json::from_slice(bytes)?;
            let mut pairs: Vec<(Vec<u8>, V)> = Vec::new();
            for (k, v) in hex.0 {
                anyhow::ensure!(k.len() % 2 == 0 && k.is_ascii(), "key {k:?} is not hex");
                let key = (0..k.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&k[i..i + 2], 16))
                    .collect::<Result<Vec<u8>, _>>()?;
                anyhow::ensure!(
                    pairs.iter().all(|(seen, _)| *seen != key),
                    "key {k} written twice in one snapshot"
                );
                pairs.push((key, v));
            }
            pairs
        }
    }
}

/// A mutant module `$name`: the reference subtask, whose `restore` first reads the
/// snapshots it is handed through `$read` (of `$snapshots: &[Vec<u8>]`), then restores
/// what that gives as the reference does.
macro_rules! restore_reading {
    ($(#[$doc:meta])* $name:ident, |$snapshots:ident| $read:expr) => {
        $(#[$doc])*
        pub mod $name {
            pub use solution03::*;

            pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

            impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
                reference_methods!();
                reference_update_and_snapshot!();
                pub fn restore(
                    index: u32,
                    parallelism: u32,
                    max_parallelism: u32,
                    $snapshots: &[Vec<u8>],
                ) -> anyhow::Result<Self> {
                    let read: Vec<Vec<u8>> = $read;
                    solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, &read)
                        .map(Self)
                }
            }
        }
    };
}

restore_reading! {
    /// **Mistake:** `restore` skips a snapshot it cannot read as long as another is left
    /// ("one lost file should not stop the job"), and refuses only when every one is
    /// unreadable.
    /// **Verdict:** `errors`: `restore(0, 1, 8, &[own, b"not a snapshot"])` is accepted
    /// (03-R9).
    restore_skips_unreadable,
    |snapshots| {
        let readable: Vec<Vec<u8>> = snapshots
            .iter()
            .filter(|bytes| solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes).is_ok())
            .cloned()
            .collect();
        if readable.is_empty() { snapshots.to_vec() } else { readable }
    }
}

restore_reading! {
    /// **Mistake:** `restore` reads each snapshot as an `Option` of pairs, so the bytes
    /// `null` (JSON's none, which `snapshot` never writes: an empty subtask is `[]`)
    /// restore an empty subtask.
    /// **Verdict:** `errors`: `restore(0, 1, 8, &[b"null"])` is accepted (03-R9).
    restore_null_as_empty,
    |snapshots| snapshots
        .iter()
        .map(|bytes| if bytes == b"null" { b"[]".to_vec() } else { bytes.clone() })
        .collect()
}
