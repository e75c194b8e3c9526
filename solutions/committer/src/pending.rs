//! The operator-state key of a pending handle: which subtask prepared it, for which
//! checkpoint.
//!
//! Both halves matter. The checkpoint orders commits (a notification commits every
//! handle up to its id, oldest first). The author, with the parallelism it ran at, keeps
//! two subtasks' handles of one checkpoint apart when a restore merges their states.
//! The key is typed all the way into the snapshot, so nothing ever parses it back out
//! of a string.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::{CheckpointId, SubtaskId};

/// Where a handle waits in operator state.
///
/// Ordered by checkpoint first, then author: the order in which the base commits, so a
/// backend that keeps its keys sorted lists them ready to commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PendingKey {
    /// The checkpoint whose barrier prepared the handle.
    pub checkpoint: CheckpointId,
    /// The subtask whose barrier prepared it.
    pub author: SubtaskId,
}

impl fmt::Display for PendingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/c{}", self.author, self.checkpoint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_by_checkpoint_then_author() {
        let key = |checkpoint, index| PendingKey {
            checkpoint,
            author: SubtaskId::new(index, 4).unwrap(),
        };
        let mut keys = vec![key(2, 0), key(1, 3), key(1, 1)];
        keys.sort();
        assert_eq!(keys, [key(1, 1), key(1, 3), key(2, 0)]);
        assert_eq!(key(17, 2).to_string(), "sub2of4/c17");
    }
}
