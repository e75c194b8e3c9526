//! `bench`: throughput of the real sinks against the plain way of writing the same data
//! with the same durability points, measured side by side in one run (not a timed test:
//! the figures depend on the disk and the server; the ratios are what to read).
//!
//! | sink | plain | minimal | verbs | framework | reference |
//! |---|---|---|---|---|---|
//! | file | one buffered file, an fsync per checkpoint | the protocol's bytes, fsyncs and renames, nothing else | the sink alone | through the committer base | |
//! | xa | batched inserts, one plain transaction per checkpoint | | the sink alone | through the base | |
//! | upsert | netted upserts, one plain transaction per checkpoint | | the sink alone | through the base | |
//! | memory | `records.to_vec()` | stage 08's `TransactionalSink` alone | the stage-08 adopter (`TwoPhaseAdopter` over `TwoPhaseSystem`) alone | the adopter through the base | stage 08's `run_exactly_once_sink`, commit lag 1 |
//!
//! Each path runs `--repeat` times, interleaved so drift hits all alike; the median
//! counts. `--json` prints one JSON object per row instead of the table.

mod drive;
mod file;
mod memory;
mod pg;
mod upsert;

use std::fs;
use std::io::{Write, stdout};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Parser;
use real_sinks::cli::{BenchCli, BenchSink};
use real_sinks::job::{InputRecord, generate};
use real_sinks::pg::{connect, lock, shared};
use serde::Serialize;

/// One measured path: the JSON line `bench --json` prints.
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

/// One path of a sink (`plain`, `verbs`, …): runs the input once (its `i`th repetition) and says how long it took.
type Variant<'a> = (&'static str, Box<dyn FnMut(usize) -> Result<Duration> + 'a>);

fn main() -> Result<()> {
    let cli = BenchCli::parse();
    let repeat = usize::try_from(cli.repeat)?;
    let wants = |sink| cli.sinks.contains(&sink);
    let external = [BenchSink::File, BenchSink::Xa, BenchSink::Upsert];
    // Only the memory rows: no need to make (and hold) the payloads.
    let records = if external.into_iter().any(wants) {
        generate(cli.records, 8)
    } else {
        Vec::new()
    };
    let seqs: Vec<u64> = if wants(BenchSink::Memory) {
        (0..cli.memory_records).collect()
    } else {
        Vec::new()
    };
    let root = std::env::temp_dir().join(format!("real-sinks-bench-{}", std::process::id()));
    let postgres = std::env::var("BYO_PG").ok().filter(|s| !s.is_empty());
    let job = |path: &str, every: u64, i: usize| {
        format!("bench-{}-{path}-{every}-{i}", std::process::id())
    };
    let mut rows = Vec::new();
    for &every in &cli.barrier_every {
        for &sink in &cli.sinks {
            let paths: Vec<Variant<'_>> = match (sink, &postgres) {
                (BenchSink::File, _) => file_paths(&root, &records, every),
                (BenchSink::Memory, _) => vec![
                    ("plain", Box::new(|_| memory::to_vec(&seqs))),
                    (
                        "minimal",
                        Box::new(|_| memory::learner_sink_alone(&seqs, every)),
                    ),
                    ("verbs", Box::new(|_| memory::adopter_alone(&seqs, every))),
                    (
                        "framework",
                        Box::new(|_| memory::sink_operator(&seqs, every)),
                    ),
                    ("reference", Box::new(|_| memory::reference(&seqs, every))),
                ],
                (BenchSink::Xa, Some(pg)) => {
                    let control = shared(connect(pg)?);
                    let records = &records;
                    vec![
                        (
                            "plain",
                            Box::new(move |i| {
                                pg::plain_inserts(pg, &job("plain", every, i), records, every)
                            }),
                        ),
                        (
                            "verbs",
                            Box::new({
                                let control = control.clone();
                                move |i| {
                                    pg::xa_alone(
                                        pg,
                                        &control,
                                        &job("verbs", every, i),
                                        records,
                                        every,
                                    )
                                }
                            }),
                        ),
                        (
                            "framework",
                            Box::new(move |i| {
                                pg::xa_operator(pg, &control, &job("op", every, i), records, every)
                            }),
                        ),
                    ]
                }
                (BenchSink::Upsert, Some(pg)) => {
                    let records = &records;
                    vec![
                        (
                            "plain",
                            Box::new(move |i| {
                                upsert::plain_upserts(pg, &job("plain", every, i), records, every)
                            }),
                        ),
                        (
                            "verbs",
                            Box::new(move |i| {
                                upsert::upsert_alone(pg, &job("verbs", every, i), records, every)
                            }),
                        ),
                        (
                            "framework",
                            Box::new(move |i| {
                                upsert::upsert_operator(pg, &job("op", every, i), records, every)
                            }),
                        ),
                    ]
                }
                (BenchSink::Xa | BenchSink::Upsert, None) => continue,
            };
            let count = match sink {
                BenchSink::Memory => seqs.len(),
                BenchSink::File | BenchSink::Xa | BenchSink::Upsert => records.len(),
            };
            rows.extend(measure(sink.name(), every, count, repeat, paths)?);
        }
    }
    let _ = fs::remove_dir_all(&root);
    if let Some(pg) = postgres
        .as_deref()
        .filter(|_| external[1..].iter().any(|&s| wants(s)))
    {
        clean_up(pg)?;
    }
    let mut out = stdout().lock();
    if cli.json {
        for row in &rows {
            writeln!(out, "{}", serde_json::to_string(row)?)?;
        }
        return Ok(());
    }
    print_table(&mut out, &rows, repeat)?;
    if postgres.is_none() && (wants(BenchSink::Xa) || wants(BenchSink::Upsert)) {
        writeln!(
            out,
            "(PostgreSQL rows skipped: BYO_PG is unset; `just pg` starts a server)"
        )?;
    }
    Ok(())
}

