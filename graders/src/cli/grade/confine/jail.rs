//! Where a submission's code runs during `byo grade`: the sandbox policies for its builds
//! and its drivers, and the environment cargo gets (the check that the judge's side of
//! the build was left alone is [`super::judge_side`]).
//!
//! A build runs the compiler (trusted) over the submission's sources (not trusted: a
//! constant may never finish evaluating, `env!` may read a variable), so it sees the
//! workspace and the target folder writable, the rest of its slot read-only, the
//! toolchain read-only (of `$CARGO_HOME`
//! only what a build needs, [`super::cargo_home`]), and an environment cleared to what
//! cargo needs. A driver runs the submission's code, so it sees its own binary,
//! read-only, and nothing of the grading at all. Every sandbox has a process limit
//! ([`super::pids`]), and a submission's build a memory cap ([`super::memory`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::cli::dep_info::Records;
use crate::cli::grade::intake::record::{self, PublicIncludes};
use crate::cli::launcher::{Launcher, MemoryWatch};

use anyhow::Result;

use super::cargo_home::CargoHome;
use super::memory::BuildMemory;
use super::pids::ProcessLimit;
use crate::harness::sandbox::Sandbox;
use crate::harness::supervisor::{Confinement, Unconfined};

/// How a grading run confines submissions' code.
#[derive(Debug, Clone)]
pub enum Jail {
    /// In a sandbox hiding these paths (the checkout, `--out`, the submissions, `$HOME`).
    Sandboxed {
        /// Hidden from every build and driver.
        hidden: Vec<PathBuf>,
        /// `$CARGO_HOME`, hidden too, of which a build sees only what it needs.
        cargo_home: Option<CargoHome>,
        /// How many processes a sandbox may hold.
        processes: ProcessLimit,
        /// How much memory a submission's build may hold.
        memory: BuildMemory,
    },
    /// `--no-sandbox`: the instructor chose to run submissions' code unconfined (every
    /// report says so). Environments are still cleared and process groups still killed.
    Unconfined,
}

impl Jail {
    /// The sandbox for a grading run, after checking that one can be made here.
    ///
    /// # Errors
    /// When no sandbox can be made: what is missing and how to grade without one.
    pub fn sandboxed(root: &Path, out: &Path, submissions: &[PathBuf]) -> Result<Self> {
        Sandbox::check_available()?;
        let mut hidden = vec![absolute(root), absolute(out)];
        hidden.extend(submissions.iter().map(|s| absolute(s)));
        if let Some(home) = std::env::var_os("HOME") {
            hidden.push(absolute(Path::new(&home)));
        }
        let cargo_home = home_of("CARGO_HOME", ".cargo").map(CargoHome::at);
        hidden.extend(cargo_home.iter().map(|c| c.dir().to_path_buf()));
        let processes = ProcessLimit::detect();
        if let Some(why) = processes.missing() {
            eprintln!("grade: warning: {why}");
        }
        Ok(Jail::Sandboxed {
            hidden,
            cargo_home,
            processes,
            memory: BuildMemory::detect(),
        })
    }

    /// `command` confined by `confinement`, under the process limit of a sandbox of the
    /// slot whose target folder is `target` ([`ProcessLimit`]).
    fn limited(&self, target: &Path, confinement: &dyn Confinement, command: Command) -> Command {
        match self {
            Jail::Sandboxed { processes, .. } => {
                let sandboxed = confinement.confine(processes.inside(command));
                processes.around(&absolute(target), sandboxed)
            }
            Jail::Unconfined => confinement.confine(command),
        }
    }

    /// The memory cap of submissions' builds, when they are sandboxed.
    pub fn build_memory(&self) -> Option<&BuildMemory> {
        match self {
            Jail::Sandboxed { memory, .. } => Some(memory),
            Jail::Unconfined => None,
        }
    }

