//! Stage 02 mutants of the second red team, written from the brief alone: words split on
//! a list of spaces or on more than whitespace, a line's byte-order mark dropped, and
//! restores that read "nothing" as an empty state; and correct solutions written
//! otherwise (lines joined before the split, a snapshot whose empty state is `{}`),
//! which must pass.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** words are split on every whitespace character the brief and its grading
/// section name (space, tab, newline, return, vertical tab, form feed, U+0085, U+00A0,
/// U+2003, U+2028, U+3000), a list, where the brief says whatever `char::is_whitespace`
/// calls whitespace.
/// **Verdict:** `word-count`: U+1680 (Ogham space mark) does not split `to` from `be`.
pub mod word_count_brief_whitespace_list {
    counted!(|line| line
        .split([
            ' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{a0}', '\u{2003}', '\u{2028}',
            '\u{3000}',
        ])
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** a zero-width space also separates words ("it is a space, just thin"),
/// though `char::is_whitespace` says it is not whitespace.
/// **Verdict:** `word-count`: `to\u{200b}be` is counted as `to` and `be`.
pub mod word_count_zero_width_splits {
    counted!(|line| line
        .split(|c: char| c.is_whitespace() || c == '\u{200b}')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** a byte-order mark at the start of a line is dropped, as file-reading
/// code does, though a word is kept exactly as written.
/// **Verdict:** `word-count`: the first word of `\u{feff}to to` is `to`, counted twice.
pub mod word_count_strips_bom {
    counted!(|line| line
        .trim_start_matches('\u{feff}')
        .split_whitespace()
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** control characters count as whitespace too (`is_whitespace() ||
/// is_control()`, as Python's `str.split` treats U+001F), though the unit separator is
/// not whitespace to `char::is_whitespace`.
/// **Verdict:** `word-count`: `be\u{1f}to` is counted as `be` and `to`.
pub mod word_count_splits_on_control {
    counted!(|line| line
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** the snapshot is a struct with `#[serde(default)]` ("old snapshots stay
/// readable"), so `{}` restores an empty operator though no snapshot writes it: this
/// operator's empty snapshot is `{"pairs":[]}`.
/// **Verdict:** `contract`: `restore(b"{}")` succeeds.
pub mod restore_defaults_missing_fields {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) {
            let pairs: Vec<_> = this.state.snapshot().into_iter().collect();
            Ok(serde_json::to_vec(&Snapshot { pairs })?)
        }
        fn restore(key_fn, function, bytes) {
            let snapshot: Snapshot<K, F::State> = serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in snapshot.pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(default)]
    struct Snapshot<K, S> {
        pairs: Vec<(K, S)>,
    }

    impl<K, S> Default for Snapshot<K, S> {
        fn default() -> Self {
            Self { pairs: Vec::new() }
        }
    }
}

/// **Mistake:** `restore` reads the pairs as an `Option` ("a snapshot may have nothing
/// in it"), so `null` restores an empty operator, though this operator's snapshot always
/// writes a list (`[]` when empty).
/// **Verdict:** `contract`: `restore(b"null")` succeeds.
pub mod restore_null_is_empty {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let pairs: Option<Vec<(K, F::State)>> = serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs.unwrap_or_default() {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` reads blank bytes as an empty operator ("nothing but
/// whitespace was saved"), where the brief allows only empty bytes.
/// **Verdict:** `contract`: `restore(b" \n")` succeeds.
pub mod restore_blank_is_empty {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            if bytes.trim_ascii().is_empty() {
                return Ok(op);
            }
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` reads the first JSON value with a streaming deserializer and
/// never asks whether bytes follow it: a snapshot with anything after it restores.
/// **Verdict:** `contract`: `restore(b"[] trailing")` succeeds.
pub mod restore_ignores_trailing {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let pairs = serde_json::Deserializer::from_slice(bytes)
                .into_iter::<Vec<(K, F::State)>>()
                .next()
                .ok_or_else(|| anyhow::anyhow!("no snapshot"))??;
            let mut op = Self::new(key_fn, function);
            for (key, value) in pairs {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** `word_count` joins the lines with newlines and splits the whole text
/// once: no word spans two lines, so the order and the counts are the brief's.
pub mod word_count_over_joined_lines {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let text = lines.join("\n");
        let mut counts = std::collections::BTreeMap::new();
        text.split_whitespace()
            .map(|word| {
                let count = counts.entry(word).or_insert(0u64);
                *count += 1;
                (word.to_owned(), *count)
            })
            .collect()
    }
}

/// **Control:** the snapshot is a JSON object whose member names are the keys' JSON in
/// hexadecimal (any key type round-trips), so an empty state's snapshot is `{}`, and
/// restoring `{}` is restoring that snapshot; read as a tree that refuses a member named
/// twice (a map would keep the last: `members_named_by_hex_of_json`).
pub mod hex_object_snapshot {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) {
            let mut object = std::collections::BTreeMap::new();
            for (key, value) in this.state.snapshot() {
                let json = serde_json::to_vec(&key)?;
                let hex: String = json.iter().map(|b| format!("{b:02x}")).collect();
                object.insert(hex, value);
            }
            Ok(serde_json::to_vec(&object)?)
        }
        fn restore(key_fn, function, bytes) {
            let tree = graders::harness::strict_json::read(bytes)?;
            let object = tree.as_object().ok_or_else(|| anyhow::anyhow!("not an object"))?;
            let mut op = Self::new(key_fn, function);
            for (hex, value) in object {
                let value: F::State = serde_json::from_value(value.clone())?;
                anyhow::ensure!(hex.len() % 2 == 0 && hex.is_ascii(), "{hex:?} is not a key");
                let json = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                    .collect::<Result<Vec<u8>, _>>()?;
                op.state.put(serde_json::from_slice(&json)?, value);
            }
            Ok(op)
        }
    }
}

graders::impl_stage02!(BriefList, BriefListSpy, word_count_brief_whitespace_list);
graders::impl_stage02!(ZeroWidth, ZeroWidthSpy, word_count_zero_width_splits);
graders::impl_stage02!(StripsBom, StripsBomSpy, word_count_strips_bom);
graders::impl_stage02!(
    SplitsOnControl,
    SplitsOnControlSpy,
    word_count_splits_on_control
);
graders::impl_stage02!(
    DefaultedFields,
    DefaultedFieldsSpy,
    restore_defaults_missing_fields
);
graders::impl_stage02!(NullIsEmpty, NullIsEmptySpy, restore_null_is_empty);
graders::impl_stage02!(BlankIsEmpty, BlankIsEmptySpy, restore_blank_is_empty);
graders::impl_stage02!(
    IgnoresTrailing,
    IgnoresTrailingSpy,
    restore_ignores_trailing
);
graders::impl_stage02!(JoinedLines, JoinedLinesSpy, word_count_over_joined_lines);
graders::impl_stage02!(HexObject, HexObjectSpy, hex_object_snapshot);

accepted!(stage02_word_count_over_joined_lines_passes: KeyedStateStage, drive::<JoinedLines>);
accepted!(stage02_hex_object_snapshot_passes: KeyedStateStage, drive::<HexObject>);

/// Each mutant, the check that must reject it and the one requirement its smallest
/// failing case must name (no card: new mistakes, which no card's test shows yet).
#[rstest]
#[case::word_count_brief_whitespace_list(drive::<BriefList>, "word-count", "02-R12")]
#[case::word_count_zero_width_splits(drive::<ZeroWidth>, "word-count", "02-R12")]
#[case::word_count_strips_bom(drive::<StripsBom>, "word-count", "02-R13")]
#[case::word_count_splits_on_control(drive::<SplitsOnControl>, "word-count", "02-R12")]
#[case::restore_defaults_missing_fields(drive::<DefaultedFields>, "contract", "02-R10")]
#[case::restore_null_is_empty(drive::<NullIsEmpty>, "contract", "02-R10")]
#[case::restore_blank_is_empty(drive::<BlankIsEmpty>, "contract", "02-R10")]
#[case::restore_ignores_trailing(drive::<IgnoresTrailing>, "contract", "02-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}

/// **Mistake:** `snapshot()` is computed once and kept ("snapshots are expensive,
/// memoise them"): a second snapshot of the same operator, after more records, returns
/// the first one's bytes.
/// **Verdict:** `contract`: `snapshot()`, `process`, then "snapshot, drop, restore"
/// brings back the state before the `process` (02-R15).
pub mod snapshot_memoised {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) {
            if let Some((_, bytes)) = this.cache.borrow().as_ref() {
                return Ok(bytes.clone());
            }
            let bytes = this.state.to_bytes()?;
            *this.cache.borrow_mut() = Some((0, bytes.clone()));
            Ok(bytes)
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` reads the first line of the bytes ("a snapshot is one line"),
/// so whatever follows a new line is ignored.
/// **Verdict:** `contract`: `[]` followed by a new line and `garbage` restores (02-R10).
pub mod restore_first_line {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(line)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `snapshot()` is kept until the number of keys changes ("a dirty flag
/// for free"): a key counted again changes the state but not its size.
/// **Verdict:** `contract`: `process(a)`, `snapshot()`, `process(a)`, then "snapshot,
/// drop, restore" brings back `a`'s first count (02-R15).
pub mod snapshot_kept_by_size {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out);
        }
        fn snapshot(this) {
            let size = this.state.snapshot().len();
            if let Some((kept, bytes)) = this.cache.borrow().as_ref()
                && *kept == size
            {
                return Ok(bytes.clone());
            }
            let bytes = this.state.to_bytes()?;
            *this.cache.borrow_mut() = Some((size, bytes.clone()));
            Ok(bytes)
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
}

graders::impl_stage02!(SnapshotMemoised, SnapshotMemoisedSpy, snapshot_memoised);
graders::impl_stage02!(
    SnapshotKeptBySize,
    SnapshotKeptBySizeSpy,
    snapshot_kept_by_size
);
graders::impl_stage02!(RestoreFirstLine, RestoreFirstLineSpy, restore_first_line);

/// The third red team's operators: a memoised snapshot, a restore of the first line.
#[rstest]
#[case::snapshot_memoised(drive::<SnapshotMemoised>, "contract", "02-R15")]
#[case::snapshot_kept_by_size(drive::<SnapshotKeptBySize>, "contract", "02-R15")]
#[case::restore_first_line(drive::<RestoreFirstLine>, "contract", "02-R10")]
fn operator_mistakes_are_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
