//! Bytes that hold a snapshot and something more: the implementation's own snapshot
//! padded ([`Padding`]: written twice, after a byte-order mark or a form feed, before an
//! ideographic space or a form feed, its `Ä` broken), and lists of `[key, value]` pairs, the form
//! `to_bytes` writes, that `to_bytes` never writes. None of them is a snapshot (02-R10).
//!
//! The fixed list of `contract::not_snapshots` holds no snapshot at all; these hold one,
//! so they reach the readers that find a snapshot and stop looking: one that collects
//! pairs into a map (a key twice keeps one value, keys out of order are sorted), one that
//! strips what a text-file reader strips, and one that reads every JSON value of a
//! stream and merges them. The own snapshot reaches such a reader whatever the format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SpyState};
use super::contract::{self, Decoded};
use super::driver::decoded;
use crate::harness::Failure;
pub use crate::harness::padding::Padding;

/// The records the operator processes before its snapshot is padded: two keys, so a
/// snapshot written twice repeats a key and puts one out of order, and one of them
/// holds an `Ä`, for a padding that breaks it.
pub fn records() -> Vec<(String, u32)> {
    vec![("a".to_owned(), 1), ("Ä b".to_owned(), 2)]
}

/// The byte-order mark of UTF-8, which text editors and some readers strip.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// Lists of `[key, value]` pairs that `to_bytes` never writes, `one` and `two` being two
/// values of the state's type: a key twice, keys out of order, a byte-order mark before a
/// list, two lists one after the other (empty, then not).
pub fn pairs_never_written<V: Serialize>(one: &V, two: &V) -> Vec<Vec<u8>> {
    let list = |pairs: &[(&str, &V)]| {
        serde_json::to_vec(pairs).expect("a list of text keys and values is JSON")
    };
    vec![
        list(&[("a", one), ("a", two)]),
        list(&[("b", two), ("a", one)]),
        [BYTE_ORDER_MARK, &list(&[("a", one)])].concat(),
        b"[][]".to_vec(),
        [list(&[("a", one)]), list(&[("b", two)])].concat(),
    ]
}

/// A list of one `[key, value]` pair followed by a form feed, which `to_bytes` never
/// writes: of what `trim_ascii_end` strips, the one byte JSON does not read as whitespace.
pub fn pairs_before_form_feed<V: Serialize>(one: &V) -> Vec<u8> {
    let list = serde_json::to_vec(&[("a", one)]).expect("a list of text keys and values is JSON");
    [list.as_slice(), b"\x0c"].concat()
}

/// The pairs `restore` is offered: values of the spy's state type, so that a reader of
/// the form `to_bytes` writes reads each of them as far as its pairs.
pub fn snapshots_never_written() -> Vec<Vec<u8>> {
    let (one, two): (SpyState, SpyState) = (vec![1], vec![2]);
    pairs_never_written(&one, &two)
}

/// What the driver saw: the operator's own snapshot, and what `restore` did with it
/// padded (`None` when there was no snapshot to pad).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaddedRestore {
    /// `snapshot()` of the operator after [`records`].
    pub snapshot: Decoded<Vec<u8>>,
    /// `restore` of the snapshot padded, and the state it restored (`None` where the
    /// padding cannot be made).
    pub restored: Option<Decoded<BTreeMap<String, SpyState>>>,
}

/// Processes [`records`], snapshots, and restores the snapshot padded.
pub fn run<I: Implementation>(padding: Padding) -> PaddedRestore {
    let snapshot = decoded(|| {
        let mut operator = I::operator();
        for record in records() {
            I::process(&mut operator, record);
        }
        I::snapshot(&operator).map_err(|e| format!("{e:#}"))
    });
    let restored = match &snapshot {
        Decoded::Ok(bytes) => padding.pad(bytes).map(|padded| {
            decoded(|| {
                I::restore(&padded)
                    .map(|op| I::keyed_state(&op))
                    .map_err(|e| format!("{e:#}"))
            })
        }),
        _ => None,
    };
    PaddedRestore { snapshot, restored }
}

/// `restore` of the padded snapshot must be an error; a snapshot that cannot be taken
/// breaks durability before any padding.
pub fn judge(padding: Padding, seen: &PaddedRestore) -> Result<(), Failure> {
    match (&seen.snapshot, &seen.restored) {
        (Decoded::Ok(bytes), restored) => match (padding.pad(bytes), restored) {
            (Some(padded), Some(restored)) => {
                contract::judge_not_a_snapshot("restore", &padded, None, restored)
            }
            // A snapshot this padding cannot break (no `Ä` in it) has nothing to refuse.
            _ => Ok(()),
        },
        (snapshot, _) => Err(Failure::new(
            "snapshot() returns the operator's bytes",
            format!("{snapshot:?}"),
        )
        .step(format!("snapshot() after processing {:?}", records()))
        .requirement("02-R15")),
    }
}
