//! Stage 03 mutant of the seventh red team, written from the brief alone: a snapshot that
//! names an entry of a process-wide registry instead of holding the keyed state.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `snapshot` keeps each distinct state's bytes once in a process-wide
/// registry and returns the entry's name (`snapshot#N`); `restore` looks each name up.
/// Equal states get equal names, so subtasks holding one state write the same bytes, and
/// every restore in the same process works; no process after a crash could read them.
/// **Verdict:** `contract`: a subtask of 256 keys of random symbols snapshots to
/// `snapshot#N`, far fewer bytes than the keys carry (03-R6).
pub mod snapshot_is_a_registry_entry {
    pub use solution03::*;

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
            crate::registry::enter(self.0.snapshot()?)
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let kept = snapshots
                .iter()
                .map(|name| crate::registry::look_up(name))
                .collect::<anyhow::Result<Vec<_>>>()?;
            solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, &kept).map(Self)
        }
    }
}
graders::impl_stage03!(SnapshotIsARegistryEntry, snapshot_is_a_registry_entry);

/// The mutant, the check that must reject it and the requirement its smallest failing
/// case must name.
#[rstest]
#[case::snapshot_is_a_registry_entry(drive::<SnapshotIsARegistryEntry>, "contract", "03-R6")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
