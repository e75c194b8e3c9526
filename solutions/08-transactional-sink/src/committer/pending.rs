//! The operator-state key of a pending handle: which subtask prepared it, for which
//! checkpoint.
//!
//! Both halves matter. The checkpoint orders commits (a notification commits every
//! handle up to its id, oldest first). The author, with the parallelism it ran at,
//! decides after a restore which new subtask owns the handle (see [`super::succession`]).

use std::fmt;

use anyhow::{Context, Result, bail};

use super::ids::{CheckpointId, SubtaskId};

const PREFIX: &str = "_xo_pending_";

/// Where a handle waits in operator state: `_xo_pending_sub<N>of<P>_c<checkpoint>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PendingKey {
    /// The subtask whose barrier prepared the handle.
    pub author: SubtaskId,
    /// The checkpoint whose barrier prepared it.
    pub checkpoint: CheckpointId,
}

impl PendingKey {
    /// Whether an operator-state key is a pending handle's (other keys are left alone).
    pub fn is_pending(key: &str) -> bool {
        key.starts_with(PREFIX)
    }

    /// Reads a key [`PendingKey`]'s `Display` wrote.
    ///
    /// # Errors
    /// When `key` has the pending prefix but not the rest of the shape.
    pub fn parse(key: &str) -> Result<Self> {
        let malformed = || format!("malformed pending-handle key {key:?}");
        let rest = key.strip_prefix(PREFIX).with_context(malformed)?;
        let rest = rest.strip_prefix("sub").with_context(malformed)?;
        let (index, rest) = rest.split_once("of").with_context(malformed)?;
        let (parallelism, checkpoint) = rest.split_once("_c").with_context(malformed)?;
        let number = |s: &str| s.parse::<u64>().with_context(malformed);
        let (index, parallelism) = (number(index)?, number(parallelism)?);
        let (Ok(index), Ok(parallelism)) = (u32::try_from(index), u32::try_from(parallelism))
        else {
            bail!("{}: subtask out of range", malformed());
        };
        Ok(Self {
            author: SubtaskId::new(index, parallelism).with_context(malformed)?,
            checkpoint: number(checkpoint)?,
        })
    }
}

impl fmt::Display for PendingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}_c{}", self.author, self.checkpoint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_round_trips_and_names_subtask_and_checkpoint() {
        let key = PendingKey {
            author: SubtaskId::new(2, 4).unwrap(),
            checkpoint: 17,
        };
        assert_eq!(key.to_string(), "_xo_pending_sub2of4_c17");
        assert_eq!(PendingKey::parse(&key.to_string()).unwrap(), key);
        assert!(PendingKey::parse("_xo_pending_sub9of4_c1").is_err());
    }
}
