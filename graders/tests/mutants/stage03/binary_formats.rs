//! Stage 03 subtasks whose snapshot is binary: the number of keys as a `u64`, then each
//! key's bytes and its value's JSON behind their lengths, where the digit forgeries find
//! no number to change (the fifth red team's w03-04); the lengths in one byte (w03-06);
//! and the format read strictly, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

use crate::accepted;

/// The reference's `KeyedSubtask` with the binary snapshot; `restore` reads each
/// snapshot into the reference's own and restores from those, and compares the count
/// with the pairs where `$checks_count`. Each length takes `$width` bytes.
macro_rules! binary_subtask {
    (checks_count: $checks_count:expr, width: $width:expr) => {
        pub use solution03::*;

        use serde::Serialize;
        use serde::de::DeserializeOwned;
        use std::ops::RangeInclusive;

        pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

        impl<V: Clone + Serialize + DeserializeOwned> KeyedSubtask<V> {
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
                self.0.update(key, f)
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                self.0.state()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let state = self.0.state().snapshot();
                let mut out = (state.len() as u64).to_le_bytes().to_vec();
                for (key, value) in state {
                    for part in [key, serde_json::to_vec(&value)?] {
                        anyhow::ensure!(part.len() >> (8 * $width) == 0, "a key or value too long");
                        out.extend(&(part.len() as u64).to_le_bytes()[..$width]);
                        out.extend(part);
                    }
                }
                Ok(out)
            }
            pub fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                let mut own = Vec::new();
                for bytes in snapshots {
                    let (count, pairs) = read::<V>(bytes)?;
                    if $checks_count {
                        anyhow::ensure!(
                            count == pairs.len() as u64,
                            "not a snapshot: it says {count} keys and holds {}",
                            pairs.len()
                        );
                    }
                    let mut state = solution02::KeyedState::new();
                    for (key, value) in pairs {
                        state.put(key, value);
                    }
                    own.push(state.to_bytes()?);
                }
                solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, &own)
                    .map(Self)
            }
        }

        /// The count written, and the pairs, refused unless in order.
        fn read<V: DeserializeOwned>(bytes: &[u8]) -> anyhow::Result<(u64, Vec<(Vec<u8>, V)>)> {
            fn part<'a>(rest: &mut &'a [u8]) -> anyhow::Result<&'a [u8]> {
                anyhow::ensure!(rest.len() >= $width, "not a snapshot: cut short");
                let mut len = [0_u8; 8];
                len[..$width].copy_from_slice(&rest[..$width]);
                let len = usize::try_from(u64::from_le_bytes(len))?;
                anyhow::ensure!(rest[$width..].len() >= len, "not a snapshot: cut short");
                let (head, tail) = rest[$width..].split_at(len);
                *rest = tail;
                Ok(head)
            }
            anyhow::ensure!(bytes.len() >= 8, "not a snapshot: no count");
            let count = u64::from_le_bytes(bytes[..8].try_into()?);
            let mut rest = &bytes[8..];
            let mut pairs: Vec<(Vec<u8>, V)> = Vec::new();
            while !rest.is_empty() {
                let key = part(&mut rest)?.to_vec();
                let value = serde_json::from_slice(part(&mut rest)?)?;
                if let Some((last, _)) = pairs.last() {
                    anyhow::ensure!(*last < key, "not a snapshot: keys repeated or out of order");
                }
                pairs.push((key, value));
            }
            Ok((count, pairs))
        }
    };
}

/// **Mistake:** (w03-04) the count of keys heads the binary snapshot "for whoever reads
/// the file", and `restore` skips it.
/// **Verdict:** `errors`: its own snapshot of `{cherry: 1, medlar: 2}` with a byte of the
/// count changed restores a subtask that writes the count it holds (03-R9).
pub mod binary_count_never_read {
    binary_subtask!(checks_count: false, width: 4);
}
graders::impl_stage03!(BinaryCountNeverRead, binary_count_never_read);

/// **Mistake:** (w03-06) each key's bytes and its value's JSON behind a length in one
/// byte ("keys are short, values are counts"): `snapshot` refuses a key past 255 bytes.
/// **Verdict:** `contract`: the snapshot of a subtask holding a key of 256 bytes fails.
pub mod one_byte_lengths {
    binary_subtask!(checks_count: true, width: 1);
}
graders::impl_stage03!(OneByteLengths, one_byte_lengths);

/// **Control:** the same binary format, its count compared with the pairs.
pub mod binary_snapshot {
    binary_subtask!(checks_count: true, width: 4);
}
graders::impl_stage03!(BinarySnapshot, binary_snapshot);

accepted!(stage03_binary_snapshot_passes: Parallelism, drive::<BinarySnapshot>);

/// Each mutant, the check that must reject it and the requirement it must name.
#[rstest]
#[case::binary_count_never_read(drive::<BinaryCountNeverRead>, "errors", "03-R9")]
#[case::one_byte_lengths(drive::<OneByteLengths>, "contract", "03-R6")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
