//! Stage 03 mutants of the eighth and ninth red teams, written from the brief alone: habits
//! carried over from handling text. A `restore` that strips what text readers strip before
//! it reads a snapshot, where the brief calls bytes that are not a snapshot an error; a
//! `parallel_count` that skips the empty key, as stage 02's word count has no empty word.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

restore_reading! {
    /// **Mistake:** `restore` drops a byte-order mark before each snapshot ("an editor
    /// may have saved the file"), though `snapshot` never writes one (the eighth red
    /// team's w03-02).
    /// **Verdict:** `errors`: its own snapshot of `{"k": 1}` after a byte-order mark
    /// restores (03-R9).
    restore_strips_a_byte_order_mark,
    |snapshots| snapshots
        .iter()
        .map(|bytes| bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes).to_vec())
        .collect()
}

restore_reading! {
    /// **Mistake:** `restore` trims each snapshot with `trim_ascii` ("a file may end in
    /// a newline"): JSON reads a space, tab, line feed or carriage return around a value
    /// already, and this strips a form feed too (the eighth red team's w02-01, through
    /// stage 02's `from_bytes`).
    /// **Verdict:** `errors`: its own snapshot of `{"k": 1}` after a form feed restores
    /// (03-R9).
    restore_trims_ascii,
    |snapshots| snapshots
        .iter()
        .map(|bytes| bytes.trim_ascii().to_vec())
        .collect()
}

/// **Mistake:** `parallel_count` skips the empty key ("an empty key is no word", as in
/// stage 02's word count), though a key is bytes and the empty bytes are a key like any
/// other (the ninth red team's w03-3).
/// **Verdict:** `parallel-count`: the keys `""`, `a`, `""` count `a` alone (03-R10).
mod count_skips_the_empty_key {
    pub use solution03::*;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<std::collections::BTreeMap<Vec<u8>, u64>>> {
        let words: Vec<Vec<u8>> = keys.iter().filter(|key| !key.is_empty()).cloned().collect();
        solution03::parallel_count(&words, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(CountSkipsTheEmptyKey, count_skips_the_empty_key);

graders::impl_stage03!(
    RestoreStripsAByteOrderMark,
    restore_strips_a_byte_order_mark
);
graders::impl_stage03!(RestoreTrimsAscii, restore_trims_ascii);

/// Each mutant, the check that must reject it and the requirement its smallest failing
/// case must name.
#[rstest]
#[case::restore_strips_a_byte_order_mark(drive::<RestoreStripsAByteOrderMark>, "errors", "03-R9")]
#[case::restore_trims_ascii(drive::<RestoreTrimsAscii>, "errors", "03-R9")]
#[case::count_skips_the_empty_key(drive::<CountSkipsTheEmptyKey>, "parallel-count", "03-R10")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
