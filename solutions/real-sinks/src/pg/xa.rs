//! The framework's `XaStore` over PostgreSQL two-phase commit.
//!
//! | XaStore | PostgreSQL | connection |
//! |---|---|---|
//! | `begin` | `BEGIN` | task |
//! | `insert` | rows batched into `INSERT … SELECT … unnest(…)` | task |
//! | `prepare(gid)` | `INSERT INTO xo_committed (gid)`, `PREPARE TRANSACTION 'gid'` | task |
//! | `commit_prepared(gid)` | `COMMIT PREPARED 'gid'` | control |
//! | `rollback_prepared(gid)` | `ROLLBACK PREPARED 'gid'` | control |
//! | `prepared_transactions` | `pg_prepared_xacts` of this database | control |
//!
//! Two connections because `COMMIT PREPARED` cannot run inside a transaction block, and
//! the task connection is inside one whenever the next epoch has begun before the last
//! one's notification arrived. The control connection is shared (a [`SharedClient`]):
//! by every subtask of the process, by the task path's reconciliation at open and by
//! the commit path.
//!
//! Idempotence: once `COMMIT PREPARED` succeeded the global id is gone from
//! `pg_prepared_xacts`, indistinguishable from "never prepared". The id's row in
//! `xo_committed`, inserted inside the prepared transaction itself, becomes visible with
//! exactly that commit, so "not prepared but recorded" is `AlreadyCommitted`, and "in
//! neither" is lost data, an error.

use anyhow::{Context, Result, bail};
use committer::connectors::XaStore;
use committer::{AbortOutcome, CommitOutcome, HandleLost};
use postgres::Client;
use postgres::error::SqlState;

use super::schema::{
    SharedClient, check_prepared_capacity, ensure_schema, max_prepared_transactions,
};

/// One output row of the XA sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XaRow {
    /// The record's sequence number: the harness checks each appears exactly once.
    pub seq: i64,
    /// The record's content.
    pub payload: String,
}

// Rows go to the server in batches: one round trip per row would measure the network,
// not the protocol. The batch is sent inside the open transaction, so it stays invisible.
const BATCH: usize = 512;

/// A PostgreSQL connection pair that can prepare and finalise transactions.
pub struct PgXaStore {
    job: String,
    task: Client,
    control: SharedClient,
    seqs: Vec<i64>,
    payloads: Vec<String>,
}

impl PgXaStore {
    /// A store writing `job`'s rows through `task`, finalising through `control`.
    /// `in_flight` is how many transactions the whole job may hold prepared at once
    /// (parallelism × notifications outstanding), checked against the server's limit.
    ///
    /// # Errors
    /// When the server has too few prepared-transaction slots (the message says what to
    /// set), or the tables cannot be created.
    pub fn open(
        job: &str,
        mut task: Client,
        control: SharedClient,
        in_flight: i64,
    ) -> Result<Self> {
        crate::file::check_job_name(job)?;
        check_prepared_capacity(max_prepared_transactions(&mut task)?, in_flight)?;
        ensure_schema(&mut task)?;
        Ok(Self {
            job: job.to_owned(),
            task,
            control,
            seqs: Vec::new(),
            payloads: Vec::new(),
        })
    }

    fn send_batch(&mut self) -> Result<()> {
        if self.seqs.is_empty() {
            return Ok(());
        }
        self.task
            .execute(
                "INSERT INTO xo_xa_rows (job, seq, payload) \
                 SELECT $1, * FROM unnest($2::bigint[], $3::text[])",
                &[&self.job, &self.seqs, &self.payloads],
            )
            .context("inserting a batch into the open transaction")?;
        self.seqs.clear();
        self.payloads.clear();
        Ok(())
    }

    fn recorded_committed(&self, gid: &str) -> Result<bool> {
        let mut control = lock(&self.control)?;
        let row = control.query_opt("SELECT 1 FROM xo_committed WHERE gid = $1", &[&gid])?;
        Ok(row.is_some())
    }
}

impl XaStore for PgXaStore {
    type Record = XaRow;

