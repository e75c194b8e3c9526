//! Stage 05 mutants whose `restore` reads a second layout that its `snapshot` never
//! writes (the sixteenth red team's w05-04), and the correct variant that reads another
//! layout only as a derived `Deserialize` of its own type does: the probe of one state in
//! other layouts (`graders::stage05::layouts`) must tell them apart.

use graders::stage05::layouts::{LAYOUTS, RECORDS, WATERMARK};
use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use crate::accepted;

/// The reference's flat list of `[window, key, sum, count]` entries grouped by window, as
/// w05-04 writes them: `{"window": window, "keys": [[key, sum, count], ...]}` per window.
fn grouped(open: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut windows: Vec<serde_json::Value> = Vec::new();
    for entry in open.as_array().into_iter().flatten() {
        let keyed = serde_json::json!([entry[1], entry[2], entry[3]]);
        match windows.last_mut() {
            Some(group) if group["window"] == entry[0] => {
                if let Some(keys) = group["keys"].as_array_mut() {
                    keys.push(keyed);
                }
            }
            _ => windows.push(serde_json::json!({"window": entry[0], "keys": [keyed]})),
        }
    }
    windows
}

/// Groups of `{"window", "keys"}` back in the reference's flat form, for the reference to
/// read (and refuse, where a group or an entry is of another shape or a group is empty).
fn flattened(windows: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
    let mut open = Vec::new();
    for group in windows.as_array().into_iter().flatten() {
        let fields = group.as_object().map_or(0, serde_json::Map::len);
        anyhow::ensure!(fields == 2, "not a snapshot: a group of {fields} fields");
        let keys = group["keys"].as_array().cloned().unwrap_or_default();
        anyhow::ensure!(!keys.is_empty(), "not a snapshot: a window with no key");
        for entry in keys {
            open.push(match entry.as_array() {
                Some(fields) => [&[group["window"].clone()][..], fields].concat().into(),
                None => entry,
            });
        }
    }
    Ok(open.into())
}

/// **Mistake:** the snapshot groups the aggregates by window, and `restore` still reads
/// "snapshots from before the grouping", the flat `{"watermark", "open": [(window, key,
/// sum, count)]}` its `snapshot` no longer writes, by a path of its own (the sixteenth
/// red team's w05-04): bytes that are not its snapshot restore.
/// **Verdict:** `contract`: the state of `W(1)`, `a@3=4`, `a@5=3`, `b@4=-2`, `a@13=5` in
/// the reference's flat layout restores into aggregates grouped by window, no derived
/// reading of the bytes (05-R16).
mod legacy_flat_read {
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
            let flat: serde_json::Value = serde_json::from_slice(&self.0.snapshot()?)?;
            let windows = super::grouped(&flat["open"]);
            let snapshot = serde_json::json!({"watermark": flat["watermark"], "windows": windows});
            Ok(serde_json::to_vec(&snapshot)?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let tree = graders::harness::strict_json::read(bytes)?;
            let fields = tree.as_object();
            let grouped = fields.is_some_and(|fields| {
                fields.len() == 2
                    && fields.contains_key("watermark")
                    && fields.contains_key("windows")
            });
            if !grouped {
                // Snapshots from before the aggregates were grouped by window listed them
                // flat: the reference still reads those.
                return Ok(Self(Inner::restore(assigner, bytes)?));
            }
            let open = super::flattened(&tree["windows"])?;
            let flat = serde_json::json!({"watermark": tree["watermark"], "open": open});
            Ok(Self(Inner::restore(assigner, &serde_json::to_vec(&flat)?)?))
        }
    }
}
graders::impl_stage05!(LegacyFlatRead, LegacyFlatReadOperator, legacy_flat_read);

