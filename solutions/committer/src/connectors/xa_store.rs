//! Shape B's external system: a database that can prepare a transaction under a global
//! id and commit or roll it back later, from any connection (XA; in Postgres,
//! `PREPARE TRANSACTION`, `COMMIT PREPARED`, `ROLLBACK PREPARED`, `pg_prepared_xacts`).

use std::fmt;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::{AbortOutcome, CheckpointId, CommitOutcome, SubtaskId};

/// One connection to an XA-capable store.
///
/// A real implementation makes `commit_prepared` idempotent by inserting the global id
/// into a small `committed` table inside the prepared transaction itself: after a crash,
/// "not prepared but in that table" is [`CommitOutcome::AlreadyCommitted`], and
/// "in neither" is lost data, which must be an error rather than a silent success.
pub trait XaStore {
    /// The row type.
    type Record;

    /// Starts a transaction on this connection.
    ///
    /// # Errors
    /// When the store refuses (e.g. a transaction is already open).
    fn begin(&mut self) -> Result<()>;

    /// Adds a row to the open transaction.
    ///
    /// # Errors
    /// When no transaction is open.
    fn insert(&mut self, record: Self::Record) -> Result<()>;

    /// Prepares the open transaction under `gid`: durable, invisible, detached from the
    /// connection (it survives the connection's death).
    ///
    /// # Errors
    /// When no transaction is open or `gid` is taken.
    fn prepare(&mut self, gid: &str) -> Result<()>;

    /// Commits the prepared transaction `gid`.
    ///
    /// # Errors
    /// When `gid` is neither prepared nor committed.
    fn commit_prepared(&mut self, gid: &str) -> Result<CommitOutcome>;

    /// Rolls back the prepared transaction `gid`.
    ///
    /// # Errors
    /// When `gid` was already committed.
    fn rollback_prepared(&mut self, gid: &str) -> Result<AbortOutcome>;

    /// The global ids of every prepared transaction, in order.
    ///
    /// # Errors
    /// When the store cannot be read.
    fn prepared_transactions(&self) -> Result<Vec<String>>;

    /// Whether `error`, from `commit_prepared`, may pass if tried again.
    fn is_transient(&self, error: &anyhow::Error) -> bool {
        let _ = error;
        false
    }
}

/// A deterministic global transaction id: `<job>-g<generation>-sub<N>of<P>-c<checkpoint>`.
///
/// Deterministic so that the handle can be rebuilt and reconciled from its parts; the
/// generation keeps two runs from ever preparing under one id; the author with its
/// parallelism says which successor is responsible for it as an orphan.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GlobalTxnId {
    /// The job.
    pub job: String,
    /// The run generation that prepared it.
    pub generation: u64,
    /// The subtask that prepared it.
    pub author: SubtaskId,
    /// The checkpoint whose barrier prepared it.
    pub checkpoint: CheckpointId,
}

impl GlobalTxnId {
    /// Reads an id `Display` wrote; `None` for another job's or a foreign transaction.
    pub fn parse(job: &str, gid: &str) -> Option<Self> {
        let parse = || -> Result<Self> {
            let rest = gid
                .strip_prefix(job)
                .and_then(|r| r.strip_prefix("-g"))
                .context("another job's transaction")?;
            let (generation, rest) = rest.split_once("-sub").context("no subtask")?;
            let (index, rest) = rest.split_once("of").context("no parallelism")?;
            let (parallelism, checkpoint) = rest.split_once("-c").context("no checkpoint")?;
            Ok(Self {
                job: job.to_owned(),
                generation: generation.parse()?,
                author: SubtaskId::new(index.parse()?, parallelism.parse()?)?,
                checkpoint: checkpoint.parse()?,
            })
        };
        parse().ok()
    }
}

impl fmt::Display for GlobalTxnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-g{}-{}-c{}",
            self.job, self.generation, self.author, self.checkpoint
        )
    }
}