    fn begin(&mut self) -> Result<()> {
        self.task
            .batch_execute("BEGIN")
            .context("beginning the epoch's transaction")
    }

    fn insert(&mut self, row: XaRow) -> Result<()> {
        self.seqs.push(row.seq);
        self.payloads.push(row.payload);
        if self.seqs.len() >= BATCH {
            self.send_batch()?;
        }
        Ok(())
    }

    fn prepare(&mut self, gid: &str) -> Result<()> {
        self.send_batch()?;
        self.task
            .execute("INSERT INTO xo_committed (gid) VALUES ($1)", &[&gid])
            .with_context(|| format!("recording global id {gid} in its own transaction"))?;
        self.task
            .batch_execute(&format!("PREPARE TRANSACTION {}", literal(gid)?))
            .with_context(|| format!("preparing transaction {gid}"))
    }

    fn commit_prepared(&mut self, gid: &str) -> Result<CommitOutcome> {
        let result =
            lock(&self.control)?.batch_execute(&format!("COMMIT PREPARED {}", literal(gid)?));
        match result {
            Ok(()) => Ok(CommitOutcome::Committed),
            Err(e) if e.code() == Some(&SqlState::UNDEFINED_OBJECT) => {
                if self.recorded_committed(gid)? {
                    Ok(CommitOutcome::AlreadyCommitted)
                } else {
                    Err(HandleLost {
                        handle: format!("prepared transaction {gid}"),
                    }
                    .into())
                }
            }
            Err(e) => Err(e).with_context(|| format!("committing prepared transaction {gid}")),
        }
    }

    fn rollback_prepared(&mut self, gid: &str) -> Result<AbortOutcome> {
        let result =
            lock(&self.control)?.batch_execute(&format!("ROLLBACK PREPARED {}", literal(gid)?));
        match result {
            Ok(()) => Ok(AbortOutcome::Aborted),
            Err(e) if e.code() == Some(&SqlState::UNDEFINED_OBJECT) => {
                if self.recorded_committed(gid)? {
                    bail!("cannot roll back transaction {gid}: it is already committed")
                }
                Ok(AbortOutcome::AlreadyAborted)
            }
            Err(e) => Err(e).with_context(|| format!("rolling back prepared transaction {gid}")),
        }
    }

    fn is_transient(&self, error: &anyhow::Error) -> bool {
        is_transient(error)
    }

    fn prepared_transactions(&self) -> Result<Vec<String>> {
        let rows = lock(&self.control)?.query(
            "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() ORDER BY gid",
            &[],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

/// Whether a PostgreSQL error may pass on a retry: a lock or statement timeout, a
/// serialisation failure or deadlock, a server starting up or shedding load. A closed
/// connection is not: this client never reconnects, so the run must restart.
pub fn is_transient(error: &anyhow::Error) -> bool {
    const TRANSIENT: [SqlState; 6] = [
        SqlState::LOCK_NOT_AVAILABLE,
        SqlState::QUERY_CANCELED,
        SqlState::T_R_SERIALIZATION_FAILURE,
        SqlState::T_R_DEADLOCK_DETECTED,
        SqlState::CANNOT_CONNECT_NOW,
        SqlState::TOO_MANY_CONNECTIONS,
    ];
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<postgres::Error>())
        .any(|e| e.code().is_some_and(|code| TRANSIENT.contains(code)))
}

/// Locks a shared connection.
///
/// # Errors
/// When another path panicked while holding it: its statement may be half-sent.
pub fn lock(client: &SharedClient) -> Result<std::sync::MutexGuard<'_, Client>> {
    client.lock().map_err(|_| {
        anyhow::anyhow!("a path panicked while holding the shared PostgreSQL connection")
    })
}

/// `gid` as an SQL string literal (`PREPARE TRANSACTION` takes no parameters).
fn literal(gid: &str) -> Result<String> {
    // Global ids are built from a checked job name and numbers; anything else is a bug.
    if !gid
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || gid.len() > 200
    {
        bail!("global id {gid:?} is not a plain name of at most 200 characters");
    }
    Ok(format!("'{gid}'"))
}
