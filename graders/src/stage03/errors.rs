//! The `errors` check: calls with an argument the brief calls an error, which must be
//! refused with an error naming the argument, never accepted and never a panic.

use serde::{Deserialize, Serialize};

use super::forged::restored_not_owned;
use super::guard::{Answer, caught};
use super::rewritten::{Rewrite, restored_otherwise};
use super::{Implementation, oracle};
use crate::harness::Failure;
use crate::harness::arguments::names;
use crate::harness::padding::paddings;

/// A call with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `key_group_range(0, 0, 8)`
    RangeParallelismZero,
    /// `key_group_range(0, 9, 8)`
    RangeAboveMax,
    /// `key_group_for(b"k", 0)`
    KeyGroupMaxZero,
    /// `operator_index_for(0, 0, 8)`
    IndexParallelismZero,
    /// `partition(&records, 0, 8)`
    PartitionZero,
    /// `parallel_count(&keys, 9, 8)`
    CountAboveMax,
    /// `rescale(state, 0, 8)`
    RescaleZero,
    /// `KeyedSubtask::new(0, 0, 8)`
    SubtaskZero,
    /// `parents(0, 0, 2, 8)`: the old parallelism 0.
    ParentsOldZero,
    /// `KeyedSubtask::restore(0, 0, 8, &[])`
    RestoreZero,
    /// `key_group_range(2, 2, 8)`: the index out of range.
    RangeIndexOutOfRange,
    /// `operator_index_for(8, 2, 8)`: the key group out of range.
    IndexKeyGroupOutOfRange,
    /// `KeyedSubtask::new(2, 2, 8)`: the index out of range.
    SubtaskIndexOutOfRange,
    /// `parents(2, 2, 2, 8)`: the new index out of range.
    ParentsIndexOutOfRange,
    /// `KeyedSubtask::restore(0, 1, 8, &[b"not a snapshot"])`
    RestoreGarbage,
    /// `operator_index_for(0, 9, 8)`: nothing divides by the parallelism there, so only
    /// a check refuses it.
    IndexAboveMax,
    /// `partition(&[], .., 9, 8)`: no record, so no per-record call refuses it.
    PartitionAboveMaxEmpty,
    /// `parallel_count(&[], 0, 8)`
    CountZeroEmpty,
    /// `rescale(state, 9, 8)`
    RescaleAboveMax,
    /// `parents(0, 2, 0, 8)`: the new parallelism 0.
    ParentsNewZero,
    /// `parents(0, 9, 2, 8)`: the old parallelism above `max_parallelism`.
    ParentsOldAboveMax,
    /// `KeyedSubtask::new(0, 9, 8)`
    SubtaskAboveMax,
    /// `KeyedSubtask::restore(0, 9, 8, &[])`
    RestoreAboveMax,
    /// `KeyedSubtask::restore(2, 2, 8, &[])`: the index out of range.
    RestoreIndexOutOfRange,
    /// `KeyedSubtask::restore(0, 1, 8, &[b""])`: no bytes at all (refused unless the
    /// implementation's own snapshot of an empty subtask is empty bytes).
    RestoreEmptyBytes,
    /// `KeyedSubtask::restore(0, 1, 8, &[b"{}"])`: JSON, but no snapshot (unless it is the
    /// implementation's own snapshot of an empty subtask, as serde's defaulted fields write).
    RestoreEmptyObject,
    /// `KeyedSubtask::restore(0, 1, 8, &[b"null"])`: JSON's none, which an `Option` of the
    /// snapshot reads as no state (refused unless it is the implementation's own snapshot of
    /// an empty subtask).
    RestoreNull,
    /// `KeyedSubtask::restore(0, 1, 8, &[own])`, where `own` is the implementation's own
    /// snapshot of a subtask that counted `k` once, followed by ` trailing`: bytes after a
    /// snapshot, which a reader that stops after the first value never sees, whatever
    /// format that value has.
    RestoreTrailing,
    /// `key_group_range(1, 1, 8)`: the index out of range of one subtask, which owns
    /// every key group (a shortcut for `p == 1` must still check the index).
    RangeIndexOfOne,
    /// `operator_index_for(8, 1, 8)`: the key group out of range, one subtask.
    IndexKeyGroupOfOne,
    /// `operator_index_for(8, 8, 8)`: the key group out of range, as many subtasks as key
    /// groups (where the index is the key group itself).
    IndexKeyGroupOfMax,
    /// `KeyedSubtask::new(1, 1, 8)`: the index out of range, one subtask.
    SubtaskIndexOfOne,
    /// `parents(2, 1, 2, 8)`: the new index out of range, from one subtask.
    ParentsIndexFromOne,
    /// `parents(0, 1, 0, 8)`: the new parallelism 0, from one subtask.
    ParentsNewZeroFromOne,
    /// `parents(0, 9, 1, 8)`: the old parallelism above `max_parallelism`, to one subtask.
    ParentsOldAboveMaxToOne,
    /// `KeyedSubtask::restore(1, 1, 8, &[])`: the index out of range, one subtask.
    RestoreIndexOfOne,
    /// `parents(0, 9, 9, 8)`: the parallelism unchanged, and above `max_parallelism`.
    ParentsUnchangedAboveMax,
    /// `parents(0, 2, 9, 8)`: the new parallelism above `max_parallelism`.
    ParentsNewAboveMax,
    /// `parallel_count(&[], 9, 8)`: no key, so no per-key call refuses it.
    CountAboveMaxEmpty,
    /// `rescale([{}], 0, 8)`: no key, so no per-key call refuses it.
    RescaleZeroEmpty,
    /// `rescale([{}], 9, 8)`: no key, so no per-key call refuses it.
    RescaleAboveMaxEmpty,
    /// `KeyedSubtask::restore(0, 1, 8, &[own, b"not a snapshot"])`: bytes that are not a
    /// snapshot beside a good one (the implementation's own of an empty subtask), which a
    /// restore that skips what it cannot read takes for a lost file.
    RestoreGarbageBeside,
    /// `key_group_range(8, 8, 8)`: the index out of range, as many subtasks as key
    /// groups.
    RangeIndexOfMax,
    /// `KeyedSubtask::new(8, 8, 8)`: the index out of range, as many subtasks as key
    /// groups.
    SubtaskIndexOfMax,
    /// `parents(1, 2, 1, 8)`: the new index out of range, to one subtask.
    ParentsIndexToOne,
    /// `parents(8, 2, 8, 8)`: the new index out of range, to as many subtasks as key
    /// groups.
    ParentsIndexOfMax,
    /// `KeyedSubtask::restore(8, 8, 8, &[])`: the index out of range, as many subtasks
    /// as key groups.
    RestoreIndexOfMax,
    /// `key_group_range(0, 1, 0)`: a `max_parallelism` of 0, one subtask.
    RangeMaxZero,
    /// `operator_index_for(0, 1, 0)`: a `max_parallelism` of 0, one subtask.
    IndexMaxZero,
    /// `partition(&records, .., 1, 0)`: a `max_parallelism` of 0, one subtask (which a
    /// shortcut for `p == 1` hands every record without a key group).
    PartitionMaxZero,
    /// `parallel_count(&keys, 1, 0)`: a `max_parallelism` of 0, one subtask.
    CountMaxZero,
    /// `rescale([{}], 1, 0)`: a `max_parallelism` of 0, one subtask to one.
    RescaleMaxZero,
    /// `KeyedSubtask::new(0, 1, 0)`: a `max_parallelism` of 0, one subtask.
    SubtaskMaxZero,
    /// `parents(0, 1, 1, 0)`: a `max_parallelism` of 0, one subtask to one.
    ParentsMaxZero,
    /// `KeyedSubtask::restore(0, 1, 0, &[])`: a `max_parallelism` of 0, one subtask.
    RestoreMaxZero,
    /// `KeyedSubtask::restore(0, 1, 8, &[b"[[[107],1],[[107],2]]"])`: the key `k` twice in
    /// one list of pairs, which no snapshot writes and a reader that collects the pairs
    /// into a map takes for `k`'s last value.
    RestoreRepeatedKey,
    /// `KeyedSubtask::restore(0, 1, 8, &[own + own])`: the implementation's own snapshot
    /// of a subtask that counted `k` once, written twice in one file, which a reader of
    /// every value of a stream takes for one snapshot.
    RestoreOwnTwice,
    /// `KeyedSubtask::restore(1, 2, 8, &[b"[[[107],1],[[107],2]]"])`: the key `k` twice in
    /// one list, restored by subtask 1 of 2, which does not own `k`: bytes no snapshot
    /// writes, whichever keys the subtask keeps (a key in two snapshots it may skip; a
    /// key twice in one is no snapshot).
    RestoreRepeatedKeyNotOwned,
    /// `KeyedSubtask::restore(0, 1, 8, &[b"[[[108],1],[[107],1]]"])` where the
    /// implementation's own snapshot of `{"k": 1, "l": 1}` is `[[[107],1],[[108],1]]`, the
    /// list of pairs in key order: the same pairs out of order, which it never writes.
    RestoreKeysOutOfOrder,
    /// `KeyedSubtask::restore(0, 1, 8, &[own with k's member twice])` where the
    /// implementation's own snapshot of `{"k": 1}` holds a JSON object with a member named
    /// for `k` (`"k"`, `"6b"`, `"107"` or `"[107]"`): that member written twice, the key `k`
    /// twice in one snapshot, which a map read by `serde_json` takes for its last value.
    RestoreMemberTwice,
    /// `KeyedSubtask::restore(i, 2, 8, &[own with one number changed])` for `i` in 0 and
    /// 1, where `own` is the implementation's own snapshot of `{"k": 1}` and each number
    /// or `null` of it is changed in turn to `null` or to 0..=9, then each run of digits
    /// to another digit
    /// ([`every_number_changed`](crate::harness::damaged::every_number_changed)): refused,
    /// or the subtask keeps only keys whose group it owns, in any format.
    RestoreNumberChanged,
    /// `KeyedSubtask::restore(0, 2, 8, &[own with medlar written cherry])`, where `own` is
    /// the implementation's own snapshot of `{"cherry": 1, "medlar": 2}` in whatever format
    /// (`medlar` found as text, a JSON list of bytes, hex or base64: see `rewritten.rs`):
    /// the key `cherry` twice in one snapshot.
    RestoreRenamedTwice,
    /// The same with `medlar` written `banana`, which sorts before `cherry`: the keys out
    /// of the order the snapshot writes them in.
    RestoreRenamedOutOfOrder,
    /// `KeyedSubtask::restore(0, 1, 8, &[own with one number changed])`, where `own` is
    /// the same snapshot of `{"cherry": 1, "medlar": 2}`, each number changed as in
    /// [`ErrorCall::RestoreNumberChanged`]: refused, or a subtask whose own snapshot is
    /// those bytes (subtask 0 of 1 owns every key, wherever a changed number put it).
    RestoreRenumbered,
    /// `KeyedSubtask::restore(0, 1, 8, &[own padded])`, where `own` is the
    /// implementation's own snapshot of a subtask that counted `k` once, padded every way
    /// no snapshot is ([`paddings`]: written twice on two lines, after a byte-order mark
    /// or a form feed, followed by an ideographic space or a form feed): what a reader
    /// that strips what text readers strip takes for the snapshot. Refused, each of them.
    RestorePadded,
    /// `KeyedSubtask::restore(0, 2, 8, &[its state in another layout])`, where the state is
    /// that of the snapshot of [`ErrorCall::RestoreRenamedTwice`], written by the grader
    /// in each layout a snapshot commonly has but the implementation's own (see
    /// `rewritten.rs`): the list of pairs `to_bytes` writes among them, which a "legacy"
    /// reader kept beside the own format takes for a snapshot. Planned last of all.
    RestoreOtherLayout,
}

