//! Stage 03 subtasks whose snapshot is a format of their own, not JSON (lines of text,
//! JSON behind a header), from the red team of 2026-12-06: the forgeries that change a
//! number, and those that rename a key, reach them all the same. Also an error message
//! that names `max_parallelism` where `parallelism` is wrong.

use crate::accepted;
use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// One line per key, in key order: `[<key group> ]<key in lower-case hex> <value as
/// JSON>\n`, the key group written when `grouped`. Read back strictly: each line ends, the
/// hex is lower case, the value is written as `snapshot` writes it, the keys increase.
macro_rules! line_format {
    () => {
        fn write_lines<V: serde::Serialize>(
            pairs: impl IntoIterator<Item = (Vec<u8>, V)>,
            group_of: impl Fn(&[u8]) -> anyhow::Result<Option<u32>>,
        ) -> anyhow::Result<Vec<u8>> {
            let mut out = String::new();
            for (key, value) in pairs {
                if let Some(group) = group_of(&key)? {
                    out.push_str(&format!("{group} "));
                }
                let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
                out.push_str(&format!("{hex} {}\n", serde_json::to_string(&value)?));
            }
            Ok(out.into_bytes())
        }

        /// The lines of `bytes`: each line's key group (when `grouped`), key and value.
        fn read_lines<V: serde::Serialize + serde::de::DeserializeOwned>(
            bytes: &[u8],
            grouped: bool,
        ) -> anyhow::Result<Vec<(Option<u32>, Vec<u8>, V)>> {
            let text = std::str::from_utf8(bytes)?;
            let mut entries: Vec<(Option<u32>, Vec<u8>, V)> = Vec::new();
            let mut rest = text;
            while !rest.is_empty() {
                let (mut line, after) = rest
                    .split_once('\n')
                    .ok_or_else(|| anyhow::anyhow!("not a snapshot: a line without its end"))?;
                rest = after;
                let mut group = None;
                if grouped {
                    let (written, tail) = line
                        .split_once(' ')
                        .ok_or_else(|| anyhow::anyhow!("not a snapshot: no key group"))?;
                    group = Some(written.parse()?);
                    line = tail;
                }
                let (hex, value) = line
                    .split_once(' ')
                    .ok_or_else(|| anyhow::anyhow!("not a snapshot: a line without a value"))?;
                anyhow::ensure!(
                    hex.len() % 2 == 0 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
                    "not a snapshot: a key that is not lower-case hex"
                );
                let key = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                    .collect::<Result<Vec<u8>, _>>()?;
                let read: V = serde_json::from_str(value)?;
                anyhow::ensure!(
                    serde_json::to_string(&read)? == value,
                    "not a snapshot: a value not written as snapshot writes it"
                );
                anyhow::ensure!(
                    entries.last().is_none_or(|(_, last, _)| *last < key),
                    "not a snapshot: keys repeated or out of order"
                );
                entries.push((group, key, read));
            }
            Ok(entries)
        }
    };
}

/// **Control:** (the red team's c03-03) a line per key, the key in hex and the value as
/// JSON, read back strictly; an empty subtask is empty bytes.
mod line_snapshot {
    pub use solution03::*;
    line_format!();

    subtask_around_the_reference! {
        snapshot(state) {
            write_lines(state, |_| Ok(None))
        }
        restore(bytes) {
            read_lines::<V>(bytes, false)?
                .into_iter()
                .map(|(_, key, value)| (key, value))
                .collect()
        }
    }
}
graders::impl_stage03!(LineSnapshot, line_snapshot);
accepted!(stage03_line_snapshot_passes: Parallelism, drive::<LineSnapshot>);

/// **Mistake:** (the red team's w03-05) a line per key with its key group written first,
/// and `restore` keeps a line when the group written there is one of its own ("the
/// snapshot already says where each key belongs"), without hashing the key again.
/// **Verdict:** `errors`: its snapshot of `{"k": 1}`, `2 6b 1`, with the group changed to
/// 4 restores subtask 1 of 2 holding `k`, whose group subtask 0 owns (03-R7).
mod line_snapshot_trusts_written_group {
    pub use solution03::*;
    line_format!();

