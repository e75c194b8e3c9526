//! The job's configuration, fixed at its first run and checked at every restart.
//!
//! A restart must run the job it restores: the checkpoint's offset indexes *this*
//! input. So the first run writes the configuration next to the checkpoints, and a
//! restart with different flags is refused instead of silently mixing two jobs. The
//! parallelism is the exception: a restart may rescale (up to the job's key groups),
//! because the checkpoint's snapshots are dealt out to the new subtasks, each finalising
//! the handles it is handed, and the framework's succession gives every orphan exactly
//! one discarder at the new parallelism.

use std::fmt;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::durable::replace_file;
use crate::file::check_job_name;

/// Which real sink the job writes through.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum SinkKind {
    /// Shape A: staged files, renamed into the output folder.
    File,
    /// Shape B: PostgreSQL prepared transactions.
    Xa,
    /// Shape C: PostgreSQL upserts.
    Upsert,
}

impl SinkKind {
    /// Every sink, in the order the soak runs them.
    pub const ALL: [SinkKind; 3] = [SinkKind::File, SinkKind::Xa, SinkKind::Upsert];

    /// Whether the sink needs PostgreSQL (`BYO_PG`).
    pub fn needs_postgres(self) -> bool {
        self != SinkKind::File
    }
}

impl fmt::Display for SinkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SinkKind::File => "file",
            SinkKind::Xa => "xa",
            SinkKind::Upsert => "upsert",
        })
    }
}

/// What the pipeline runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobConfig {
    /// The job's name: a prefix of its files, global ids and rows.
    pub job: String,
    /// The sink.
    pub sink: SinkKind,
    /// How many input records.
    pub records: u64,
    /// How many sink subtasks.
    pub parallelism: u32,
    /// A barrier after every this many records.
    pub barrier_every: u64,
    /// The commit lag: how many checkpoints complete before the oldest one's
    /// notification is delivered (the CLI's `--lag`).
    pub commit_lag: u64,
    /// The input's seed.
    pub seed: u64,
}

impl JobConfig {
    /// Checks every argument, naming the first bad one.
    ///
    /// # Errors
    /// On an empty input, a zero parallelism or barrier interval, or a bad job name.
    pub fn validate(&self) -> Result<()> {
        check_job_name(&self.job)?;
        if self.records == 0 {
            bail!("--records must be at least 1, got 0");
        }
        if self.parallelism == 0 || self.parallelism > 16 {
            bail!("--parallelism must be 1 to 16, got {}", self.parallelism);
        }
        if self.barrier_every == 0 {
            bail!("--barrier-every must be at least 1, got 0");
        }
        if self.commit_lag > 8 {
            bail!(
                "--lag (the commit lag) must be at most 8, got {}",
                self.commit_lag
            );
        }
        Ok(())
    }

    /// The configuration the job in `dir` runs with now: `self`, checked against the one
    /// stored there (written if this is its first run, rewritten on a rescale).
    ///
    /// # Errors
    /// When `self` is invalid, or differs from the stored one in more than parallelism.
    pub fn load_or_init(&self, dir: &Path) -> Result<JobConfig> {
        self.validate()?;
        let path = dir.join("job.json");
        match fs::read(&path) {
            Ok(bytes) => {
                let stored: JobConfig = serde_json::from_slice(&bytes)
                    .with_context(|| format!("reading {}", path.display()))?;
                let rescaled = JobConfig {
                    parallelism: self.parallelism,
                    ..stored.clone()
                };
                if &rescaled != self {
                    bail!(
                        "{} was started as {stored:?}; a restart must run the same job (only \
                         --parallelism may change), got {self:?}",
                        dir.display()
                    );
                }
                if stored.parallelism != self.parallelism {
                    replace_file(&path, &serde_json::to_vec_pretty(self)?)?;
                }
                Ok(rescaled)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                replace_file(&path, &serde_json::to_vec_pretty(self)?)?;
                Ok(self.clone())
            }
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }
}
