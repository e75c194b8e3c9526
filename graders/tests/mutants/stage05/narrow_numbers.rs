//! Stage 05 mutants of a red-team round whose numbers are too narrow, or read too widely:
//! a count in a `u16` and a sum in an `f64` (past 65,535 records and past 2^53), counts
//! read as an `i64` or a `u128` and cast `as u64`, the number of aggregates kept as a
//! counter that `restore` takes from the snapshot, and a count of 0 refused only beside a
//! sum that is not 0; a count in a `u32`, or read as an `i64`, which a restored count
//! past their range breaks.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use super::flawed::Flaw;

flawed!(
    /// **Mistake:** the count of an aggregate is kept in a `u16` ("a window never sees
    /// 65,536 records of one key": the `u8` of an earlier mistake, widened once).
    /// **Verdict:** `firing` fails on one aggregate of 65,537 records: the 65,536th
    /// overflows the count and `on_record` panics (05-R2).
    count_in_u16, CountInU16, CountInU16Operator, Flaw::CountInU16
);
flawed!(
    /// **Mistake:** the sum is added up in an `f64` ("a float holds any sum"): past 2^53
    /// an `f64` holds only even integers, so a record of 2^53 + 1 is counted as 2^53.
    /// **Verdict:** `firing` fails: `a@5=9007199254740993` and 65,536 records of 1 fire
    /// with the sum 9007199254740992, not 9007199254806529 (05-R2).
    sum_in_f64, SumInF64, SumInF64Operator, Flaw::SumInF64
);
flawed!(
    /// **Mistake:** `restore` reads each count as an `i64`, refuses 0, and casts it `as
    /// u64` ("a count is never negative anyway"): a count of -1 restores as `u64::MAX`.
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with the count written as
    /// -1 restores (05-R16).
    count_read_signed, CountReadSigned, CountReadSignedOperator, Flaw::CountReadSigned
);
flawed!(
    /// **Mistake:** `restore` reads each count as a `u128`, refuses 0, and casts it `as
    /// u64` ("wider is safer"): a count of 2^64 passes the check and restores as 0, the
    /// aggregate of no record that the brief calls no snapshot.
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with the count written as
    /// 18446744073709551616 restores (05-R16).
    count_read_wide, CountReadWide, CountReadWideOperator, Flaw::CountReadWide
);
flawed!(
    /// **Mistake:** `state_size()` is a counter kept beside the aggregates, one up as an
    /// aggregate opens and down as its window fires, written into the snapshot and taken
    /// back from it by `restore` ("it is part of the state").
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with the counter changed to
    /// 2 restores with `state_size()` 2, and `W(u64::MAX)` fires one result (05-R16).
    size_counter_trusted, SizeCounterTrusted, SizeCounterTrustedOperator,
    Flaw::SizeCounterTrusted
);
flawed!(
    /// **Mistake:** `restore` refuses an aggregate of count 0 only when its sum is not 0
    /// ("a count of 0 with a sum is impossible; (0, 0) is just an empty aggregate"), the
    /// red team's w05-03: the aggregate restores, `state_size()` counts it and `W(MAX)`
    /// fires a result of count 0.
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with both the sum and the
    /// count set to 0 restores (05-R16).
    count_zero_refused_only_with_a_sum, CountZeroRefusedOnlyWithASum,
    CountZeroRefusedOnlyWithASumOperator, Flaw::CountZeroRefusedOnlyWithASum
);

flawed!(
    /// **Mistake:** the count of an aggregate is kept in a `u32` ("four billion records
    /// of one key in one window will never happen"), the red team's w05-01: `restore`
    /// reads it as one and `on_record` adds to it as one.
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with the count set to
    /// 2^32 - 1 restores, and the next record overflows the count (05-R15).
    count_in_u32, CountInU32, CountInU32Operator, Flaw::CountInU32
);
flawed!(
    /// **Mistake:** `restore` reads each count as an `i64` and refuses one below 1 ("a
    /// signed count catches a negative one").
    /// **Verdict:** `contract` fails: its snapshot of `a@3=7` with the count set to 2^63,
    /// a state some run makes, is refused (05-R15).
    count_in_i64, CountInI64, CountInI64Operator, Flaw::CountInI64
);

flawed!(
    /// **Mistake:** `restore` asks whether an open window has fired with `end - 1 <= wm`
    /// ("a window's last timestamp is its end less one"), unchecked: a snapshot whose
    /// window ends at 0 panics instead of being refused (the red team's fifth-round
    /// w05-05).
    /// **Verdict:** `contract` fails: its snapshot after `W(5)` and `a@7=7` with the
    /// window's end changed to 0 makes `restore` panic (05-R16).
    fired_by_end_unchecked, FiredByEndUnchecked, FiredByEndUncheckedOperator,
    Flaw::FiredByEndUnchecked
);
flawed!(
    /// **Mistake:** the snapshot is text, an aggregate per line, its fields and its key's
    /// JSON split on spaces ("a line of numbers and a word": the red team's fifth-round
    /// w05-01): a key with a space in it does not come back.
    /// **Verdict:** `contract` fails: the round trip of records of keys a text format must
    /// escape is refused, `"a b"` among them (05-R15).
    lines_split_on_spaces, LinesSplitOnSpaces, LinesSplitOnSpacesOperator,
    Flaw::LinesSplitOnSpaces
);
flawed!(
    /// **Mistake:** `restore` refuses a window that holds no timestamp ("`start < end`,
    /// or it is no window": the fourteenth red team's w05-02), though a record at
    /// `u64::MAX` under a size that divides `u64::MAX` has the window `[u64::MAX,
    /// u64::MAX)`, cut short to nothing, and the operator's own snapshot holds it.
    /// **Verdict:** `lateness` fails: under `Tumbling::new(u64::MAX / 3)`, the snapshot
    /// after `a@MAX=7` does not restore (05-R15).
    empty_window_refused, EmptyWindowRefused, EmptyWindowRefusedOperator,
    Flaw::EmptyWindowRefused
);

/// The mutants that read a number without asking whether `snapshot` could have written
/// it, the check that rejects each, the requirement its failure names and the card shown:
/// bytes of the right types taken for a state.
#[rstest]
#[case::count_read_signed(drive::<CountReadSigned>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::count_read_wide(drive::<CountReadWide>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::size_counter_trusted(drive::<SizeCounterTrusted>, "contract", "05-R16", "05-parsed-is-a-state")]
#[case::count_zero_refused_only_with_a_sum(drive::<CountZeroRefusedOnlyWithASum>, "contract", "05-R16", "05-parsed-is-a-state")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// The widths chosen too small, the check that rejects each and the requirement its
/// failure names; no card: a width is a slip, not a belief about windows.
#[rstest]
#[case::count_in_u16(drive::<CountInU16>, "firing", "05-R2")]
#[case::sum_in_f64(drive::<SumInF64>, "firing", "05-R2")]
#[case::count_in_u32(drive::<CountInU32>, "contract", "05-R15")]
#[case::count_in_i64(drive::<CountInI64>, "contract", "05-R15")]
#[case::fired_by_end_unchecked(drive::<FiredByEndUnchecked>, "contract", "05-R16")]
#[case::lines_split_on_spaces(drive::<LinesSplitOnSpaces>, "contract", "05-R15")]
#[case::empty_window_refused(drive::<EmptyWindowRefused>, "lateness", "05-R15")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}
