//! Stage 03 mutants of the sixth red team, written from the brief alone: an owner worked
//! out in `u32` where `max_parallelism` is large, and
//! restores that read a list of pairs no snapshot writes (keys out of order; a key twice
//! that the restoring subtask does not own), and a snapshot written in a `HashMap`'s order.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `update` asks whether it owns a key with the brief's formula
/// `g * p / maxp == index` in `u32` instead of its range, which overflows for a large
/// `max_parallelism`.
/// **Verdict:** `contract`: on subtask 1 of 3 at `max_parallelism` `u32::MAX`,
/// `update(key, +1)` of a key it owns panics, or, where overflow wraps, is refused:
/// named as the rule of which keys `update` refuses (03-R5), the first that breaks.
mod update_owner_in_u32 {
    pub use solution03::*;

    pub struct KeyedSubtask<V> {
        inner: solution03::KeyedSubtask<V>,
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
    }

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            let inner = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
            Ok(Self {
                inner,
                index,
                parallelism,
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
            let group = key_group_for(key, self.max_parallelism)?;
            let owner = group * self.parallelism / self.max_parallelism;
            anyhow::ensure!(
                owner == self.index,
                "key group {group} is subtask {owner}'s"
            );
            self.inner.update(key, f)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let inner =
                solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, snapshots)?;
            Ok(Self {
                inner,
                index,
                parallelism,
                max_parallelism,
            })
        }
    }
}
graders::impl_stage03!(UpdateOwnerInU32, update_owner_in_u32);

restore_reading! {
    /// **Mistake:** `restore` sorts each snapshot's pairs by key before reading them ("the
    /// order of a list does not matter"), so pairs out of order restore, though `snapshot`
    /// writes them in key order.
    /// **Verdict:** `errors`: `restore(0, 1, 8, &[b"[[[108],1],[[107],1]]"])` is accepted
    /// (03-R9).
    restore_sorts_pairs,
    |snapshots| snapshots
        .iter()
        .map(|bytes| match serde_json::from_slice::<Vec<(Vec<u8>, serde_json::Value)>>(bytes) {
            Ok(mut pairs) => {
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::to_vec(&pairs).unwrap_or_default()
            }
            Err(_) => bytes.clone(),
        })
        .collect()
}

/// **Mistake:** `restore` reads each snapshot as a list of pairs, keeps those of its own
/// keys and refuses a key it meets twice among them, so a key repeated in one snapshot
/// restores where the subtask does not own it (the brief lets a subtask skip a key
/// found in two snapshots, not read bytes that are no snapshot).
/// **Verdict:** `errors`: `restore(1, 2, 8, &[b"[[[107],1],[[107],2]]"])` is accepted
/// (03-R9).
pub mod restore_reads_its_own_pairs {
    pub use solution03::*;

    subtask_around_the_reference! {
        snapshot(state) {
            Ok(serde_json::to_vec(&state)?)
        }
        restore(bytes) {
            serde_json::from_slice(bytes)?
        }
    }
}

/// **Mistake:** `snapshot` collects the state into a `HashMap` before writing its pairs
/// ("the order of a map does not matter"), so the same state is written in another
/// order by each map, though the brief rules out a `HashMap` in anything observable.
/// **Verdict:** `contract`: two subtasks that counted the same twelve keys write
/// different bytes (03-R6). (Its restore reads the pairs back sorted.)
pub mod snapshot_in_hash_order {
    pub use solution03::*;

    subtask_around_the_reference! {
        snapshot(state) {
            let hashed: std::collections::HashMap<Vec<u8>, V> = state.into_iter().collect();
            Ok(serde_json::to_vec(&hashed.into_iter().collect::<Vec<_>>())?)
        }
        restore(bytes) {
            let mut pairs: Vec<(Vec<u8>, V)> = serde_json::from_slice(bytes)?;
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            pairs
        }
    }
}

graders::impl_stage03!(RestoreSortsPairs, restore_sorts_pairs);
graders::impl_stage03!(RestoreReadsItsOwnPairs, restore_reads_its_own_pairs);
graders::impl_stage03!(SnapshotInHashOrder, snapshot_in_hash_order);

/// Every mutant of this red team, the check that must reject it and the requirement its
/// failure must name.
#[rstest]
#[case::update_owner_in_u32(drive::<UpdateOwnerInU32>, "contract", "03-R5")]
#[case::restore_sorts_pairs(drive::<RestoreSortsPairs>, "errors", "03-R9")]
#[case::restore_reads_its_own_pairs(drive::<RestoreReadsItsOwnPairs>, "errors", "03-R9")]
#[case::snapshot_in_hash_order(drive::<SnapshotInHashOrder>, "contract", "03-R6")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