/// The file sink's paths, each in a folder of its own under `root`.
fn file_paths<'a>(root: &'a Path, records: &'a [InputRecord], every: u64) -> Vec<Variant<'a>> {
    let dir = move |path: &str, i: usize| root.join(format!("file-{every}-{i}-{path}"));
    let cleaned = move |path: &'static str,
                        run: fn(&Path, &[InputRecord], u64) -> Result<Duration>| {
        Box::new(move |i| {
            let dir = dir(path, i);
            let took = run(&dir, records, every)?;
            fs::remove_dir_all(&dir)?;
            Ok(took)
        }) as Box<dyn FnMut(usize) -> Result<Duration> + 'a>
    };
    vec![
        ("plain", cleaned("plain", file::raw_file)),
        ("minimal", cleaned("minimal", file::minimal_protocol)),
        ("verbs", cleaned("verbs", file::file_sink_alone)),
        ("framework", cleaned("framework", file::file_sink_operator)),
    ]
}

/// Runs every path `repeat` times, interleaved, and makes the rows of their medians.
fn measure(
    sink: &'static str,
    every: u64,
    records: usize,
    repeat: usize,
    mut paths: Vec<Variant<'_>>,
) -> Result<Vec<Row>> {
    let mut runs = vec![Vec::new(); paths.len()];
    for i in 0..repeat {
        for (times, (_, run)) in runs.iter_mut().zip(&mut paths) {
            times.push(run(i)?);
        }
    }
    // The first path is `plain`, the ratios' base.
    let base = median(&runs[0]).as_secs_f64();
    Ok(paths
        .iter()
        .zip(&runs)
        .map(|((path, _), times)| {
            let secs = median(times).as_secs_f64();
            Row {
                sink,
                path,
                barrier_every: every,
                records,
                records_per_s: records as f64 / secs,
                ratio: base / secs,
            }
        })
        .collect())
}

fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn print_table(out: &mut impl Write, rows: &[Row], repeat: usize) -> Result<()> {
    writeln!(out, "median of {repeat} interleaved runs each\n")?;
    writeln!(
        out,
        "| sink | barrier every | records | path | records/s | ratio to plain |\n|---|---|---|---|---|---|"
    )?;
    for row in rows {
        writeln!(
            out,
            "| {} | {} | {} | {} | {:.0} | {:.2} |",
            row.sink, row.barrier_every, row.records, row.path, row.records_per_s, row.ratio
        )?;
    }
    writeln!(
        out,
        "\nplain: the same data written the plain way with the same durability points (one \
         fsync or COMMIT per checkpoint; for memory, records.to_vec()); minimal: the file \
         protocol's bytes, fsyncs and renames and nothing else (for memory, stage 08's \
         TransactionalSink alone); verbs: the sink's committer verbs alone; framework: through the committer base; reference: stage 08's \
         run_exactly_once_sink"
    )?;
    Ok(())
}

/// Deletes the rows every bench job of this process wrote.
fn clean_up(pg: &str) -> Result<()> {
    let control = shared(connect(pg)?);
    let mut client = lock(&control)?;
    let jobs = format!("bench-{}-%", std::process::id());
    for (table, job) in [
        ("xo_xa_rows", "job"),
        ("xo_committed", "gid"),
        ("xo_upsert_rows", "job"),
        ("xo_upsert_flushed", "job"),
        ("xo_fence", "job"),
    ] {
        client.execute(
            &format!("DELETE FROM {table} WHERE {job} LIKE $1"),
            &[&jobs],
        )?;
    }
    Ok(())
}

/// How long `work` takes.
pub fn timed(work: impl FnOnce() -> Result<()>) -> Result<Duration> {
    let start = Instant::now();
    work()?;
    Ok(start.elapsed())
}
