//! Shape C on PostgreSQL: changes netted by key, flushed at the barrier as one
//! `INSERT … ON CONFLICT (job, key) DO UPDATE` and one `DELETE` by key.
//!
//! No handle and no two-phase commit: every statement is keyed, so a replay after a
//! crash rewrites the same keys with the same values and the table converges
//! (effectively-once, for a deterministic input). Netting follows the framework's
//! [`UpsertSink`](committer::connectors::UpsertSink): per key only the row the latest
//! change leaves (`None` for deleted) is flushed, so each key appears once in the
//! statement, which `ON CONFLICT DO UPDATE` requires, and an update's retraction never
//! reaches the table just to be undone by its insertion.

use std::collections::BTreeMap;
use std::mem;

use anyhow::{Context, Result, bail};
use committer::connectors::Change;
use committer::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, Mechanism, OpenContext,
    OpenTransaction,
};
use postgres::Client;

use super::schema::ensure_schema;

/// An upsert sink over the `xo_upsert_rows` table.
pub struct PgUpsertSink {
    job: String,
    client: Client,
    netted: BTreeMap<i64, Option<String>>,
    statements: u64,
}

impl PgUpsertSink {
    /// A sink writing `job`'s rows through `client`.
    ///
    /// # Errors
    /// When `job` is not a plain name or the table cannot be created.
    pub fn open(job: &str, mut client: Client) -> Result<Self> {
        crate::file::check_job_name(job)?;
        ensure_schema(&mut client)?;
        Ok(Self {
            job: job.to_owned(),
            client,
            netted: BTreeMap::new(),
            statements: 0,
        })
    }

    /// How many keyed row changes were sent (after netting, replays included).
    pub fn statements(&self) -> u64 {
        self.statements
    }
}

impl CommittingSink for PgUpsertSink {
    type Record = Change<i64, String>;
    type Committable = ();
    const MECHANISM: Mechanism = Mechanism::IdempotentUpsert;

    fn on_open(&mut self, _context: &OpenContext<'_, ()>) -> Result<()> {
        Ok(())
    }

    fn write(&mut self, change: Change<i64, String>) -> Result<()> {
        let row = change.kind.keeps_row().then_some(change.value);
        self.netted.insert(change.key, row);
        Ok(())
    }

    /// Holding while changes wait for the next flush.
    fn open_transaction(&self) -> OpenTransaction {
        if self.netted.is_empty() {
            OpenTransaction::Empty
        } else {
            OpenTransaction::Holding
        }
    }

    /// Flushes the netted changes in one transaction, so a flush is all or nothing
    /// (not needed for convergence, but it keeps readers from seeing half a flush).
    /// The flush records its checkpoint in the same transaction: the mark a restore
    /// checks so that an older checkpoint is refused.
    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<()>> {
        if self.netted.is_empty() {
            return Ok(None);
        }
        let (mut keys, mut values, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
        for (key, row) in mem::take(&mut self.netted) {
            match row {
                Some(value) => {
                    keys.push(key);
                    values.push(value);
                }
                None => deleted.push(key),
            }
        }
        let mut txn = self.client.transaction()?;
        txn.execute(
            "INSERT INTO xo_upsert_rows (job, key, value) \
             SELECT $1, * FROM unnest($2::bigint[], $3::text[]) \
             ON CONFLICT (job, key) DO UPDATE SET value = EXCLUDED.value",
            &[&self.job, &keys, &values],
        )
        .context("upserting a flush")?;
        txn.execute(
            "DELETE FROM xo_upsert_rows WHERE job = $1 AND key = ANY($2)",
            &[&self.job, &deleted],
        )
        .context("deleting a flush's retracted keys")?;
        txn.execute(
            "INSERT INTO xo_upsert_flushed (job, checkpoint) VALUES ($1, $2) \
             ON CONFLICT (job) DO UPDATE SET checkpoint = GREATEST(xo_upsert_flushed.checkpoint, EXCLUDED.checkpoint)",
            &[&self.job, &(checkpoint as i64)],
        )
        .context("recording the flush's checkpoint")?;
        txn.commit().context("committing a flush")?;
        self.statements += (keys.len() + deleted.len()) as u64;
        Ok(None)
    }

    fn commit(&mut self, _: &()) -> Result<CommitOutcome> {
        bail!("an upsert sink prepares no handle, so there is nothing to commit")
    }

    fn abort(&mut self, _: &()) -> Result<AbortOutcome> {
        bail!("an upsert sink prepares no handle, so there is nothing to abort")
    }
}
