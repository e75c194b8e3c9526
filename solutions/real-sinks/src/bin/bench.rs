//! `bench`: throughput of the real sinks against the plain way of writing the same data
//! with the same durability points, measured side by side in one run (not a timed test:
//! the figures depend on the disk and the server; the ratios are what to read).
//!
//! - file sink (through the committer base and the durable state backend, and alone)
//!   vs one file, buffered, one `fsync` per checkpoint;
//! - PostgreSQL XA sink (through the base, and alone) vs the same batched inserts in one
//!   plain transaction committed per checkpoint (needs `BYO_PG`).
//!
//! Each variant runs `--repeat` times, interleaved so drift hits all alike; the median counts.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use real_sinks::cli::Flags;
use real_sinks::file::{FileSink, Layout};
use real_sinks::job::{InputRecord, generate};
use real_sinks::pg::{PgXaSink, PgXaStore, SharedClient, XaRow, connect, shared};
use solution08::committer::{
    CommitterOperator, CommittingSink, FileOperatorState, NoTripwire, OpenContext, RunContext,
    RunToken, SubtaskId, Succession,
};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = Flags::parse(&args, &["records", "barrier-every", "repeat"])?;
    let records = generate(flags.get("records", 20_000)?, 8);
    let repeat: usize = flags.get("repeat", 3)?;
    let intervals: Vec<u64> = flags
        .text("barrier-every")
        .unwrap_or("100,1000")
        .split(',')
        .map(|s| {
            s.parse()
                .map_err(|e| anyhow::anyhow!("--barrier-every {s:?}: {e}"))
        })
        .collect::<Result<_>>()?;
    if intervals.contains(&0) || repeat == 0 {
        anyhow::bail!("--barrier-every and --repeat must be at least 1");
    }
    let root = std::env::temp_dir().join(format!("real-sinks-bench-{}", std::process::id()));
    let postgres = std::env::var("BYO_PG").ok().filter(|s| !s.is_empty());
    println!(
        "{} records, median of {repeat} interleaved runs each\n",
        records.len()
    );
    println!("| barrier every | variant | records/s | ratio to baseline |\n|---|---|---|---|");
    for &every in &intervals {
        let mut file_runs: [Vec<Duration>; 3] = Default::default();
        for i in 0..repeat {
            let dir = root.join(format!("file-{every}-{i}"));
            file_runs[0].push(raw_file(&dir.join("raw"), &records, every)?);
            file_runs[1].push(file_sink_alone(&dir.join("alone"), &records, every)?);
            file_runs[2].push(file_sink_operator(&dir.join("op"), &records, every)?);
            fs::remove_dir_all(&dir)?;
        }
        print_rows(
            every,
            &records,
            &file_runs,
            &[
                "raw buffered write + fsync per checkpoint",
                "file sink (verbs alone)",
                "file sink through the committer base",
            ],
        );
        let Some(pg) = &postgres else { continue };
        let mut pg_runs: [Vec<Duration>; 3] = Default::default();
        let control = shared(connect(pg)?);
        for i in 0..repeat {
            let job = format!("bench-{}-{every}-{i}", std::process::id());
            pg_runs[0].push(plain_inserts(pg, &format!("{job}-plain"), &records, every)?);
            pg_runs[1].push(xa_alone(
                pg,
                &control,
                &format!("{job}-alone"),
                &records,
                every,
            )?);
            let dir = root.join(format!("xa-{every}-{i}"));
            pg_runs[2].push(xa_operator(
                pg,
                &control,
                &dir,
                &format!("{job}-op"),
                &records,
                every,
            )?);
            fs::remove_dir_all(&dir)?;
        }
        real_sinks::pg::lock(&control)?.execute(
            "DELETE FROM xo_xa_rows WHERE job LIKE $1",
            &[&format!("bench-{}-%", std::process::id())],
        )?;
        print_rows(
            every,
            &records,
            &pg_runs,
            &[
                "PostgreSQL plain batched inserts, COMMIT per checkpoint",
                "PostgreSQL XA sink (verbs alone)",
                "PostgreSQL XA sink through the committer base",
            ],
        );
    }
    if postgres.is_none() {
        println!("\n(PostgreSQL rows skipped: BYO_PG is unset; `just pg` starts a server)");
    }
    let _ = fs::remove_dir_all(&root);
    Ok(())
}

fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn print_rows(every: u64, records: &[InputRecord], runs: &[Vec<Duration>; 3], names: &[&str; 3]) {
    let base = median(&runs[0]).as_secs_f64();
    for (variant, name) in runs.iter().zip(names) {
        let secs = median(variant).as_secs_f64();
        println!(
            "| {every} | {name} | {:.0} | {:.2} |",
            records.len() as f64 / secs,
            base / secs
        );
    }
}

fn timed(work: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    work()?;
    Ok(start.elapsed())
}

/// The baseline: the lines into one file, flushed and fsynced at every checkpoint.
fn raw_file(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    fs::create_dir_all(dir)?;
    let file = File::create(dir.join("out"))?;
    let mut writer = BufWriter::with_capacity(1 << 16, file);
    timed(|| {
        for (i, record) in records.iter().enumerate() {
            writeln!(writer, "{}", record.line())?;
            if (i as u64 + 1) % every == 0 || i + 1 == records.len() {
                writer.flush()?;
                writer.get_ref().sync_all()?;
            }
        }
        Ok(())
    })
}

