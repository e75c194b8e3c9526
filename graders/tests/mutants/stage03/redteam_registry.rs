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

    static REGISTRY: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());

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
            let bytes = self.0.snapshot()?;
            let mut registry = REGISTRY
                .lock()
                .map_err(|_| anyhow::anyhow!("registry poisoned"))?;
            let entry = match registry.iter().position(|kept| *kept == bytes) {
                Some(entry) => entry,
                None => {
                    registry.push(bytes);
                    registry.len() - 1
                }
            };
            Ok(format!("snapshot#{entry}").into_bytes())
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let registry = REGISTRY
                .lock()
                .map_err(|_| anyhow::anyhow!("registry poisoned"))?;
            let mut kept = Vec::new();
            for bytes in snapshots {
                let name = std::str::from_utf8(bytes)?;
                let entry: usize = name
                    .strip_prefix("snapshot#")
                    .ok_or_else(|| anyhow::anyhow!("not a snapshot"))?
                    .parse()?;
                anyhow::ensure!(name == format!("snapshot#{entry}"), "not a snapshot");
                let found = registry
                    .get(entry)
                    .ok_or_else(|| anyhow::anyhow!("no snapshot {entry}"))?;
                kept.push(found.clone());
            }
            drop(registry);
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