    /// Whether submissions' code runs in a sandbox.
    pub fn is_sandboxed(&self) -> bool {
        matches!(self, Jail::Sandboxed { .. })
    }

    fn sandbox(&self) -> Option<Sandbox> {
        let Jail::Sandboxed { hidden, .. } = self else {
            return None;
        };
        Some(hidden.iter().fold(Sandbox::new(), |s, h| s.hide(h)))
    }

    /// The confinement of a build of `workspace` into `target`: the toolchain readable,
    /// of `$CARGO_HOME` only what a build needs ([`CargoHome::for_build`]).
    pub fn for_build(&self, workspace: &Path, target: &Path) -> Box<dyn Confinement> {
        match (self.sandbox(), self) {
            (Some(sandbox), Jail::Sandboxed { cargo_home, .. }) => {
                let sandbox = match cargo_home {
                    Some(cargo_home) => cargo_home.for_build(sandbox),
                    None => sandbox,
                };
                let target = absolute(target);
                // The slot's other trees, read-only: cargo's record of a judge crate
                // built in the slot's other workspace names files there (the briefs the
                // graders include), and a build that cannot see them rebuilds the
                // graders over the judge's artifacts. They hold nothing this workspace
                // does not: the instructor's tree, with this submission laid over it.
                let slot = target.parent().map(Path::to_path_buf);
                let sandbox = home_of("RUSTUP_HOME", ".rustup")
                    .into_iter()
                    .chain(slot)
                    .fold(sandbox, |s, dir| s.readable(dir))
                    .writable(absolute(workspace))
                    .writable(target);
                Box::new(sandbox)
            }
            _ => Box::new(Unconfined),
        }
    }

    /// What cargo needs to be told that it can no longer read in the sandbox: the
    /// source replacement of `$CARGO_HOME/config.toml`.
    pub fn cargo_arguments(&self) -> Vec<String> {
        match self {
            Jail::Sandboxed {
                cargo_home: Some(cargo_home),
                ..
            } => cargo_home.config_arguments(),
            _ => Vec::new(),
        }
    }

    /// The confinement of a driver, the grade binary at `binary`.
    pub fn for_driver(&self, binary: &Path) -> Box<dyn Confinement> {
        match self.sandbox() {
            None => Box::new(Unconfined),
            Some(sandbox) => Box::new(sandbox.readable(absolute(binary))),
        }
    }
}

/// The launcher of a grading run: builds with cargo's environment cleared, in the jail,
/// under a time limit; drivers in the jail.
pub struct GradeLauncher<'a> {
    /// How submissions' code is confined.
    pub jail: &'a Jail,
    /// The grading workspace (writable to builds).
    pub workspace: &'a Path,
    /// The grading target folder (writable to builds).
    pub target: &'a Path,
    /// The longest one build may take.
    pub build_limit: Duration,
    /// What each stage's skeleton reads from outside its `src/`, which its build may too.
    pub public: &'a PublicIncludes,
    /// Whether builds are a submission's, under the memory cap ([`BuildMemory`]); the
    /// instructor's own build of a slot is not.
    pub submission: bool,
}

impl GradeLauncher<'_> {
    /// The memory cap of this launcher's builds, if they have one.
    fn memory(&self) -> Option<&BuildMemory> {
        self.jail.build_memory().filter(|_| self.submission)
    }
}

