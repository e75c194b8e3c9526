//! Stage 03 subtasks and `parents` written from the brief alone: a `KeyedSubtask` of its
//! own (not the reference's) with one slip each, and `parents` two ways.

/// How a hand-written subtask slips: each mutant sets exactly one.
#[derive(Clone, Copy)]
pub struct Slips {
    /// `new` checks the index and a parallelism of 0, not `parallelism <= max_parallelism`.
    pub new_skips_max: bool,
    /// `restore` checks the configuration, not the index: it keeps the keys whose owner
    /// is its index.
    pub restore_skips_index: bool,
    /// `update` applies `f` first and refuses a misrouted key after.
    pub update_then_refuse: bool,
}

impl Slips {
    const NONE: Slips = Slips {
        new_skips_max: false,
        restore_skips_index: false,
        update_then_refuse: false,
    };
}

/// A `KeyedSubtask` written from the brief, but for the one slip of `$slips`.
macro_rules! own_subtask {
    ($slips:expr) => {
        pub use solution03::*;
        const SLIPS: super::Slips = $slips;

        pub struct KeyedSubtask<V> {
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            state: solution02::KeyedState<Vec<u8>, V>,
        }

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                if SLIPS.new_skips_max {
                    anyhow::ensure!(parallelism > 0, "parallelism must be at least 1, got 0");
                    anyhow::ensure!(
                        index < parallelism,
                        "index {index} is not below {parallelism}"
                    );
                } else {
                    key_group_range(index, parallelism, max_parallelism)?;
                }
                Ok(Self {
                    index,
                    parallelism,
                    max_parallelism,
                    state: solution02::KeyedState::new(),
                })
            }
            pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
                key_group_range(self.index, self.parallelism, self.max_parallelism)
                    .expect("validated by new")
            }
            fn owner(&self, key: &[u8]) -> anyhow::Result<u32> {
                let group = key_group_for(key, self.max_parallelism)?;
                operator_index_for(group, self.parallelism, self.max_parallelism)
            }
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                let owner = self.owner(key)?;
                if SLIPS.update_then_refuse || owner == self.index {
                    self.state.update(key.to_vec(), f);
                }
                anyhow::ensure!(
                    owner == self.index,
                    "key {key:?} belongs to subtask {owner}, not {}",
                    self.index
                );
                Ok(())
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                &self.state
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                self.state.to_bytes()
            }
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let mut subtask = if SLIPS.restore_skips_index {
                    key_group_range(0, parallelism, max_parallelism)?;
                    Self {
                        index,
                        parallelism,
                        max_parallelism,
                        state: solution02::KeyedState::new(),
                    }
                } else {
                    Self::new(index, parallelism, max_parallelism)?
                };
                for bytes in snapshots {
                    let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
                    for (key, value) in old.snapshot() {
                        if subtask.owner(&key)? != index {
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

/// **Mistake:** `KeyedSubtask::new` checks the index against the parallelism and the
/// parallelism against 0, but not against `max_parallelism`.
/// **Verdict:** `errors`: `KeyedSubtask::new(0, 9, 8)` returns a subtask.
pub mod subtask_above_max {
    own_subtask!(super::Slips {
        new_skips_max: true,
        ..super::Slips::NONE
    });
}

/// **Mistake:** `KeyedSubtask::restore` checks the configuration but not the index: it
/// keeps the keys whose owner is its index, and an index out of range owns nothing.
/// **Verdict:** `errors`: `KeyedSubtask::restore(2, 2, 8, &[])` returns a subtask.
pub mod restore_index_unchecked {
    own_subtask!(super::Slips {
        restore_skips_index: true,
        ..super::Slips::NONE
    });
}

/// **Mistake:** `update` applies `f` and only then finds the key misrouted: it returns
/// the error, but the state has already changed.
/// **Verdict:** `contract`: after a refused `update` of a key it does not own, `state()`
/// holds that key.
pub mod update_then_refuse {
    own_subtask!(super::Slips {
        update_then_refuse: true,
        ..super::Slips::NONE
    });
}

/// **Control:** the brief's subtask written by hand (owners by `operator_index_for`, not
/// by range) and `parents` found by scanning every old range for an overlap.
pub mod parents_by_scan {
    own_subtask!(super::Slips::NONE);

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        let new = key_group_range(new_index, new_parallelism, max_parallelism)?;
        key_group_range(0, old_parallelism, max_parallelism)?;
        let mut found = Vec::new();
        for old in 0..old_parallelism {
            let range = key_group_range(old, old_parallelism, max_parallelism)?;
            if range.start() <= new.end() && new.start() <= range.end() {
                found.push(old);
            }
        }
        Ok(found)
    }
}

/// **Mistake:** `parents` walks from the old owner of the new range's last key group
/// down to the first's, and returns them in that order.
/// **Verdict:** `parents`: `parents(0, 2, 1, 2)` is `[1, 0]`, not `[0, 1]`.
pub mod parents_descending {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        let mut found =
            solution03::parents(new_index, old_parallelism, new_parallelism, max_parallelism)?;
        found.reverse();
        Ok(found)
    }
}
