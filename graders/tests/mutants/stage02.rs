//! Stage 02 mutants: keyed state whose calls misread the brief (`stage02/state.rs`),
//! keyed operators that leak, lose or forget state or trust their bytes
//! (`stage02/operator.rs`), word counts that are not running or split otherwise
//! (`stage02/words.rs`), and the correct-but-unusual controls (`stage02/controls.rs`).

mod controls;
#[macro_use]
mod operator;
#[macro_use]
mod state;
#[macro_use]
mod words;
mod binary_formats;
mod legacy_layout;
mod own_format;
mod padded;
mod redteam;
mod redteam_bytes;
mod redteam_instances;
mod smallest;
mod wordings;

use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::accepted;

graders::impl_stage02!(GetByRange, GetByRangeSpy, state::get_by_range);
graders::impl_stage02!(PutKeepsFirst, PutKeepsFirstSpy, state::put_keeps_the_first);
graders::impl_stage02!(
    UpdateSkipsMissing,
    UpdateSkipsMissingSpy,
    state::update_skips_missing_keys
);
graders::impl_stage02!(
    UpdateCannotDelete,
    UpdateCannotDeleteSpy,
    state::update_cannot_delete
);
graders::impl_stage02!(
    RemoveReturnsNothing,
    RemoveReturnsNothingSpy,
    state::remove_returns_nothing
);
graders::impl_stage02!(
    SnapshotReplaysPuts,
    SnapshotReplaysPutsSpy,
    state::snapshot_replays_puts
);
graders::impl_stage02!(
    ToBytesAsObject,
    ToBytesAsObjectSpy,
    state::to_bytes_as_an_object
);
graders::impl_stage02!(
    UpdateDropsZero,
    UpdateDropsZeroSpy,
    state::update_drops_a_zero
);
graders::impl_stage02!(EmptyDropped, EmptyDroppedSpy, operator::empty_state_dropped);
graders::impl_stage02!(OneSlot, OneSlotSpy, operator::one_slot_for_all_keys);
graders::impl_stage02!(NeverStored, NeverStoredSpy, operator::state_never_stored);
graders::impl_stage02!(ClearedKept, ClearedKeptSpy, operator::cleared_state_kept);
graders::impl_stage02!(
    KeyFromLast,
    KeyFromLastSpy,
    operator::key_from_the_last_record
);
graders::impl_stage02!(OutReplaced, OutReplacedSpy, operator::out_replaced);
graders::impl_stage02!(RestoreUnwraps, RestoreUnwrapsSpy, operator::restore_unwraps);
graders::impl_stage02!(
    RestoreDefaults,
    RestoreDefaultsSpy,
    operator::restore_defaults_to_empty
);
graders::impl_stage02!(
    ChangesOnly,
    ChangesOnlySpy,
    operator::snapshot_of_changes_only
);
graders::impl_stage02!(
    ForgetsState,
    ForgetsStateSpy,
    operator::restore_forgets_state
);
graders::impl_stage02!(FinalCounts, FinalCountsSpy, words::word_count_final_counts);
graders::impl_stage02!(PerLine, PerLineSpy, words::word_count_per_line);
graders::impl_stage02!(
    SplitsOnSpace,
    SplitsOnSpaceSpy,
    words::word_count_splits_on_space
);
graders::impl_stage02!(
    AsciiWhitespace,
    AsciiWhitespaceSpy,
    words::word_count_ascii_whitespace
);
graders::impl_stage02!(Lowercases, LowercasesSpy, words::word_count_lowercases);
graders::impl_stage02!(
    StripsPunctuation,
    StripsPunctuationSpy,
    words::word_count_strips_punctuation
);
graders::impl_stage02!(ByHand, ByHandSpy, words::word_count_by_hand);
graders::impl_stage02!(
    SplitsOnHyphens,
    SplitsOnHyphensSpy,
    words::word_count_splits_on_hyphens
);
graders::impl_stage02!(
    LettersRequired,
    LettersRequiredSpy,
    words::word_count_letters_required
);
graders::impl_stage02!(
    SplitsWithoutCr,
    SplitsWithoutCrSpy,
    words::word_count_splits_without_cr
);
graders::impl_stage02!(
    SplitsOnAnOldTable,
    SplitsOnAnOldTableSpy,
    words::word_count_splits_on_an_old_table
);
graders::impl_stage02!(
    ConcatenatesLines,
    ConcatenatesLinesSpy,
    words::word_count_concatenates_lines
);
graders::impl_stage02!(HandRolled, HandRolledSpy, controls::hand_rolled_snapshot);
graders::impl_stage02!(VecBacked, VecBackedSpy, controls::vec_backed_state);

