//! Stage 03 subtasks of the sixteenth red team whose snapshot records the
//! `max_parallelism` beside the pairs, `{"max_parallelism": m, "pairs": [...]}`, and
//! whose `restore` refuses another one: one that also reads the bare list of pairs the
//! reference writes, as a "legacy" format (w03-04), which must fail, and the same read
//! strictly, nothing else (c03-01), which must pass.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

use crate::accepted;

/// The snapshot both subtasks write, its strict reader, and the reader that also takes
/// the reference's bare list of pairs.
mod envelope {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SubtaskSnapshot<V> {
        max_parallelism: u32,
        pairs: Vec<(Vec<u8>, V)>,
    }

    pub fn write<V: Serialize>(
        max_parallelism: u32,
        state: std::collections::BTreeMap<Vec<u8>, V>,
    ) -> anyhow::Result<Vec<u8>> {
        Ok(serde_json::to_vec(&SubtaskSnapshot {
            max_parallelism,
            pairs: state.into_iter().collect(),
        })?)
    }

    /// What `write` wrote at `max_parallelism`: an object, no other member, the same
    /// `max_parallelism`, each key once and in order.
    pub fn strict<V: DeserializeOwned>(
        bytes: &[u8],
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<(Vec<u8>, V)>> {
        // An object first: a derived struct also reads a list of its fields in order.
        let tree: serde_json::Value = serde_json::from_slice(bytes)?;
        anyhow::ensure!(tree.is_object(), "not a subtask snapshot (not an object)");
        let snapshot: SubtaskSnapshot<V> = serde_json::from_slice(bytes)?;
        anyhow::ensure!(
            snapshot.max_parallelism == max_parallelism,
            "not a snapshot of this job: max_parallelism {} where the job has {max_parallelism}",
            snapshot.max_parallelism
        );
        anyhow::ensure!(
            snapshot.pairs.windows(2).all(|w| w[0].0 < w[1].0),
            "not a subtask snapshot (keys repeated or out of order)"
        );
        Ok(snapshot.pairs)
    }

    /// `strict`, or else the bare list of pairs `KeyedState::to_bytes` writes.
    pub fn with_legacy<V: Clone + Serialize + DeserializeOwned>(
        bytes: &[u8],
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<(Vec<u8>, V)>> {
        strict(bytes, max_parallelism).or_else(|error| {
            solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)
                .map(|state| state.snapshot().into_iter().collect())
                .map_err(|_| error)
        })
    }
}

/// A subtask around the reference's whose snapshot is the envelope, its `restore` reading
/// each snapshot with `envelope::$read`.
macro_rules! enveloped_subtask {
    ($read:ident) => {
        pub use solution03::*;

        pub struct KeyedSubtask<V> {
            inner: solution03::KeyedSubtask<V>,
            max_parallelism: u32,
        }

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                Ok(Self {
                    inner: solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?,
                    max_parallelism,
                })
            }
            pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
                self.inner.key_groups()
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                self.inner.state()
            }
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                self.inner.update(key, f)
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                super::envelope::write(self.max_parallelism, self.inner.state().snapshot())
            }
            /// The pairs the snapshots hold, each kept if this subtask owns its key, a key
            /// met twice refused.
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let mut inner = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
                let owned = inner.key_groups();
                for bytes in snapshots {
                    for (key, value) in super::envelope::$read::<V>(bytes, max_parallelism)? {
                        if !owned.contains(&key_group_for(&key, max_parallelism)?) {
                            continue;
                        }
                        anyhow::ensure!(
                            inner.state().get(&key).is_none(),
                            "key {key:?} is in two snapshots"
                        );
                        inner.update(&key, |_| Some(value))?;
                    }
                }
                Ok(Self {
                    inner,
                    max_parallelism,
                })
            }
        }
    };
}

/// **Mistake:** (the sixteenth red team's w03-04) the snapshot records the
/// `max_parallelism` beside the pairs and `restore` checks it, but `restore` also reads
/// the bare list of pairs `KeyedState::to_bytes` writes ("snapshots from before the
/// `max_parallelism` was recorded"), which its own `snapshot` never writes.
/// **Verdict:** `errors`: the state `{"cherry": 1, "medlar": 2}` written as the list of
/// pairs of its keys' bytes restores a subtask whose own snapshot is the envelope
/// (03-R9).
mod restore_reads_legacy_pairs {
    enveloped_subtask!(with_legacy);
}
graders::impl_stage03!(ReadsLegacyPairs, restore_reads_legacy_pairs);

/// Correct: the snapshot records the `max_parallelism` (which never changes with a
/// rescale) and `restore` refuses another one, and reads nothing else (the red team's
/// c03-01).
mod snapshot_records_max_parallelism {
    enveloped_subtask!(strict);
}
graders::impl_stage03!(RecordsMaxParallelism, snapshot_records_max_parallelism);

accepted!(stage03_snapshot_records_max_parallelism_passes: Parallelism, drive::<RecordsMaxParallelism>);

/// The mutant, the check that must reject it and the requirement it must name.
#[rstest]
#[case::restore_reads_legacy_pairs(drive::<ReadsLegacyPairs>, "errors", "03-R9")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
