//! Stage 03 snapshots that write each key with its key group (as Flink's key-group-indexed
//! state does), read back by a `restore` that keeps a key by the group written beside it:
//! a mutant of the red team of 2026-12-05, and the correct variant that checks the group.

use crate::accepted;
use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// A subtask around the reference whose snapshot is `[group, key, value]` triples sorted
/// by group and key; `$check` decides whether `restore` hashes each key again.
macro_rules! grouped_subtask {
    ($check:expr) => {
        pub use solution03::*;

        /// A subtask's range, `max_parallelism` and keyed state (its own, so that a
        /// restore may keep what it likes).
        pub struct KeyedSubtask<V> {
            owned: std::ops::RangeInclusive<u32>,
            max_parallelism: u32,
            state: solution02::KeyedState<Vec<u8>, V>,
        }

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                let reference =
                    solution03::KeyedSubtask::<V>::new(index, parallelism, max_parallelism)?;
                Ok(Self {
                    owned: reference.key_groups(),
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
                let group = solution03::key_group_for(key, self.max_parallelism)?;
                anyhow::ensure!(self.owned.contains(&group), "key {key:?} is not owned here");
                self.state.update(key.to_vec(), f);
                Ok(())
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let mut entries = Vec::new();
                for (key, value) in self.state.snapshot() {
                    let group = solution03::key_group_for(&key, self.max_parallelism)?;
                    entries.push((group, key, value));
                }
                entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
                Ok(serde_json::to_vec(&entries)?)
            }
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let mut subtask = Self::new(index, parallelism, max_parallelism)?;
                for bytes in snapshots {
                    let entries: Vec<(u32, Vec<u8>, V)> = serde_json::from_slice(bytes)?;
                    anyhow::ensure!(
                        entries
                            .windows(2)
                            .all(|w| (w[0].0, &w[0].1) < (w[1].0, &w[1].1)),
                        "not a snapshot: entries repeated or out of order"
                    );
                    for (group, key, value) in entries {
                        let check: fn(u32, &[u8], u32) -> anyhow::Result<()> = $check;
                        check(group, &key, max_parallelism)?;
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
                Ok(subtask)
            }
        }
    };
}

/// **Mistake:** the snapshot writes each key with its key group, and `restore` keeps an
/// entry when the group written beside it is one of its own ("the snapshot already says
/// where each key belongs"), without hashing the key again.
/// **Verdict:** `errors`: its snapshot of `{"k": 1}` with k's group changed from 2 to 4
/// restores subtask 1 of 2 holding `k`, whose group subtask 0 owns (03-R7).
mod snapshot_trusts_stored_key_group {
    grouped_subtask!(|_, _, _| Ok(()));
}
graders::impl_stage03!(
    SnapshotTrustsStoredKeyGroup,
    snapshot_trusts_stored_key_group
);

/// Correct: the same snapshot, whose `restore` hashes each key again and refuses an entry
/// whose written group is not the key's.
mod snapshot_checks_stored_key_group {
    grouped_subtask!(|group, key, max_parallelism| {
        let actual = solution03::key_group_for(key, max_parallelism)?;
        anyhow::ensure!(
            group == actual,
            "not a snapshot: a key written under key group {group}, not its own {actual}"
        );
        Ok(())
    });
}
graders::impl_stage03!(
    SnapshotChecksStoredKeyGroup,
    snapshot_checks_stored_key_group
);
accepted!(stage03_snapshot_checks_stored_key_group_passes: Parallelism, drive::<SnapshotChecksStoredKeyGroup>);

/// The mutant above, the check that must reject it and the requirement it must name.
#[rstest]
#[case::snapshot_trusts_stored_key_group(drive::<SnapshotTrustsStoredKeyGroup>, "errors", "03-R7")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