fn me() -> Result<Succession> {
    Succession::new(SubtaskId::new(0, 1)?, 128)
}

/// The sink's own verbs: write, prepare (fsync, stage), commit (rename) per checkpoint.
fn file_sink_alone(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut sink = FileSink::new(Layout::new(dir, "bench")?);
    let context = OpenContext {
        job: "bench",
        generation: 1,
        run_token: RunToken(1),
        succession: me()?,
        pending: &[],
    };
    sink.on_open(&context)?;
    timed(|| drive_alone(&mut sink, records, every, InputRecord::line))
}

fn drive_alone<S: CommittingSink>(
    sink: &mut S,
    records: &[InputRecord],
    every: u64,
    convert: impl Fn(&InputRecord) -> S::Record,
) -> Result<()> {
    let mut checkpoint = 0;
    for (i, record) in records.iter().enumerate() {
        sink.write(convert(record))?;
        if (i as u64 + 1) % every == 0 || i + 1 == records.len() {
            checkpoint += 1;
            if let Some(handle) = sink.prepare_commit(checkpoint)? {
                sink.commit(&handle)?;
            }
        }
    }
    Ok(())
}

fn drive_operator<S: CommittingSink>(
    mut operator: CommitterOperator<S, FileOperatorState>,
    records: &[InputRecord],
    every: u64,
    convert: impl Fn(&InputRecord) -> S::Record,
) -> Result<()> {
    let mut checkpoint = 0;
    for (i, record) in records.iter().enumerate() {
        operator.write(convert(record))?;
        if (i as u64 + 1) % every == 0 || i + 1 == records.len() {
            checkpoint += 1;
            operator.on_barrier(checkpoint)?;
            operator.on_checkpoint_complete(checkpoint)?;
        }
    }
    operator.finish()?;
    Ok(())
}

fn run_context(job: &str) -> Result<RunContext> {
    Ok(RunContext {
        job: job.to_owned(),
        generation: 1,
        succession: me()?,
    })
}

fn state(dir: &Path) -> Result<FileOperatorState> {
    fs::create_dir_all(dir)?;
    FileOperatorState::open(PathBuf::from(dir).join("state.json"))
}

/// The file sink as the pipeline runs it: through the base, handles in the durable backend.
fn file_sink_operator(dir: &Path, records: &[InputRecord], every: u64) -> Result<Duration> {
    let sink = FileSink::new(Layout::new(dir, "bench")?);
    let operator = CommitterOperator::open(
        sink,
        state(dir)?,
        &run_context("bench")?,
        Box::new(NoTripwire),
    )?;
    timed(|| drive_operator(operator, records, every, InputRecord::line))
}

fn xa_row(record: &InputRecord) -> XaRow {
    XaRow {
        seq: record.seq as i64,
        payload: record.payload.clone(),
    }
}

/// The baseline: the same batched inserts, one plain transaction per checkpoint.
fn plain_inserts(pg: &str, job: &str, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut client = connect(pg)?;
    real_sinks::pg::ensure_schema(&mut client)?;
    let insert = |client: &mut postgres::Client, batch: &[InputRecord]| -> Result<()> {
        let seqs: Vec<i64> = batch.iter().map(|r| r.seq as i64).collect();
        let payloads: Vec<&str> = batch.iter().map(|r| r.payload.as_str()).collect();
        client.execute(
            "INSERT INTO xo_xa_rows (job, seq, payload) SELECT $1, * FROM unnest($2::bigint[], $3::text[])",
            &[&job, &seqs, &payloads],
        )?;
        Ok(())
    };
    timed(|| {
        for epoch in records.chunks(every as usize) {
            client.batch_execute("BEGIN")?;
            // The XA store sends at most 512 rows per statement; so does the baseline.
            for batch in epoch.chunks(512) {
                insert(&mut client, batch)?;
            }
            client.batch_execute("COMMIT")?;
        }
        Ok(())
    })
}

fn xa_alone(
    pg: &str,
    control: &SharedClient,
    job: &str,
    records: &[InputRecord],
    every: u64,
) -> Result<Duration> {
    let mut sink = PgXaSink::new(PgXaStore::open(job, connect(pg)?, control.clone(), 2)?);
    let context = OpenContext {
        job,
        generation: 1,
        run_token: RunToken(1),
        succession: me()?,
        pending: &[],
    };
    sink.on_open(&context)?;
    timed(|| drive_alone(&mut sink, records, every, xa_row))
}

fn xa_operator(
    pg: &str,
    control: &SharedClient,
    dir: &Path,
    job: &str,
    records: &[InputRecord],
    every: u64,
) -> Result<Duration> {
    let sink = PgXaSink::new(PgXaStore::open(job, connect(pg)?, control.clone(), 2)?);
    let operator =
        CommitterOperator::open(sink, state(dir)?, &run_context(job)?, Box::new(NoTripwire))?;
    timed(|| drive_operator(operator, records, every, xa_row))
}
