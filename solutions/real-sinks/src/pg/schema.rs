//! Connecting, the tables, and the server setting two-phase commit cannot do without.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use postgres::{Client, Config, NoTls};

/// A connection used from more than one path (the task's and the commit's).
///
/// In an engine the completion notification arrives on another thread than the records,
/// and a PostgreSQL connection runs one statement at a time: interleaving two paths'
/// statements on one socket corrupts both. The mutex makes each use a whole turn.
pub type SharedClient = Arc<Mutex<Client>>;

/// Wraps `client` for sharing between paths.
pub fn shared(client: Client) -> SharedClient {
    Arc::new(Mutex::new(client))
}

/// Connects to `conninfo` (e.g. `host=127.0.0.1 port=25432 user=postgres dbname=postgres`).
///
/// # Errors
/// When the server cannot be reached or refuses the login.
pub fn connect(conninfo: &str) -> Result<Client> {
    let mut config: Config = conninfo
        .parse()
        .with_context(|| format!("reading the PostgreSQL connection string {conninfo:?}"))?;
    // A connection string may set its own; a server that never answers the handshake
    // must not hang the run. (Transmitted data a vanished host never acknowledges
    // fails a call after tcp_user_timeout; a stopped server's kernel still acknowledges
    // everything, which is what `crate::watchdog` is for.)
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
    let mut client = config
        .connect(NoTls)
        .with_context(|| format!("connecting to PostgreSQL at {conninfo:?}"))?;
    client
        .batch_execute(SESSION_TIMEOUTS)
        .context("setting the session's statement and lock timeouts")?;
    Ok(client)
}

/// How long a connection attempt may take unless the connection string says.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long sent data may stay unacknowledged before the connection fails.
pub const TCP_USER_TIMEOUT: Duration = Duration::from_secs(30);

/// Every session's limits: a statement stuck behind a lock (another run's prepared
/// transaction, an operator's open transaction) or a server that stopped answering
/// fails with an error naming the timeout instead of hanging the pipeline. Their codes
/// are transient ([`super::is_transient`]), so a commit is retried before the run fails.
pub const SESSION_TIMEOUTS: &str = "SET statement_timeout = '30s'; SET lock_timeout = '5s'";

// Concurrent `CREATE TABLE IF NOT EXISTS` can still collide in the catalogue, so every
// creator takes the same advisory lock first (the key is arbitrary, fixed).
const SCHEMA: &str = "
    SELECT pg_advisory_xact_lock(80808);
    CREATE TABLE IF NOT EXISTS xo_xa_rows (job text NOT NULL, seq bigint NOT NULL, payload text NOT NULL);
    CREATE TABLE IF NOT EXISTS xo_committed (gid text PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS xo_fence (job text PRIMARY KEY, epoch bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS xo_upsert_flushed (job text PRIMARY KEY, checkpoint bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS xo_lineage (job text PRIMARY KEY, lineage text NOT NULL, key bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS xo_upsert_rows (job text NOT NULL, key bigint NOT NULL, value text NOT NULL, PRIMARY KEY (job, key));
";

/// Creates the sinks' tables if they are missing.
///
/// `xo_xa_rows` has no key on purpose: a duplicate must be able to show, or the crash
/// harness could not see one. `xo_committed` records every committed global id (see
/// [`super::PgXaStore`]). `xo_fence` holds each job's fencing epoch ([`super::PgFence`]),
/// `xo_upsert_flushed` the checkpoint of each upsert job's newest flush, `xo_lineage` the
/// history each job name belongs to and the key sealing its checkpoints
/// ([`crate::job::Lineage`]).
///
/// # Errors
/// When the server refuses the DDL.
pub fn ensure_schema(client: &mut Client) -> Result<()> {
    let mut txn = client.transaction()?;
    txn.batch_execute(SCHEMA)
        .context("creating the sinks' tables")?;
    txn.commit()?;
    Ok(())
}

/// Checks the server's `max_prepared_transactions` (its value `setting`) against what
/// a job needs at once: every subtask's prepared transactions, `needed` in all.
///
/// # Errors
/// When the server allows fewer; the default, 0, disables `PREPARE TRANSACTION` entirely.
pub fn check_prepared_capacity(setting: i64, needed: i64) -> Result<()> {
    if setting == 0 {
        bail!(
            "this PostgreSQL server has max_prepared_transactions = 0, which disables \
             PREPARE TRANSACTION, the XA sink's pre-commit: set max_prepared_transactions \
             to at least {needed} (postgresql.conf, or ALTER SYSTEM SET \
             max_prepared_transactions = {needed}) and restart the server"
        );
    }
    if setting < needed {
        bail!(
            "this PostgreSQL server has max_prepared_transactions = {setting}, fewer than \
             the {needed} this job may hold prepared at once: raise it to at least {needed} \
             and restart the server"
        );
    }
    Ok(())
}

/// The server's `max_prepared_transactions`.
///
/// # Errors
/// When the setting cannot be read.
pub fn max_prepared_transactions(client: &mut Client) -> Result<i64> {
    let row = client.query_one("SHOW max_prepared_transactions", &[])?;
    let value: String = row.get(0);
    value
        .parse()
        .with_context(|| format!("max_prepared_transactions is not a number: {value:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_without_prepared_transactions_is_told_what_to_set() {
        let message = check_prepared_capacity(0, 4).unwrap_err().to_string();
        assert!(
            message.contains("max_prepared_transactions = 0"),
            "{message}"
        );
        assert!(message.contains("at least 4"), "{message}");
        assert!(check_prepared_capacity(2, 4).is_err());
        assert!(check_prepared_capacity(10, 4).is_ok());
    }
}