    /// A subtask's range, `max_parallelism` and keyed state (its own, so that a restore
    /// may keep what it likes).
    pub struct KeyedSubtask<V> {
        owned: std::ops::RangeInclusive<u32>,
        max_parallelism: u32,
        state: solution02::KeyedState<Vec<u8>, V>,
    }

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            Ok(Self {
                owned: key_group_range(index, parallelism, max_parallelism)?,
                max_parallelism,
                state: solution02::KeyedState::new(),
            })
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.owned.clone()
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            &self.state
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            let group = key_group_for(key, self.max_parallelism)?;
            anyhow::ensure!(self.owned.contains(&group), "key {key:?} is not owned here");
            self.state.update(key.to_vec(), f);
            Ok(())
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            write_lines(self.state.snapshot(), |key| {
                key_group_for(key, self.max_parallelism).map(Some)
            })
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = Self::new(index, parallelism, max_parallelism)?;
            for bytes in snapshots {
                for (group, key, value) in read_lines::<V>(bytes, true)? {
                    // The snapshot says which key group each key is in: no need to hash.
                    if !group.is_some_and(|g| subtask.owned.contains(&g)) {
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
}
graders::impl_stage03!(
    LineSnapshotTrustsWrittenGroup,
    line_snapshot_trusts_written_group
);

/// **Mistake:** (the red team's w03-06) the snapshot is a header line, then the pairs'
/// JSON; `restore` reads the pairs itself and lets a key listed twice in one snapshot
/// overwrite its first value ("the later entry is the newer value").
/// **Verdict:** `errors`: its snapshot of `{"cherry": 1, "medlar": 2}` with `medlar`
/// written `cherry` restores `{"cherry": 2}`, whose own snapshot is other bytes (03-R9).
mod header_snapshot_keeps_a_repeated_key {
    pub use solution03::*;

    const HEADER: &[u8] = b"keyed-subtask v1\n";

    subtask_around_the_reference! {
        snapshot(state) {
            let pairs: Vec<(Vec<u8>, V)> = state.into_iter().collect();
            Ok([HEADER.to_vec(), serde_json::to_vec(&pairs)?].concat())
        }
        restore(bytes) {
            let json = bytes
                .strip_prefix(HEADER)
                .ok_or_else(|| anyhow::anyhow!("not a snapshot: no header"))?;
            let listed: Vec<(Vec<u8>, V)> = serde_json::from_slice(json)?;
            // A key listed twice: the later entry is the newer value.
            let read: std::collections::BTreeMap<Vec<u8>, V> = listed.into_iter().collect();
            read.into_iter().collect()
        }
    }
}
graders::impl_stage03!(
    HeaderSnapshotKeepsARepeatedKey,
    header_snapshot_keeps_a_repeated_key
);

/// **Mistake:** (the red team's w03-01) one check of the parallelism, worded from the
/// `max_parallelism` it is checked against: "max_parallelism 8 does not allow 0
/// subtasks", which never names the argument that is wrong.
/// **Verdict:** `errors`: `key_group_range(0, 0, 8)` is refused with an error that names
/// only `max_parallelism` (03-R23).
mod errors_blame_max_parallelism {
    pub use solution03::*;

    fn check_parallelism(parallelism: u32, max_parallelism: u32) -> anyhow::Result<()> {
        anyhow::ensure!(
            (1..=max_parallelism).contains(&parallelism),
            "max_parallelism {max_parallelism} does not allow {parallelism} subtasks"
        );
        Ok(())
    }

    pub fn key_group_range(
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        check_parallelism(parallelism, max_parallelism)?;
        solution03::key_group_range(index, parallelism, max_parallelism)
    }

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        check_parallelism(parallelism, max_parallelism)?;
        solution03::operator_index_for(key_group, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(ErrorsBlameMaxParallelism, errors_blame_max_parallelism);

/// The mutants above, the check that must reject each and the requirement it must name.
#[rstest]
#[case::line_snapshot_trusts_written_group(drive::<LineSnapshotTrustsWrittenGroup>, "errors", "03-R7")]
#[case::header_snapshot_keeps_a_repeated_key(drive::<HeaderSnapshotKeepsARepeatedKey>, "errors", "03-R9")]
#[case::errors_blame_max_parallelism(drive::<ErrorsBlameMaxParallelism>, "errors", "03-R23")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
