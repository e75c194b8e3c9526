//! Changelog rows: what a retracting query emits, and what an upsert sink consumes.

use serde::{Deserialize, Serialize};

/// The kind of change a row carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum RowKind {
    /// A new row.
    Insert,
    /// The old version of an updated row (retracted).
    UpdateBefore,
    /// The new version of an updated row.
    UpdateAfter,
    /// A removed row.
    Delete,
}

/// One change to the row with primary key `key`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Change<K, V> {
    /// What happened.
    pub kind: RowKind,
    /// The row's primary key.
    pub key: K,
    /// The row's value (for a retraction, the value retracted).
    pub value: V,
}

impl RowKind {
    /// Whether the row exists after this change: upsert for insert and update-after,
    /// delete-by-key for delete and update-before.
    pub fn keeps_row(self) -> bool {
        matches!(self, RowKind::Insert | RowKind::UpdateAfter)
    }
}
