//! `demo`: the crash-test pipeline and its kill harness in one binary.
//!
//! - `demo run --dir DIR …` is the pipeline (one run; the harness starts it again and again);
//! - `demo [crash] [--sink file|xa|upsert] [--kills N] …` kills it with SIGKILL where the
//!   run's phase markers say it is (three kills in four) or at a seeded random moment, restarts it until its input is done, and verifies exactly-once;
//! - `demo soak [--kills N] [--budget-secs S] [--sinks file,xa,upsert]` does that per sink
//!   and prints the figures;
//! - `demo doctor --dir DIR … [--sweep | --release]` lists what the job left at its
//!   destination and resolves it when asked.
//!
//! The PostgreSQL sinks read their connection string from `BYO_PG` (`just pg` starts a
//! throwaway server and prints it).

use std::io::{Write, stdout};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Parser;
use committer::{CommitPolicy, OnLostHandle};
use real_sinks::cli::{
    CrashArgs, DemoCli, DemoCommand, DoctorArgs, HarnessArgs, RunArgs, SoakArgs,
};
use real_sinks::crash::{self, CrashPlan, CrashReport, Landing};
use real_sinks::doctor::Remedy;
use real_sinks::job::{JobConfig, RunOptions, SinkKind, run_with_options};

fn main() -> ExitCode {
    let cli = DemoCli::parse();
    let result = match cli.command {
        Some(DemoCommand::Run(args)) => pipeline(&args),
        Some(DemoCommand::Crash(args)) => crash_test(&args),
        Some(DemoCommand::Soak(args)) => soak(&args),
        Some(DemoCommand::Doctor(args)) => doctor(&args),
        None => crash_test(&cli.crash),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn postgres() -> Option<String> {
    std::env::var("BYO_PG").ok().filter(|s| !s.is_empty())
}

/// One run of the pipeline.
fn pipeline(args: &RunArgs) -> Result<()> {
    let config = args.job.config("demo");
    let on_lost = if args.abandon_lost_handles {
        OnLostHandle::Abandon
    } else {
        OnLostHandle::Fail
    };
    let options = RunOptions {
        policy: CommitPolicy {
            on_lost,
            ..CommitPolicy::default()
        },
        phase_markers: args.phase_markers,
        pg_deadline: Some(Duration::from_secs(args.pg_deadline_secs)),
        ..RunOptions::default()
    };
    run_with_options(
        &args.dir,
        &config,
        postgres().as_deref(),
        options,
        &mut stdout().lock(),
    )?;
    Ok(())
}

/// What the job left at its destination, resolved as asked.
fn doctor(args: &DoctorArgs) -> Result<()> {
    let remedy = match (args.sweep, args.release) {
        (true, _) => Remedy::Sweep,
        (false, true) => Remedy::Release,
        (false, false) => Remedy::List,
    };
    let config = args.job.config("demo");
    let dir = &args.dir;
    real_sinks::doctor::doctor(
        dir,
        &config,
        postgres().as_deref(),
        remedy,
        &mut stdout().lock(),
    )?;
    Ok(())
}

/// The kill plan for `config`; `kills` and `verbose` are the command's defaults.
fn plan(harness: &HarnessArgs, config: JobConfig, kills: u64, verbose: bool) -> Result<CrashPlan> {
    let root = harness.root.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("real-sinks-demo-{}", std::process::id()))
    });
    let plan = CrashPlan {
        exe: std::env::current_exe()?,
        root,
        config,
        kills: harness.kills.unwrap_or(kills),
        seed: harness.kill_seed,
        delay_ms: (harness.min_delay_ms, harness.max_delay_ms),
        budget: Duration::from_secs(harness.budget_secs),
        postgres: postgres(),
        verbose: harness.verbose.unwrap_or(verbose),
        rescale: harness.rescale.clone(),
        min_landings: harness.min_landings,
    };
    for &parallelism in &plan.rescale {
        JobConfig {
            parallelism,
            ..plan.config.clone()
        }
        .validate()
        .context("--rescale")?;
    }
    if plan.delay_ms.0 > plan.delay_ms.1 {
        bail!("--min-delay-ms must not exceed --max-delay-ms");
    }
    if plan.config.sink.needs_postgres() && plan.postgres.is_none() {
        bail!(
            "--sink {} needs PostgreSQL: run `just pg` and export BYO_PG",
            plan.config.sink
        );
    }
    Ok(plan)
}

/// Kills and restarts the pipeline until its input is done, then verifies it.
fn crash_test(args: &CrashArgs) -> Result<()> {
    let config = args.job.config(&format!("demo-{}", std::process::id()));
    config.validate()?;
    let plan = plan(&args.harness, config, 12, true)?;
    println!(
        "crash demo: {} sink, {} records, parallelism {}, a barrier every {} records, \
         notifications {} checkpoint(s) late; SIGKILL {} time(s) at aimed and random moments",
        plan.config.sink,
        plan.config.records,
        if plan.rescale.is_empty() {
            plan.config.parallelism.to_string()
        } else {
            format!("{:?} in turn (rescaled at every restart)", plan.rescale)
        },
        plan.config.barrier_every,
        plan.config.commit_lag,
        plan.kills
    );
    let report = crash::run(&plan, &mut stdout().lock())?;
    summary(plan.config.sink, &report, plan.min_landings)?;
    let _ = std::fs::remove_dir(&plan.root);
    Ok(())
}

fn summary(sink: SinkKind, report: &CrashReport, min_landings: u64) -> Result<()> {
    let hits = |landing: &Landing| report.landings.get(landing).copied().unwrap_or(0);
    let mut out = stdout().lock();
    writeln!(out, "where the {} kills landed:", report.kills)?;
    for (landing, count) in &report.landings {
        writeln!(out, "  {count:>5}  {landing}")?;
    }
    let missed: Vec<String> = Landing::MEASURED
        .iter()
        .filter(|l| hits(l) < min_landings)
        .map(|l| format!("{l} ({} of {min_landings})", hits(l)))
        .collect();
    if !missed.is_empty() {
        bail!(
            "NOT VERIFIED {sink}: the output was right, but too few kills landed {}: \
             raise --kills or widen --min-delay-ms/--max-delay-ms",
            missed.join(", ")
        );
    }
    writeln!(
        out,
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
fn soak(args: &SoakArgs) -> Result<()> {
    let mut figures = Vec::new();
    for &sink in &args.sinks {
        if sink.needs_postgres() && postgres().is_none() {
            println!("SKIPPED {sink}: BYO_PG is unset (run `just pg`)");
            continue;
        }
        let mut config = args.job.config(&format!("soak-{}", std::process::id()));
        config.sink = sink;
        config.job = format!("{}-{sink}", config.job);
        let plan = plan(&args.harness, config, 200, false)?;
        let report = crash::run(&plan, &mut std::io::sink())?;
        summary(sink, &report, plan.min_landings)?;
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
