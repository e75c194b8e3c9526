//! The window operator: per-key aggregates per window, fired by watermarks.

use std::collections::BTreeMap;

use anyhow::Result;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use stage04::{Event, Timestamp};

use crate::{Window, WindowAssigner};

/// What a window emits for one key when it fires.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct WindowResult<K> {
    /// The key whose records were aggregated.
    pub key: K,
    /// The window that fired.
    pub window: Window,
    /// The sum of the values of the key's records in the window.
    pub sum: i64,
    /// How many records that was.
    pub count: u64,
}

/// A keyed record with a value to aggregate: what a window operator consumes.
pub type KeyedEvent<K> = Event<(K, i64)>;

/// A record that came after every one of its windows had fired: the side output (05-R6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Late<K>(pub KeyedEvent<K>);

/// The running aggregate of one key in one open window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Aggregate {
    sum: i64,
    count: u64,
}

/// Sums and counts the values of each key per window (05-R10), firing a window when the
/// watermark first reaches its last timestamp (05-R2).
#[derive(Debug, Clone)]
#[allow(dead_code, reason = "the methods you write read these fields")]
pub struct WindowOperator<K, A> {
    assigner: A,
    open: BTreeMap<Window, BTreeMap<K, Aggregate>>,
    watermark: Option<Timestamp>,
}

impl<K: Ord + Clone, A: WindowAssigner> WindowOperator<K, A> {
    /// An operator with no open window and no watermark yet.
    pub fn new(assigner: A) -> Self {
        Self {
            assigner,
            open: BTreeMap::new(),
            watermark: None,
        }
    }

    /// Adds `value` at `ts` to every window of `key` that has not fired yet (05-R10);
    /// returns the record, as given, as [`Late`] when all of its windows already fired
    /// (05-R6) (05-R10).
    pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
        // TODO(stage 05): skip the windows the watermark already fired; add to the others;
        // late only if there was no other.
        let _ = (key, ts, value);
        todo!()
    }

    /// Advances the watermark to `wm` (05-R11) and fires every open window with
    /// `end - 1 <= wm` (05-R2), ordered by window then key (05-R12). A watermark that does
    /// not advance changes nothing and fires nothing (05-R13).
    pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
        // TODO(stage 05): remember the watermark; take out (and emit) every due window.
        let _ = wm;
        todo!()
    }

    /// The number of open (window, key) aggregates (05-R5).
    pub fn state_size(&self) -> usize {
        // TODO(stage 05): count the open aggregates.
        todo!()
    }

    /// The largest watermark seen, if any (05-R14).
    pub fn current_watermark(&self) -> Option<Timestamp> {
        self.watermark
    }
}

impl<K, A> WindowOperator<K, A>
where
    K: Ord + Clone + Serialize + DeserializeOwned,
    A: WindowAssigner,
{
    /// The open windows and the current watermark, as bytes (the assigner is
    /// configuration: [`restore`](Self::restore) takes it again) (05-R15).
    ///
    /// Serialising can fail, hence the `Result`: see the brief's trap *serde_json and map
    /// keys*.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 05): every open aggregate and the watermark (serde_json).
        todo!()
    }

    /// The operator that [`snapshot`](Self::snapshot) saved, with `assigner`.
    ///
    /// # Errors
    /// When `bytes` is not a window-operator snapshot with keys of type `K` (05-R16).
    pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
        // TODO(stage 05): the inverse of `snapshot`.
        let _ = (assigner, bytes);
        todo!()
    }
}
