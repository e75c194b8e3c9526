//! The binaries' command lines, declared with `clap` (derive): `demo` with its `run`,
//! `crash`, `soak` and `doctor` subcommands, and `bench` (in `bench.rs`). Usage, `--help` per subcommand and typo
//! suggestions are generated from these declarations, so they cannot drift from them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::job::{JobConfig, SinkKind};

mod bench;

pub use bench::{BenchCli, BenchSink};

/// Kill the real-sink pipeline with SIGKILL at aimed and random moments, restart it until its
/// input is done, and verify exactly-once. Without a subcommand, `crash`.
///
/// The PostgreSQL sinks read their connection string from `BYO_PG` (`just pg` starts a
/// throwaway server and prints it).
#[derive(Debug, Parser)]
#[command(name = "demo", args_conflicts_with_subcommands = true)]
pub struct DemoCli {
    /// What to do; `crash` when omitted.
    #[command(subcommand)]
    pub command: Option<DemoCommand>,
    /// The flags of `crash`, when no subcommand is given.
    #[command(flatten)]
    pub crash: CrashArgs,
}

/// The subcommands of `demo`.
#[derive(Debug, Subcommand)]
pub enum DemoCommand {
    /// One run of the pipeline in DIR (the harness starts it again and again).
    Run(RunArgs),
    /// Kill and restart the pipeline until its input is done, then verify it.
    Crash(CrashArgs),
    /// The crash test per sink, with many kills, bounded in time; prints the figures.
    Soak(SoakArgs),
    /// List what the job in DIR left at its destination (prepared transactions, staged
    /// files) and, when asked, resolve it.
    Doctor(DoctorArgs),
}

/// `demo doctor`.
#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    /// The job's folder (for --release of a history whose folder is gone, any folder).
    #[arg(long)]
    pub dir: PathBuf,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// Resolve every leftover as the job's next run would at its open: commit what the
    /// folder's latest checkpoint holds, roll back the orphans. Needs the folder whose
    /// history the destination belongs to.
    #[arg(long, conflicts_with = "release")]
    pub sweep: bool,
    /// End the job's history at its destination: roll back or delete every leftover of
    /// the job's name (uncommitted records of completed checkpoints are lost) and drop
    /// the destination's claim, so that another folder may begin the job.
    #[arg(long)]
    pub release: bool,
}

/// The job a run, a crash test or a soak runs.
#[derive(Debug, Clone, Args)]
pub struct JobArgs {
    /// The job's name: a prefix of its files, global ids and rows [default: per command].
    #[arg(long)]
    pub job: Option<String>,
    /// The sink to write through.
    #[arg(long, value_enum, default_value_t = SinkKind::File)]
    pub sink: SinkKind,
    /// How many input records.
    #[arg(long, default_value_t = 3000)]
    pub records: u64,
    /// How many sink subtasks.
    #[arg(long, default_value_t = 2)]
    pub parallelism: u32,
    /// A barrier after every this many records.
    #[arg(long, default_value_t = 50)]
    pub barrier_every: u64,
    /// The commit lag: a checkpoint's notification arrives this many checkpoints later.
    #[arg(long = "lag", value_name = "COMMIT_LAG", default_value_t = 1)]
    pub commit_lag: u64,
    /// The input's seed.
    #[arg(long, default_value_t = 8)]
    pub seed: u64,
}

impl JobArgs {
    /// The job's configuration, named `default_job` unless `--job` says otherwise.
    pub fn config(&self, default_job: &str) -> JobConfig {
        JobConfig {
            job: self.job.clone().unwrap_or_else(|| default_job.to_owned()),
            sink: self.sink,
            records: self.records,
            parallelism: self.parallelism,
            barrier_every: self.barrier_every,
            commit_lag: self.commit_lag,
            seed: self.seed,
        }
    }
}

/// `demo run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The job's folder: its checkpoints, its configuration and (file sink) its output.
    #[arg(long)]
    pub dir: PathBuf,
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// The operator's way out of a lost (expired, or rolled back by hand) handle that
    /// fails recovery at every restart: accept the loss of its records, report it, and
    /// go on. Use once, then re-ingest the lost checkpoint's records.
    #[arg(long)]
    pub abandon_lost_handles: bool,
    /// Print `phase: …` lines to stderr as the run enters each phase, so the kill
    /// harness can tell where each kill landed.
    #[arg(long)]
    pub phase_markers: bool,
    /// The PostgreSQL sinks' client-side deadline: when no call returns for this many
    /// seconds (a stopped or hung server), the run stops with an error, as if killed.
    /// Above the session's 30 s statement_timeout, so a slow statement is the server's
    /// to cancel.
    #[arg(long, value_name = "SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub pg_deadline_secs: u64,
}