impl ErrorCall {
    /// Every invalid call, in plan order.
    pub const ALL: [ErrorCall; 61] = [
        ErrorCall::RangeParallelismZero,
        ErrorCall::RangeAboveMax,
        ErrorCall::KeyGroupMaxZero,
        ErrorCall::IndexParallelismZero,
        ErrorCall::PartitionZero,
        ErrorCall::CountAboveMax,
        ErrorCall::RescaleZero,
        ErrorCall::SubtaskZero,
        ErrorCall::ParentsOldZero,
        ErrorCall::RestoreZero,
        ErrorCall::RangeIndexOutOfRange,
        ErrorCall::IndexKeyGroupOutOfRange,
        ErrorCall::SubtaskIndexOutOfRange,
        ErrorCall::ParentsIndexOutOfRange,
        ErrorCall::RestoreGarbage,
        // Every function checks its own arguments: the same errors through the calls
        // whose other checks would not refuse them by accident.
        ErrorCall::IndexAboveMax,
        ErrorCall::PartitionAboveMaxEmpty,
        ErrorCall::CountZeroEmpty,
        ErrorCall::RescaleAboveMax,
        ErrorCall::ParentsNewZero,
        ErrorCall::ParentsOldAboveMax,
        ErrorCall::SubtaskAboveMax,
        ErrorCall::RestoreAboveMax,
        ErrorCall::RestoreIndexOutOfRange,
        // Bytes that are not a snapshot beyond plain garbage: what a lenient reader takes
        // for an empty state.
        ErrorCall::RestoreEmptyBytes,
        ErrorCall::RestoreEmptyObject,
        ErrorCall::RestoreNull,
        ErrorCall::RestoreTrailing,
        // The same checks at the edges of the parallelism, 1 and `max_parallelism`, where
        // a shortcut answers before any check.
        ErrorCall::RangeIndexOfOne,
        ErrorCall::IndexKeyGroupOfOne,
        ErrorCall::IndexKeyGroupOfMax,
        ErrorCall::SubtaskIndexOfOne,
        ErrorCall::ParentsIndexFromOne,
        ErrorCall::ParentsNewZeroFromOne,
        ErrorCall::ParentsOldAboveMaxToOne,
        ErrorCall::RestoreIndexOfOne,
        // The parallelism checks where no key and no other argument refuses first, and
        // a bad snapshot that is not the only one.
        ErrorCall::ParentsUnchangedAboveMax,
        ErrorCall::ParentsNewAboveMax,
        ErrorCall::CountAboveMaxEmpty,
        ErrorCall::RescaleZeroEmpty,
        ErrorCall::RescaleAboveMaxEmpty,
        ErrorCall::RestoreGarbageBeside,
        // The index at the top edge, `p == max_parallelism`, and to one subtask; a
        // `max_parallelism` of 0 where one subtask would need no key group.
        ErrorCall::RangeIndexOfMax,
        ErrorCall::SubtaskIndexOfMax,
        ErrorCall::ParentsIndexToOne,
        ErrorCall::ParentsIndexOfMax,
        ErrorCall::RestoreIndexOfMax,
        ErrorCall::RangeMaxZero,
        ErrorCall::IndexMaxZero,
        ErrorCall::PartitionMaxZero,
        ErrorCall::CountMaxZero,
        ErrorCall::RescaleMaxZero,
        ErrorCall::SubtaskMaxZero,
        ErrorCall::ParentsMaxZero,
        ErrorCall::RestoreMaxZero,
        // Bytes that hold a snapshot and more.
        ErrorCall::RestoreRepeatedKey,
        ErrorCall::RestoreOwnTwice,
        ErrorCall::RestoreRepeatedKeyNotOwned,
        ErrorCall::RestoreKeysOutOfOrder,
        ErrorCall::RestoreMemberTwice,
        ErrorCall::RestoreNumberChanged,
    ];

