//! `bench`: throughput of the real sinks against the plain way of writing the same data
//! with the same durability points, measured side by side in one run (not a timed test:
//! the figures depend on the disk and the server; the ratios are what to read).
//!
//! - file sink (through the committer base with operator state in memory, and alone)
//!   vs one file, buffered, one `fsync` per checkpoint (`plain`), and vs the minimal
//!   durable protocol (`minimal`: the same bytes, fsyncs and renames, nothing else);
//! - PostgreSQL XA sink (through the base, and alone) vs the same batched inserts in one
//!   plain transaction committed per checkpoint (needs `BYO_PG`).
//!
//! Each variant runs `--repeat` times, interleaved so drift hits all alike; the median
//! counts. `--json` prints one JSON object per row instead of the table.

mod drive;
mod file;
mod pg;

use std::fs;
use std::io::{Write, stdout};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Parser;
use real_sinks::cli::BenchCli;
use real_sinks::job::{InputRecord, generate};
use real_sinks::pg::{connect, shared};
use serde::Serialize;

use file::{file_sink_alone, file_sink_operator, minimal_protocol, raw_file};
use pg::{plain_inserts, xa_alone, xa_operator};

/// One measured variant: the JSON line `bench --json` prints.
#[derive(Debug, Serialize)]
struct Row {
    sink: &'static str,
    path: &'static str,
    barrier_every: u64,
    records: usize,
    records_per_s: f64,
    /// Against `plain` for the same sink and barrier interval.
    ratio: f64,
}

fn main() -> Result<()> {
    let cli = BenchCli::parse();
    let records = generate(cli.records, 8);
    let repeat = usize::try_from(cli.repeat)?;
    let root = std::env::temp_dir().join(format!("real-sinks-bench-{}", std::process::id()));
    let postgres = std::env::var("BYO_PG").ok().filter(|s| !s.is_empty());
    let mut rows = Vec::new();
    for &every in &cli.barrier_every {
        let mut file_runs: [Vec<Duration>; 4] = Default::default();
        for i in 0..repeat {
            let dir = root.join(format!("file-{every}-{i}"));
            file_runs[0].push(raw_file(&dir.join("raw"), &records, every)?);
            file_runs[1].push(minimal_protocol(&dir.join("minimal"), &records, every)?);
            file_runs[2].push(file_sink_alone(&dir.join("alone"), &records, every)?);
            file_runs[3].push(file_sink_operator(&dir.join("op"), &records, every)?);
            fs::remove_dir_all(&dir)?;
        }
        let paths = ["plain", "minimal", "verbs", "framework"];
        rows.extend(rows_of("file", every, &records, &file_runs, &paths));
        let Some(pg) = &postgres else { continue };
        let mut pg_runs: [Vec<Duration>; 3] = Default::default();
        let control = shared(connect(pg)?);
        for i in 0..repeat {
            let job = format!("bench-{}-{every}-{i}", std::process::id());
            pg_runs[0].push(plain_inserts(pg, &format!("{job}-plain"), &records, every)?);
            let alone = format!("{job}-alone");
            pg_runs[1].push(xa_alone(pg, &control, &alone, &records, every)?);
            let op = format!("{job}-op");
            pg_runs[2].push(xa_operator(pg, &control, &op, &records, every)?);
        }
        real_sinks::pg::lock(&control)?.execute(
            "DELETE FROM xo_xa_rows WHERE job LIKE $1",
            &[&format!("bench-{}-%", std::process::id())],
        )?;
        let paths = ["plain", "verbs", "framework"];
        rows.extend(rows_of("xa", every, &records, &pg_runs, &paths));
    }
    let _ = fs::remove_dir_all(&root);
    let mut out = stdout().lock();
    if cli.json {
        for row in &rows {
            writeln!(out, "{}", serde_json::to_string(row)?)?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "{} records, median of {repeat} interleaved runs each\n",
        records.len()
    )?;
    writeln!(
        out,
        "| sink | barrier every | path | records/s | ratio to plain |\n|---|---|---|---|---|"
    )?;
    for row in &rows {
        writeln!(
            out,
            "| {} | {} | {} | {:.0} | {:.2} |",
            row.sink, row.barrier_every, row.path, row.records_per_s, row.ratio
        )?;
    }
    writeln!(
        out,
        "\nplain: buffered writes with one fsync (file) or COMMIT (xa) per checkpoint; \
         minimal: the file protocol's bytes, fsyncs and renames and nothing else; verbs: the \
         sink's verbs alone; framework: through the committer base"
    )?;
    if postgres.is_none() {
        writeln!(
            out,
            "(PostgreSQL rows skipped: BYO_PG is unset; `just pg` starts a server)"
        )?;
    }
    Ok(())
}

fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

/// The rows of one sink at one interval; the first path is `plain`, the ratios' base.
fn rows_of(
    sink: &'static str,
    every: u64,
    records: &[InputRecord],
    runs: &[Vec<Duration>],
    paths: &[&'static str],
) -> Vec<Row> {
    let base = median(&runs[0]).as_secs_f64();
    runs.iter()
        .zip(paths)
        .map(|(variant, path)| {
            let secs = median(variant).as_secs_f64();
            Row {
                sink,
                path,
                barrier_every: every,
                records: records.len(),
                records_per_s: records.len() as f64 / secs,
                ratio: base / secs,
            }
        })
        .collect()
}

/// How long `work` takes.
pub fn timed(work: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    work()?;
    Ok(start.elapsed())
}
