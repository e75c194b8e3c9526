//! Stage 02 mutants written from the brief alone: operators that reorder, drop or skip
//! storing what the function emits and leaves, a snapshot only text keys survive, a
//! `remove` that forgets to, and word counts that split on a list or fold their keys;
//! and correct solutions written otherwise, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** the operator lends the function a buffer of its own and moves its
/// records into `out` by popping them, so several records arrive last first.
/// **Verdict:** `contract`: a record that emits `[32, 30, 31]` leaves `[.., 31, 30, 32]`.
pub mod reverses_emits {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut emitted = Vec::new();
            let buffer = &mut emitted;
            lend!(self, key, input, buffer);
            while let Some(record) = emitted.pop() {
                out.push(record);
            }
        }
    }
}

/// **Mistake:** the operator keeps the last record the function emits ("one record in,
/// one out", as a map would).
/// **Verdict:** `contract`: a record that emits three leaves one.
pub mod keeps_last_emit {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut emitted = Vec::new();
            let buffer = &mut emitted;
            lend!(self, key, input, buffer);
            out.extend(emitted.pop());
        }
    }
}

/// **Mistake:** the operator puts what the function emitted before what `out` held.
/// **Verdict:** `contract`: `out` no longer starts with the record it held.
pub mod emits_prepended {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut emitted = Vec::new();
            let buffer = &mut emitted;
            lend!(self, key, input, buffer);
            emitted.append(out);
            *out = emitted;
        }
    }
}

/// **Mistake:** the operator stores back what the function left only when it emitted
/// something ("no output, nothing happened").
/// **Verdict:** `contract`: a record that emits nothing leaves its key without state.
pub mod skips_store_when_silent {
    keyed_operator! {
        fn process(self, key, input, out) {
            let before = out.len();
            let mut slot = self.state.get(&key).cloned();
            self.function.process_element(&key, input, &mut slot, out);
            if out.len() > before {
                match slot {
                    Some(value) => self.state.put(key, value),
                    None => {
                        self.state.remove(&key);
                    }
                }
            }
        }
    }
}

/// **Mistake:** the snapshot is the state's map written as a JSON object, which works as
/// long as every key is text: a `Vec<u8>` key is "not a string" to `serde_json`.
/// **Verdict:** `contract`: snapshotting an operator keyed by `Vec<u8>` fails.
pub mod snapshot_as_json_object {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) { Ok(serde_json::to_vec(&this.state.snapshot())?) }
        fn restore(key_fn, function, bytes) {
            let map: std::collections::BTreeMap<K, F::State> = serde_json::from_slice(bytes)?;
            let mut op = Self::new(key_fn, function);
            for (key, value) in map {
                op.state.put(key, value);
            }
            Ok(op)
        }
    }
}

/// **Control:** a correct operator whose snapshot of an empty state is no bytes at all,
/// and whose `restore` reads no bytes as an empty state (the brief's grader allows it).
pub mod empty_snapshot_is_empty {
    keyed_operator! {
        fn process(self, key, input, out) { lend!(self, key, input, out) }
        fn snapshot(this) {
            if this.state.is_empty() {
                return Ok(Vec::new());
            }
            this.state.to_bytes()
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            if !bytes.is_empty() {
                op.state = KeyedState::from_bytes(bytes)?;
            }
            Ok(op)
        }
    }
}

