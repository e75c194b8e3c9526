//! What the harness checks: after every kill (no partial output, no duplicate) and at
//! the end of the input (exactly once, nothing left behind).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use committer::connectors::{GlobalTxnId, StagedName};
use postgres::Client;

use crate::file::{Layout, read_complete};
use crate::job::{InputRecord, JobConfig, SinkKind, generate, upsert_change};
use crate::pg::connect;

/// The checks of one job, against its sink.
pub struct Verifier {
    config: JobConfig,
    input: Vec<InputRecord>,
    target: Target,
}

enum Target {
    Files(Layout),
    Postgres(Box<Client>),
}

impl Verifier {
    /// The checks of the job `config` in `dir`; PostgreSQL sinks read `postgres`.
    ///
    /// # Errors
    /// When a PostgreSQL sink's server cannot be reached.
    pub fn new(dir: &Path, config: &JobConfig, postgres: Option<&str>) -> Result<Self> {
        let target = match config.sink {
            SinkKind::File => Target::Files(Layout::new(&dir.join("sink"), &config.job)?),
            _ => {
                let conninfo = postgres.context("a PostgreSQL sink needs BYO_PG")?;
                Target::Postgres(Box::new(connect(conninfo)?))
            }
        };
        Ok(Self {
            config: config.clone(),
            input: generate(config.records, config.seed),
            target,
        })
    }

    /// Erases whatever an earlier job of the same name left in PostgreSQL.
    ///
    /// # Errors
    /// When the server refuses.
    pub fn purge(&mut self) -> Result<()> {
        let job = self.config.job.clone();
        if let Target::Postgres(client) = &mut self.target {
            crate::pg::ensure_schema(client)?;
            for gid in prepared_of(client, &job)? {
                client.batch_execute(&format!("ROLLBACK PREPARED '{gid}'"))?;
            }
            client.execute("DELETE FROM xo_xa_rows WHERE job = $1", &[&job])?;
            client.execute("DELETE FROM xo_upsert_rows WHERE job = $1", &[&job])?;
            client.execute("DELETE FROM xo_upsert_flushed WHERE job = $1", &[&job])?;
            client.execute("DELETE FROM xo_lineage WHERE job = $1", &[&job])?;
            client.execute(
                "DELETE FROM xo_committed WHERE gid LIKE $1",
                &[&format!("{job}-g%")],
            )?;
        }
        Ok(())
    }

    /// Right after a kill: the visible output holds whole, distinct, genuine records.
    ///
    /// # Errors
    /// Naming the broken invariant: a torn or foreign file in the output folder, a
    /// record visible twice, or a record the input does not have.
    pub fn at_kill(&mut self) -> Result<usize> {
        match self.config.sink {
            SinkKind::File | SinkKind::Xa => {
                let visible = self.visible()?;
                let mut seen = BTreeMap::new();
                for record in &visible {
                    self.genuine(record)?;
                    if seen.insert(record.seq, ()).is_some() {
                        bail!("record {} is visible twice: output duplicated", record.seq);
                    }
                }
                Ok(visible.len())
            }
            SinkKind::Upsert => {
                let rows = self.table()?;
                for (key, value) in &rows {
                    let (seq, _) = value.split_once(':').context("a row without its seq")?;
                    let seq: u64 = seq.parse()?;
                    let change = upsert_change(
                        self.input
                            .get(seq as usize)
                            .context("a row of no input record")?,
                    );
                    ensure!(
                        change.key == *key && change.value == *value,
                        "row {key} = {value:?} was never written by the input"
                    );
                }
                Ok(rows.len())
            }
        }
    }

    /// What a kill left staged or prepared (open files included): the work the next
    /// run's open must repair, counted to show that kills do land mid-protocol.
    ///
    /// # Errors
    /// When the staging folder or the server cannot be read.
    pub fn leftovers(&mut self) -> Result<usize> {
        let job = self.config.job.clone();
        match &mut self.target {
            Target::Files(layout) if layout.staging().exists() => {
                Ok(fs::read_dir(layout.staging())?.count())
            }
            Target::Files(_) => Ok(0),
            Target::Postgres(client) => Ok(prepared_of(client, &job)?.len()),
        }
    }

