//! The kill loop: start the pipeline, SIGKILL it at an aimed or a seeded random moment,
//! check the output, restart, until the input is done; then check exactly-once.
//!
//! Three kills in four are aimed ([`super::aim`]): at the least-hit place a kill can
//! land that the run can reach, once its markers say it got there. The fourth comes
//! after a random delay, so kills also land where no marker points.
//!
//! Jobs are run in rounds: when a job finishes before the wanted number of kills, the
//! next round starts a fresh job, so the kill count does not depend on how fast the
//! machine is. Every round is verified on its own.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::aim::{Aims, Kill};
use super::delays::AdaptiveDelays;
use super::landing::{Landing, MARKER};
use super::verify::Verifier;
use super::watch::{Ended, watch};
use crate::job::{JobConfig, SinkKind};
use crate::rng::Rng;

/// What the harness runs, and how hard it kills.
#[derive(Debug, Clone)]
pub struct CrashPlan {
    /// The pipeline binary (`demo`); it is run as `demo run --dir … …`.
    pub exe: PathBuf,
    /// Where job folders go.
    pub root: PathBuf,
    /// The job of round 0; round `r` runs it under the name `<job>-<r>`.
    pub config: JobConfig,
    /// How many kills to aim for, over all rounds (up to 4 times as many while some
    /// measured landing has fewer than `min_landings`).
    pub kills: u64,
    /// The seed of the kill moments.
    pub seed: u64,
    /// An unaimed kill comes this many milliseconds after the run's start, at random
    /// (a delay chooser that widens its range while some place was never hit).
    pub delay_ms: (u64, u64),
    /// No new kill after this long; the current job is then run to its end.
    pub budget: Duration,
    /// The connection string for the PostgreSQL sinks.
    pub postgres: Option<String>,
    /// Whether to print a line per run.
    pub verbose: bool,
    /// The parallelism of each run in turn, cycling (empty: the job's throughout): every
    /// restart then rescales, and restore must hand each pending handle and each orphan
    /// to exactly one subtask of the new parallelism.
    pub rescale: Vec<u32>,
    /// How many kills each measured [`Landing`] needs before the run may say VERIFIED.
    pub min_landings: u64,
}

/// What a crash run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrashReport {
    /// SIGKILLs sent.
    pub kills: u64,
    /// Runs started after a kill.
    pub restarts: u64,
    /// Jobs run to their end and verified exactly-once.
    pub rounds: u64,
    /// Records verified, over all rounds.
    pub records: u64,
    /// Staged files or prepared transactions found right after the kills, summed: each
    /// one is repaired (committed by recovery or swept as an orphan) by a later run.
    pub leftovers: u64,
    /// Where the kills landed, per category.
    pub landings: BTreeMap<Landing, u64>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs `plan`, printing progress to `out`.
