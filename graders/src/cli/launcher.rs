//! How `byo` starts what it does not trust: the cargo builds of a learner's crates and the
//! drivers that run their code. `byo test` starts both as they are; `byo grade` wraps them
//! in its sandbox ([`crate::cli::grade::confine::jail`]) and gives builds a time limit,
//! without the pipeline knowing.

use std::process::{Command, ExitStatus};
use std::time::Duration;

use super::dep_info::Records;
use crate::harness::supervisor::signal_of;

/// Turns a command, fully set up, into the command to spawn. Shared by the threads that
/// judge stages at once, hence `Sync`.
pub trait Launcher: Sync {
    /// The cargo command that builds grade binaries.
    fn build(&self, cargo: Command) -> Command {
        cargo
    }

    /// The command that runs a driver (a grade binary, with its environment set): the
    /// outermost wrapper, applied last.
    fn driver(&self, driver: Command) -> Command {
        driver
    }

    /// The signal that ended a driver, read from the status of the command
    /// [`Launcher::driver`] made: a wrapper that outlives the driver (the sandbox) reports
    /// the signal in its own way, and only the launcher knows which wrapper it used.
    fn death_signal(&self, status: ExitStatus) -> Option<i32> {
        signal_of(status)
    }

    /// The longest a build may take; `None`: as long as it takes.
    fn build_limit(&self) -> Option<Duration> {
        None
    }

    /// The memory cap of builds and how many processes it has stopped so far: a build
    /// went over it when the count grew while it ran. `None`: no cap is watched.
    fn build_memory(&self) -> Option<MemoryWatch> {
        None
    }

    /// Why a build may not be used, judged from the compiler's record of what it read
    /// for each crate the build compiled or reused; `None`: nothing refused.
    fn refuse_reads(&self, records: &Records) -> Option<String> {
        let _ = records;
        None
    }
}

/// What a launcher's memory cap of builds has seen (the kernel's count, not text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryWatch {
    /// The cap, in bytes.
    pub cap: u64,
    /// How many processes the kernel has stopped for going over it.
    pub kills: u64,
}

/// A launcher's driver wrapper, as the supervisor's confinement.
pub struct DriverLaunch<'a>(pub &'a dyn Launcher);

impl crate::harness::supervisor::Confinement for DriverLaunch<'_> {
    fn confine(&self, command: Command) -> Command {
        self.0.driver(command)
    }

    fn death_signal(&self, status: ExitStatus) -> Option<i32> {
        self.0.death_signal(status)
    }
}

/// Starts every command as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct Direct;

impl Launcher for Direct {}