    /// The invalid calls planned after the contract's sequences, so that the cases before
    /// them keep their numbers.
    pub const AFTER_CONTRACT: [ErrorCall; 3] = [
        ErrorCall::RestoreRenamedTwice,
        ErrorCall::RestoreRenamedOutOfOrder,
        ErrorCall::RestoreRenumbered,
    ];

    /// The invalid calls planned last of all, so that every case before them keeps its
    /// number.
    pub const LAST: [ErrorCall; 1] = [ErrorCall::RestorePadded];

    /// The call as code.
    pub fn code(self) -> &'static str {
        match self {
            ErrorCall::RangeParallelismZero => "key_group_range(0, 0, 8)",
            ErrorCall::RangeAboveMax => "key_group_range(0, 9, 8)",
            ErrorCall::KeyGroupMaxZero => "key_group_for(b\"k\", 0)",
            ErrorCall::IndexParallelismZero => "operator_index_for(0, 0, 8)",
            ErrorCall::PartitionZero => "partition(&records, |r| ..., 0, 8)",
            ErrorCall::CountAboveMax => "parallel_count(&keys, 9, 8)",
            ErrorCall::RescaleZero => "rescale(state, 0, 8)",
            ErrorCall::SubtaskZero => "KeyedSubtask::new(0, 0, 8)",
            ErrorCall::ParentsOldZero => "parents(0, 0, 2, 8)",
            ErrorCall::RestoreZero => "KeyedSubtask::restore(0, 0, 8, &[])",
            ErrorCall::RangeIndexOutOfRange => "key_group_range(2, 2, 8)",
            ErrorCall::IndexKeyGroupOutOfRange => "operator_index_for(8, 2, 8)",
            ErrorCall::SubtaskIndexOutOfRange => "KeyedSubtask::new(2, 2, 8)",
            ErrorCall::ParentsIndexOutOfRange => "parents(2, 2, 2, 8)",
            ErrorCall::RestoreGarbage => "KeyedSubtask::restore(0, 1, 8, &[b\"not a snapshot\"])",
            ErrorCall::IndexAboveMax => "operator_index_for(0, 9, 8)",
            ErrorCall::PartitionAboveMaxEmpty => "partition(&[], |r| ..., 9, 8)",
            ErrorCall::CountZeroEmpty => "parallel_count(&[], 0, 8)",
            ErrorCall::RescaleAboveMax => "rescale(state, 9, 8)",
            ErrorCall::ParentsNewZero => "parents(0, 2, 0, 8)",
            ErrorCall::ParentsOldAboveMax => "parents(0, 9, 2, 8)",
            ErrorCall::SubtaskAboveMax => "KeyedSubtask::new(0, 9, 8)",
            ErrorCall::RestoreAboveMax => "KeyedSubtask::restore(0, 9, 8, &[])",
            ErrorCall::RestoreIndexOutOfRange => "KeyedSubtask::restore(2, 2, 8, &[])",
            ErrorCall::RestoreEmptyBytes => "KeyedSubtask::restore(0, 1, 8, &[b\"\"])",
            ErrorCall::RestoreEmptyObject => "KeyedSubtask::restore(0, 1, 8, &[b\"{}\"])",
            ErrorCall::RestoreNull => "KeyedSubtask::restore(0, 1, 8, &[b\"null\"])",
            ErrorCall::RestoreTrailing => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of {\"k\": 1} + b\" trailing\"])"
            }
            ErrorCall::RangeIndexOfOne => "key_group_range(1, 1, 8)",
            ErrorCall::IndexKeyGroupOfOne => "operator_index_for(8, 1, 8)",
            ErrorCall::IndexKeyGroupOfMax => "operator_index_for(8, 8, 8)",
            ErrorCall::SubtaskIndexOfOne => "KeyedSubtask::new(1, 1, 8)",
            ErrorCall::ParentsIndexFromOne => "parents(2, 1, 2, 8)",
            ErrorCall::ParentsNewZeroFromOne => "parents(0, 1, 0, 8)",
            ErrorCall::ParentsOldAboveMaxToOne => "parents(0, 9, 1, 8)",
            ErrorCall::RestoreIndexOfOne => "KeyedSubtask::restore(1, 1, 8, &[])",
            ErrorCall::ParentsUnchangedAboveMax => "parents(0, 9, 9, 8)",
            ErrorCall::ParentsNewAboveMax => "parents(0, 2, 9, 8)",
            ErrorCall::CountAboveMaxEmpty => "parallel_count(&[], 9, 8)",
            ErrorCall::RescaleZeroEmpty => "rescale(vec![BTreeMap::new()], 0, 8)",
            ErrorCall::RescaleAboveMaxEmpty => "rescale(vec![BTreeMap::new()], 9, 8)",
            ErrorCall::RestoreGarbageBeside => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of an empty subtask, b\"not a snapshot\"])"
            }
            ErrorCall::RangeIndexOfMax => "key_group_range(8, 8, 8)",
            ErrorCall::SubtaskIndexOfMax => "KeyedSubtask::new(8, 8, 8)",
            ErrorCall::ParentsIndexToOne => "parents(1, 2, 1, 8)",
            ErrorCall::ParentsIndexOfMax => "parents(8, 2, 8, 8)",
            ErrorCall::RestoreIndexOfMax => "KeyedSubtask::restore(8, 8, 8, &[])",
            ErrorCall::RangeMaxZero => "key_group_range(0, 1, 0)",
            ErrorCall::IndexMaxZero => "operator_index_for(0, 1, 0)",
            ErrorCall::PartitionMaxZero => "partition(&records, |r| ..., 1, 0)",
            ErrorCall::CountMaxZero => "parallel_count(&keys, 1, 0)",
            ErrorCall::RescaleMaxZero => "rescale(vec![BTreeMap::new()], 1, 0)",
            ErrorCall::SubtaskMaxZero => "KeyedSubtask::new(0, 1, 0)",
            ErrorCall::ParentsMaxZero => "parents(0, 1, 1, 0)",
            ErrorCall::RestoreMaxZero => "KeyedSubtask::restore(0, 1, 0, &[])",
            ErrorCall::RestoreRepeatedKey => {
                "KeyedSubtask::restore(0, 1, 8, &[b\"[[[107],1],[[107],2]]\"]): the key k twice"
            }
            ErrorCall::RestoreOwnTwice => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of {\"k\": 1}, written twice in one file])"
            }
            ErrorCall::RestoreRepeatedKeyNotOwned => {
                "KeyedSubtask::restore(1, 2, 8, &[b\"[[[107],1],[[107],2]]\"]): the key k twice in one snapshot, which is no snapshot even where the subtask does not own k"
            }
            ErrorCall::RestoreKeysOutOfOrder => {
                "KeyedSubtask::restore(0, 1, 8, &[b\"[[[108],1],[[107],1]]\"]): its own snapshot of {\"k\": 1, \"l\": 1} is that list in key order, and it never writes l before k"
            }
            ErrorCall::RestoreMemberTwice => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of {\"k\": 1} with the member of k written twice]): the key k twice in one snapshot"
            }
            ErrorCall::RestoreNumberChanged => {
                "KeyedSubtask::restore(i, 2, 8, &[its own snapshot of {\"k\": 1} with one number or null (or run of digits) changed to null or to 0..=9]) for i in 0 and 1: refused, or only keys subtask i owns"
            }
            ErrorCall::RestoreRenamedTwice => {
                "KeyedSubtask::restore(0, 2, 8, &[its own snapshot of {\"cherry\": 1, \"medlar\": 2} with medlar written cherry]): the key cherry twice in one snapshot"
            }
            ErrorCall::RestoreRenamedOutOfOrder => {
                "KeyedSubtask::restore(0, 2, 8, &[its own snapshot of {\"cherry\": 1, \"medlar\": 2} with medlar written banana]): banana, which sorts before cherry, after it"
            }
            ErrorCall::RestoreRenumbered => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of {\"cherry\": 1, \"medlar\": 2} with one number or null (or run of digits) changed to null or to 0..=9]): refused, or a subtask whose own snapshot is those bytes"
            }
            ErrorCall::RestorePadded => {
                "KeyedSubtask::restore(0, 1, 8, &[its own snapshot of {\"k\": 1} written twice on two lines, after a byte-order mark or a form feed, or followed by an ideographic space (U+3000) or a form feed])"
            }
            ErrorCall::RestoreOtherLayout => {
                "KeyedSubtask::restore(0, 2, 8, &[the state of its own snapshot of {\"cherry\": 1, \"medlar\": 2}, in each other layout a snapshot commonly has: [[key, value], ..], {key: value, ..}, [{\"key\": key, \"value\": value}, ..] or {\"pairs\": [[key, value], ..]}, keys as lists of bytes or as text])"
            }
        }
    }

    /// The word the error message must contain (none for bytes that are not a snapshot:
    /// no argument is misconfigured there).
    pub fn argument(self) -> Option<&'static str> {
        match self {
            ErrorCall::KeyGroupMaxZero => Some("max_parallelism"),
            ErrorCall::RangeIndexOutOfRange
            | ErrorCall::RangeIndexOfOne
            | ErrorCall::RangeIndexOfMax => Some("operator_index"),
            ErrorCall::IndexKeyGroupOutOfRange
            | ErrorCall::IndexKeyGroupOfOne
            | ErrorCall::IndexKeyGroupOfMax => Some("key_group"),
            ErrorCall::SubtaskIndexOutOfRange
            | ErrorCall::ParentsIndexOutOfRange
            | ErrorCall::RestoreIndexOutOfRange
            | ErrorCall::SubtaskIndexOfOne
            | ErrorCall::ParentsIndexFromOne
            | ErrorCall::RestoreIndexOfOne
            | ErrorCall::SubtaskIndexOfMax
            | ErrorCall::ParentsIndexToOne
            | ErrorCall::ParentsIndexOfMax
            | ErrorCall::RestoreIndexOfMax => Some("index"),
            ErrorCall::RestoreGarbage
            | ErrorCall::RestoreEmptyBytes
            | ErrorCall::RestoreEmptyObject
            | ErrorCall::RestoreNull
            | ErrorCall::RestoreTrailing
            | ErrorCall::RestoreGarbageBeside
            | ErrorCall::RestoreRepeatedKey
            | ErrorCall::RestoreOwnTwice
            | ErrorCall::RestoreRepeatedKeyNotOwned
            | ErrorCall::RestoreKeysOutOfOrder
            | ErrorCall::RestoreMemberTwice
            | ErrorCall::RestoreNumberChanged
            | ErrorCall::RestoreRenamedTwice
            | ErrorCall::RestoreRenamedOutOfOrder
            | ErrorCall::RestoreRenumbered
            | ErrorCall::RestorePadded
            | ErrorCall::RestoreOtherLayout => None,
            _ => Some("parallelism"),
        }
    }

    /// Every word that names the argument as a whole word (see
    /// [`names`](crate::harness::arguments::names)): [`ErrorCall::argument`], and where a
    /// signature spells it otherwise, that spelling (`rescale`'s `new_parallelism`,
    /// `parents`' `old_parallelism`, `new_parallelism` and `new_index`, and
    /// `key_group_range`'s `operator_index`, which `KeyedSubtask::new` may hand its `index`
    /// to). A parallelism above `max_parallelism`, or one subtask of a `max_parallelism` of
    /// 0, is two arguments that disagree, and naming either tells what to fix; so is an
    /// index beside a parallelism of 0, which no index fits (the seventeenth red team's
    /// c03-04 checked the index first: "operator_index 0 is out of range 0..0"). Empty
    /// where no argument is named.
    pub fn spellings(self) -> &'static [&'static str] {
        use ErrorCall as E;
        match self {
            E::KeyGroupMaxZero => &["max_parallelism"],
            E::RangeIndexOutOfRange | E::RangeIndexOfOne | E::RangeIndexOfMax => {
                &["operator_index"]
            }
            E::IndexKeyGroupOutOfRange | E::IndexKeyGroupOfOne | E::IndexKeyGroupOfMax => {
                &["key_group"]
            }
            E::SubtaskIndexOutOfRange
            | E::RestoreIndexOutOfRange
            | E::SubtaskIndexOfOne
            | E::RestoreIndexOfOne
            | E::SubtaskIndexOfMax
            | E::RestoreIndexOfMax => &["index", "operator_index"],
            E::ParentsIndexOutOfRange
            | E::ParentsIndexFromOne
            | E::ParentsIndexToOne
            | E::ParentsIndexOfMax => &["index", "new_index", "operator_index"],
            E::RangeParallelismZero => &["parallelism", "operator_index"],
            E::SubtaskZero | E::RestoreZero => &["parallelism", "index", "operator_index"],
            E::IndexParallelismZero | E::PartitionZero | E::CountZeroEmpty => &["parallelism"],
            E::RescaleZero | E::RescaleZeroEmpty => &["parallelism", "new_parallelism"],
            E::ParentsOldZero => &["parallelism", "old_parallelism"],
            E::ParentsNewZero | E::ParentsNewZeroFromOne => &[
                "parallelism",
                "new_parallelism",
                "index",
                "new_index",
                "operator_index",
            ],
            E::RescaleAboveMax | E::RescaleAboveMaxEmpty | E::RescaleMaxZero => {
                &["parallelism", "new_parallelism", "max_parallelism"]
            }
            E::ParentsOldAboveMax | E::ParentsOldAboveMaxToOne => {
                &["parallelism", "old_parallelism", "max_parallelism"]
            }
            E::ParentsNewAboveMax => &["parallelism", "new_parallelism", "max_parallelism"],
            E::ParentsUnchangedAboveMax | E::ParentsMaxZero => &[
                "parallelism",
                "old_parallelism",
                "new_parallelism",
                "max_parallelism",
            ],
            _ if self.argument().is_some() => &["parallelism", "max_parallelism"],
            _ => &[],
        }
    }

    /// The requirement a call that does not refuse breaks.
    pub fn requirement(self) -> &'static str {
        match self {
            ErrorCall::RangeIndexOutOfRange
            | ErrorCall::IndexKeyGroupOutOfRange
            | ErrorCall::SubtaskIndexOutOfRange
            | ErrorCall::ParentsIndexOutOfRange
            | ErrorCall::RestoreIndexOutOfRange
            | ErrorCall::RangeIndexOfOne
            | ErrorCall::IndexKeyGroupOfOne
            | ErrorCall::IndexKeyGroupOfMax
            | ErrorCall::SubtaskIndexOfOne
            | ErrorCall::ParentsIndexFromOne
            | ErrorCall::RestoreIndexOfOne
            | ErrorCall::RangeIndexOfMax
            | ErrorCall::SubtaskIndexOfMax
            | ErrorCall::ParentsIndexToOne
            | ErrorCall::ParentsIndexOfMax
            | ErrorCall::RestoreIndexOfMax => "03-R22",
            ErrorCall::RestoreGarbage
            | ErrorCall::RestoreEmptyBytes
            | ErrorCall::RestoreEmptyObject
            | ErrorCall::RestoreNull
            | ErrorCall::RestoreTrailing
            | ErrorCall::RestoreGarbageBeside
            | ErrorCall::RestoreRepeatedKey
            | ErrorCall::RestoreOwnTwice
            | ErrorCall::RestoreRepeatedKeyNotOwned
            | ErrorCall::RestoreKeysOutOfOrder
            | ErrorCall::RestoreMemberTwice
            | ErrorCall::RestoreRenamedTwice
            | ErrorCall::RestoreRenamedOutOfOrder
            | ErrorCall::RestoreRenumbered
            | ErrorCall::RestorePadded
            | ErrorCall::RestoreOtherLayout => "03-R9",
            ErrorCall::RestoreNumberChanged => "03-R7",
            _ => "03-R21",
        }
    }
}

