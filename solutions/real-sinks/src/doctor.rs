//! `demo doctor`: what a job left at its destination, and, when asked, resolving it.
//!
//! A refused run touches nothing, so whatever a killed run left stays where it was:
//! prepared transactions holding locks and slots on the server, staged files in the
//! staging folder. The doctor lists every one the job's name owns, each with where it
//! stands against the folder's latest checkpoint:
//!
//! - held by the checkpoint (prepared at or before it): the next run's recovery commits it;
//! - an orphan (prepared after it): the next run's open rolls it back.
//!
//! `--sweep` does exactly what the next run's open would, and stops there: recovery
//! commits the held ones, the sweeps discard the orphans. It needs the folder whose
//! history the destination belongs to. `--release` ends the job's history at the
//! destination: it rolls back or deletes every leftover of the job's name, whatever
//! it stands for (records of completed checkpoints not yet committed are then lost, as
//! the operator asked), and drops the destination's claim, so that another folder may
//! begin the job again. Only the job's current name is listed.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use committer::CheckpointId;
use committer::connectors::GlobalTxnId;

use crate::file::{Layout, StagingFile};
use crate::job::{
    CheckpointStore, Claim, FolderFence, JobConfig, Reach, RunOptions, SinkKind, run_with_options,
};
use crate::pg::{PgFence, connect, ensure_schema};

/// What the doctor is asked to do beyond listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// Only list.
    List,
    /// Resolve as the next run's open would, then list what is left.
    Sweep,
    /// Roll back and delete every leftover of the job's name, and drop the claim.
    Release,
}

/// One thing the job left at its destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    /// The global id, or the staged file's path.
    pub name: String,
    /// The checkpoint whose barrier prepared it (none for an open file).
    pub checkpoint: Option<CheckpointId>,
}

/// Lists (and, as `remedy` says, resolves) what the job `config` of folder `dir` left;
/// returns what is left afterwards.
///
/// # Errors
/// When the destination cannot be read, another run holds the job, or (`--sweep`)
/// the folder's history is not the one the destination belongs to.
pub fn doctor(
    dir: &Path,
    config: &JobConfig,
    postgres: Option<&str>,
    remedy: Remedy,
    log: &mut impl Write,
) -> Result<Vec<Leftover>> {
    match remedy {
        Remedy::List => {}
        Remedy::Sweep => {
            let options = RunOptions {
                reach: Reach::Recovery,
                ..RunOptions::default()
            };
            run_with_options(dir, config, postgres, options, log)?;
        }
        Remedy::Release => release(dir, config, postgres, log)?,
    }
    let left = leftovers(dir, config, postgres)?;
    let latest = latest(dir, config, postgres).unwrap_or(None);
    writeln!(
        log,
        "job {:?} ({} sink): {} leftover(s)",
        config.job,
        config.sink,
        left.len()
    )?;
    for leftover in &left {
        let standing = match (leftover.checkpoint, latest) {
            (None, _) => "an open file of a dead run: the next open deletes it".to_owned(),
            (Some(c), Some(latest)) if c <= latest => {
                format!("held by checkpoint {latest}: the next run's recovery commits it")
            }
            (Some(_), _) => "an orphan: the next run's open rolls it back".to_owned(),
        };
        writeln!(log, "  {}  ({standing})", leftover.name)?;
    }
    if !left.is_empty() && remedy == Remedy::List {
        writeln!(
            log,
            "resolve them with --sweep (as the next run would), or end the job's history here with --release"
        )?;
    }
    Ok(left)
}

/// The id of the folder's latest readable checkpoint, if the destination's history is
/// the folder's.
fn latest(dir: &Path, config: &JobConfig, postgres: Option<&str>) -> Result<Option<CheckpointId>> {
    let mut client = postgres.map(connect).transpose()?;
    let lineage = claim(dir, config, client.as_mut())?.read()?;
    let Some(lineage) = lineage else {
        return Ok(None);
    };
    let latest = CheckpointStore::new(dir, &lineage).latest()?;
    Ok(latest.map(|restored| restored.checkpoint.id))
}

fn claim<'a>(
    dir: &Path,
    config: &'a JobConfig,
    client: Option<&'a mut postgres::Client>,
) -> Result<Claim<'a>> {
    Ok(match (config.sink, client) {
        (SinkKind::File, _) => {
            Claim::File(dir.join("sink").join(format!("{}.lineage", config.job)))
        }
        (_, Some(client)) => {
            ensure_schema(client)?;
            Claim::Postgres(client, &config.job)
        }
        (_, None) => anyhow::bail!("--sink {} needs PostgreSQL: set BYO_PG", config.sink),
    })
}

/// Every prepared transaction or staged file of the job's name.
fn leftovers(dir: &Path, config: &JobConfig, postgres: Option<&str>) -> Result<Vec<Leftover>> {
    match config.sink {
        SinkKind::File => {
            let layout = Layout::new(&dir.join("sink"), &config.job)?;
            let mut left = Vec::new();
            if let Ok(entries) = fs::read_dir(layout.staging()) {
                for entry in entries {
                    let path = entry?.path();
                    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
                    let checkpoint = match layout.classify(file) {
                        Some(StagingFile::Prepared(name)) => Some(name.checkpoint),
                        Some(StagingFile::InProgress { .. }) => None,
                        None => continue,
                    };
                    let name = path.display().to_string();
                    left.push(Leftover { name, checkpoint });
                }
            }
            left.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(left)
        }
        SinkKind::Xa | SinkKind::Upsert => {
            let mut client = connect(postgres.context("a PostgreSQL sink needs BYO_PG")?)?;
            let rows = client.query("SELECT gid FROM pg_prepared_xacts ORDER BY gid", &[])?;
            Ok(rows
                .iter()
                .filter_map(|row| GlobalTxnId::parse(&config.job, row.get(0)))
                .map(|gid| Leftover {
                    name: gid.to_string(),
                    checkpoint: Some(gid.checkpoint),
                })
                .collect())
        }
    }
}

/// Rolls back or deletes every leftover of the job's name and drops the claim, under
/// the job's fences (so never under a live run's feet).
fn release(
    dir: &Path,
    config: &JobConfig,
    postgres: Option<&str>,
    log: &mut impl Write,
) -> Result<()> {
    let _folder = FolderFence::take(dir)?;
    let mut server = None;
    if config.sink.needs_postgres() {
        let conninfo = postgres.context("a PostgreSQL sink needs BYO_PG")?;
        server = Some((PgFence::take(conninfo, &config.job)?, connect(conninfo)?));
    }
    for leftover in leftovers(dir, config, postgres)? {
        match &mut server {
            Some((_, client)) => client
                .batch_execute(&format!("ROLLBACK PREPARED '{}'", leftover.name))
                .with_context(|| format!("rolling back {}", leftover.name))?,
            None => fs::remove_file(&leftover.name)
                .with_context(|| format!("deleting {}", leftover.name))?,
        }
        writeln!(log, "released {}", leftover.name)?;
    }
    match &mut server {
        Some((_, client)) => {
            client.execute("DELETE FROM xo_lineage WHERE job = $1", &[&config.job])?;
        }
        None => {
            let claim = dir.join("sink").join(format!("{}.lineage", config.job));
            if claim.exists() {
                fs::remove_file(&claim)?;
            }
        }
    }
    writeln!(
        log,
        "job {:?}'s history is ended at its destination",
        config.job
    )?;
    Ok(())
}
