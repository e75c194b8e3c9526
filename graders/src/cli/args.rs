//! The `byo` command line, declared with clap: each verb a subcommand with its own
//! `--help`, the usage generated, and every bad argument named in its error.

use std::time::Duration;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};

use super::grade::options::GradeOptions;
use super::trace::TraceOptions;
use super::values::{case_index, positive_seconds, seed, stage_number};

/// byo: build your own exactly-once stream processor.
#[derive(Debug, Parser)]
#[command(
    name = "byo",
    about = "byo: build your own exactly-once stream processor",
    after_help = "Every verb also runs as `just <verb> ...` and as `cargo byo <verb> ...`."
)]
pub struct Cli {
    /// The verb; without one, this help.
    #[command(subcommand)]
    pub verb: Option<Verb>,
}

/// The verbs of `byo`, in the order a learner meets them.
#[derive(Debug, Subcommand)]
pub enum Verb {
    /// Make stage NN the current stage and show its brief.
    Start {
        /// The stage to start: 01 to 08 (or 1 to 8).
        #[arg(value_name = "NN", value_parser = stage_number)]
        stage: u8,
    },
    /// Judge stages 01..=current, or the ones named.
    Test(TestOptions),
    /// Judge the current stage (or stage NN) again on every save; q or Ctrl-C quits.
    Watch {
        /// The stage to watch (default: the current stage).
        #[arg(value_name = "NN", value_parser = stage_number)]
        stage: Option<u8>,
    },
    /// Reveal the next hint of the current stage (or of stage NN).
    Hint {
        /// The stage whose hint to reveal (default: the current stage).
        #[arg(value_name = "NN", value_parser = stage_number)]
        stage: Option<u8>,
    },
    /// Every stage: pass, fail or not started; hints used.
    Status,
    /// One schedule of stage 08 as a timeline of its sinks.
    Trace(TraceOptions),
    /// Grade submissions (copies of learners' repositories).
    Grade(GradeOptions),
    /// Write what grades this kata on a platform (GitHub Classroom, Gradescope).
    #[command(subcommand)]
    Autograder(super::autograder::Platform),
    /// Write the kata as a student starts it: no solutions/, byo and the graders working.
    Template(super::template::TemplateOptions),
}

/// The options of `byo test`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Args)]
pub struct TestOptions {
    /// The stages to judge (default: 01 to the current stage).
    #[arg(value_name = "NN", value_parser = stage_number)]
    pub stages: Vec<u8>,
    /// Plan seed (default: the fixed learner seed).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed)]
    pub seed: Option<u64>,
    /// Replay only case I of the plan (name exactly one stage).
    #[arg(long, value_name = "I", allow_negative_numbers = true, value_parser = case_index)]
    pub case: Option<usize>,
    /// Per-case time limit [default: 3].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = positive_seconds)]
    pub timeout: Option<Duration>,
}

/// Parses the arguments after the program name (`args_os` semantics: paths need not be
/// UTF-8), then checks what clap cannot express: a replay names exactly one stage, and no
/// stage is named twice.
///
/// # Errors
/// A clap error naming the bad argument, or the help or version text to print.
pub fn parse<I, T>(argv: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::try_parse_from(argv)?;
    match &cli.verb {
        Some(Verb::Test(test)) => {
            if let Some(twice) = repeated(&test.stages) {
                return Err(usage_error(
                    "test",
                    ErrorKind::ArgumentConflict,
                    format!("stage {twice:02} is named twice in '[NN]...'"),
                ));
            }
            if test.case.is_some() && test.stages.len() != 1 {
                return Err(usage_error(
                    "test",
                    ErrorKind::ArgumentConflict,
                    "'--case <I>' replays one case of one stage; name exactly one stage '[NN]'",
                ));
            }
        }
        Some(Verb::Grade(grade)) => {
            if let Some(twice) = grade.stages.as_deref().and_then(repeated) {
                return Err(usage_error(
                    "grade",
                    ErrorKind::ArgumentConflict,
                    format!("stage {twice:02} is named twice in '--stages <NN,...>'"),
                ));
            }
        }
        Some(Verb::Trace(trace)) => {
            if let Err(why) = trace.check() {
                return Err(usage_error("trace", ErrorKind::ValueValidation, why));
            }
        }
        _ => {}
    }
    Ok(cli)
}

/// An error in clap's format, with the usage of `verb`.
pub(super) fn usage_error(
    verb: &str,
    kind: ErrorKind,
    message: impl std::fmt::Display,
) -> clap::Error {
    let mut command = Cli::command();
    command.build();
    match command.find_subcommand_mut(verb) {
        Some(sub) => sub.error(kind, message),
        None => command.error(kind, message),
    }
}

/// The first stage named twice.
pub(super) fn repeated(stages: &[u8]) -> Option<u8> {
    let mut seen = std::collections::BTreeSet::new();
    stages.iter().copied().find(|n| !seen.insert(*n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Cli, clap::Error> {
        parse(std::iter::once("byo").chain(line.split_whitespace()))
    }

    fn error(line: &str) -> String {
        parse_str(line).unwrap_err().to_string()
    }

    #[test]
    fn stage_numbers_accept_one_or_two_digits() {
        for (text, n) in [("start 1", 1), ("start 01", 1), ("start 08", 8)] {
            let Some(Verb::Start { stage }) = parse_str(text).unwrap().verb else {
                panic!("{text} is not start");
            };
            assert_eq!(stage, n, "{text}");
        }
    }

    #[test]
    fn bad_stage_numbers_name_the_argument() {
        assert!(error("start 00").contains("invalid value '00' for '<NN>': there is no stage 00"));
        assert!(error("start 09").contains("invalid value '09' for '<NN>': there is no stage 09"));
        assert!(error("start x").contains("invalid value 'x' for '<NN>'"));
        assert!(error("test 01 --seed z").contains("'--seed <N>'"));
        assert!(error("test 01 --timeout 0").contains("'--timeout <SECONDS>'"));
    }

    #[test]
    fn a_replay_names_one_stage_and_no_stage_twice() {
        assert!(error("test --case 3").contains("name exactly one stage"));
        assert!(error("test 01 01").contains("stage 01 is named twice"));
        let Some(Verb::Test(options)) = parse_str("test 02 --case 3 --seed 9").unwrap().verb else {
            panic!("not a test command");
        };
        assert_eq!(
            (options.stages, options.case, options.seed),
            (vec![2], Some(3), Some(9))
        );
    }

    #[test]
    fn typos_get_a_suggestion() {
        assert!(error("tset").contains("similar subcommands exist: 'template', 'test'"));
        assert!(error("test --sed 3").contains("a similar argument exists: '--seed'"));
    }

    #[test]
    fn the_declaration_is_consistent() {
        Cli::command().debug_assert();
    }
}
