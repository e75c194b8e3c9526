//! Stage 03 mutants of `KeyedSubtask`: updates that trust their routing or keep a removed
//! value, key groups that are not the index's range, snapshots pinned to a parallelism,
//! restores that keep too much, too little, a key found twice, or unreadable bytes.

/// How a scaffold subtask departs from the brief: each mutant sets exactly one.
#[derive(Clone, Copy)]
pub struct Quirks {
    /// `restore` keeps the groups `start..end`, not `start..=end`.
    pub drop_range_end: bool,
    /// `restore` keeps every key of its snapshots.
    pub keep_every_key: bool,
    /// `update` counts a key whatever its group.
    pub trust_routing: bool,
    /// `update` keeps the value when `f` returns `None`.
    pub none_keeps: bool,
    /// The snapshot carries its parallelism, and `restore` refuses another.
    pub pin_parallelism: bool,
    /// `restore` lets a later snapshot's value of a key win over an earlier one's.
    pub later_wins: bool,
    /// `restore` reads bytes it cannot parse as an empty snapshot.
    pub garbage_is_empty: bool,
    /// `key_groups()` cuts the ranges with floor division.
    pub floor_groups: bool,
    /// `restore` reads empty bytes as an empty snapshot.
    pub empty_is_empty: bool,
    /// `restore` reads a JSON object as a snapshot whose fields all default.
    pub object_is_empty: bool,
    /// `restore` reads the first JSON value and ignores the bytes after it.
    pub stops_after_the_value: bool,
}

