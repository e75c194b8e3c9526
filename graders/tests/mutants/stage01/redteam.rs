//! Stage 01 mutants written from the brief's sentences alone, each breaking one rule at
//! an edge (the end, going back, the call after a refusal, an operator's second record),
//! and correct sources and chains written otherwise, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

use crate::accepted;

source! {
    /// **Mistake:** `seek` refuses the end itself (`offset >= len`), "the end is not a
    /// record", where the brief allows `seek(len)`.
    /// **Verdict:** `seek` fails: `seek(0)` on `[]` is refused.
    mod seek_end_refused { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset < self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the source is "fused": once `poll` has returned `None` it keeps
    /// returning `None`, and `seek` forgets to clear the flag, so a drained source cannot
    /// be replayed although `position()` says it went back.
    /// **Verdict:** `contract` fails: on `[5]`, `poll()`, `poll()`, `seek(0)`, then the
    /// drain yields nothing.
    mod fused_after_none { next: usize = 0, done: bool = false }
    poll(self) {
        if self.done {
            return None;
        }
        let Some(record) = self.records.get(self.next).cloned() else {
            self.done = true;
            return None;
        };
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** `seek(o)` moves `o` records on from where the source is (a relative
    /// seek, as `Iterator::nth` does), not to the absolute offset `o`.
    /// **Verdict:** `contract` fails: `poll()`, then `seek(1)` lands at 2.
    mod seek_relative { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        let len = self.records.len() as Offset;
        let to = (self.next as Offset).saturating_add(offset);
        anyhow::ensure!(to <= len, "offset {offset} is past the end");
        self.next = to as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** a refused seek rewinds the source to 0 ("start again from a clean
    /// state") before returning its error.
    /// **Verdict:** `seek-past-end` fails: after one poll and a refused seek,
    /// `position()` is 0.
    mod refused_seek_rewinds { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        if offset > self.records.len() as Offset {
            self.next = 0;
            anyhow::bail!("offset {offset} is past the end");
        }
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** a refused seek marks the source broken, and every later seek is
    /// refused too ("a failed source stays failed"), though position and next record are
    /// untouched.
    /// **Verdict:** `contract` fails: `seek(len + 1)`, then `seek(0)` is refused.
    mod refusal_poisons_seeks { next: usize = 0, broken: bool = false }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(!self.broken, "offset {offset}: the source failed earlier");
        if offset > self.records.len() as Offset {
            self.broken = true;
            anyhow::bail!("offset {offset} is past the end");
        }
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the log is read as a ring: the `poll` that finds the end returns `None`
    /// and rewinds to 0, so the end is no longer where the source stays.
    /// **Verdict:** `seek`: after draining `[x]`, `position()` is 0, not 1.
    mod poll_wraps_at_the_end { next: usize = 0 }
    poll(self) {
        let Some(record) = self.records.get(self.next).cloned() else {
            self.next = 0;
            return None;
        };
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the error names the offset in hexadecimal (`{offset:#x}`), which reads
    /// the same as decimal for small offsets only.
    /// **Verdict:** `seek-past-end` fails: `seek(u64::MAX)`'s message has no
    /// `18446744073709551615`.
    mod error_in_hex { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset:x} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the bound check adds one to both sides (`offset + 1 > len + 1`),
    /// which wraps for `u64::MAX`, so the largest offset is accepted.
    /// **Verdict:** `seek-past-end` fails: `seek(u64::MAX)` succeeds (or panics on the
    /// overflow in a debug build).
    mod bound_check_wraps { next: u64 = 0 }
    poll(self) {
        let record = self.records.get(usize::try_from(self.next).ok()?)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next }
    seek(self, offset) {
        let len = self.records.len() as Offset;
        anyhow::ensure!(offset.wrapping_add(1) <= len + 1, "offset {offset} is past the end");
        self.next = offset;
        Ok(())
    }
}

source! {
    /// **Control:** a correct source that seeks by rewinding to 0 and polling forward,
    /// a queue of the records still to read beside the log, and an error in other words.
    mod rewind_and_skip { pending: std::collections::VecDeque<T> = std::collections::VecDeque::new(), at: u64 = 0, started: bool = false }
    poll(self) {
        if !self.started {
            self.pending = self.records.iter().cloned().collect();
            self.started = true;
        }
        let record = self.pending.pop_front()?;
        self.at += 1;
        Some(record)
    }
    position(self) { self.at }
    seek(self, offset) {
        let len = self.records.len() as u64;
        if offset > len {
            anyhow::bail!("{offset} > {len}: no such offset");
        }
        self.pending = self.records.iter().cloned().collect();
        self.started = true;
        self.at = 0;
        while self.at < offset {
            self.pending.pop_front();
            self.at += 1;
        }
        Ok(())
    }
}

graders::impl_stage01!(SeekEndRefused, seek_end_refused);
graders::impl_stage01!(FusedAfterNone, fused_after_none);
graders::impl_stage01!(SeekRelative, seek_relative);
graders::impl_stage01!(RefusedSeekRewinds, refused_seek_rewinds);
graders::impl_stage01!(RefusalPoisonsSeeks, refusal_poisons_seeks);
graders::impl_stage01!(PollWrapsAtTheEnd, poll_wraps_at_the_end);
graders::impl_stage01!(ErrorInHex, error_in_hex);
graders::impl_stage01!(BoundCheckWraps, bound_check_wraps);
graders::impl_stage01!(RewindAndSkip, rewind_and_skip);
graders::impl_stage01!(FilterTakeWhile, super::operators_redteam::filter_take_while);
graders::impl_stage01!(FilterSkipWhile, super::operators_redteam::filter_skip_while);
graders::impl_stage01!(ChainPopsMiddle, super::operators_redteam::chain_pops_middle);
graders::impl_stage01!(MapPrepends, super::operators_redteam::map_prepends);
graders::impl_stage01!(FilterAsksTwice, super::operators_redteam::filter_asks_twice);
graders::impl_stage01!(
    MapCopiesItsFunction,
    super::operators_redteam::map_copies_its_function
);
graders::impl_stage01!(
    RunStopsOnSilence,
    super::operators_redteam::run_stops_on_silence
);
graders::impl_stage01!(RunOneBehind, super::operators_redteam::run_one_behind);
graders::impl_stage01!(
    RunLastRecordOnly,
    super::operators_redteam::run_last_record_only
);
graders::impl_stage01!(DrainedMiddle, super::operators_redteam::drained_middle);
graders::impl_stage01!(
    ChainFeedsLastFirst,
    super::operators_redteam::chain_feeds_last_first
);
graders::impl_stage01!(
    FlatMapCountsThenCopies,
    super::operators_redteam::flat_map_counts_then_copies
);
graders::impl_stage01!(
    FlatMapTrustsSizeHint,
    super::operators_redteam::flat_map_trusts_size_hint
);
graders::impl_stage01!(
    FlatMapTrustsUpperBound,
    super::operators_redteam::flat_map_trusts_upper_bound
);

accepted!(stage01_rewind_and_skip_passes: Dataflow, drive::<RewindAndSkip>);
accepted!(stage01_drained_middle_passes: Dataflow, drive::<DrainedMiddle>);

/// Each mutant, the check that must reject it, the one requirement its smallest failing
/// case must name and the card its report must show. No card for the slips (a fused flag
/// left set, an error in hex, a bound check that wraps, a chain's buffer popped, a run
/// that stops early) nor where the first failure reads as another belief (a relative
/// seek of 0 as a seek that does nothing, filters written with take_while or skip_while
/// as a chain's buffer mishandled, the last-record-only run as one record out per one in),
/// nor where a card's symptom only coincides (`out` prepended to, a position wrapped to 0:
/// see [`shows_no_coincidental_card`]).
#[rstest]
#[case::seek_end_refused(drive::<SeekEndRefused>, "seek", "01-R3", Some("01-end-is-no-offset"))]
#[case::fused_after_none(drive::<FusedAfterNone>, "contract", "01-R1", None)]
#[case::seek_relative(drive::<SeekRelative>, "contract", "01-R3", None)]
#[case::refused_seek_rewinds(drive::<RefusedSeekRewinds>, "seek-past-end", "01-R14", Some("01-refused-seek-may-move"))]
#[case::refusal_poisons_seeks(drive::<RefusalPoisonsSeeks>, "contract", "01-R3", Some("01-failed-source-stays-failed"))]
#[case::poll_wraps_at_the_end(drive::<PollWrapsAtTheEnd>, "seek", "01-R13", None)]
#[case::error_in_hex(drive::<ErrorInHex>, "seek-past-end", "01-R5", None)]
#[case::bound_check_wraps(drive::<BoundCheckWraps>, "seek-past-end", "01-R4", None)]
#[case::filter_take_while(drive::<FilterTakeWhile>, "chain", "01-R12", None)]
#[case::filter_skip_while(drive::<FilterSkipWhile>, "chain", "01-R12", None)]
#[case::chain_pops_middle(drive::<ChainPopsMiddle>, "process", "01-R8", None)]
#[case::map_prepends(drive::<MapPrepends>, "process", "01-R7", None)]
#[case::filter_asks_twice(drive::<FilterAsksTwice>, "chain", "01-R6", Some("01-functions-are-pure"))]
#[case::map_copies_its_function(drive::<MapCopiesItsFunction>, "chain", "01-R6", Some("01-functions-are-pure"))]
#[case::run_stops_on_silence(drive::<RunStopsOnSilence>, "chain", "01-R9", None)]
#[case::run_one_behind(drive::<RunOneBehind>, "chain", "01-R10", None)]
#[case::run_last_record_only(drive::<RunLastRecordOnly>, "chain", "01-R10", None)]
#[case::flat_map_trusts_size_hint(drive::<FlatMapTrustsSizeHint>, "process", "01-R6", None)]
#[case::flat_map_trusts_upper_bound(drive::<FlatMapTrustsUpperBound>, "process", "01-R6", None)]
#[case::chain_feeds_last_first(drive::<ChainFeedsLastFirst>, "chain", "01-R8", Some("01-functions-are-pure"))]
#[case::flat_map_counts_then_copies(drive::<FlatMapCountsThenCopies>, "chain", "01-R6", Some("01-functions-are-pure"))]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = expect_rejected_for::<Dataflow>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card (one output per input
/// from a `Map`, an extra record from a one-record source, a seek only `u64::MAX` gets
/// past, out prepended to, position() wrapped to 0): no card may be shown for them.
#[rstest]
#[case::run_one_behind(drive::<RunOneBehind>, "chain", "01-R10")]
#[case::run_last_record_only(drive::<RunLastRecordOnly>, "chain", "01-R10")]
#[case::filter_take_while(drive::<FilterTakeWhile>, "chain", "01-R12")]
#[case::filter_skip_while(drive::<FilterSkipWhile>, "chain", "01-R12")]
#[case::map_prepends(drive::<MapPrepends>, "process", "01-R7")]
#[case::poll_wraps_at_the_end(drive::<PollWrapsAtTheEnd>, "seek", "01-R13")]
#[case::bound_check_wraps(drive::<BoundCheckWraps>, "seek-past-end", "01-R4")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Dataflow>(drive, check, requirement);
}
