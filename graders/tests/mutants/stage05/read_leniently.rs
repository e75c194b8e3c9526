//! Stage 05 mutants whose `restore` reads more than `snapshot` writes: one `(window, key)`
//! twice refused only when the two entries are equal, bytes trimmed as text or decoded
//! lossily before they are read, an aggregate of count 0 skipped in a format that quotes
//! its numbers; and the correct variants that read a JSON tree first, that quote the
//! numbers, and whose `Sliding::new` names the slide of a zero size.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use crate::accepted;

/// A mutant: the reference operator, but for `restore`, which hands the reference the
/// bytes `$read` makes of what it is given (`$bytes`), or fails as `$read` does.
macro_rules! reads_through {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $operator:ident,
     read($bytes:ident) $read:block) => {
        $(#[$doc])*
        mod $name {
            use anyhow::Result;
            use serde::{Serialize, de::DeserializeOwned};
            use solution05::WindowOperator as Inner;
            pub use solution05::*;

            pub struct WindowOperator<K, A>(Inner<K, A>);

            impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner>
                WindowOperator<K, A>
            {
                pub fn new(assigner: A) -> Self {
                    Self(Inner::new(assigner))
                }
                delegate_to_inner!(current_watermark, on_record, on_watermark, state_size, snapshot);
                pub fn restore(assigner: A, $bytes: &[u8]) -> Result<Self> {
                    let read: Result<Vec<u8>> = $read;
                    Ok(Self(Inner::restore(assigner, &read?)?))
                }
            }
        }
        graders::impl_stage05!($binding, $operator, $name);
    };
}

reads_through! {
    /// **Mistake:** `restore` refuses an entry listed twice by removing equal entries
    /// and comparing the counts; two entries of one `(window, key)` with other sums are
    /// not equal, and the last one wins (the red team's w05-03).
    /// **Verdict:** `contract`: its own snapshot of `a [0, 10)` with that entry listed
    /// again, its sum 8, restores (05-R16).
    restore_compares_whole_entries, RestoreComparesWholeEntries, RestoreComparesWholeEntriesOperator,
    read(bytes) {
        (|| {
            let mut tree: serde_json::Value = serde_json::from_slice(bytes)?;
            if let Some(open) = tree.get_mut("open").and_then(serde_json::Value::as_array_mut) {
                let mut last_of = std::collections::BTreeMap::new();
                for entry in open.iter() {
                    let same = (entry[0].to_string(), entry[1].to_string());
                    let earlier = last_of.insert(same, entry.clone());
                    // Equal entries stay, for the reference to refuse.
                    if earlier.is_some_and(|e| e == *entry) {
                        return Ok(bytes.to_vec());
                    }
                }
                *open = last_of.into_values().collect();
            }
            Ok(serde_json::to_vec(&tree)?)
        })()
    }
}

reads_through! {
    /// **Mistake:** `restore` reads the bytes as text and trims it first ("a snapshot
    /// read from a file may end in a new line"): `str::trim` strips more than JSON's
    /// whitespace (the red team's w05-04).
    /// **Verdict:** `contract`: its own snapshot of `Ä [0, 10)` followed by an
    /// ideographic space, U+3000, restores (05-R16).
    restore_trims_text, RestoreTrimsText, RestoreTrimsTextOperator,
    read(bytes) {
        Ok(std::str::from_utf8(bytes)?.trim().as_bytes().to_vec())
    }
}

reads_through! {
    /// **Mistake:** `restore` trims the end of the bytes with `trim_ascii_end` ("a
    /// snapshot read from a file may end in a new line"): JSON reads a trailing space,
    /// tab, line feed or carriage return already, and this strips a form feed too (the
    /// eighth red team's w05-02).
    /// **Verdict:** `contract`: its own snapshot of `Ä [0, 10)` followed by a form feed
    /// restores (05-R16).
    restore_trims_the_end, RestoreTrimsTheEnd, RestoreTrimsTheEndOperator,
    read(bytes) {
        Ok(bytes.trim_ascii_end().to_vec())
    }
}

reads_through! {
    /// **Mistake:** `restore` decodes the bytes with `String::from_utf8_lossy` ("never
    /// fail on a stray byte"), so bytes no UTF-8 text holds read as U+FFFD (the red
    /// team's w05-05).
    /// **Verdict:** `contract`: its own snapshot of `Ä [0, 10)` with the bytes of `Ä`
    /// set to `0xFF` restores, with a key that no record had (05-R16).
    restore_decodes_lossily, RestoreDecodesLossily, RestoreDecodesLossilyOperator,
    read(bytes) {
        Ok(String::from_utf8_lossy(bytes).into_owned().into_bytes())
    }
}

reads_through! {
    /// A correct variant (as the reference once was, and the red team's c05-03): `restore`
    /// reads the bytes into a `serde_json::Value` first, so a field of the snapshot's
    /// struct written twice (`"open"` twice) reads as the last; what it restores is a
    /// state `snapshot` can write, which the brief allows.
    value_first, ValueFirst, ValueFirstOperator,
    read(bytes) {
        serde_json::from_slice::<serde_json::Value>(bytes)
            .and_then(|tree| serde_json::to_vec(&tree))
            .map_err(Into::into)
    }
}

accepted!(stage05_reading_a_value_first_passes: Windows, drive::<ValueFirst>);

