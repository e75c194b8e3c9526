//! The `byo` command: the learner's and the instructor's verbs.
//!
//! `byo start NN`, `byo test [NN ...]`, `byo hint`, `byo status`, `byo trace 08 ...`,
//! `byo grade`. Every verb is a thin layer over the library: building a stage's grade
//! binary ([`build`]), running it under the [`supervisor`](crate::harness::supervisor),
//! judging ([`crate::stages::judge`]) and rendering ([`crate::report`]).

pub mod args;
pub mod build;
pub mod grade;
mod hint;
pub mod progress;
mod start;
mod status;
mod test;
mod trace;
pub mod workspace;

use std::process::ExitCode;

use args::Command;

/// Runs `byo` with the process arguments; the exit code says whether the verb succeeded
/// (for `test`: whether every selected stage passed).
pub fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match args::parse(&argv) {
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Ok(command) => match run(command) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::from(2)
            }
        },
        Err(e) => {
            // One line, naming the argument: the parser's messages all do.
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    let root = workspace::Root::locate()?;
    match command {
        Command::Help => unreachable!("handled before the workspace is located"),
        Command::Start { stage } => start::run(&root, stage),
        Command::Test(options) => test::run(&root, &options),
        Command::Hint { stage } => hint::run(&root, stage),
        Command::Status => status::run(&root),
        Command::Trace { stage, args } => trace::run(&root, stage, &args),
        Command::Grade(options) => grade::run(&root, &options),
    }
}