accepted!(stage02_hand_rolled_snapshot_passes: KeyedStateStage, drive::<HandRolled>);
accepted!(stage02_vec_backed_state_passes: KeyedStateStage, drive::<VecBacked>);
accepted!(stage02_word_count_by_hand_passes: KeyedStateStage, drive::<ByHand>);

/// Every mutant, the check that must reject it, the one requirement of the brief its
/// smallest failing case must name, and the card its report must show (the mutant's doc
/// comment says why).
#[rstest]
#[case::get_by_range(drive::<GetByRange>, "keyed-state", "02-R1", "02-get-finds-the-nearest")]
#[case::put_keeps_the_first(drive::<PutKeepsFirst>, "keyed-state", "02-R2", "02-put-keeps-the-first")]
#[case::update_skips_missing_keys(drive::<UpdateSkipsMissing>, "keyed-state", "02-R3", "02-update-needs-a-value")]
#[case::update_cannot_delete(drive::<UpdateCannotDelete>, "keyed-state", "02-R4", "02-none-means-no-change")]
#[case::remove_returns_nothing(drive::<RemoveReturnsNothing>, "keyed-state", "02-R5", "02-remove-returns-nothing")]
#[case::snapshot_replays_puts(drive::<SnapshotReplaysPuts>, "keyed-state", "02-R6", "02-snapshot-is-a-log")]
#[case::to_bytes_as_an_object(drive::<ToBytesAsObject>, "bytes", "02-R7", "02-keys-are-text")]
#[case::key_from_the_last_record(drive::<KeyFromLast>, "isolation", "02-R8", "02-key-set-after-the-call")]
#[case::out_replaced(drive::<OutReplaced>, "contract", "02-R9", "02-out-starts-empty")]
#[case::restore_unwraps(drive::<RestoreUnwraps>, "contract", "02-R10", "02-restore-trusts-its-bytes")]
#[case::restore_defaults_to_empty(drive::<RestoreDefaults>, "contract", "02-R10", "02-restore-trusts-its-bytes")]
#[case::word_count_final_counts(drive::<FinalCounts>, "word-count", "02-R11", "02-count-is-the-total")]
#[case::word_count_per_line(drive::<PerLine>, "word-count", "02-R11", "02-count-per-line")]
#[case::word_count_splits_on_space(drive::<SplitsOnSpace>, "word-count", "02-R12", "02-words-split-on-a-space")]
#[case::word_count_ascii_whitespace(drive::<AsciiWhitespace>, "word-count", "02-R12", "02-whitespace-is-ascii")]
#[case::word_count_lowercases(drive::<Lowercases>, "word-count", "02-R13", "02-words-are-normalised")]
#[case::word_count_strips_punctuation(drive::<StripsPunctuation>, "word-count", "02-R13", "02-words-are-normalised")]
#[case::one_slot_for_all_keys(drive::<OneSlot>, "isolation", "02-R14", "02-one-state-for-all-keys")]
#[case::state_never_stored(drive::<NeverStored>, "isolation", "02-R14", "02-state-is-updated-in-place")]
#[case::restore_forgets_state(drive::<ForgetsState>, "crash", "02-R15", "02-restore-starts-afresh")]
#[case::snapshot_of_changes_only(drive::<ChangesOnly>, "contract", "02-R15", "02-snapshot-holds-changes")]
#[case::cleared_state_kept(drive::<ClearedKept>, "final-state", "02-R16", "02-none-means-no-change")]
#[case::update_drops_a_zero(drive::<UpdateDropsZero>, "keyed-state", "02-R3", "02-empty-is-none")]
#[case::empty_state_dropped(drive::<EmptyDropped>, "contract", "02-R16", "02-empty-is-none")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report =
        graders::harness::expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// Words the third red team found unchecked (punctuation inside a word, tokens without a
/// letter) and a split that misses `\r`, each blamed on the sentence it breaks: a token
/// cut where there is no whitespace or a whitespace kept inside one is a split (02-R12),
/// a token dropped whole is an occurrence lost (02-R11).
#[rstest]
#[case::word_count_splits_on_hyphens(drive::<SplitsOnHyphens>, "word-count", "02-R12")]
#[case::word_count_letters_required(drive::<LettersRequired>, "word-count", "02-R11")]
#[case::word_count_splits_without_cr(drive::<SplitsWithoutCr>, "word-count", "02-R12")]
#[case::word_count_concatenates_lines(drive::<ConcatenatesLines>, "word-count", "02-R11")]
#[case::word_count_splits_on_an_old_table(drive::<SplitsOnAnOldTable>, "word-count", "02-R12")]
fn word_mistakes_are_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<KeyedStateStage>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
