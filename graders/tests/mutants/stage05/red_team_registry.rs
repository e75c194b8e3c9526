//! Stage 05 mutant of the seventh red team, written from the brief alone: a snapshot that
//! names an entry of a process-wide registry instead of holding the aggregates and the
//! watermark.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

/// **Mistake:** `snapshot` keeps each distinct state's bytes once in a process-wide
/// registry and returns the entry's name (`snapshot#N`); `restore` looks the name up.
/// Equal states get equal names, and every restore in the same process works; no process
/// after a crash could read them.
/// **Verdict:** `crash`: an operator of 256 keys of random symbols snapshots to
/// `snapshot#N`, far fewer bytes than the keys carry (05-R15).
mod snapshot_is_a_registry_entry {
    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>);

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner))
        }
        delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            crate::registry::enter(self.0.snapshot()?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            Ok(Self(Inner::restore(
                assigner,
                &crate::registry::look_up(bytes)?,
            )?))
        }
    }
}
graders::impl_stage05!(
    SnapshotIsARegistryEntry,
    SnapshotIsARegistryEntryOperator,
    snapshot_is_a_registry_entry
);

/// The mutant, the check that must reject it and the requirement its smallest failing
/// case must name.
#[rstest]
#[case::snapshot_is_a_registry_entry(drive::<SnapshotIsARegistryEntry>, "crash", "05-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement) {
        crate::fail(&why);
    }
}