/// Makes the invalid call; its answer shown as text.
pub fn invalid_call<I: Implementation>(call: ErrorCall) -> Answer<String> {
    let records = super::oracle::numbered(&["k".to_owned()]);
    let keys = vec!["k".to_owned()];
    let shown = |s: &dyn std::fmt::Debug| format!("{s:?}");
    match call {
        ErrorCall::RangeParallelismZero => {
            caught(|| I::key_group_range(0, 0, 8).map(|r| shown(&r)))
        }
        ErrorCall::RangeAboveMax => caught(|| I::key_group_range(0, 9, 8).map(|r| shown(&r))),
        ErrorCall::KeyGroupMaxZero => caught(|| I::key_group_for("k", 0).map(|g| g.to_string())),
        ErrorCall::IndexParallelismZero => {
            caught(|| I::operator_index_for(0, 0, 8).map(|i| i.to_string()))
        }
        ErrorCall::PartitionZero => caught(|| I::partition(&records, 0, 8).map(|s| shown(&s))),
        ErrorCall::CountAboveMax => caught(|| I::parallel_count(&keys, 9, 8).map(|c| shown(&c))),
        ErrorCall::RescaleZero => {
            caught(|| I::rescale(oracle::counts(&keys, 1, 8), 0, 8).map(|c| shown(&c)))
        }
        ErrorCall::SubtaskZero => caught(|| I::subtask(0, 0, 8).map(|_| "a subtask".to_owned())),
        ErrorCall::ParentsOldZero => caught(|| I::parents(0, 0, 2, 8).map(|p| shown(&p))),
        ErrorCall::RestoreZero => {
            caught(|| I::restore(0, 0, 8, &[]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::RangeIndexOutOfRange => {
            caught(|| I::key_group_range(2, 2, 8).map(|r| shown(&r)))
        }
        ErrorCall::IndexKeyGroupOutOfRange => {
            caught(|| I::operator_index_for(8, 2, 8).map(|i| i.to_string()))
        }
        ErrorCall::SubtaskIndexOutOfRange => {
            caught(|| I::subtask(2, 2, 8).map(|_| "a subtask".to_owned()))
        }
        ErrorCall::ParentsIndexOutOfRange => caught(|| I::parents(2, 2, 2, 8).map(|p| shown(&p))),
        ErrorCall::RestoreGarbage => caught(|| {
            I::restore(0, 1, 8, &[b"not a snapshot".to_vec()]).map(|s| shown(&I::counts(&s)))
        }),
        ErrorCall::IndexAboveMax => {
            caught(|| I::operator_index_for(0, 9, 8).map(|i| i.to_string()))
        }
        ErrorCall::PartitionAboveMaxEmpty => caught(|| I::partition(&[], 9, 8).map(|s| shown(&s))),
        ErrorCall::CountZeroEmpty => caught(|| I::parallel_count(&[], 0, 8).map(|c| shown(&c))),
        ErrorCall::RescaleAboveMax => {
            caught(|| I::rescale(oracle::counts(&keys, 1, 8), 9, 8).map(|c| shown(&c)))
        }
        ErrorCall::ParentsNewZero => caught(|| I::parents(0, 2, 0, 8).map(|p| shown(&p))),
        ErrorCall::ParentsOldAboveMax => caught(|| I::parents(0, 9, 2, 8).map(|p| shown(&p))),
        ErrorCall::SubtaskAboveMax => {
            caught(|| I::subtask(0, 9, 8).map(|_| "a subtask".to_owned()))
        }
        ErrorCall::RestoreAboveMax => {
            caught(|| I::restore(0, 9, 8, &[]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::RestoreIndexOutOfRange => {
            caught(|| I::restore(2, 2, 8, &[]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::RestoreEmptyBytes => not_a_snapshot::<I>(b"", Unless::OwnEmptySnapshot),
        ErrorCall::RestoreEmptyObject => not_a_snapshot::<I>(b"{}", Unless::OwnEmptySnapshot),
        ErrorCall::RestoreNull => not_a_snapshot::<I>(b"null", Unless::OwnEmptySnapshot),
        ErrorCall::RestoreRepeatedKey => {
            not_a_snapshot::<I>(b"[[[107],1],[[107],2]]", Unless::Never)
        }
        ErrorCall::RestoreOwnTwice => match counted_k::<I>() {
            Answer::Ok(own) => not_a_snapshot::<I>(&own.repeat(2), Unless::Never),
            // As for `RestoreTrailing`: the laws' checks report a subtask not made.
            _ => not_a_snapshot::<I>(b"[][]", Unless::Never),
        },
        ErrorCall::RestoreRepeatedKeyNotOwned => caught(|| {
            I::restore(1, 2, 8, &[b"[[[107],1],[[107],2]]".to_vec()])
                .map(|s| format!("{:?}", I::counts(&s)))
        }),
        ErrorCall::RestoreKeysOutOfOrder => {
            let own = caught(|| {
                let mut subtask = I::subtask(0, 1, 8)?;
                I::count(&mut subtask, "k")?;
                I::count(&mut subtask, "l")?;
                I::snapshot(&subtask)
            });
            match own {
                Answer::Ok(own) if own == b"[[[107],1],[[108],1]]" => {
                    not_a_snapshot::<I>(b"[[[108],1],[[107],1]]", Unless::Never)
                }
                // Another format: what it never writes cannot be told from these bytes.
                _ => Answer::Err("its snapshot is not the list of pairs in key order".to_owned()),
            }
        }
        ErrorCall::RestoreMemberTwice => match counted_k::<I>()
            .as_result()
            .map(|own| member_of_k_twice(own))
        {
            Ok(Some(forged)) => not_a_snapshot::<I>(&forged, Unless::Never),
            // Another format: no member of k to write twice.
            _ => Answer::Err("its snapshot holds no JSON object with a member for k".to_owned()),
        },
        ErrorCall::RestoreRenamedTwice => restored_otherwise::<I>(Rewrite::Twice),
        ErrorCall::RestoreRenamedOutOfOrder => restored_otherwise::<I>(Rewrite::OutOfOrder),
        ErrorCall::RestoreRenumbered => restored_otherwise::<I>(Rewrite::NumberChanged),
        ErrorCall::RestoreOtherLayout => restored_otherwise::<I>(Rewrite::OtherLayout),
        ErrorCall::RestoreNumberChanged => match counted_k::<I>() {
            Answer::Ok(own) => restored_not_owned::<I>(&own),
            // The laws' checks report a subtask not made.
            _ => Answer::Err("its subtask could not be made".to_owned()),
        },
        ErrorCall::RestorePadded => match counted_k::<I>() {
            Answer::Ok(own) => {
                let mut answer = Answer::Err("every padded snapshot is refused".to_owned());
                for (padding, bytes) in paddings(&own) {
                    answer = not_a_snapshot::<I>(&bytes, Unless::Never)
                        .map(|counts| format!("{counts} from {}", padding.describe()));
                    if !matches!(answer, Answer::Err(_)) {
                        break;
                    }
                }
                answer
            }
            // As for `RestoreTrailing`: the laws' checks report a subtask not made.
            _ => not_a_snapshot::<I>(b"\x0c[]", Unless::Never),
        },
        ErrorCall::RestoreTrailing => match counted_k::<I>() {
            Answer::Ok(mut own) => {
                own.extend_from_slice(b" trailing");
                not_a_snapshot::<I>(&own, Unless::Never)
            }
            // The subtask could not be made: the checks of the laws report that, and
            // this case falls back on a static snapshot with bytes after it.
            _ => not_a_snapshot::<I>(b"[] trailing", Unless::Never),
        },
        ErrorCall::RangeIndexOfOne => caught(|| I::key_group_range(1, 1, 8).map(|r| shown(&r))),
        ErrorCall::IndexKeyGroupOfOne => {
            caught(|| I::operator_index_for(8, 1, 8).map(|i| i.to_string()))
        }
        ErrorCall::IndexKeyGroupOfMax => {
            caught(|| I::operator_index_for(8, 8, 8).map(|i| i.to_string()))
        }
        ErrorCall::SubtaskIndexOfOne => {
            caught(|| I::subtask(1, 1, 8).map(|_| "a subtask".to_owned()))
        }
        ErrorCall::ParentsIndexFromOne => caught(|| I::parents(2, 1, 2, 8).map(|p| shown(&p))),
        ErrorCall::ParentsNewZeroFromOne => caught(|| I::parents(0, 1, 0, 8).map(|p| shown(&p))),
        ErrorCall::ParentsOldAboveMaxToOne => caught(|| I::parents(0, 9, 1, 8).map(|p| shown(&p))),
        ErrorCall::RestoreIndexOfOne => {
            caught(|| I::restore(1, 1, 8, &[]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::ParentsUnchangedAboveMax => caught(|| I::parents(0, 9, 9, 8).map(|p| shown(&p))),
        ErrorCall::ParentsNewAboveMax => caught(|| I::parents(0, 2, 9, 8).map(|p| shown(&p))),
        ErrorCall::CountAboveMaxEmpty => caught(|| I::parallel_count(&[], 9, 8).map(|c| shown(&c))),
        ErrorCall::RescaleZeroEmpty => {
            caught(|| I::rescale(oracle::counts(&[], 1, 8), 0, 8).map(|c| shown(&c)))
        }
        ErrorCall::RescaleAboveMaxEmpty => {
            caught(|| I::rescale(oracle::counts(&[], 1, 8), 9, 8).map(|c| shown(&c)))
        }
        ErrorCall::RestoreGarbageBeside => {
            let garbage = b"not a snapshot".to_vec();
            // Without an own snapshot (the laws' checks report why), garbage twice.
            let beside = match caught(|| I::subtask(0, 1, 8).and_then(|s| I::snapshot(&s))) {
                Answer::Ok(own) => own,
                _ => garbage.clone(),
            };
            caught(|| I::restore(0, 1, 8, &[beside, garbage]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::RangeIndexOfMax => caught(|| I::key_group_range(8, 8, 8).map(|r| shown(&r))),
        ErrorCall::SubtaskIndexOfMax => {
            caught(|| I::subtask(8, 8, 8).map(|_| "a subtask".to_owned()))
        }
        ErrorCall::ParentsIndexToOne => caught(|| I::parents(1, 2, 1, 8).map(|p| shown(&p))),
        ErrorCall::ParentsIndexOfMax => caught(|| I::parents(8, 2, 8, 8).map(|p| shown(&p))),
        ErrorCall::RestoreIndexOfMax => {
            caught(|| I::restore(8, 8, 8, &[]).map(|s| shown(&I::counts(&s))))
        }
        ErrorCall::RangeMaxZero => caught(|| I::key_group_range(0, 1, 0).map(|r| shown(&r))),
        ErrorCall::IndexMaxZero => caught(|| I::operator_index_for(0, 1, 0).map(|i| i.to_string())),
        ErrorCall::PartitionMaxZero => caught(|| I::partition(&records, 1, 0).map(|s| shown(&s))),
        ErrorCall::CountMaxZero => caught(|| I::parallel_count(&keys, 1, 0).map(|c| shown(&c))),
        ErrorCall::RescaleMaxZero => {
            caught(|| I::rescale(oracle::counts(&[], 1, 8), 1, 0).map(|c| shown(&c)))
        }
        ErrorCall::SubtaskMaxZero => caught(|| I::subtask(0, 1, 0).map(|_| "a subtask".to_owned())),
        ErrorCall::ParentsMaxZero => caught(|| I::parents(0, 1, 1, 0).map(|p| shown(&p))),
        ErrorCall::RestoreMaxZero => {
            caught(|| I::restore(0, 1, 0, &[]).map(|s| shown(&I::counts(&s))))
        }
    }
}

/// The implementation's own snapshot of subtask 0 of 1 that counted `k` once.
fn counted_k<I: Implementation>() -> Answer<Vec<u8>> {
    caught(|| {
        let mut subtask = I::subtask(0, 1, 8)?;
        I::count(&mut subtask, "k")?;
        I::snapshot(&subtask)
    })
}

/// `own` (a snapshot of `{"k": 1}`) written again with the member named for `k` of its
/// first JSON object that has one written twice, or `None` when it has none. Only a member
/// named for `k` is doubled: the member of a map keyed by the key, never a struct's field.
fn member_of_k_twice(own: &[u8]) -> Option<Vec<u8>> {
    fn write(tree: &serde_json::Value, doubled: &mut bool, out: &mut String) -> Option<()> {
        use serde_json::Value;
        match tree {
            Value::Array(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    write(item, doubled, out)?;
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                let again = if *doubled {
                    None
                } else {
                    members.iter().find(|(name, _)| {
                        ["k", "6b", "107", "[107]", "aw=="].contains(&name.as_str())
                    })
                };
                *doubled |= again.is_some();
                for (n, (name, value)) in members.iter().chain(again).enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(name).ok()?);
                    out.push(':');
                    write(value, doubled, out)?;
                }
                out.push('}');
            }
            scalar => out.push_str(&serde_json::to_string(scalar).ok()?),
        }
        Some(())
    }
    let tree: serde_json::Value = serde_json::from_slice(own).ok()?;
    let (mut doubled, mut out) = (false, String::new());
    write(&tree, &mut doubled, &mut out)?;
    doubled.then(|| out.into_bytes())
}

/// When bytes that are no snapshot may still be restored.
#[derive(Clone, Copy)]
enum Unless {
    /// Never: no implementation writes these bytes as a snapshot.
    Never,
    /// When they are the implementation's own snapshot of an empty subtask: a snapshot it
    /// writes, which it must read back.
    OwnEmptySnapshot,
}

/// `restore(0, 1, 8, &[bytes])` of bytes that are not a snapshot. An accepted restore the
/// exception allows is judged as the refusal asked of every other implementation.
fn not_a_snapshot<I: Implementation>(bytes: &[u8], unless: Unless) -> Answer<String> {
    let answer =
        caught(|| I::restore(0, 1, 8, &[bytes.to_vec()]).map(|s| format!("{:?}", I::counts(&s))));
    let own_empty = || {
        matches!(
            caught(|| I::subtask(0, 1, 8).and_then(|s| I::snapshot(&s))),
            Answer::Ok(ref written) if written == bytes
        )
    };
    match (answer, unless) {
        (Answer::Ok(_), Unless::OwnEmptySnapshot) if own_empty() => Answer::Err(
            "these bytes are this implementation's own snapshot of an empty subtask".to_owned(),
        ),
        (answer, _) => answer,
    }
}

/// `Ok` when the invalid call was refused with an error naming its argument.
pub fn judge_error(call: ErrorCall, answer: &Answer<String>) -> Result<(), Failure> {
    let expected = match (call, call.argument()) {
        (ErrorCall::RestoreNumberChanged, _) => {
            "an error, or a subtask that keeps only the keys it owns".to_owned()
        }
        (
            ErrorCall::RestoreRenamedTwice
            | ErrorCall::RestoreRenamedOutOfOrder
            | ErrorCall::RestoreRenumbered
            | ErrorCall::RestoreOtherLayout,
            _,
        ) => "an error, or a subtask whose own snapshot is these bytes".to_owned(),
        (_, Some(_)) => format!(
            "an error naming `{}` (as a word of its own)",
            call.spellings().join("` or `")
        ),
        (_, None) => "an error".to_owned(),
    };
    let fail = |step: String| Failure::new(expected.clone(), answer.show()).step(step);
    match answer {
        Answer::Panicked(message) => Err(fail(format!(
            "{} panicked ({message}) instead of returning an error",
            call.code()
        ))
        .requirement(call.requirement())),
        Answer::Ok(value) => Err(
            fail(format!("{} was accepted, returning {value}", call.code()))
                .requirement(call.requirement()),
        ),
        Answer::Err(message) => match call.argument() {
            None => Ok(()),
            Some(_) if call.spellings().iter().any(|name| names(message, name)) => Ok(()),
            Some(_) => Err(
                fail("the error does not say which argument is wrong".to_owned())
                    .requirement("03-R23"),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::oracle;

    #[test]
    fn the_member_of_k_is_written_twice() {
        let twice = |own: &str| super::member_of_k_twice(own.as_bytes()).map(String::from_utf8);
        assert_eq!(
            twice(r#"{"6b":1}"#),
            Some(Ok(r#"{"6b":1,"6b":1}"#.to_owned()))
        );
        assert_eq!(
            twice(r#"{"state":{"k":1}}"#),
            Some(Ok(r#"{"state":{"k":1,"k":1}}"#.to_owned()))
        );
        // A list of pairs, and a struct's fields: nothing to double.
        assert_eq!(twice("[[[107],1]]"), None);
        assert_eq!(twice(r#"[{"key":[107],"value":1}]"#), None);
    }

    #[test]
    fn subtask_1_of_2_does_not_own_k() {
        // `RestoreRepeatedKeyNotOwned` restores subtask 1 of 2 for that reason.
        assert_eq!(oracle::owner_of(b"k", 2, 8), 0);
    }
}
