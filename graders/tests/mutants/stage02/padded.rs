//! Stage 02 mutants whose readers find a snapshot in bytes that hold one and something
//! more (a key twice, keys out of order, a byte-order mark before, a second snapshot
//! after, whitespace JSON does not read, a character that is not UTF-8), and a correct line-per-key format, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** `from_bytes` collects the pairs it reads into the map without asking
/// whether `to_bytes` could have written them ("the map sorts them anyway"), so a key
/// listed twice keeps its last value and keys out of order are put in order.
/// **Verdict:** `bytes`: `from_bytes(br#"[["a",1],["a",2]]"#)` returns `{"a": 2}`.
pub mod from_bytes_keeps_a_repeated_key {
    keyed_codec! {
        fn to_bytes(this) { this.to_bytes() }
        fn from_bytes(bytes) {
            let pairs: Vec<(K, V)> = serde_json::from_slice(bytes)?;
            let mut state = Self::new();
            for (key, value) in pairs {
                state.put(key, value);
            }
            Ok(state)
        }
    }
}

/// **Mistake:** `restore` reads the list of pairs itself and puts each one, so the last
/// of a repeated key wins and keys out of order restore, though `snapshot` writes each
/// key once, in order.
/// **Verdict:** `contract`: `restore` of `[["a",[1]],["a",[2]]]` succeeds.
pub mod restore_collects_pairs {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let pairs: Vec<(K, F::State)> = serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` drops a leading byte-order mark, as readers of text files do
/// ("an editor may have saved it"), though no snapshot starts with one.
/// **Verdict:** `contract`: `restore` of a byte-order mark then `[["a",[1]]]` succeeds.
pub mod restore_strips_byte_order_mark {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(body)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` reads the bytes as text and trims it first ("a file may end in
/// a newline"), so whitespace JSON does not read, a form feed or an ideographic space,
/// is taken for no byte at all.
/// **Verdict:** `contract`: `restore` of a form feed then its own snapshot succeeds.
pub mod restore_trims_text {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let text = std::str::from_utf8(bytes)?;
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(text.trim().as_bytes())?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` decodes the bytes lossily before reading them ("a snapshot is
/// text"), so bytes that are not UTF-8 inside a key become U+FFFD and restore as
/// another key.
/// **Verdict:** `contract`: its own snapshot with the `Ä` of `"Ä b"` broken restores.
pub mod restore_decodes_lossily {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let text = String::from_utf8_lossy(bytes);
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(text.as_bytes())?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` reads every JSON value of the bytes and merges them ("a
/// snapshot may come in parts"), so snapshots written one after another restore as one.
/// **Verdict:** `contract`: `restore(b"[][]")` succeeds.
pub mod restore_merges_json_values {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            for pairs in serde_json::Deserializer::from_slice(bytes).into_iter::<Vec<(K, F::State)>>() {
                for (key, value) in pairs? {
                    op.state.put(key, value);
                }
            }
            Ok(op)
        }
    }
}

/// **Mistake:** the snapshot is one JSON line per key, and `restore` puts every line it
/// reads ("a later line is a later value"), so the snapshot written twice restores,
/// though a key listed twice is no snapshot this operator writes.
/// **Verdict:** `contract`: `restore` of the operator's own snapshot twice succeeds.
pub mod restore_json_lines_last_wins {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::json_lines::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            for (key, value) in super::json_lines::read::<K, F::State>(bytes)? {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** the same line-per-key snapshot, whose `restore` refuses a key that is
/// not after the line before's, so it reads exactly what `snapshot` writes.
pub mod json_lines_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { super::json_lines::write(&this.state.snapshot()) }
        fn restore(key_fn, function, bytes) {
            let pairs = super::json_lines::read::<K, F::State>(bytes)?;
            anyhow::ensure!(
                pairs.windows(2).all(|pair| pair[0].0 < pair[1].0),
                "not a snapshot: its keys are repeated or out of order"
            );
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** `from_bytes` trims the end of the bytes with `trim_ascii_end` first ("a
/// file may end in a newline"): JSON reads a trailing space, tab, line feed or carriage
/// return as whitespace already, and `trim_ascii_end` strips one byte more, a form feed.
/// **Verdict:** `bytes`: `from_bytes` of `[["a",1]]` followed by a form feed succeeds
/// (the eighth red team's w02-01).
pub mod from_bytes_trims_the_end {
    keyed_codec! {
        fn to_bytes(this) { this.to_bytes() }
        fn from_bytes(bytes) {
            solution02::KeyedState::from_bytes(bytes.trim_ascii_end()).map(Self)
        }
    }
}

/// **Mistake:** `restore` trims the end of the bytes with `trim_ascii_end` before it
/// reads them, as [`from_bytes_trims_the_end`] does.
/// **Verdict:** `contract`: its own snapshot followed by a form feed restores.
pub mod restore_trims_the_end {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes.trim_ascii_end())?;
            Ok(op)
        }
    }
}

/// The line-per-key format of the last two: each `[key, value]` as a JSON line.
mod json_lines {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    pub fn write<K: Serialize, V: Serialize>(
        state: &std::collections::BTreeMap<K, V>,
    ) -> anyhow::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        for pair in state {
            serde_json::to_writer(&mut bytes, &pair)?;
            bytes.push(b'\n');
        }
        Ok(bytes)
    }

    /// Every line, each a pair; empty bytes are the empty state.
    pub fn read<K: DeserializeOwned, V: DeserializeOwned>(
        bytes: &[u8],
    ) -> anyhow::Result<Vec<(K, V)>> {
        let Some(body) = bytes.strip_suffix(b"\n") else {
            anyhow::ensure!(bytes.is_empty(), "not a snapshot: no line ends it");
            return Ok(Vec::new());
        };
        body.split(|b| *b == b'\n')
            .map(|line| Ok(serde_json::from_slice(line)?))
            .collect()
    }
}

graders::impl_stage02!(
    FromBytesRepeated,
    FromBytesRepeatedSpy,
    from_bytes_keeps_a_repeated_key
);
graders::impl_stage02!(CollectsPairs, CollectsPairsSpy, restore_collects_pairs);
graders::impl_stage02!(StripsMark, StripsMarkSpy, restore_strips_byte_order_mark);
graders::impl_stage02!(MergesValues, MergesValuesSpy, restore_merges_json_values);
graders::impl_stage02!(TrimsText, TrimsTextSpy, restore_trims_text);
graders::impl_stage02!(DecodesLossily, DecodesLossilySpy, restore_decodes_lossily);
graders::impl_stage02!(
    LinesLastWins,
    LinesLastWinsSpy,
    restore_json_lines_last_wins
);
graders::impl_stage02!(JsonLines, JsonLinesSpy, json_lines_snapshot);
graders::impl_stage02!(
    FromBytesTrimsTheEnd,
    FromBytesTrimsTheEndSpy,
    from_bytes_trims_the_end
);
graders::impl_stage02!(TrimsTheEnd, TrimsTheEndSpy, restore_trims_the_end);

accepted!(stage02_json_lines_snapshot_passes: KeyedStateStage, drive::<JsonLines>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::from_bytes_keeps_a_repeated_key(drive::<FromBytesRepeated>, "bytes", "02-R10")]
#[case::restore_collects_pairs(drive::<CollectsPairs>, "contract", "02-R10")]
#[case::restore_strips_byte_order_mark(drive::<StripsMark>, "contract", "02-R10")]
#[case::restore_merges_json_values(drive::<MergesValues>, "contract", "02-R10")]
#[case::restore_trims_text(drive::<TrimsText>, "contract", "02-R10")]
#[case::restore_decodes_lossily(drive::<DecodesLossily>, "contract", "02-R10")]
#[case::restore_json_lines_last_wins(drive::<LinesLastWins>, "contract", "02-R10")]
#[case::from_bytes_trims_the_end(drive::<FromBytesTrimsTheEnd>, "bytes", "02-R10")]
#[case::restore_trims_the_end(drive::<TrimsTheEnd>, "contract", "02-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
