//! Stage 03 subtasks whose snapshot is JSON in a shape of their own, from the red team of
//! 2026-12-05: key groups written as an object's member names, keys named by their bytes
//! as `{:x?}` writes them, and a count of the keys never read back. The forgeries that change a run of digits, and those that
//! rename a key, reach them as they reach the shapes they were written for.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** (the red team's w03-09) the snapshot groups its keys by key group, as
/// Flink writes keyed state (`{"2": [["6b", 1]]}`, keys in hex), and `restore` reads the
/// groups it owns by their written number ("whole key groups move together"), without
/// hashing the keys again.
/// **Verdict:** `errors`: its snapshot of `{"k": 1}` with the group written `4` restores
/// subtask 1 of 2 holding `k`, whose group subtask 0 owns (03-R7).
mod groups_trusted_by_their_names {
    pub use solution03::*;

    use std::collections::BTreeMap;

    /// A subtask's range, `max_parallelism` and keyed state (its own, so that a restore
    /// may keep what it likes).
    pub struct KeyedSubtask<V> {
        owned: std::ops::RangeInclusive<u32>,
        max_parallelism: u32,
        state: solution02::KeyedState<Vec<u8>, V>,
    }

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            Ok(Self {
                owned: key_group_range(index, parallelism, max_parallelism)?,
                max_parallelism,
                state: solution02::KeyedState::new(),
            })
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.owned.clone()
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            &self.state
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            let group = key_group_for(key, self.max_parallelism)?;
            anyhow::ensure!(self.owned.contains(&group), "key {key:?} is not owned here");
            self.state.update(key.to_vec(), f);
            Ok(())
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let mut groups: BTreeMap<u32, Vec<(String, V)>> = BTreeMap::new();
            for (key, value) in self.state.snapshot() {
                let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
                groups
                    .entry(key_group_for(&key, self.max_parallelism)?)
                    .or_default()
                    .push((hex, value));
            }
            Ok(serde_json::to_vec(&groups)?)
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = Self::new(index, parallelism, max_parallelism)?;
            for bytes in snapshots {
                let groups: BTreeMap<u32, Vec<(String, V)>> = serde_json::from_slice(bytes)?;
                let mut previous: Option<Vec<u8>> = None;
                for (group, pairs) in groups {
                    for (hex, value) in pairs {
                        anyhow::ensure!(
                            hex.len() % 2 == 0
                                && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
                            "not a snapshot: {hex:?} is not a key"
                        );
                        let key = (0..hex.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                            .collect::<Result<Vec<u8>, _>>()?;
                        anyhow::ensure!(
                            previous.as_ref().is_none_or(|p| *p != key),
                            "not a snapshot: a key listed twice"
                        );
                        previous = Some(key.clone());
                        // Whole key groups: the number says which are this subtask's.
                        if !subtask.owned.contains(&group) {
                            continue;
                        }
                        anyhow::ensure!(
                            subtask.state.get(&key).is_none(),
                            "key {key:?} is in two snapshots"
                        );
                        subtask.state.put(key, value);
                    }
                }
            }
            Ok(subtask)
        }
    }
}
graders::impl_stage03!(GroupsTrustedByTheirNames, groups_trusted_by_their_names);

/// **Mistake:** (the red team's w03-04) a JSON object whose members are named by the key's
/// bytes as `{:x?}` writes them (`"[6b]"`), read back into a map, so that a member
/// written twice keeps the last of its values ("a map cannot hold a key twice").
/// **Verdict:** `errors`: its snapshot of `{"cherry": 1, "medlar": 2}` with `medlar`
/// written `cherry` restores `{"cherry": 2}`, whose own snapshot is other bytes (03-R9).
mod members_named_in_debug_hex {
    pub use solution03::*;

    use std::collections::BTreeMap;

    subtask_around_the_reference! {
        snapshot(state) {
            let named: BTreeMap<String, V> =
                state.into_iter().map(|(k, v)| (format!("{k:x?}"), v)).collect();
            Ok(serde_json::to_vec(&named)?)
        }
        restore(bytes) {
            let named: BTreeMap<String, V> = serde_json::from_slice(bytes)?;
            let mut pairs = Vec::new();
            for (name, value) in named {
                let inner = name
                    .strip_prefix('[')
                    .and_then(|n| n.strip_suffix(']'))
                    .ok_or_else(|| anyhow::anyhow!("not a snapshot: {name:?} is not a key"))?;
                let key = if inner.is_empty() {
                    Vec::new()
                } else {
                    inner
                        .split(", ")
                        .map(|b| u8::from_str_radix(b, 16))
                        .collect::<Result<Vec<u8>, _>>()?
                };
                pairs.push((key, value));
            }
            pairs
        }
    }
}
graders::impl_stage03!(MembersNamedInDebugHex, members_named_in_debug_hex);

/// **Mistake:** (the red team's w03-01) the snapshot writes the number of its keys
/// beside its pairs (`{"keys": 2, "pairs": [...]}`, "for whoever reads the file"), and
/// `restore` reads the pairs strictly, in order and once, but never compares the number
/// with them.
/// **Verdict:** `errors`: its snapshot of `{"cherry": 1, "medlar": 2}` with the count
/// changed restores a subtask whose own snapshot writes 2 again (03-R9).
mod pairs_count_never_checked {
    pub use solution03::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Counted<V> {
        keys: usize,
        pairs: Vec<(Vec<u8>, V)>,
    }

    subtask_around_the_reference! {
        snapshot(state) {
            let pairs: Vec<(Vec<u8>, V)> = state.into_iter().collect();
            Ok(serde_json::to_vec(&Counted { keys: pairs.len(), pairs })?)
        }
        restore(bytes) {
            let counted: Counted<V> = serde_json::from_slice(bytes)?;
            anyhow::ensure!(
                counted.pairs.windows(2).all(|pair| pair[0].0 < pair[1].0),
                "not a snapshot: keys repeated or out of order"
            );
            counted.pairs
        }
    }
}
graders::impl_stage03!(PairsCountNeverChecked, pairs_count_never_checked);

/// The mutants above, the check that must reject each and the requirement it must name.
#[rstest]
#[case::groups_trusted_by_their_names(drive::<GroupsTrustedByTheirNames>, "errors", "03-R7")]
#[case::members_named_in_debug_hex(drive::<MembersNamedInDebugHex>, "errors", "03-R9")]
#[case::pairs_count_never_checked(drive::<PairsCountNeverChecked>, "errors", "03-R9")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
