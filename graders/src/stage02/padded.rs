//! Bytes that hold a snapshot and something more: the implementation's own snapshot
//! written twice or after a byte-order mark, and lists of `[key, value]` pairs, the form
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

/// The records the operator processes before its snapshot is padded: two keys, so a
/// snapshot written twice repeats a key and puts one out of order.
pub fn records() -> Vec<(String, u32)> {
    vec![("a".to_owned(), 1), ("Ä b".to_owned(), 2)]
}

/// The byte-order mark of UTF-8, which text editors and some readers strip.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// What is put around the operator's own snapshot before it is restored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Padding {
    /// The snapshot, then the same snapshot again: bytes after one.
    Twice,
    /// A byte-order mark, then the snapshot: bytes before one.
    AfterByteOrderMark,
}

impl Padding {
    /// Both paddings, in the order the plan tries them.
    pub const ALL: [Padding; 2] = [Padding::Twice, Padding::AfterByteOrderMark];

    /// `snapshot` padded.
    pub fn pad(self, snapshot: &[u8]) -> Vec<u8> {
        match self {
            Padding::Twice => [snapshot, snapshot].concat(),
            Padding::AfterByteOrderMark => [BYTE_ORDER_MARK, snapshot].concat(),
        }
    }

    /// The padded bytes, as the report names them.
    pub fn describe(self) -> &'static str {
        match self {
            Padding::Twice => "its own snapshot written twice, one after the other",
            Padding::AfterByteOrderMark => "its own snapshot after a byte-order mark",
        }
    }
}

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
    /// `restore` of the snapshot padded, and the state it restored.
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
        Decoded::Ok(bytes) => {
            let padded = padding.pad(bytes);
            Some(decoded(|| {
                I::restore(&padded)
                    .map(|op| I::keyed_state(&op))
                    .map_err(|e| format!("{e:#}"))
            }))
        }
        _ => None,
    };
    PaddedRestore { snapshot, restored }
}

/// `restore` of the padded snapshot must be an error; a snapshot that cannot be taken
/// breaks durability before any padding.
pub fn judge(padding: Padding, seen: &PaddedRestore) -> Result<(), Failure> {
    match (&seen.snapshot, &seen.restored) {
        (Decoded::Ok(bytes), Some(restored)) => {
            contract::judge_not_a_snapshot("restore", &padding.pad(bytes), None, restored)
        }
        (snapshot, _) => Err(Failure::new(
            "snapshot() returns the operator's bytes",
            format!("{snapshot:?}"),
        )
        .step(format!("snapshot() after processing {:?}", records()))
        .requirement("02-R15")),
    }
}
