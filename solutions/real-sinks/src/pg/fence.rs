//! A job's fence in PostgreSQL: a session advisory lock held for the whole run, and an
//! epoch row bumped in a transaction when the run starts.
//!
//! The lock refuses a second run of the same job name while the first lives, from any
//! folder and any host (the server drops it when the run's session ends, so a killed
//! run never leaves the job locked). The epoch row is re-read before every commit,
//! barrier and cleanup: a run whose session was ended behind its back (an operator's
//! `pg_terminate_backend`, a network partition) and that a newer run then overtook sees
//! the newer epoch, or a dead connection, and stops before committing anything.

use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};
use committer::{Fence, Fenced};
use std::time::Duration;

use postgres::Client;
use postgres::error::SqlState;

use super::schema::{SESSION_TIMEOUTS, connect, ensure_schema};

/// How long a run waits for the job's lock before refusing to start.
const LOCK_WAIT: Duration = Duration::from_secs(2);

/// A run's hold on its job's name in PostgreSQL.
pub struct PgFence {
    job: String,
    // Its own session: the advisory lock lives exactly as long as this connection.
    session: Mutex<Client>,
    epoch: i64,
}

impl PgFence {
    /// Locks `job` on the server at `conninfo` and takes its next epoch.
    ///
    /// # Errors
    /// When another live run holds the job (the message says so and what to do), or the
    /// server refuses.
    pub fn take(conninfo: &str, job: &str) -> Result<Self> {
        let mut session = connect(conninfo)?;
        ensure_schema(&mut session)?;
        // A run killed a moment ago may still hold the lock until the server notices
        // its closed socket, so wait a little before calling the job taken.
        session.batch_execute(&format!("SET lock_timeout = '{}ms'", LOCK_WAIT.as_millis()))?;
        let locked = session.query_one(
            "SELECT pg_advisory_lock(hashtextextended($1, 8080))",
            &[&job],
        );
        match locked {
            Ok(_) => {}
            Err(e) if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) => bail!(
                "job {job:?} is already running against this PostgreSQL (a live session has \
                 held its fence for over {LOCK_WAIT:?}): a second run would write its rows \
                 twice, so it is refused; wait for the other run to end or stop it"
            ),
            Err(e) => return Err(e).context("taking the job's advisory lock"),
        }
        session.batch_execute(SESSION_TIMEOUTS)?;
        let epoch: i64 = session
            .query_one(
                "INSERT INTO xo_fence (job, epoch) VALUES ($1, 1) \
                 ON CONFLICT (job) DO UPDATE SET epoch = xo_fence.epoch + 1 RETURNING epoch",
                &[&job],
            )
            .context("taking the job's fencing epoch")?
            .get(0);
        Ok(Self {
            job: job.to_owned(),
            session: Mutex::new(session),
            epoch,
        })
    }

    /// The epoch this run holds.
    pub fn epoch(&self) -> i64 {
        self.epoch
    }
}

impl Fence for PgFence {
    fn check(&self) -> Result<()> {
        let mut session = self
            .session
            .lock()
            .map_err(|_| anyhow!("a path panicked while checking the job's fence"))?;
        let current: i64 = session
            .query_one("SELECT epoch FROM xo_fence WHERE job = $1", &[&self.job])
            .with_context(|| {
                format!(
                    "checking job {:?}'s fence (epoch {}): a run that cannot prove it still \
                     holds the job must not commit",
                    self.job, self.epoch
                )
            })?
            .get(0);
        if current != self.epoch {
            return Err(Fenced {
                held: self.epoch as u64,
                current: current as u64,
            }
            .into());
        }
        Ok(())
    }
}
