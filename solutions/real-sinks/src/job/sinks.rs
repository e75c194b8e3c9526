//! Each real sink plugged into the pipeline: how it is built per subtask and what an
//! input record becomes for it.

use std::io::Write;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Context, Result};
use committer::CommitPolicy;
use committer::connectors::{Change, RowKind};

use super::checkpoints::files as checkpoint_files;
use super::config::{JobConfig, SinkKind};
use super::fence::{FolderFence, RunFence};
use super::hook::{Hook, Reach};
use super::input::InputRecord;
use super::lineage::{Claim, settle};
use super::marks::{file_mark, upsert_mark, xa_mark};
use super::pipeline::{KEYS, RunGuards, RunSummary, run};
use crate::durable::create_dir_durably;
use crate::file::{FileSink, Layout};
use crate::pg::{PgFence, PgUpsertSink, PgXaSink, PgXaStore, XaRow, connect, shared};
use crate::watchdog::Progress;

/// Runs the job in `dir` through its configured sink; `postgres` is the connection
/// string the PostgreSQL sinks need.
///
/// The run first takes the job folder's fence, then (PostgreSQL sinks) the job name's
/// fence on the server, so a second run of the job is refused while this one lives.
///
/// # Errors
/// When a PostgreSQL sink is asked for without a connection string, another run holds
/// the job, or the run fails.
pub fn run_with(
    dir: &Path,
    config: &JobConfig,
    postgres: Option<&str>,
    log: &mut impl Write,
) -> Result<RunSummary> {
    run_with_options(dir, config, postgres, RunOptions::default(), log)
}

/// How a run behaves beyond its job's configuration.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// How handles are finalised (the demo's `--abandon-lost-handles` sets
    /// [`committer::OnLostHandle::Abandon`]).
    pub policy: CommitPolicy,
    /// Whether to print phase markers for the kill harness.
    pub phase_markers: bool,
    /// A PostgreSQL sink's client-side deadline: when no call returns for this long,
    /// the process ends with an error ([`crate::watchdog`]). `None` waits forever, as an
    /// in-process caller must (the watchdog ends the whole process).
    pub pg_deadline: Option<Duration>,
    /// What a test does at the run's named points (nothing, by default).
    pub hook: Hook,
    /// How far the run goes.
    pub reach: Reach,
}

/// [`run_with`] under `options`.
///
/// # Errors
/// As [`run_with`].
pub fn run_with_options(
    dir: &Path,
    config: &JobConfig,
    postgres: Option<&str>,
    options: RunOptions,
    log: &mut impl Write,
) -> Result<RunSummary> {
    let RunOptions {
        policy,
        phase_markers,
        pg_deadline,
        hook,
        reach,
    } = options;
    let progress = Progress::new();
    if let Some(deadline) = pg_deadline.filter(|_| config.sink.needs_postgres()) {
        progress.watch(
            deadline,
            format!("the PostgreSQL server of --sink {}", config.sink),
        );
    }
    let conninfo = || {
        postgres.with_context(|| {
            format!(
                "--sink {} needs PostgreSQL: set BYO_PG (see `just pg`)",
                config.sink
            )
        })
    };
    config.validate()?;
    create_dir_durably(dir)?;
    let folder = FolderFence::take(dir)?;
    let external = match config.sink {
        SinkKind::File => None,
        SinkKind::Xa | SinkKind::Upsert => Some(PgFence::take(conninfo()?, &config.job)?),
    };
    let fence = Rc::new(RunFence::new(folder, external));
    // Under both fences, before any sink opens (and sweeps): a folder of another
    // history is refused here, leaving the destination exactly as it was.
    let has_checkpoint = !checkpoint_files(dir)?.is_empty();
    let lineage = match config.sink {
        SinkKind::File => {
            let claim = Claim::File(dir.join("sink").join(format!("{}.lineage", config.job)));
            settle(dir, &config.job, has_checkpoint, claim)?
        }
        SinkKind::Xa | SinkKind::Upsert => {
            let mut client = connect(conninfo()?)?;
            settle(
                dir,
                &config.job,
                has_checkpoint,
                Claim::Postgres(&mut client, &config.job),
            )?
        }
    };
    match config.sink {
        SinkKind::File => {
            let layout = Layout::new(&dir.join("sink"), &config.job)?;
            let mark = file_mark(&layout)?;
            let guards = RunGuards {
                fence,
                mark,
                policy,
                phase_markers,
                progress: progress.clone(),
                hook: hook.clone(),
                lineage: lineage.clone(),
                reach,
            };
            run(
                dir,
                config,
                guards,
                |_| Ok(FileSink::new(layout.clone())),
                InputRecord::line,
                log,
            )
        }
        SinkKind::Xa => {
            let conninfo = conninfo()?;
            let mut control = connect(conninfo)?;
            let mark = xa_mark(&mut control, &config.job)?;
            let control = shared(control);
            // Every subtask may hold `commit_lag + 1` prepared transactions, one more while preparing.
            let in_flight = i64::from(config.parallelism) * (config.commit_lag as i64 + 2);
            let make = |_| {
                let store =
                    PgXaStore::open(&config.job, connect(conninfo)?, control.clone(), in_flight)?;
                Ok(PgXaSink::new(store))
            };
            let convert = |r: &InputRecord| XaRow {
                seq: r.seq as i64,
                payload: r.payload.clone(),
            };
            let guards = RunGuards {
                fence,
                mark,
                policy,
                phase_markers,
                progress: progress.clone(),
                hook: hook.clone(),
                lineage: lineage.clone(),
                reach,
            };
            run(dir, config, guards, make, convert, log)
        }
        SinkKind::Upsert => {
            let conninfo = conninfo()?;
            let mark = upsert_mark(&mut connect(conninfo)?, &config.job)?;
            let make = |_| PgUpsertSink::open(&config.job, connect(conninfo)?);
            let guards = RunGuards {
                fence,
                mark,
                policy,
                phase_markers,
                progress: progress.clone(),
                hook: hook.clone(),
                lineage: lineage.clone(),
                reach,
            };
            run(dir, config, guards, make, upsert_change, log)
        }
    }
}

/// The change record `seq` makes for the upsert sink: key `seq % KEYS`, first an
/// insert, then updates, every fourth round a delete, so replays must get inserts,
/// updates and deletes right.
pub fn upsert_change(record: &InputRecord) -> Change<i64, String> {
    let round = record.seq / KEYS;
    let kind = match round {
        0 => RowKind::Insert,
        r if r % 4 == 3 => RowKind::Delete,
        _ => RowKind::UpdateAfter,
    };
    Change {
        kind,
        key: (record.seq % KEYS) as i64,
        value: format!("{}:{}", record.seq, record.payload),
    }
}
