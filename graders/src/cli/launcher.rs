//! How `byo` starts what it does not trust: the cargo builds of a learner's crates and the
//! drivers that run their code. Today both start as they are; grading can wrap them (in a
//! sandbox, say) without the pipeline knowing.

use std::process::Command;

/// Turns a command, fully set up, into the command to spawn.
pub trait Launcher {
    /// The cargo command that builds grade binaries.
    fn build(&self, cargo: Command) -> Command {
        cargo
    }

    /// The command that runs a driver (a grade binary, with its request set).
    fn driver(&self, driver: Command) -> Command {
        driver
    }
}

/// Starts every command as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct Direct;

impl Launcher for Direct {}
