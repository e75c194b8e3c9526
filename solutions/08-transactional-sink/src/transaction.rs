//! The phases of a pre-committed transaction.

use serde::{Deserialize, Serialize};

/// Where a transaction pre-committed under some checkpoint id stands.
///
/// The ended phases keep no records but are remembered, so that a notification that
/// arrives again (after a failure, say) is recognised instead of publishing twice, and
/// so that a late notification cannot bring an aborted transaction back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Transaction<T> {
    /// Durable, invisible, waiting for the notification of its checkpoint.
    Prepared(Vec<T>),
    /// Published: its records are in the visible output.
    Committed,
    /// Discarded: its records will come again from the replay.
    Aborted,
}