/// **Mistake:** `remove` returns the key's value but leaves it in the state (it reads
/// "the value it had" as a lookup).
/// **Verdict:** `keyed-state`: after `put("a", 1)`, `remove("a")`, `get("a")` is `Some(1)`.
pub mod remove_keeps_key {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.get(key).cloned()
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** words are split on the whitespace characters the brief and the usual
/// suspects name (space, tab, newline, return, U+3000, U+00A0, U+2003), a list, where the
/// brief says whatever `char::is_whitespace` calls whitespace.
/// **Verdict:** `word-count`: a vertical tab does not split `to` from `be`.
pub mod word_count_named_whitespace {
    counted!(|line| line
        .split([' ', '\t', '\n', '\r', '\u{3000}', '\u{a0}', '\u{2003}'])
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** ASCII whitespace, then any non-ASCII whitespace: the vertical tab, which
/// `char::is_ascii_whitespace` leaves out, still joins two words.
/// **Verdict:** `word-count`: a vertical tab does not split `to` from `be`.
pub mod word_count_ascii_then_unicode {
    counted!(|line| line
        .split(|c: char| c.is_ascii_whitespace() || (!c.is_ascii() && c.is_whitespace()))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** the count is keyed by the word in lower case ("the same word"), though
/// each update shows the word as written.
/// **Verdict:** `word-count`: `To to` counts `to` twice.
pub mod word_count_folds_keys {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let mut counts = std::collections::BTreeMap::new();
        let mut out = Vec::new();
        for word in lines.iter().flat_map(|l| l.split_whitespace()) {
            let count = counts.entry(word.to_lowercase()).or_insert(0u64);
            *count += 1;
            out.push((word.to_owned(), *count));
        }
        out
    }
}

/// **Mistake:** the counts start again after an empty line ("a blank line ends a
/// paragraph").
/// **Verdict:** `word-count`: `["", "to", ""]` passes, `["to", "", "to"]`-like input
/// counts the second `to` as 1.
pub mod word_count_resets_on_blank {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let mut counts = std::collections::BTreeMap::new();
        let mut out = Vec::new();
        for line in lines {
            if line.trim().is_empty() {
                counts.clear();
            }
            for word in line.split_whitespace() {
                let count = counts.entry(word.to_owned()).or_insert(0u64);
                *count += 1;
                out.push((word.to_owned(), *count));
            }
        }
        out
    }
}

/// **Control:** a correct `word_count` that splits with `split(char::is_whitespace)` and
/// drops the empty pieces.
pub mod word_count_split_and_filter {
    counted!(|line| line
        .split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

graders::impl_stage02!(ReversesEmits, ReversesEmitsSpy, reverses_emits);
graders::impl_stage02!(KeepsLastEmit, KeepsLastEmitSpy, keeps_last_emit);
graders::impl_stage02!(EmitsPrepended, EmitsPrependedSpy, emits_prepended);
graders::impl_stage02!(SkipsStore, SkipsStoreSpy, skips_store_when_silent);
graders::impl_stage02!(JsonObject, JsonObjectSpy, snapshot_as_json_object);
graders::impl_stage02!(EmptyIsEmpty, EmptyIsEmptySpy, empty_snapshot_is_empty);
graders::impl_stage02!(RemoveKeepsKey, RemoveKeepsKeySpy, remove_keeps_key);
graders::impl_stage02!(
    NamedWhitespace,
    NamedWhitespaceSpy,
    word_count_named_whitespace
);
graders::impl_stage02!(
    AsciiThenUnicode,
    AsciiThenUnicodeSpy,
    word_count_ascii_then_unicode
);
graders::impl_stage02!(FoldsKeys, FoldsKeysSpy, word_count_folds_keys);
graders::impl_stage02!(ResetsOnBlank, ResetsOnBlankSpy, word_count_resets_on_blank);
graders::impl_stage02!(
    SplitAndFilter,
    SplitAndFilterSpy,
    word_count_split_and_filter
);

accepted!(stage02_empty_snapshot_is_empty_passes: KeyedStateStage, drive::<EmptyIsEmpty>);
accepted!(stage02_word_count_split_and_filter_passes: KeyedStateStage, drive::<SplitAndFilter>);

/// Each mutant, the check that must reject it, the one requirement its smallest failing
/// case must name and the card its report must show. No card for the slips (emits popped
/// or cut to one, a key kept by remove) nor where no signature yet tells the belief from
/// another's (a store skipped when nothing is emitted, whitespace as a list, words folded
/// to lower case, counts reset on a blank line).
#[rstest]
#[case::reverses_emits(drive::<ReversesEmits>, "contract", "02-R9", None)]
#[case::keeps_last_emit(drive::<KeepsLastEmit>, "contract", "02-R9", None)]
#[case::emits_prepended(drive::<EmitsPrepended>, "contract", "02-R9", Some("02-out-starts-empty"))]
#[case::skips_store_when_silent(drive::<SkipsStore>, "contract", "02-R14", None)]
#[case::snapshot_as_json_object(drive::<JsonObject>, "contract", "02-R15", Some("02-keys-are-text"))]
#[case::remove_keeps_key(drive::<RemoveKeepsKey>, "keyed-state", "02-R5", None)]
#[case::word_count_named_whitespace(drive::<NamedWhitespace>, "word-count", "02-R12", None)]
#[case::word_count_ascii_then_unicode(drive::<AsciiThenUnicode>, "word-count", "02-R12", None)]
#[case::word_count_folds_keys(drive::<FoldsKeys>, "word-count", "02-R13", None)]
#[case::word_count_resets_on_blank(drive::<ResetsOnBlank>, "word-count", "02-R11", None)]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: emits reordered or
/// cut to one change what `out` ends with, as `02-out-starts-empty`'s; a key left without
/// state after a silent record is lent `None` next, as in `02-state-is-updated-in-place`;
/// `remove` keeping its key misreads `remove` as `02-remove-returns-nothing` does; a
/// whitespace that does not split looks like `02-whitespace-is-ascii`'s; a count keyed
/// by the lower-cased word counts a first `To` above 1, as `02-count-is-the-total` does;
/// counts reset by a blank line start again from 1, as `02-count-per-line`'s do. No card
/// may be shown for them.
#[rstest]
#[case::reverses_emits(drive::<ReversesEmits>, "contract", "02-R9")]
#[case::keeps_last_emit(drive::<KeepsLastEmit>, "contract", "02-R9")]
#[case::skips_store_when_silent(drive::<SkipsStore>, "contract", "02-R14")]
#[case::remove_keeps_key(drive::<RemoveKeepsKey>, "keyed-state", "02-R5")]
#[case::word_count_named_whitespace(drive::<NamedWhitespace>, "word-count", "02-R12")]
#[case::word_count_ascii_then_unicode(drive::<AsciiThenUnicode>, "word-count", "02-R12")]
#[case::word_count_folds_keys(drive::<FoldsKeys>, "word-count", "02-R13")]
#[case::word_count_resets_on_blank(drive::<ResetsOnBlank>, "word-count", "02-R11")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<KeyedStateStage>(drive, check, requirement);
}
