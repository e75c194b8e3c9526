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

mod drive;
mod file;
mod pg;

use std::fs;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Parser;
use real_sinks::cli::BenchCli;
use real_sinks::job::{InputRecord, generate};
use real_sinks::pg::{connect, shared};

use file::{file_sink_alone, file_sink_operator, raw_file};
use pg::{plain_inserts, xa_alone, xa_operator};

fn main() -> Result<()> {
    let cli = BenchCli::parse();
    let records = generate(cli.records, 8);
    let repeat = usize::try_from(cli.repeat)?;
    let intervals = cli.barrier_every;
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

/// How long `work` takes.
pub fn timed(work: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    work()?;
    Ok(start.elapsed())
}
