//! Stage 07 mutants of the restore of a checkpoint whose state bytes no restore can read:
//! the job must fail (the brief: errors instead of panics), not start from other counts;
//! and of one whose counts it must read, however large or small (0 included).

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

/// The counts as the job saves them.
fn json(counts: &std::collections::BTreeMap<String, u64>) -> Vec<u8> {
    serde_json::to_vec(counts).expect("counts are JSON")
}

/// A mutant crate: the reference job, run through a store that hands it back the latest
/// completed checkpoint with the state bytes `$read` makes of them (the job's own reading
/// of the state, written back as the reference reads it).
macro_rules! reading {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $spy:ident, |$state:ident| $read:expr) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{
                CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
                run_with_recovery,
            };

            struct Reading<'a, S>(&'a mut S);

            impl<S: CheckpointStore> CheckpointStore for Reading<'_, S> {
                fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
                    self.0.save(id, offset, state)
                }
                fn complete(&mut self, id: u64) -> anyhow::Result<()> {
                    self.0.complete(id)
                }
                fn latest_completed(&self) -> Option<StoredCheckpoint> {
                    self.0.latest_completed().map(|mut checkpoint| {
                        let $state = &checkpoint.state;
                        let bytes: Vec<u8> = $read;
                        checkpoint.state = bytes;
                        checkpoint
                    })
                }
            }

            pub fn run_with_recovery_in<S: CheckpointStore>(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                store: &mut S,
            ) -> anyhow::Result<RecoveryOutcome> {
                solution07::run_with_recovery_in(words, every, crash_after, commit_lag, &mut Reading(store))
            }
        }
        graders::impl_stage07!($binding, $spy, $name);
    };
}

reading! {
    /// **Mistake:** a state that does not parse restores as empty counts
    /// (`unwrap_or_default()`, "nothing to restore"), so the job replays from the
    /// checkpoint's offset with counts it never had.
    /// **Verdict:** `contract`: a checkpoint whose state is `b""` gives `Ok` (07-R12).
    unreadable_state_as_empty, UnreadableAsEmpty, UnreadableAsEmptySpy,
    |state| super::json(&serde_json::from_slice(state).unwrap_or_default())
}

reading! {
    /// **Mistake:** the state is parsed with `expect` ("the store only ever holds what
    /// the job saved"), so a checkpoint no restore can read panics the job.
    /// **Verdict:** `contract`: a checkpoint whose state is `b""` panics (07-R12).
    unreadable_state_panics, UnreadablePanics, UnreadablePanicsSpy,
    |state| super::json(&serde_json::from_slice(state).expect("the checkpoint state is JSON"))
}

reading! {
    /// **Mistake:** the state is read as the first JSON value of the bytes (a streaming
    /// `Deserializer` whose end is never checked), so bytes after the counts are ignored.
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":1}xyz` restores (07-R12).
    trailing_state_ignored, TrailingIgnored, TrailingIgnoredSpy,
    |state| {
        let first = serde_json::Deserializer::from_slice(state)
            .into_iter::<std::collections::BTreeMap<String, u64>>()
            .next();
        match first {
            Some(Ok(counts)) => super::json(&counts),
            _ => state.clone(),
        }
    }
}