/// A correct variant: each aggregate is a struct of named fields, and `restore` is a
/// plain derived `Deserialize` of its own types (no `deny_unknown_fields`, the watermark
/// an `Option`): it skips a field it does not know, reads a left-out watermark as `None`
/// and an aggregate written as the list of its fields, so it reads the reference's flat
/// layout as its own, into the state those bytes say, which the brief allows.
mod named_aggregates {
    use anyhow::Result;
    use serde::{Deserialize, Serialize, de::DeserializeOwned};
    use serde_json::Value;
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>);

    /// The snapshot; its fields are JSON values, which the reference then reads as its
    /// own types (and refuses where they are of others).
    #[derive(Serialize, Deserialize)]
    struct Snapshot {
        watermark: Option<Value>,
        open: Vec<Aggregate>,
    }

    /// One aggregate, its fields in the order a derive reads them from a list.
    #[derive(Serialize, Deserialize)]
    struct Aggregate {
        window: Value,
        key: Value,
        sum: Value,
        count: Value,
    }

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner))
        }
        delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let flat: Value = serde_json::from_slice(&self.0.snapshot()?)?;
            let open = flat["open"].as_array().cloned().unwrap_or_default();
            let snapshot = Snapshot {
                watermark: Some(flat["watermark"].clone()).filter(|w| !w.is_null()),
                open: open
                    .into_iter()
                    .map(|entry| Aggregate {
                        window: entry[0].clone(),
                        key: entry[1].clone(),
                        sum: entry[2].clone(),
                        count: entry[3].clone(),
                    })
                    .collect(),
            };
            Ok(serde_json::to_vec(&snapshot)?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let snapshot: Snapshot = serde_json::from_slice(bytes)?;
            let open: Vec<Value> = snapshot
                .open
                .into_iter()
                .map(|a| serde_json::json!([a.window, a.key, a.sum, a.count]))
                .collect();
            let flat = serde_json::json!({"watermark": snapshot.watermark, "open": open});
            Ok(Self(Inner::restore(assigner, &serde_json::to_vec(&flat)?)?))
        }
    }
}
graders::impl_stage05!(NamedAggregates, NamedAggregatesOperator, named_aggregates);
accepted!(stage05_named_aggregates_read_by_a_plain_derive_pass: Windows, drive::<NamedAggregates>);

/// A correct variant (the nineteenth red team's c05-3): the reference's layout, its
/// aggregates listed key by key (each key's windows in order) where the reference lists
/// them window by window. `restore` reads the list in any order, as a derive does, so
/// the reference's snapshot of the probe's state is its own layout in another order,
/// read into the state those bytes say, and its snapshot of that is its own order.
mod key_major {
    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    use serde_json::Value;
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>);

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner))
        }
        delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let mut flat: Value = serde_json::from_slice(&self.0.snapshot()?)?;
            if let Some(open) = flat["open"].as_array_mut() {
                // Each entry is [window, key, sum, count]: by key, then by window start.
                open.sort_by_key(|entry| (entry[1].to_string(), entry[0]["start"].as_i64()));
            }
            Ok(serde_json::to_vec(&flat)?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            Ok(Self(Inner::restore(assigner, bytes)?))
        }
    }
}
graders::impl_stage05!(KeyMajor, KeyMajorOperator, key_major);
accepted!(stage05_aggregates_listed_key_by_key_pass: Windows, drive::<KeyMajor>);

/// A correct variant (the twentieth red team's c05-21): the reference's snapshot with a
/// format version beside it, `"version":1`, which `restore` reads as a derive whose
/// `#[serde(default = "version_one")]` reads a version left out as 1: it reads the
/// reference's layout as its own, into the state those bytes say.
mod versioned {
    use anyhow::Result;
    use serde::{Deserialize, Serialize, de::DeserializeOwned};
    use serde_json::Value;
    use solution05::WindowOperator as Inner;
    pub use solution05::*;

    pub struct WindowOperator<K, A>(Inner<K, A>);

    #[derive(Serialize, Deserialize)]
    struct Version {
        #[serde(default = "version_one")]
        version: u32,
    }

    fn version_one() -> u32 {
        1
    }

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self(Inner::new(assigner))
        }
        delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let mut flat: Value = serde_json::from_slice(&self.0.snapshot()?)?;
            if let Some(members) = flat.as_object_mut() {
                members.insert("version".to_owned(), Value::from(1));
            }
            Ok(serde_json::to_vec(&flat)?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let mut flat: Value = serde_json::from_slice(bytes)?;
            let Version { version } = serde_json::from_value(flat.clone())?;
            anyhow::ensure!(version == 1, "version {version} is not 1");
            if let Some(members) = flat.as_object_mut() {
                members.remove("version");
            }
            Ok(Self(Inner::restore(assigner, &serde_json::to_vec(&flat)?)?))
        }
    }
}
graders::impl_stage05!(Versioned, VersionedOperator, versioned);
accepted!(stage05_a_version_left_out_read_as_1_passes: Windows, drive::<Versioned>);

/// The first layout of the probe is the reference's own snapshot of its state, so that
/// the reference is never handed its own layout as another, and a learner's restore that
/// also reads the reference's is.
#[test]
fn the_first_layout_is_the_reference_s_snapshot_of_the_state() {
    let mut operator = solution05::WindowOperator::new(solution05::Tumbling::new(10).unwrap());
    operator.on_watermark(WATERMARK);
    for (key, ts, value) in RECORDS {
        operator.on_record(key.to_owned(), ts, value);
    }
    let own: serde_json::Value = serde_json::from_slice(&operator.snapshot().unwrap()).unwrap();
    let first: serde_json::Value = serde_json::from_str(LAYOUTS[0].1).unwrap();
    assert_eq!(own, first);
}

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: a new mistake).
#[rstest]
#[case::legacy_flat_read(drive::<LegacyFlatRead>, "contract", "05-R16")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement) {
        crate::fail(&why);
    }
}