    /// The input is done: exactly once (or the defined table), nothing staged or prepared.
    ///
    /// # Errors
    /// Naming the broken invariant.
    pub fn at_end(&mut self) -> Result<()> {
        let job = self.config.job.clone();
        match &mut self.target {
            Target::Files(layout) => {
                let left: Vec<String> = fs::read_dir(layout.staging())?
                    .map(|e| Ok(e?.file_name().to_string_lossy().into_owned()))
                    .collect::<Result<_>>()?;
                ensure!(
                    left.is_empty(),
                    "files left behind in the staging folder: {left:?}"
                );
            }
            Target::Postgres(client) => {
                let left = prepared_of(client, &job)?;
                ensure!(
                    left.is_empty(),
                    "prepared transactions left behind: {left:?}"
                );
            }
        }
        if self.config.sink == SinkKind::Upsert {
            let mut expected = BTreeMap::new();
            for record in &self.input {
                let change = upsert_change(record);
                if change.kind.keeps_row() {
                    expected.insert(change.key, change.value);
                } else {
                    expected.remove(&change.key);
                }
            }
            ensure!(
                self.table()? == expected,
                "the upsert table is not the state the input defines"
            );
            return Ok(());
        }
        let visible = self.visible()?;
        let mut counts = vec![0u32; self.input.len()];
        for record in &visible {
            self.genuine(record)?;
            counts[record.seq as usize] += 1;
        }
        for (seq, count) in counts.iter().enumerate() {
            ensure!(
                *count == 1,
                "record {seq} is in the output {count} times, not exactly once"
            );
        }
        Ok(())
    }

    fn genuine(&self, record: &InputRecord) -> Result<()> {
        match self.input.get(record.seq as usize) {
            Some(original) if original == record => Ok(()),
            _ => bail!("output record {record:?} is not the input's"),
        }
    }

    /// The records visible to a reader of the output.
    fn visible(&mut self) -> Result<Vec<InputRecord>> {
        let job = self.config.job.clone();
        match &mut self.target {
            Target::Files(layout) => {
                let mut records = Vec::new();
                if !layout.output().exists() {
                    return Ok(records);
                }
                for entry in fs::read_dir(layout.output())? {
                    let name = entry?.file_name().to_string_lossy().into_owned();
                    ensure!(
                        StagedName::parse(&job, &format!("{job}/{name}")).is_some(),
                        "{name:?} in the output folder is not a committed file's name"
                    );
                    for line in read_complete(&layout.output().join(&name))? {
                        records.push(InputRecord::parse(&line)?);
                    }
                }
                Ok(records)
            }
            Target::Postgres(client) => client
                .query(
                    "SELECT seq, payload FROM xo_xa_rows WHERE job = $1",
                    &[&job],
                )?
                .iter()
                .map(|row| {
                    Ok(InputRecord {
                        seq: u64::try_from(row.get::<_, i64>(0))?,
                        payload: row.get(1),
                    })
                })
                .collect(),
        }
    }

    fn table(&mut self) -> Result<BTreeMap<i64, String>> {
        let job = self.config.job.clone();
        let Target::Postgres(client) = &mut self.target else {
            bail!("only the PostgreSQL sinks have a table");
        };
        Ok(client
            .query(
                "SELECT key, value FROM xo_upsert_rows WHERE job = $1",
                &[&job],
            )?
            .iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect())
    }
}

/// The prepared transactions of `job` on the server.
fn prepared_of(client: &mut Client, job: &str) -> Result<Vec<String>> {
    Ok(client
        .query("SELECT gid FROM pg_prepared_xacts", &[])?
        .iter()
        .map(|row| row.get::<_, String>(0))
        .filter(|gid| GlobalTxnId::parse(job, gid).is_some())
        .collect())
}
