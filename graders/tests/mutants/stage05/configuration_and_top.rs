//! Stage 05 mutants of the ninth red team: a record that its assigner gives no window
//! (the reference's `Sliding::assign(u64::MAX)` gives none) neither counted nor late,
//! and a snapshot that writes the assigner, which the brief calls configuration.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

/// **Mistake:** `on_record` returns `None` for a record that `assign` gives no window
/// ("no window, nothing to count, nothing late"): the record vanishes, though all of its
/// windows, none, have fired (the ninth red team's w05-1).
/// **Verdict:** `lateness`: under `Sliding::new(1 << 63, 1 << 62)`, whose
/// `assign(u64::MAX)` is `[]`, `on_record("a", u64::MAX, 7)` returns `None` (05-R10).
mod no_window_is_not_late {
    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>, A);

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner + Clone>
        WindowOperator<K, A>
    {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner.clone()), assigner)
        }
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            if self.1.assign(ts).is_empty() {
                return None;
            }
            self.0.on_record(key, ts, value)
        }
        delegate_to_inner!(current_watermark, on_watermark, state_size, snapshot);
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            Ok(Self(Inner::restore(assigner.clone(), bytes)?, assigner))
        }
    }
}
graders::impl_stage05!(
    NoWindowIsNotLate,
    NoWindowIsNotLateOperator,
    no_window_is_not_late
);

/// **Mistake:** the snapshot writes the assigner beside the state, and `restore` refuses
/// an assigner other than the one written ("a snapshot must not be read under other
/// windows"), though the brief calls the assigner configuration that `restore` takes
/// again, not state (the ninth red team's w05-2).
/// **Verdict:** `crash`: a new operator's snapshot under `Tumbling::new(10)` and under
/// `Tumbling::new(5)` are not the same bytes (05-R15).
mod snapshot_writes_the_assigner {
    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>, String);

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner + std::fmt::Debug>
        WindowOperator<K, A>
    {
        pub fn new(assigner: A) -> Self {
            let written = format!("{assigner:?}");
            Self(Inner::new(assigner), written)
        }
        delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let state: serde_json::Value = serde_json::from_slice(&self.0.snapshot()?)?;
            Ok(serde_json::to_vec(
                &serde_json::json!({ "assigner": self.1, "state": state }),
            )?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            #[derive(serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            struct Written {
                assigner: String,
                state: serde_json::Value,
            }
            let written: Written = serde_json::from_slice(bytes)?;
            let expected = format!("{assigner:?}");
            anyhow::ensure!(
                written.assigner == expected,
                "a snapshot of {}, restored under {expected}",
                written.assigner
            );
            let state = serde_json::to_vec(&written.state)?;
            Ok(Self(Inner::restore(assigner, &state)?, expected))
        }
    }
}
graders::impl_stage05!(
    SnapshotWritesTheAssigner,
    SnapshotWritesTheAssignerOperator,
    snapshot_writes_the_assigner
);

/// Each mutant, the check that must reject it and the requirement its failure names.
#[rstest]
#[case::no_window_is_not_late(drive::<NoWindowIsNotLate>, "lateness", "05-R10")]
#[case::snapshot_writes_the_assigner(drive::<SnapshotWritesTheAssigner>, "crash", "05-R15")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement) {
        crate::fail(&why);
    }
}
