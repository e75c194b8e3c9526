//! Stage 03 mutants that take a value of 0, the default, for no state: `update` or
//! `snapshot` drops the key, which only `None` removes.

/// The reference's `KeyedSubtask`, wrapped so that one method can take the default value
/// for none: `$update` filters what `f` returns, `$snapshot` filters what is written.
macro_rules! subtask_dropping_zeros {
    (update: $update:expr, snapshot: $snapshot:expr) => {
        pub use solution03::*;

        use serde::Serialize;
        use serde::de::DeserializeOwned;
        use std::ops::RangeInclusive;

        pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

        impl<V: Clone + Serialize + DeserializeOwned + Default + PartialEq> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                solution03::KeyedSubtask::new(index, parallelism, max_parallelism).map(Self)
            }
            pub fn key_groups(&self) -> RangeInclusive<u32> {
                self.0.key_groups()
            }
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                if $update {
                    return self.0.update(key, |current| {
                        f(current).filter(|value| *value != V::default())
                    });
                }
                self.0.update(key, f)
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                self.0.state()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                if $snapshot {
                    let mut kept = solution02::KeyedState::new();
                    for (key, value) in self.0.state().snapshot() {
                        if value != V::default() {
                            kept.put(key, value);
                        }
                    }
                    return kept.to_bytes();
                }
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
    };
}

/// **Mistake:** `update` drops a key whose new value is the default ("a count of 0 is no
/// state"), so `update(key, |_| Some(0))` removes it.
/// **Verdict:** `contract`: after `update("Q", |_| Some(0))` the state is `{}`, not
/// `{"Q": 0}` (03-R4).
pub mod update_drops_a_zero {
    subtask_dropping_zeros!(update: true, snapshot: false);
}
graders::impl_stage03!(UpdateDropsAZero, update_drops_a_zero);

/// **Mistake:** `snapshot` leaves out the keys whose value is 0 ("nothing worth saving"),
/// so a restore loses them.
/// **Verdict:** `contract`: `update("Q", |_| Some(0))`, then a restore from the snapshot,
/// holds `{}`, not `{"Q": 0}` (03-R7).
pub mod snapshot_skips_zeros {
    subtask_dropping_zeros!(update: false, snapshot: true);
}
graders::impl_stage03!(SnapshotSkipsZeros, snapshot_skips_zeros);