/// A snapshot format that writes every number as a string of its digits (as protobuf's
/// JSON mapping writes 64-bit integers), over the reference's: `snapshot` quotes the
/// reference's numbers, `restore` reads them back as numbers, `$forgive` rewrites the
/// tree, and the reference restores the rest.
macro_rules! quoted_numbers {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $operator:ident,
     forgive($tree:ident) $forgive:block) => {
        $(#[$doc])*
        mod $name {
            use anyhow::Result;
            use serde::{Serialize, de::DeserializeOwned};
            use serde_json::Value;
            use solution05::WindowOperator as Inner;
            pub use solution05::*;

            pub struct WindowOperator<K, A>(Inner<K, A>);

            fn quoted(tree: Value) -> Value {
                match tree {
                    Value::Number(n) => Value::String(n.to_string()),
                    Value::Array(items) => Value::Array(items.into_iter().map(quoted).collect()),
                    Value::Object(fields) => {
                        Value::Object(fields.into_iter().map(|(k, v)| (k, quoted(v))).collect())
                    }
                    other => other,
                }
            }

            /// Every string that reads as a number, as that number, but an aggregate's key
            /// that is a string (each entry of `open` is `[window, key, sum, count]`): a
            /// key `"-1"` is text, not a quoted number. (A key that is a pair is read as
            /// the rest: its numbers were quoted.)
            fn unquoted(tree: Value) -> Value {
                let mut numbers = unquoted_all(tree.clone());
                let entries = numbers.get_mut("open").and_then(Value::as_array_mut);
                for (i, entry) in entries.into_iter().flatten().enumerate() {
                    let written = tree.pointer(&format!("/open/{i}/1"));
                    if let (Some(slot), Some(key @ Value::String(_))) = (entry.get_mut(1), written)
                    {
                        *slot = key.clone();
                    }
                }
                numbers
            }

            /// Every string that reads as a number, as that number.
            fn unquoted_all(tree: Value) -> Value {
                match tree {
                    Value::String(s) => serde_json::from_str::<serde_json::Number>(&s)
                        .map_or(Value::String(s), Value::Number),
                    Value::Array(items) => {
                        Value::Array(items.into_iter().map(unquoted_all).collect())
                    }
                    Value::Object(fields) => Value::Object(
                        fields.into_iter().map(|(k, v)| (k, unquoted_all(v))).collect(),
                    ),
                    other => other,
                }
            }

            impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner>
                WindowOperator<K, A>
            {
                pub fn new(assigner: A) -> Self {
                    Self(Inner::new(assigner))
                }
                delegate_to_inner!(current_watermark, on_record, on_watermark, state_size);
                pub fn snapshot(&self) -> Result<Vec<u8>> {
                    let tree: Value = serde_json::from_slice(&self.0.snapshot()?)?;
                    Ok(serde_json::to_vec(&quoted(tree))?)
                }
                pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
                    // Every number of a snapshot is quoted: a bare one is no snapshot.
                    let tree = super::super::restore_bytes::strict_json(bytes)?;
                    anyhow::ensure!(quoted(tree.clone()) == tree, "not a snapshot: a bare number");
                    #[allow(unused_mut, reason = "a variant that forgives nothing")]
                    let mut $tree = unquoted(tree);
                    $forgive
                    Ok(Self(Inner::restore(assigner, &serde_json::to_vec(&$tree)?)?))
                }
            }
        }
        graders::impl_stage05!($binding, $operator, $name);
    };
}

quoted_numbers! {
    /// A correct variant: numbers written as strings of their digits, read back as
    /// numbers, and every rule of `restore` kept (the forgeries must be written in this
    /// format, or nothing of 05-R16 is asked of it).
    quoted_numbers_checked, QuotedNumbersChecked, QuotedNumbersCheckedOperator,
    forgive(tree) {}
}

accepted!(stage05_quoted_numbers_checked_passes: Windows, drive::<QuotedNumbersChecked>);

quoted_numbers! {
    /// **Mistake:** numbers written as strings of their digits, and `restore` drops an
    /// aggregate of count 0 ("an empty aggregate is nothing to restore") where it should
    /// refuse the bytes (the red team's w05-07 checked nothing at all).
    /// **Verdict:** `contract`: its own snapshot of `a [0, 10)` with the count `"0"`
    /// restores (05-R16).
    quoted_numbers_skip_count_zero, QuotedNumbersSkipCountZero, QuotedNumbersSkipCountZeroOperator,
    forgive(tree) {
        if let Some(open) = tree.get_mut("open").and_then(Value::as_array_mut) {
            open.retain(|entry| entry[3] != 0);
        }
    }
}

/// A correct variant (the red team's c05-04): `Sliding::new` checks the slide against
/// `1..=size` first, so `Sliding::new(0, 1)` is refused for its slide ("slide 1 is
/// outside 1..=0"), in words without `size`: with a size of 0 every slide is outside.
mod slide_named_for_a_zero_size {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Sliding(solution05::Sliding);

    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(
                (1..=size).contains(&slide),
                "slide {slide} is outside 1..={size}"
            );
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }

    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            self.0.assign(ts)
        }
    }
}
graders::impl_stage05!(
    SlideNamedForAZeroSize,
    SlideNamedForAZeroSizeOperator,
    slide_named_for_a_zero_size
);

accepted!(stage05_slide_named_for_a_zero_size_passes: Windows, drive::<SlideNamedForAZeroSize>);

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name.
#[rstest]
#[case::restore_compares_whole_entries(drive::<RestoreComparesWholeEntries>, "contract", "05-R16")]
#[case::restore_trims_text(drive::<RestoreTrimsText>, "contract", "05-R16")]
#[case::restore_trims_the_end(drive::<RestoreTrimsTheEnd>, "contract", "05-R16")]
#[case::restore_decodes_lossily(drive::<RestoreDecodesLossily>, "contract", "05-R16")]
#[case::quoted_numbers_skip_count_zero(drive::<QuotedNumbersSkipCountZero>, "contract", "05-R16")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement) {
        crate::fail(&why);
    }
}