///
/// # Errors
/// When a run fails on its own (not by our kill), or any check fails: the message
/// names the broken invariant and the job folder is kept for inspection.
pub fn run(plan: &CrashPlan, out: &mut impl Write) -> Result<CrashReport> {
    let start = Instant::now();
    let mut rng = Rng::new(plan.seed);
    let mut delays = AdaptiveDelays::new(plan.delay_ms.0, plan.delay_ms.1);
    let mut aims = Aims::new();
    let mut report = CrashReport::default();
    let mut round = 0;
    // Past the planned kills, the harness goes on (up to 4 times as many, within the
    // budget) while some place a kill can land has been hit too rarely.
    let wants_kill = |report: &CrashReport, delays: &AdaptiveDelays| {
        let counts = delays.counts();
        let covered = Landing::MEASURED
            .iter()
            .all(|l| counts.get(l).copied().unwrap_or(0) >= plan.min_landings);
        let quota = if covered { plan.kills } else { plan.kills * 4 };
        report.kills < quota && start.elapsed() < plan.budget
    };
    while report.rounds == 0 || wants_kill(&report, &delays) {
        let mut config = plan.config.clone();
        config.job = format!("{}-{round}", plan.config.job);
        let dir = plan.root.join(&config.job);
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir)?;
        let mut verifier = Verifier::new(&dir, &config, plan.postgres.as_deref())?;
        verifier.purge()?;
        let mut runs = 0;
        loop {
            let killing = wants_kill(&report, &delays);
            let restores = !crate::job::checkpoint_files(&dir)?.is_empty();
            let kill = match (killing, report.kills % 4) {
                (false, _) => Kill::Never,
                (true, 3) => {
                    Kill::After(Duration::from_millis(delays.next(&mut rng, report.kills)))
                }
                (true, _) => aims.aim(&delays.counts(), plan.min_landings, restores, &mut rng),
            };
            let before = log_len(&dir);
            if !plan.rescale.is_empty() {
                config.parallelism = plan.rescale[runs % plan.rescale.len()];
            }
            let (mut child, stderr, log) = spawn(plan, &config, &dir)?;
            if runs > 0 {
                report.restarts += 1;
            }
            runs += 1;
            let ended = watch(&mut child, stderr, log, kill, restores, &mut aims);
            let log = run_log(&dir, before)?;
            let ended = ended.with_context(|| format!("job folder {}: {log}", dir.display()))?;
            let Ended::Killed(delay) = ended else {
                if plan.verbose {
                    writeln!(out, "  run {runs}: {log}")?;
                }
                break;
            };
            report.kills += 1;
            let landing = Landing::of_run(&run_text(&dir, before));
            delays.record(delay.as_millis() as u64, landing);
            let visible = verifier.at_kill().with_context(|| {
                format!("after kill {} (job folder {})", report.kills, dir.display())
            })?;
            let leftovers = verifier.leftovers()?;
            report.leftovers += leftovers as u64;
            if plan.verbose {
                writeln!(
                    out,
                    "  run {runs}: {log} -- SIGKILL after {} ms ({landing}); output intact, \
                     {visible} visible, {leftovers} staged/prepared left for the restart",
                    delay.as_millis()
                )?;
            }
        }
        verifier.at_end().with_context(|| {
            format!(
                "at the end of job {} (folder {})",
                config.job,
                dir.display()
            )
        })?;
        report.rounds += 1;
        report.records += config.records;
        let outcome = match config.sink {
            SinkKind::Upsert => "the table the input defines (effectively once)",
            _ => "every record exactly once",
        };
        writeln!(
            out,
            "{} sink, job {}: {} records, {outcome} after {} run(s); nothing staged or prepared left",
            config.sink, config.job, config.records, runs
        )?;
        verifier.purge()?;
        fs::remove_dir_all(&dir)?;
        round += 1;
    }
    report.landings = delays.counts();
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Starts one run, its stdout appended to the job's log; its stderr (the phase
/// markers) is returned piped, with the log to copy it into.
fn spawn(plan: &CrashPlan, config: &JobConfig, dir: &Path) -> Result<(Child, ChildStderr, File)> {
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("runs.log"))?;
    let mut command = Command::new(&plan.exe);
    command
        .arg("run")
        .arg("--phase-markers")
        .arg("--dir")
        .arg(dir)
        .args(["--job", &config.job])
        .args(["--sink", &config.sink.to_string()])
        .args(["--records", &config.records.to_string()])
        .args(["--parallelism", &config.parallelism.to_string()])
        .args(["--barrier-every", &config.barrier_every.to_string()])
        .args(["--lag", &config.commit_lag.to_string()])
        .args(["--seed", &config.seed.to_string()])
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(Stdio::piped());
    if let Some(conninfo) = &plan.postgres {
        command.env("BYO_PG", conninfo);
    }
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {}", plan.exe.display()))?;
    let stderr = child
        .stderr
        .take()
        .context("the run's stderr was not piped")?;
    Ok((child, stderr, log))
}

fn log_len(dir: &Path) -> u64 {
    fs::metadata(dir.join("runs.log")).map_or(0, |m| m.len())
}

/// What the latest run logged (from byte `from` of the log), markers included.
fn run_text(dir: &Path, from: u64) -> String {
    let log = fs::read(dir.join("runs.log")).unwrap_or_default();
    let start = usize::try_from(from).unwrap_or(usize::MAX).min(log.len());
    String::from_utf8_lossy(&log[start..]).into_owned()
}

/// What the latest run logged (from byte `from` of the log), on one line, without its
/// phase markers.
fn run_log(dir: &Path, from: u64) -> Result<String> {
    let text = run_text(dir, from);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(MARKER)).collect();
    if lines.is_empty() {
        return Ok("killed before it opened".into());
    }
    Ok(lines.join("; "))
}