impl Launcher for GradeLauncher<'_> {
    fn build(&self, mut cargo: Command) -> Command {
        if self.jail.is_sandboxed() {
            let target = absolute(self.target);
            let toolchain = home_of("RUSTUP_HOME", ".rustup").unwrap_or_default();
            match super::rustc_jail::environment(&target, &toolchain) {
                Ok(variables) => {
                    cargo.envs(variables);
                }
                // Fail closed: a learner crate is never compiled outside its own sandbox.
                Err(e) => {
                    eprintln!("grade: {e:#}");
                    cargo.env("RUSTC_WORKSPACE_WRAPPER", "/nonexistent/byo-rustc-jail");
                }
            }
        }
        cargo_environment(&mut cargo);
        cargo.args(self.jail.cargo_arguments());
        let confinement = self.jail.for_build(self.workspace, self.target);
        let limited = self.jail.limited(self.target, confinement.as_ref(), cargo);
        match self.memory() {
            Some(memory) => memory.around(&absolute(self.target), limited),
            None => limited,
        }
    }

    fn driver(&self, driver: Command) -> Command {
        // The grade binary is the program, or an argument of the shell that applies the
        // memory cap: whichever lies in the grading target folder is what the driver may
        // read, and nothing else of the grading.
        let target = absolute(self.target);
        let binary = std::iter::once(driver.get_program())
            .chain(driver.get_args())
            .map(|word| absolute(Path::new(word)))
            .find(|path| path.starts_with(&target) && path.is_file());
        let confinement = self
            .jail
            .for_driver(binary.as_deref().unwrap_or(Path::new("/nonexistent")));
        self.jail.limited(self.target, confinement.as_ref(), driver)
    }

    fn death_signal(&self, status: std::process::ExitStatus) -> Option<i32> {
        // The same confinement as [`Launcher::driver`]'s: which files it can read does not
        // change how its status reports a signal.
        self.jail
            .for_driver(Path::new("/nonexistent"))
            .death_signal(status)
    }

    fn build_limit(&self) -> Option<Duration> {
        Some(self.build_limit)
    }

    fn build_memory(&self) -> Option<MemoryWatch> {
        self.memory().map(|memory| MemoryWatch {
            cap: super::memory::BUILD_MEMORY_CAP,
            kills: memory.kills(&absolute(self.target)),
        })
    }

    fn refuse_reads(&self, records: &Records) -> Option<String> {
        record::verdict(self.workspace, self.public, records)
    }
}

/// Grading builds against the locked dependencies only, never the network.
pub const OFFLINE: &[&str] = &["--offline", "--locked"];

/// `command` (cargo) with its environment cleared to what cargo and rustup need: a
/// submission's `env!("...")` reads nothing of the instructor's shell.
pub fn cargo_environment(command: &mut Command) {
    let keep: Vec<(OsString, OsString)> = ["CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"]
        .into_iter()
        .filter_map(|key| std::env::var_os(key).map(|value| (key.into(), value)))
        .collect();
    let explicit: Vec<(OsString, OsString)> = command
        .get_envs()
        .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned())))
        .collect();
    let mut path = toolchain_homes()
        .first()
        .map(|cargo_home| cargo_home.join("bin").into_os_string())
        .unwrap_or_default();
    path.push(":/usr/local/bin:/usr/bin:/bin");
    command.env_clear().env("PATH", path).env("HOME", "/tmp");
    for (key, value) in keep.into_iter().chain(explicit) {
        command.env(key, value);
    }
    for (key, dir) in [("CARGO_HOME", 0), ("RUSTUP_HOME", 1)] {
        if std::env::var_os(key).is_none()
            && let Some(dir) = toolchain_homes().get(dir)
        {
            command.env(key, dir);
        }
    }
}

/// The folder `key` names (`$CARGO_HOME`), by default `default` in the home folder.
fn home_of(key: &str, default: &str) -> Option<PathBuf> {
    std::env::var_os(key)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(default)))
        .map(|p| absolute(&p))
}

/// `$CARGO_HOME` and `$RUSTUP_HOME` (by default `~/.cargo` and `~/.rustup`).
fn toolchain_homes() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")]
        .into_iter()
        .filter_map(|(key, default)| {
            std::env::var_os(key)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(default)))
        })
        .map(|p| absolute(&p))
        .collect()
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| std::path::absolute(path).unwrap_or(path.to_path_buf()))
}

#[cfg(test)]
#[path = "jail_tests.rs"]
mod tests;
