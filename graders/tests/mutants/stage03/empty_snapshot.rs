//! Stage 03 mutant of a snapshot that an empty subtask refuses: the `contract` check
//! judges the snapshots a restore step takes before it calls `restore`, so a failed
//! snapshot is not taken for a restore that refused two copies of a key.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `snapshot()` refuses a subtask that holds no key ("nothing to save"),
/// though a snapshot holds the keyed state whatever it is, none included.
/// **Verdict:** `contract`: a restore step whose snapshot of the empty subtask failed
/// (03-R6).
mod empty_snapshot_refused {
    pub use solution03::{
        key_group_for, key_group_range, operator_index_for, parallel_count, parents, partition,
        rescale, stable_hash,
    };

    pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            solution03::KeyedSubtask::new(index, parallelism, max_parallelism).map(Self)
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.0.key_groups()
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            self.0.update(key, f)
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            self.0.state()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            anyhow::ensure!(
                !self.0.state().snapshot().is_empty(),
                "nothing to snapshot: the subtask holds no key"
            );
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
graders::impl_stage03!(EmptySnapshotRefused, empty_snapshot_refused);

/// The mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name.
#[rstest]
#[case::empty_snapshot_refused(drive::<EmptySnapshotRefused>, "contract", "03-R6")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
