//! Operators whose snapshot is binary, or hex: each key's JSON and its value's JSON
//! behind their lengths, where the digit forgeries find no number to change and a key
//! renamed to another length breaks a length before any check runs (the fifth red
//! team's w02-03, w02-05, w02-07); lengths written in one or two bytes (w02-06); and the
//! same formats read strictly, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** (w02-05) the binary snapshot opens with the number of keys as a `u64`,
/// "for whoever reads the file", which `restore` skips: the pairs say it all.
/// **Verdict:** `contract`: its own snapshot with a byte of that count changed restores
/// an operator whose own snapshot writes the count it holds.
pub mod binary_count_never_read {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::binary::write(&this.state.snapshot(), true) }
        fn restore(key_fn, function, bytes) {
            let (_count, pairs) = super::binary::read(bytes, true)?;
            super::binary::ensure_in_order(&pairs)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** (w02-03) the binary snapshot of pairs, whose `restore` refuses a key it
/// already holds but takes the keys in any order ("a map sorts them anyway").
/// **Verdict:** `contract`: its own snapshot of `{cherry: 1, medlar: 2}` with `medlar`
/// written `banana` (the same length) restores, though no snapshot lists a key out of
/// order.
pub mod binary_order_never_checked {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::binary::write(&this.state.snapshot(), false) }
        fn restore(key_fn, function, bytes) {
            let (_, pairs) = super::binary::read(bytes, false)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                anyhow::ensure!(op.state.get(&key).is_none(), "not a snapshot: a key twice");
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** (w02-07) the snapshot is the hex of `{"keys": N, "pairs": [...]}`, and
/// `restore` never compares `N` with the pairs.
/// **Verdict:** `contract`: its own snapshot with a hex digit of `N` changed restores an
/// operator that writes the count it holds.
pub mod hex_count_never_read {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::hex::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let (_count, pairs) = super::hex::read(bytes)?;
            super::binary::ensure_in_order(&pairs)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** (w02-06) each key's JSON and its value's JSON behind a length in one
/// byte ("keys are words, values are counts"): `snapshot` refuses a part past 255 bytes.
/// **Verdict:** `contract`: the snapshot of an operator holding a key of 256 bytes fails.
pub mod one_byte_lengths {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::narrow::write(&this.state.snapshot(), 1) }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            for (key, value) in super::narrow::read(bytes, 1)? {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** the same behind a length in two bytes ("no key is 64 KiB").
/// **Verdict:** `contract`: the snapshot of an operator holding a key of 2^16 + 1 bytes
/// fails.
pub mod two_byte_lengths {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::narrow::write(&this.state.snapshot(), 2) }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            for (key, value) in super::narrow::read(bytes, 2)? {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** the binary format with its count, read strictly: the count must count
/// the pairs, the keys must be in order, nothing may follow.
pub mod binary_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::binary::write(&this.state.snapshot(), true) }
        fn restore(key_fn, function, bytes) {
            let (count, pairs) = super::binary::read(bytes, true)?;
            anyhow::ensure!(count == pairs.len() as u64, "not a snapshot: a wrong count");
            super::binary::ensure_in_order(&pairs)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** the hex format, read strictly: lower-case hex, a count that counts.
pub mod hex_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::hex::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let (count, pairs) = super::hex::read(bytes)?;
            anyhow::ensure!(count == pairs.len() as u64, "not a snapshot: a wrong count");
            super::binary::ensure_in_order(&pairs)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// The binary format: optionally the number of keys (`u64`, little-endian), then each
/// key's JSON and its value's JSON, each behind its length (`u32`, little-endian).
mod binary {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    pub fn write<K: Serialize, V: Serialize>(
        state: &std::collections::BTreeMap<K, V>,
        counted: bool,
    ) -> anyhow::Result<Vec<u8>> {
        let mut out = Vec::new();
        if counted {
            out.extend((state.len() as u64).to_le_bytes());
        }
        for (key, value) in state {
            for part in [serde_json::to_vec(key)?, serde_json::to_vec(value)?] {
                out.extend(u32::try_from(part.len())?.to_le_bytes());
                out.extend(part);
            }
        }
        Ok(out)
    }

    /// The count (0 where there is none), and the pairs in the order written.
    pub fn read<K: DeserializeOwned, V: DeserializeOwned>(
        bytes: &[u8],
        counted: bool,
    ) -> anyhow::Result<(u64, Vec<(K, V)>)> {
        fn part<'a>(rest: &mut &'a [u8]) -> anyhow::Result<&'a [u8]> {
            anyhow::ensure!(rest.len() >= 4, "not a snapshot: cut short");
            let len = u32::from_le_bytes(rest[..4].try_into()?) as usize;
            anyhow::ensure!(rest.len() - 4 >= len, "not a snapshot: cut short");
            let (head, tail) = rest[4..].split_at(len);
            *rest = tail;
            Ok(head)
        }
        let (count, mut rest) = if counted {
            anyhow::ensure!(bytes.len() >= 8, "not a snapshot: no count");
            (u64::from_le_bytes(bytes[..8].try_into()?), &bytes[8..])
        } else {
            (0, bytes)
        };
        let mut pairs = Vec::new();
        while !rest.is_empty() {
            let key = serde_json::from_slice(part(&mut rest)?)?;
            let value = serde_json::from_slice(part(&mut rest)?)?;
            pairs.push((key, value));
        }
        Ok((count, pairs))
    }

    /// Refuses a key twice or out of order, as the state never writes them.
    pub fn ensure_in_order<K: Ord, V>(pairs: &[(K, V)]) -> anyhow::Result<()> {
        anyhow::ensure!(
            pairs.windows(2).all(|pair| pair[0].0 < pair[1].0),
            "not a snapshot: its keys are repeated or out of order"
        );
        Ok(())
    }
}

/// The binary format of pairs behind lengths of `width` bytes (little-endian), read
/// strictly: keys in order, nothing cut short.
mod narrow {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    pub fn write<K: Serialize, V: Serialize>(
        state: &std::collections::BTreeMap<K, V>,
        width: usize,
    ) -> anyhow::Result<Vec<u8>> {
        let mut out = Vec::new();
        for (key, value) in state {
            for part in [serde_json::to_vec(key)?, serde_json::to_vec(value)?] {
                anyhow::ensure!(part.len() >> (8 * width) == 0, "a key or value too long");
                out.extend(&part.len().to_le_bytes()[..width]);
                out.extend(part);
            }
        }
        Ok(out)
    }

    fn part<'a>(rest: &mut &'a [u8], width: usize) -> anyhow::Result<&'a [u8]> {
        anyhow::ensure!(rest.len() >= width, "not a snapshot: cut short");
        let mut len = [0_u8; 8];
        len[..width].copy_from_slice(&rest[..width]);
        let len = usize::try_from(u64::from_le_bytes(len))?;
        anyhow::ensure!(rest.len() - width >= len, "not a snapshot: cut short");
        let (head, tail) = rest[width..].split_at(len);
        *rest = tail;
        Ok(head)
    }

    /// The pairs, refused when cut short or out of order.
    pub fn read<K: DeserializeOwned + Ord, V: DeserializeOwned>(
        bytes: &[u8],
        width: usize,
    ) -> anyhow::Result<Vec<(K, V)>> {
        let mut rest = bytes;
        let mut pairs = Vec::new();
        while !rest.is_empty() {
            let key = serde_json::from_slice(part(&mut rest, width)?)?;
            let value = serde_json::from_slice(part(&mut rest, width)?)?;
            pairs.push((key, value));
        }
        super::binary::ensure_in_order(&pairs)?;
        Ok(pairs)
    }
}

/// The hex format: the lower-case hex of `{"keys": N, "pairs": [[key, value], ...]}`.
mod hex {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Counted<P> {
        keys: u64,
        pairs: P,
    }

    pub fn write<K: Serialize, V: Serialize>(
        state: &std::collections::BTreeMap<K, V>,
    ) -> anyhow::Result<Vec<u8>> {
        let pairs: Vec<(&K, &V)> = state.iter().collect();
        let json = serde_json::to_vec(&Counted {
            keys: state.len() as u64,
            pairs,
        })?;
        Ok(json
            .iter()
            .flat_map(|b| format!("{b:02x}").into_bytes())
            .collect())
    }

    pub fn read<K: DeserializeOwned, V: DeserializeOwned>(
        bytes: &[u8],
    ) -> anyhow::Result<(u64, Vec<(K, V)>)> {
        anyhow::ensure!(bytes.len().is_multiple_of(2), "not a snapshot: odd hex");
        let lower = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
        anyhow::ensure!(
            bytes.iter().all(lower),
            "not a snapshot: not lower-case hex"
        );
        let json = bytes
            .chunks(2)
            .map(|pair| u8::from_str_radix(std::str::from_utf8(pair)?, 16).map_err(Into::into))
            .collect::<anyhow::Result<Vec<u8>>>()?;
        let counted: Counted<Vec<(K, V)>> = serde_json::from_slice(&json)?;
        Ok((counted.keys, counted.pairs))
    }
}

graders::impl_stage02!(
    BinaryCountNeverRead,
    BinaryCountNeverReadSpy,
    binary_count_never_read
);
graders::impl_stage02!(
    BinaryOrderNeverChecked,
    BinaryOrderNeverCheckedSpy,
    binary_order_never_checked
);
graders::impl_stage02!(
    HexCountNeverRead,
    HexCountNeverReadSpy,
    hex_count_never_read
);
graders::impl_stage02!(OneByteLengths, OneByteLengthsSpy, one_byte_lengths);
graders::impl_stage02!(TwoByteLengths, TwoByteLengthsSpy, two_byte_lengths);
graders::impl_stage02!(BinarySnapshot, BinarySnapshotSpy, binary_snapshot);
graders::impl_stage02!(HexSnapshot, HexSnapshotSpy, hex_snapshot);

accepted!(stage02_binary_snapshot_passes: KeyedStateStage, drive::<BinarySnapshot>);
accepted!(stage02_hex_snapshot_passes: KeyedStateStage, drive::<HexSnapshot>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name.
#[rstest]
#[case::binary_count_never_read(drive::<BinaryCountNeverRead>, "contract", "02-R10")]
#[case::binary_order_never_checked(drive::<BinaryOrderNeverChecked>, "contract", "02-R10")]
#[case::hex_count_never_read(drive::<HexCountNeverRead>, "contract", "02-R10")]
#[case::one_byte_lengths(drive::<OneByteLengths>, "contract", "02-R15")]
#[case::two_byte_lengths(drive::<TwoByteLengths>, "contract", "02-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
