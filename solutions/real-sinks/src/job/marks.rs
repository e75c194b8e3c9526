//! What each sink has already made visible, read back at restore so that a checkpoint
//! older than it, or none at all next to existing output, is refused instead of replayed.
//!
//! A commit happens only after its checkpoint completed, and the latest checkpoint only ever
//! moves forward, so the restored checkpoint is never older than the newest committed
//! handle. The upsert sink writes at the barrier, before its checkpoint completes, so it
//! may be one checkpoint ahead. Anything further ahead means the latest checkpoint file was
//! deleted or replaced by an older copy, and replaying from its offset would write
//! records the output already holds.

use std::fs;

use anyhow::{Result, bail};
use committer::CheckpointId;
use committer::connectors::{GlobalTxnId, StagedName};
use postgres::Client;

use super::checkpoints::Checkpoint;
use crate::file::Layout;

/// The newest checkpoint whose output a sink holds, and how far ahead of the restored
/// checkpoint that may legitimately be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkMark {
    /// The newest checkpoint with visible output.
    pub checkpoint: CheckpointId,
    /// How many checkpoints the sink may be ahead of the latest completed one.
    pub ahead: u64,
}

/// The file sink's mark: the newest checkpoint among the published files.
///
/// # Errors
/// When the output folder cannot be read.
pub fn file_mark(layout: &Layout) -> Result<Option<SinkMark>> {
    if !layout.output().exists() {
        return Ok(None);
    }
    let mut newest = None;
    for entry in fs::read_dir(layout.output())? {
        let file = entry?.file_name();
        let name = file
            .to_str()
            .and_then(|f| StagedName::parse(layout.job(), &format!("{}/{f}", layout.job())));
        newest = newest.max(name.map(|n| n.checkpoint));
    }
    Ok(newest.map(|checkpoint| SinkMark {
        checkpoint,
        ahead: 0,
    }))
}

/// The XA sink's mark: the newest checkpoint among the job's committed global ids.
///
/// # Errors
/// When the server refuses.
pub fn xa_mark(client: &mut Client, job: &str) -> Result<Option<SinkMark>> {
    let rows = client.query(
        "SELECT gid FROM xo_committed WHERE gid LIKE $1",
        &[&format!("{job}-g%")],
    )?;
    let newest = rows
        .iter()
        .filter_map(|row| GlobalTxnId::parse(job, row.get(0)))
        .map(|gid| gid.checkpoint)
        .max();
    Ok(newest.map(|checkpoint| SinkMark {
        checkpoint,
        ahead: 0,
    }))
}

/// The upsert sink's mark: the checkpoint of its newest flush, recorded by the flush.
///
/// # Errors
/// When the server refuses.
pub fn upsert_mark(client: &mut Client, job: &str) -> Result<Option<SinkMark>> {
    let row = client.query_opt(
        "SELECT checkpoint FROM xo_upsert_flushed WHERE job = $1",
        &[&job],
    )?;
    Ok(row.map(|row| SinkMark {
        checkpoint: row.get::<_, i64>(0) as CheckpointId,
        ahead: 1,
    }))
}

/// Refuses a restore that would replay output the sink already holds.
///
/// # Errors
/// When there is no checkpoint but the sink holds output, or the checkpoint is older
/// than what the sink committed; the message says what to do.
pub fn check_restore(
    restored: Option<&Checkpoint>,
    mark: Option<SinkMark>,
    job: &str,
) -> Result<()> {
    let Some(mark) = mark else {
        return Ok(());
    };
    match restored {
        // No checkpoint is checkpoint 0: the upsert sink may have flushed checkpoint 1.
        None if mark.checkpoint <= mark.ahead => Ok(()),
        None => bail!(
            "job {job:?} has no checkpoint, but its sink already holds output committed up to \
             checkpoint {}: starting from nothing would write it all again. Put the job's \
             checkpoint files back in checkpoints/, or clear the sink's output for {job:?} \
             to start over. Its prepared transactions and staged files are untouched: \
             `demo doctor` lists them",
            mark.checkpoint
        ),
        Some(checkpoint) if checkpoint.id + mark.ahead < mark.checkpoint => bail!(
            "the latest checkpoint is {}, older than checkpoint {}, which job {job:?}'s sink has \
             already committed: a later checkpoint file is missing or unreadable, and \
             replaying from offset {} would write records twice. Put the latest checkpoint \
             file back in checkpoints/. Its prepared transactions and staged files are \
             untouched: `demo doctor` lists them",
            checkpoint.id,
            mark.checkpoint,
            checkpoint.offset
        ),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(id: CheckpointId) -> Checkpoint {
        Checkpoint {
            id,
            offset: id * 10,
            snapshots: Vec::new(),
        }
    }

    #[test]
    fn a_sink_may_be_ahead_only_by_what_it_writes_before_its_checkpoint_completes() {
        let upsert = |checkpoint| {
            Some(SinkMark {
                checkpoint,
                ahead: 1,
            })
        };
        let committed = |checkpoint| {
            Some(SinkMark {
                checkpoint,
                ahead: 0,
            })
        };
        // Killed between the first flush and the first checkpoint: a fresh start is right.
        assert!(check_restore(None, upsert(1), "j").is_ok());
        assert!(check_restore(None, upsert(2), "j").is_err());
        assert!(check_restore(None, committed(1), "j").is_err());
        assert!(check_restore(Some(&checkpoint(4)), upsert(5), "j").is_ok());
        assert!(check_restore(Some(&checkpoint(4)), upsert(6), "j").is_err());
        assert!(check_restore(Some(&checkpoint(4)), committed(4), "j").is_ok());
        assert!(check_restore(Some(&checkpoint(4)), committed(5), "j").is_err());
        assert!(check_restore(None, None, "j").is_ok());
    }
}
