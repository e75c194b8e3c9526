//! The `byo` command: the learner's and the instructor's verbs.
//!
//! `byo start NN`, `byo test [NN ...]`, `byo watch [NN]`, `byo hint`, `byo status`, `byo trace 08 ...`,
//! `byo grade`, `byo autograder`, `byo template`. The command line is declared in [`args`] (clap); every verb that judges
//! goes through one [`pipeline`]: build a stage's grade binary ([`build`]), drive it under
//! the [`supervisor`](crate::harness::supervisor), judge ([`crate::stages::judge`]); the
//! verbs then render ([`crate::report`]) or grade.

pub mod args;
pub mod autograder;
pub mod build;
pub mod compiler_errors;
pub mod dep_info;
pub mod grade;
mod heartbeat;
mod hint;
pub mod launcher;
mod next_step;
mod outcome;
pub mod pipeline;
pub mod progress;
mod replay;
mod start;
mod status;
mod std_notes;
pub mod template;
mod test;
mod trace;
mod values;
mod warnings;
pub mod watch;
pub mod workspace;

use std::process::ExitCode;

use clap::CommandFactory;

use args::{Cli, Verb};

/// Runs `byo` with the process arguments (read as `args_os`: paths need not be UTF-8);
/// the exit code says whether the verb succeeded (for `test`: whether every selected
/// stage passed). Bad arguments exit 2 with clap's error, which names the argument.
pub fn main() -> ExitCode {
    let cli = match args::parse(std::env::args_os()) {
        Ok(cli) => cli,
        // Help and version go to stdout with 0; errors to stderr with 2.
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let Some(verb) = cli.verb else {
        let _ = Cli::command().print_help();
        return ExitCode::SUCCESS;
    };
    // Builds and drivers lead process groups of their own, out of the terminal's reach:
    // on Ctrl-C, byo ends them itself (grading's lock goes with the process), and puts
    // back the terminal `byo watch` set to read one key at a time.
    if let Err(e) = crate::harness::process::end_children_on_interrupt(watch::restore_terminal) {
        eprintln!("warning: {e:#}; an interrupt may leave builds or drivers running");
    }
    match run(verb) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(verb: Verb) -> anyhow::Result<ExitCode> {
    let root = workspace::Root::locate()?;
    match verb {
        Verb::Start { stage } => start::run(&root, stage),
        Verb::Test(options) => test::run(&root, &options),
        Verb::Hint { stage } => hint::run(&root, stage),
        Verb::Watch { stage } => watch::run(&root, stage),
        Verb::Status => status::run(&root),
        Verb::Trace(options) => trace::run(&root, &options),
        Verb::Grade(options) => grade::run(&root, &options),
        Verb::Autograder(platform) => autograder::run(&root, &platform),
        Verb::Template(options) => template::run(&root, &options),
    }
}
