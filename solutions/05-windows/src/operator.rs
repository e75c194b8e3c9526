//! The window operator: per-key aggregates per window, fired by watermarks.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
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

/// A record that came after every one of its windows had fired: the side output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Late<K>(pub KeyedEvent<K>);

/// The running aggregate of one key in one open window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Aggregate {
    sum: i64,
    count: u64,
}

/// Sums and counts the values of each key per window, firing each window when the
/// watermark reaches its last timestamp.
///
/// State is keyed by window first: firing takes whole windows out, and `Window`'s order
/// puts the windows of one assigner in firing order.
#[derive(Debug, Clone)]
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

    /// Adds `value` at `ts` to every window of `key` that has not fired yet; returns the
    /// record as [`Late`] when all of its windows already fired.
    pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
        let mut counted = false;
        for window in self.assigner.assign(ts) {
            if self.has_fired(window) {
                continue;
            }
            let aggregate = self
                .open
                .entry(window)
                .or_default()
                .entry(key.clone())
                .or_default();
            aggregate.sum += value;
            aggregate.count += 1;
            counted = true;
        }
        (!counted).then(|| Late(Event::new(ts, (key, value))))
    }

    /// Advances the watermark to `wm` and fires every open window with `end - 1 <= wm`,
    /// ordered by window then key. A watermark that does not advance fires nothing.
    pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
        if self.watermark.is_some_and(|current| wm <= current) {
            return Vec::new();
        }
        self.watermark = Some(wm);
        let due: Vec<Window> = self
            .open
            .keys()
            .copied()
            .filter(|window| self.has_fired(*window))
            .collect();
        let mut fired = Vec::new();
        for window in due {
            // Removing the window is what makes it fire once: its state is gone, and a
            // later record for it is turned away by `has_fired`.
            let per_key = self.open.remove(&window).unwrap_or_default();
            fired.extend(per_key.into_iter().map(|(key, aggregate)| WindowResult {
                key,
                window,
                sum: aggregate.sum,
                count: aggregate.count,
            }));
        }
        fired
    }

    /// The number of open (window, key) aggregates.
    pub fn state_size(&self) -> usize {
        self.open.values().map(BTreeMap::len).sum()
    }

    /// The largest watermark seen, if any.
    pub fn current_watermark(&self) -> Option<Timestamp> {
        self.watermark
    }

    /// Whether the current watermark has reached `window`'s last timestamp.
    fn has_fired(&self, window: Window) -> bool {
        self.watermark
            .is_some_and(|wm| window.max_timestamp() <= wm)
    }
}

/// The bytes of a [`WindowOperator`]: open aggregates as a list (JSON object keys must be
/// strings, and a key need not be one) and the watermark.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Snapshot<K> {
    watermark: Option<Timestamp>,
    open: Vec<(Window, K, i64, u64)>,
}

impl<K, A> WindowOperator<K, A>
where
    K: Ord + Clone + Serialize + DeserializeOwned,
    A: WindowAssigner,
{
    /// The open windows and the current watermark, as bytes. The assigner is
    /// configuration, not state: [`restore`](Self::restore) takes it again.
    ///
    /// # Errors
    /// When a key cannot be serialised.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        let open = self
            .open
            .iter()
            .flat_map(|(window, per_key)| {
                per_key
                    .iter()
                    .map(|(key, a)| (*window, key.clone(), a.sum, a.count))
            })
            .collect();
        let snapshot = Snapshot {
            watermark: self.watermark,
            open,
        };
        serde_json::to_vec(&snapshot).context("serialising a window operator")
    }

    /// The operator that [`snapshot`](Self::snapshot) saved, with `assigner`.
    ///
    /// # Errors
    /// When `bytes` is not a window-operator snapshot with keys of type `K`.
    pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
        let not_a_snapshot = "restoring a window operator: not a snapshot";
        // Read as JSON first: serde would also read the struct from a list, and a missing
        // `watermark` as `None`; `snapshot` writes neither.
        let value: serde_json::Value = serde_json::from_slice(bytes).context(not_a_snapshot)?;
        anyhow::ensure!(
            value.get("watermark").is_some(),
            "{not_a_snapshot} (not a JSON object with a watermark)"
        );
        // Then the struct from the bytes themselves, not from `value`: a JSON object keeps
        // only the last of a member written twice, and `"open"` twice lists every
        // aggregate twice, which serde's derive refuses as a duplicate field.
        let snapshot: Snapshot<K> = serde_json::from_slice(bytes).context(not_a_snapshot)?;
        let mut operator = Self::new(assigner);
        operator.watermark = snapshot.watermark;
        for (window, key, sum, count) in snapshot.open {
            // What `snapshot` cannot have written: an aggregate of no record, one of a
            // window its own watermark fired, or one (window, key) twice.
            anyhow::ensure!(count > 0, "{not_a_snapshot} (an aggregate of no record)");
            anyhow::ensure!(
                !operator.has_fired(window),
                "{not_a_snapshot} (window {window:?} is open but its watermark fired it)"
            );
            let twice = operator
                .open
                .entry(window)
                .or_default()
                .insert(key, Aggregate { sum, count });
            anyhow::ensure!(
                twice.is_none(),
                "{not_a_snapshot} (an aggregate of window {window:?} listed twice)"
            );
        }
        Ok(operator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tumbling;

    fn restore(bytes: &[u8]) -> Result<WindowOperator<String, Tumbling>> {
        WindowOperator::restore(Tumbling::new(5)?, bytes)
    }

    #[test]
    fn restore_reads_only_what_snapshot_writes() {
        let mut operator = WindowOperator::new(Tumbling::new(5).unwrap());
        operator.on_record("a".to_owned(), 7, 1);
        operator.on_watermark(3);
        let own = operator.snapshot().unwrap();
        let text = String::from_utf8(own.clone()).unwrap();
        assert!(restore(&own).is_ok(), "{text}");
        let entry = r#"[{"start":5,"end":10},"a",1,1]"#;
        for bad in [
            format!(r#"[3,[{entry}]]"#),
            format!(r#"{{"open":[{entry}]}}"#),
            format!(r#"{{"watermark":3,"open":[{entry}],"size":5}}"#),
            format!(r#"{{"watermark":3,"open":[{entry},{entry}]}}"#),
            format!(r#"{{"watermark":3,"open":[{entry}],"open":[{entry}]}}"#),
            format!(r#"{{"watermark":3,"watermark":3,"open":[{entry}]}}"#),
            format!(r#"{{"watermark":12,"open":[{entry}]}}"#),
            r#"{"watermark":3,"open":[[{"start":5,"end":10},"a",0,0]]}"#.to_owned(),
        ] {
            let error = restore(bad.as_bytes()).unwrap_err();
            assert!(
                format!("{error:#}").contains("not a snapshot"),
                "{bad}: {error:#}"
            );
        }
    }
}