/// A `KeyedSubtask` that is the brief's, but for the one quirk of `$quirks`.
macro_rules! subtask_with {
    ($quirks:expr) => {
        const QUIRKS: $crate::stage03::subtask::Quirks = $quirks;

        pub struct KeyedSubtask<V> {
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            state: solution02::KeyedState<Vec<u8>, V>,
        }

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                solution03::key_group_range(index, parallelism, max_parallelism)?;
                Ok(Self {
                    index,
                    parallelism,
                    max_parallelism,
                    state: solution02::KeyedState::new(),
                })
            }
            pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
                let (i, p, maxp) = (self.index, self.parallelism, self.max_parallelism);
                if QUIRKS.floor_groups {
                    return i * maxp / p..=(i + 1) * maxp / p - 1;
                }
                solution03::key_group_range(i, p, maxp).expect("validated by new")
            }
            fn owns(&self, key: &[u8]) -> anyhow::Result<bool> {
                let range = solution03::key_group_range(
                    self.index,
                    self.parallelism,
                    self.max_parallelism,
                )?;
                Ok(range.contains(&solution03::key_group_for(key, self.max_parallelism)?))
            }
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                anyhow::ensure!(
                    QUIRKS.trust_routing || self.owns(key)?,
                    "key {key:?} is not in this subtask's key groups"
                );
                if QUIRKS.none_keeps {
                    if let Some(value) = f(self.state.get(&key.to_vec()).cloned()) {
                        self.state.put(key.to_vec(), value);
                    }
                    return Ok(());
                }
                self.state.update(key.to_vec(), f);
                Ok(())
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                &self.state
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                if QUIRKS.pin_parallelism {
                    let pairs = self.state.snapshot().into_iter().collect::<Vec<_>>();
                    return Ok(serde_json::to_vec(&(self.parallelism, pairs))?);
                }
                self.state.to_bytes()
            }
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let range = solution03::key_group_range(index, parallelism, max_parallelism)?;
                let mut subtask = Self::new(index, parallelism, max_parallelism)?;
                for bytes in snapshots {
                    let pairs: Vec<(Vec<u8>, V)> = if QUIRKS.pin_parallelism {
                        let (at, pairs): (u32, Vec<(Vec<u8>, V)>) = serde_json::from_slice(bytes)?;
                        anyhow::ensure!(
                            at == parallelism,
                            "a snapshot of parallelism {at} cannot restore a subtask of {parallelism}"
                        );
                        // The pairs as strictly as the reference reads them.
                        anyhow::ensure!(
                            pairs.windows(2).all(|w| w[0].0 < w[1].0),
                            "not a snapshot: keys repeated or out of order"
                        );
                        pairs
                    } else {
                        if (QUIRKS.empty_is_empty && bytes.is_empty())
                            || (QUIRKS.object_is_empty && bytes.as_slice() == b"{}")
                        {
                            continue;
                        }
                        if QUIRKS.stops_after_the_value {
                            let first = serde_json::Deserializer::from_slice(bytes)
                                .into_iter::<Vec<(Vec<u8>, V)>>()
                                .next()
                                .ok_or_else(|| anyhow::anyhow!("no snapshot"))??;
                            first
                        } else {
                        let old = match solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes) {
                            Ok(old) => old,
                            Err(_) if QUIRKS.garbage_is_empty => solution02::KeyedState::new(),
                            Err(e) => return Err(e),
                        };
                        old.snapshot().into_iter().collect()
                        }
                    };
                    for (key, value) in pairs {
                        let group = solution03::key_group_for(&key, max_parallelism)?;
                        let keep = if QUIRKS.keep_every_key {
                            true
                        } else if QUIRKS.drop_range_end {
                            (*range.start()..*range.end()).contains(&group)
                        } else {
                            range.contains(&group)
                        };
                        if !keep {
                            continue;
                        }
                        anyhow::ensure!(
                            QUIRKS.later_wins || subtask.state.get(&key).is_none(),
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

/// **Mistake:** `restore` keeps the keys of `start..end` (a half-open range), so the
/// last key group of every new subtask loses its state at the rescale boundary.
/// **Verdict:** `crash` fails: right after the restore a key of the last group is gone.
mod restore_drops_last_group {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        drop_range_end: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreDropsLastGroup, restore_drops_last_group);

/// **Mistake:** `restore` keeps every key of the snapshots it is given, without asking
/// which key groups the new subtask owns: two new subtasks sharing a parent both get its
/// keys.
/// **Verdict:** `crash` fails: after `1 -> 2` a key has state on both new subtasks.
mod restore_keeps_every_key {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        keep_every_key: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreKeepsEveryKey, restore_keeps_every_key);

/// **Mistake:** `update` counts any key it is given: routing is `partition`'s job, so the
/// subtask trusts it, where the brief has it refuse a key of a group it does not own.
/// **Verdict:** `contract` fails: `update` of a foreign key on subtask 1 of 3 returns
/// `Ok` and the key's state appears there.
mod update_trusts_routing {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        trust_routing: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(UpdateTrustsRouting, update_trusts_routing);

/// **Mistake:** `update` writes `f`'s value only when there is one: `None` leaves the
/// key's value as it was, where the brief says `None` removes the key.
/// **Verdict:** `contract` fails: after `update(k, +1)`, `update(k, |_| None)` the state
/// still holds `k`.
mod none_keeps_value {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        none_keeps: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(NoneKeepsValue, none_keeps_value);

/// **Mistake:** the snapshot records the parallelism it was taken at, and `restore`
/// refuses a snapshot of another one, "to be safe": a rescale can never restore.
/// **Verdict:** `contract` fails: a restore at another parallelism is an error (the
/// `crash` check fails too, at its first `p -> q` with `p != q`).
mod snapshot_pins_parallelism {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        pin_parallelism: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(SnapshotPinsParallelism, snapshot_pins_parallelism);

/// **Mistake:** `restore` puts each snapshot's keys over the earlier ones': a key found
/// in two snapshots silently keeps the last value, where the brief calls it an error.
/// **Verdict:** `contract` fails: a restore from `[snapshot(), snapshot()]` of a counted
/// key returns `Ok`.
mod restore_later_wins {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        later_wins: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreLaterWins, restore_later_wins);

/// **Mistake:** `restore` reads bytes it cannot parse as an empty state (the
/// `unwrap_or_default` reflex), where the brief calls them an error.
/// **Verdict:** `errors` fails: `restore(0, 1, 8, &[b"not a snapshot"])` returns a subtask.
mod restore_garbage_is_empty {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        garbage_is_empty: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreGarbageIsEmpty, restore_garbage_is_empty);

/// **Mistake:** `restore` skips an empty snapshot ("nothing was saved"), where the brief
/// calls bytes that are not a snapshot an error, and an empty subtask's snapshot is `[]`.
/// **Verdict:** `errors` fails: `restore(0, 1, 8, &[b""])` returns a subtask.
mod restore_skips_empty_bytes {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        empty_is_empty: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreSkipsEmptyBytes, restore_skips_empty_bytes);

/// **Mistake:** `restore` reads `{}` as a snapshot of nothing, as a serde struct whose
/// fields all default does, though this subtask never writes `{}`.
/// **Verdict:** `errors` fails: `restore(0, 1, 8, &[b"{}"])` returns a subtask.
mod restore_object_is_empty {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        object_is_empty: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreObjectIsEmpty, restore_object_is_empty);

/// **Mistake:** `restore` reads the first JSON value with a streaming deserializer and
/// never asks whether bytes follow it: a snapshot with anything after it restores.
/// **Verdict:** `errors` fails: its own snapshot of `{"k": 1}` with ` trailing` after it
/// restores.
mod restore_ignores_trailing {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        stops_after_the_value: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(RestoreIgnoresTrailing, restore_ignores_trailing);

/// **Mistake:** `key_groups()` recomputes the range inline with floor division, while
/// `update` and `restore` ask `key_group_range`: the subtask says it owns groups it
/// refuses.
/// **Verdict:** `contract` fails: subtask 1 of 3 of 10 says it owns `3..=5`, not `4..=6`.
mod key_groups_floor {
    pub use solution03::*;
    subtask_with!(super::Quirks {
        floor_groups: true,
        ..super::Quirks::NONE
    });
}
graders::impl_stage03!(KeyGroupsFloor, key_groups_floor);

impl Quirks {
    /// The brief's subtask: no quirk.
    pub const NONE: Quirks = Quirks {
        drop_range_end: false,
        keep_every_key: false,
        trust_routing: false,
        none_keeps: false,
        pin_parallelism: false,
        later_wins: false,
        garbage_is_empty: false,
        floor_groups: false,
        empty_is_empty: false,
        object_is_empty: false,
        stops_after_the_value: false,
    };
}

/// The scaffold without a quirk must pass: each mutant is rejected for its quirk alone.
mod no_quirk {
    pub use solution03::*;
    subtask_with!(super::Quirks::NONE);
}
graders::impl_stage03!(NoQuirk, no_quirk);
crate::accepted!(stage03_subtask_scaffold_passes: graders::stage03::Parallelism, graders::stage03::drive::<NoQuirk>);