reading! {
    /// **Mistake:** the state is read as an `Option` of counts, `null` taken for "no
    /// counts yet": a checkpoint whose state is `null` restores as empty counts.
    /// **Verdict:** `contract`: a checkpoint whose state is `null` restores (07-R12).
    null_state_as_empty, NullAsEmpty, NullAsEmptySpy,
    |state| match serde_json::from_slice::<Option<std::collections::BTreeMap<String, u64>>>(state) {
        Ok(counts) => super::json(&counts.unwrap_or_default()),
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** the counts are read as floats and cast to `u64`, "JSON numbers are
    /// floats": a count of `1.5` restores as 1.
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":1.5}` restores (07-R12).
    fractional_count_truncated, FractionTruncated, FractionTruncatedSpy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, f64>>(state) {
        Ok(counts) => super::json(&counts.into_iter().map(|(k, v)| (k, v as u64)).collect()),
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** the bytes are made text with `String::from_utf8_lossy` before parsing,
    /// so a key that is not UTF-8 restores as U+FFFD.
    /// **Verdict:** `contract`: a checkpoint whose state's key is the byte `0xff` restores
    /// (07-R12).
    lossy_utf8_state, LossyUtf8, LossyUtf8Spy,
    |state| match serde_json::from_str::<std::collections::BTreeMap<String, u64>>(&String::from_utf8_lossy(state)) {
        Ok(counts) => super::json(&counts),
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** the state is read as JSON values and a count written as a string is
    /// parsed too ("be liberal in what you accept"): a count of `"1"` restores as 1.
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":"1"}` restores (07-R12).
    quoted_count_parsed, QuotedParsed, QuotedParsedSpy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, serde_json::Value>>(state) {
        Ok(counts) => {
            let parsed: Option<std::collections::BTreeMap<String, u64>> = counts
                .into_iter()
                .map(|(k, v)| match v {
                    serde_json::Value::String(s) => s.parse().ok().map(|n| (k, n)),
                    v => v.as_u64().map(|n| (k, n)),
                })
                .collect();
            parsed.map_or_else(|| state.clone(), |counts| super::json(&counts))
        }
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** the counts are read as `u32`s and widened ("no word is counted four
    /// billion times in a checkpoint we wrote"), so a checkpoint with a count of `2^32` or
    /// more is refused as not a snapshot (a red team's w07-05).
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":4294967296,"b":1}` ends
    /// the run with an error where the job restores it and replays `a` on top (07-R12).
    counts_read_as_u32, CountsReadAsU32, CountsReadAsU32Spy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, u32>>(state) {
        Ok(counts) => super::json(&counts.into_iter().map(|(k, v)| (k, u64::from(v))).collect()),
        // Refused as the reference refuses bytes that are not counts.
        Err(_) => Vec::new(),
    }
}

reading! {
    /// **Mistake:** the counts are parsed as `u128`s ("no count a store hands back
    /// overflows the parser") and narrowed with `as u64`, so a count past `u64::MAX`
    /// restores as its low 64 bits (a red team's w07-04).
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":18446744073709551616}`
    /// restores as a count of 0 where it is no count, an error (07-R12).
    counts_read_as_u128, CountsReadAsU128, CountsReadAsU128Spy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, u128>>(state) {
        Ok(counts) => super::json(&counts.into_iter().map(|(k, v)| (k, v as u64)).collect()),
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** a count of 0 is refused ("a word in the state was counted at least
    /// once: a 0 means corrupt bytes"), where the brief restores any counts as they are (a
    /// red team's w07-01).
    /// **Verdict:** `contract`: a checkpoint whose state is `{"a":0,"b":0}` ends the run
    /// with an error where the job restores it and replays `a` on top (07-R12).
    count_of_0_refused, CountOf0Refused, CountOf0RefusedSpy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, u64>>(state) {
        Ok(counts) if counts.values().any(|count| *count == 0) => Vec::new(),
        _ => state.clone(),
    }
}

reading! {
    /// **Mistake:** words counted 0 times are dropped on restore ("a word counted 0 times
    /// is no word"), so the restored counts are not the checkpoint's (a red team's
    /// w07-03).
    /// **Verdict:** `contract`: from a checkpoint whose state is `{"a":0,"b":0}`, the next
    /// checkpoint saves `{"a":1}`, not `{"a":1,"b":0}` (07-R12).
    counts_of_0_dropped, CountsOf0Dropped, CountsOf0DroppedSpy,
    |state| match serde_json::from_slice::<std::collections::BTreeMap<String, u64>>(state) {
        Ok(mut counts) => {
            counts.retain(|_, count| *count > 0);
            super::json(&counts)
        }
        Err(_) => state.clone(),
    }
}

reading! {
    /// **Mistake:** the state is trimmed at its end with `trim_ascii_end` before it is
    /// parsed ("a file may end in a newline"): JSON reads a trailing space, tab, line feed
    /// or carriage return already, and this strips a form feed too (the eighth red team's
    /// w07-02).
    /// **Verdict:** `contract`: a checkpoint whose state is its counts followed by a form
    /// feed restores (07-R12).
    state_trimmed_at_the_end, TrimmedAtTheEnd, TrimmedAtTheEndSpy,
    |state| state.trim_ascii_end().to_vec()
}

reading! {
    /// **Mistake:** a byte-order mark before the state is dropped before it is parsed
    /// ("an editor may have saved it"), though the job never saves one (the eighth red
    /// team's w07-04).
    /// **Verdict:** `contract`: a checkpoint whose state is a byte-order mark, then its
    /// counts, restores (07-R12).
    state_after_a_byte_order_mark, AfterAByteOrderMark, AfterAByteOrderMarkSpy,
    |state| state.strip_prefix(b"\xef\xbb\xbf").unwrap_or(state).to_vec()
}

reading! {
    /// **Mistake:** a state that is not a map of counts is read once more as a list of
    /// `[word, count]` pairs ("checkpoints from before the format changed"), though the
    /// job never saves one (the sixteenth red team's w07-05).
    /// **Verdict:** `contract`: a checkpoint whose state is `[["a",1],["b",1]]` restores
    /// (07-R12).
    legacy_pairs_state, LegacyPairs, LegacyPairsSpy,
    |state| match serde_json::from_slice::<Vec<(String, u64)>>(state) {
        Ok(pairs) => super::json(&pairs.into_iter().collect()),
        Err(_) => state.clone(),
    }
}

/// **Mistake:** a checkpoint the job cannot restore (state bytes that are not counts, an
/// offset past the end) is taken for no checkpoint ("better a replay from the start than
/// no run"): the job starts again from empty counts at offset 0, and fails only later,
/// when it saves checkpoint 1 again over the completed one.
/// **Verdict:** `contract`: after `latest_completed()` handed out checkpoint 2 at offset
/// 4 of three words, the run saves checkpoint 1 (07-R12).
mod unrestorable_as_none {
    pub use solution07::{
        CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
        run_with_recovery,
    };

    struct Ignoring<'a, S> {
        store: &'a mut S,
        words: usize,
    }

    impl<S: CheckpointStore> CheckpointStore for Ignoring<'_, S> {
        fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
            self.store.save(id, offset, state)
        }
        fn complete(&mut self, id: u64) -> anyhow::Result<()> {
            self.store.complete(id)
        }
        fn latest_completed(&self) -> Option<StoredCheckpoint> {
            self.store.latest_completed().filter(|checkpoint| {
                let counts = serde_json::from_slice::<std::collections::BTreeMap<String, u64>>(
                    &checkpoint.state,
                );
                counts.is_ok() && checkpoint.offset <= self.words as u64
            })
        }
    }

    pub fn run_with_recovery_in<S: CheckpointStore>(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        store: &mut S,
    ) -> anyhow::Result<RecoveryOutcome> {
        let words_len = words.len();
        let mut ignoring = Ignoring {
            store,
            words: words_len,
        };
        solution07::run_with_recovery_in(words, every, crash_after, commit_lag, &mut ignoring)
    }
}
graders::impl_stage07!(
    UnrestorableAsNone,
    UnrestorableAsNoneSpy,
    unrestorable_as_none
);

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: new mistakes).
#[rstest]
#[case::unreadable_state_as_empty(drive::<UnreadableAsEmpty>, "contract", "07-R12")]
#[case::unreadable_state_panics(drive::<UnreadablePanics>, "contract", "07-R12")]
#[case::trailing_state_ignored(drive::<TrailingIgnored>, "contract", "07-R12")]
#[case::null_state_as_empty(drive::<NullAsEmpty>, "contract", "07-R12")]
#[case::fractional_count_truncated(drive::<FractionTruncated>, "contract", "07-R12")]
#[case::lossy_utf8_state(drive::<LossyUtf8>, "contract", "07-R12")]
#[case::quoted_count_parsed(drive::<QuotedParsed>, "contract", "07-R12")]
#[case::unrestorable_as_none(drive::<UnrestorableAsNone>, "contract", "07-R12")]
#[case::counts_read_as_u32(drive::<CountsReadAsU32>, "contract", "07-R12")]
#[case::counts_read_as_u128(drive::<CountsReadAsU128>, "contract", "07-R12")]
#[case::count_of_0_refused(drive::<CountOf0Refused>, "contract", "07-R12")]
#[case::counts_of_0_dropped(drive::<CountsOf0Dropped>, "contract", "07-R12")]
#[case::state_trimmed_at_the_end(drive::<TrimmedAtTheEnd>, "contract", "07-R12")]
#[case::state_after_a_byte_order_mark(drive::<AfterAByteOrderMark>, "contract", "07-R12")]
#[case::legacy_pairs_state(drive::<LegacyPairs>, "contract", "07-R12")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
    {
        crate::fail(&why);
    }
}
