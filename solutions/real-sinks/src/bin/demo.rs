//! `demo`: the crash-test pipeline and its kill harness in one binary.
//!
//! - `demo run --dir DIR …` is the pipeline (one run; the harness starts it again and again);
//! - `demo [crash] [--sink file|xa|upsert] [--kills N] …` kills it with SIGKILL at seeded
//!   random moments, restarts it until its input is done, and verifies exactly-once;
//! - `demo soak [--kills N] [--budget-secs S] [--sinks file,xa,upsert]` does that per sink
//!   and prints the figures.
//!
//! The PostgreSQL sinks read their connection string from `BYO_PG` (`just pg` starts a
//! throwaway server and prints it).

use std::io::{Write, stdout};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use real_sinks::cli::Flags;
use real_sinks::crash::{self, CrashPlan, CrashReport};
use real_sinks::job::{JobConfig, SinkKind, run_with};

const JOB_FLAGS: [&str; 7] = [
    "job",
    "sink",
    "records",
    "parallelism",
    "barrier-every",
    "lag",
    "seed",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => pipeline(&args[1..]),
        Some("crash") => crash_test(&args[1..]),
        Some("soak") => soak(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!(
                "usage: demo [crash] [--sink file|xa|upsert] [--kills N] [--records N] [--seed S]\n       demo soak [--kills N] [--budget-secs S] [--sinks file,xa,upsert]\n       demo run --dir DIR [--sink …] (one run of the pipeline)"
            );
            Ok(())
        }
        _ => crash_test(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn job_config(flags: &Flags, default_job: &str) -> Result<JobConfig> {
    Ok(JobConfig {
        job: flags.text("job").unwrap_or(default_job).to_owned(),
        sink: flags.get("sink", SinkKind::File)?,
        records: flags.get("records", 3000)?,
        parallelism: flags.get("parallelism", 2)?,
        barrier_every: flags.get("barrier-every", 50)?,
        lag: flags.get("lag", 1)?,
        seed: flags.get("seed", 8)?,
    })
}

fn postgres() -> Option<String> {
    std::env::var("BYO_PG").ok().filter(|s| !s.is_empty())
}

/// One run of the pipeline.
fn pipeline(args: &[String]) -> Result<()> {
    let mut known = JOB_FLAGS.to_vec();
    known.push("dir");
    let flags = Flags::parse(args, &known)?;
    let dir = PathBuf::from(flags.text("dir").context("run needs --dir DIR")?);
    let config = job_config(&flags, "demo")?;
    run_with(&dir, &config, postgres().as_deref(), &mut stdout().lock())?;
    Ok(())
}

fn plan(flags: &Flags, config: JobConfig, kills: u64) -> Result<CrashPlan> {
    let root = match flags.text("root") {
        Some(root) => PathBuf::from(root),
        None => std::env::temp_dir().join(format!("real-sinks-demo-{}", std::process::id())),
    };
    let plan = CrashPlan {
        exe: std::env::current_exe()?,
        root,
        config,
        kills: flags.get("kills", kills)?,
        seed: flags.get("kill-seed", 2026)?,
        delay_ms: (
            flags.get("min-delay-ms", 2)?,
            flags.get("max-delay-ms", 120)?,
        ),
        budget: Duration::from_secs(flags.get("budget-secs", 300)?),
        postgres: postgres(),
        verbose: flags.get("verbose", true)?,
    };
    if plan.delay_ms.0 > plan.delay_ms.1 {
        anyhow::bail!("--min-delay-ms must not exceed --max-delay-ms");
    }
    if plan.config.sink.needs_postgres() && plan.postgres.is_none() {
        anyhow::bail!(
            "--sink {} needs PostgreSQL: run `just pg` and export BYO_PG",
            plan.config.sink
        );
    }
    Ok(plan)
}

const HARNESS_FLAGS: [&str; 7] = [
    "kills",
    "kill-seed",
    "min-delay-ms",
    "max-delay-ms",
    "budget-secs",
    "root",
    "verbose",
];

/// Kills and restarts the pipeline until its input is done, then verifies it.
fn crash_test(args: &[String]) -> Result<()> {
    let known: Vec<&str> = JOB_FLAGS.iter().chain(&HARNESS_FLAGS).copied().collect();
    let flags = Flags::parse(args, &known)?;
    let config = job_config(&flags, &format!("demo-{}", std::process::id()))?;
    config.validate()?;
    let plan = plan(&flags, config, 12)?;
    println!(
        "crash demo: {} sink, {} records, parallelism {}, a barrier every {} records, \
         notifications {} checkpoint(s) late; SIGKILL {} time(s) at random moments",
        plan.config.sink,
        plan.config.records,
        plan.config.parallelism,
        plan.config.barrier_every,
        plan.config.lag,
        plan.kills
    );
    let report = crash::run(&plan, &mut stdout().lock())?;
    summary(plan.config.sink, &report)?;
    let _ = std::fs::remove_dir(&plan.root);
    Ok(())
}

fn summary(sink: SinkKind, report: &CrashReport) -> Result<()> {
    writeln!(
        stdout(),
        "VERIFIED {sink}: {} kills, {} restarts, {} job(s), {} records {}, no partial \
         output at any kill, {} staged/prepared leftovers found at kills and all repaired, \
         nothing left at the end ({:.1} s)",
        report.kills,
        report.restarts,
        report.rounds,
        report.records,
        if sink == SinkKind::Upsert {
            "converged to the defined table"
        } else {
            "exactly once"
        },
        report.leftovers,
        report.elapsed.as_secs_f64()
    )?;
    Ok(())
}

/// The soak: the crash test per sink, with many kills, bounded in time.
fn soak(args: &[String]) -> Result<()> {
    let mut known: Vec<&str> = JOB_FLAGS.iter().chain(&HARNESS_FLAGS).copied().collect();
    known.push("sinks");
    let flags = Flags::parse(args, &known)?;
    let sinks = flags.text("sinks").unwrap_or("file,xa,upsert");
    let mut figures = Vec::new();
    for sink in sinks.split(',') {
        let sink: SinkKind = sink.parse()?;
        if sink.needs_postgres() && postgres().is_none() {
            println!("SKIPPED {sink}: BYO_PG is unset (run `just pg`)");
            continue;
        }
        let mut config = job_config(&flags, &format!("soak-{}", std::process::id()))?;
        config.sink = sink;
        config.job = format!("{}-{sink}", config.job);
        let mut plan = plan(&flags, config, 200)?;
        plan.verbose = flags.get("verbose", false)?;
        let report = crash::run(&plan, &mut std::io::sink())?;
        summary(sink, &report)?;
        figures.push((sink, report));
        let _ = std::fs::remove_dir(&plan.root);
    }
    println!(
        "\nsoak figures:\n| sink | kills | restarts | jobs | records verified | leftovers repaired | seconds |\n|---|---|---|---|---|---|---|"
    );
    for (sink, r) in figures {
        println!(
            "| {sink} | {} | {} | {} | {} | {} | {:.1} |",
            r.kills,
            r.restarts,
            r.rounds,
            r.records,
            r.leftovers,
            r.elapsed.as_secs_f64()
        );
    }
    Ok(())
}