/// How the kill harness kills.
#[derive(Debug, Clone, Args)]
pub struct HarnessArgs {
    /// How many kills to aim for, over all rounds [default: 12, or 200 for soak].
    #[arg(long)]
    pub kills: Option<u64>,
    /// The seed of the kill moments.
    #[arg(long, default_value_t = 2026)]
    pub kill_seed: u64,
    /// Each run is killed at least this many milliseconds after its start.
    #[arg(long, default_value_t = 2)]
    pub min_delay_ms: u64,
    /// Each run is killed at most this many milliseconds after its start.
    #[arg(long, default_value_t = 120)]
    pub max_delay_ms: u64,
    /// No new kill after this many seconds; the current job then runs to its end.
    #[arg(long, default_value_t = 300)]
    pub budget_secs: u64,
    /// Where job folders go [default: a folder in the system's temporary directory].
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// Whether to print a line per run [default: true, or false for soak].
    #[arg(long, value_name = "BOOL")]
    pub verbose: Option<bool>,
    /// Rescale at every restart: the parallelism of each run in turn, cycling, e.g.
    /// `--rescale 3,2,4` [default: no rescale].
    #[arg(long, value_delimiter = ',')]
    pub rescale: Vec<u32>,
    /// VERIFIED needs at least this many kills in each place a kill can land (before
    /// the first checkpoint, mid-epoch, between pre-commit and commit, during recovery,
    /// during the orphan sweep).
    #[arg(long, default_value_t = 1)]
    pub min_landings: u64,
}

/// `demo crash`, and `demo` without a subcommand.
#[derive(Debug, Clone, Args)]
pub struct CrashArgs {
    /// The job.
    #[command(flatten)]
    pub job: JobArgs,
    /// The harness.
    #[command(flatten)]
    pub harness: HarnessArgs,
}

/// `demo soak`.
#[derive(Debug, Clone, Args)]
pub struct SoakArgs {
    /// The sinks to soak, in order (the PostgreSQL ones are skipped without `BYO_PG`).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "file,xa,upsert"
    )]
    pub sinks: Vec<SinkKind>,
    /// The job (its `--sink` is replaced by each of `--sinks`).
    #[command(flatten)]
    pub job: JobArgs,
    /// The harness.
    #[command(flatten)]
    pub harness: HarnessArgs,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    use super::*;

    #[test]
    fn the_declarations_are_consistent() {
        DemoCli::command().debug_assert();
        BenchCli::command().debug_assert();
    }

    #[test]
    fn demo_without_a_subcommand_is_the_crash_test() {
        let cli = DemoCli::try_parse_from(["demo", "--sink", "xa", "--kills", "30"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.crash.job.sink, SinkKind::Xa);
        assert_eq!(cli.crash.harness.kills, Some(30));
    }

    #[test]
    fn the_harness_command_line_parses_as_a_run() {
        let args = [
            "demo",
            "run",
            "--dir",
            "d",
            "--job",
            "j",
            "--sink",
            "upsert",
            "--records",
            "9",
            "--parallelism",
            "3",
            "--barrier-every",
            "4",
            "--lag",
            "2",
            "--seed",
            "5",
        ];
        let Some(DemoCommand::Run(run)) = DemoCli::try_parse_from(args).unwrap().command else {
            panic!("not a run");
        };
        let config = run.job.config("unused");
        assert_eq!((config.job.as_str(), config.commit_lag), ("j", 2));
        assert_eq!(
            (config.records, config.parallelism, config.barrier_every),
            (9, 3, 4)
        );
    }

    #[test]
    fn doctor_takes_a_folder_a_job_and_one_remedy() {
        let args = ["demo", "doctor", "--dir", "d", "--sink", "xa", "--sweep"];
        let Some(DemoCommand::Doctor(doctor)) = DemoCli::try_parse_from(args).unwrap().command
        else {
            panic!("not a doctor");
        };
        assert!(doctor.sweep && !doctor.release);
        assert_eq!(doctor.job.sink, SinkKind::Xa);
        let both = ["demo", "doctor", "--dir", "d", "--sweep", "--release"];
        assert!(DemoCli::try_parse_from(both).is_err());
    }

    #[test]
    fn a_typo_is_refused_with_a_suggestion() {
        let error = DemoCli::try_parse_from(["demo", "--barier-every", "5"]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::UnknownArgument);
        assert!(error.to_string().contains("--barrier-every"), "{error}");
        let error = DemoCli::try_parse_from(["demo", "sok"]).unwrap_err();
        assert!(error.to_string().contains("soak"), "{error}");
    }

    #[test]
    fn bench_refuses_a_zero_interval_naming_the_flag() {
        let error = BenchCli::try_parse_from(["bench", "--barrier-every", "100,0"]).unwrap_err();
        assert!(error.to_string().contains("--barrier-every"), "{error}");
    }
}
