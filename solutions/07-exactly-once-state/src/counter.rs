//! The job's one stateful operator: a running word count whose state goes to bytes.

use std::collections::BTreeMap;

use anyhow::{Context, Result};

/// Counts words, emitting `(word, count so far)` for each.
#[derive(Debug, Clone, Default)]
pub(crate) struct WordCounter {
    counts: BTreeMap<String, u64>,
}

impl WordCounter {
    /// Applies one record: its word's count goes up by one, and the new count is emitted.
    pub(crate) fn apply(&mut self, word: String) -> (String, u64) {
        let count = self.counts.entry(word.clone()).or_insert(0);
        *count += 1;
        (word, *count)
    }

    /// The state as JSON of the `BTreeMap<String, u64>`: sorted keys, so the same state
    /// always gives the same bytes.
    pub(crate) fn snapshot(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(&self.counts).context("serialising the word counts")
    }

    /// The counter a [`snapshot`](Self::snapshot) describes.
    pub(crate) fn restore(bytes: &[u8]) -> Result<Self> {
        let counts = serde_json::from_slice(bytes)
            .context("restoring the word counts: the checkpoint state is not a snapshot")?;
        Ok(Self { counts })
    }

    pub(crate) fn into_counts(self) -> BTreeMap<String, u64> {
        self.counts
    }
}
