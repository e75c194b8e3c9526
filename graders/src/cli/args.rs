//! Command-line parsing: small enough to write by hand, strict enough to name every bad
//! argument.

use std::time::Duration;

use anyhow::{Result, anyhow, bail};

use crate::stages;

/// What `byo help` prints.
pub const USAGE: &str = "\
byo: build your own exactly-once stream processor

usage:
  byo start NN                 make NN the current stage and show its brief
  byo test [NN ...] [options]  judge stages 01..=current, or the ones named
      --seed N                 plan seed (default: the fixed learner seed)
      --case I                 replay only case I of the plan (one stage)
      --timeout SECONDS        per-case time limit (default 3)
  byo hint [NN]                reveal the next hint of the current stage (or NN)
  byo status                   every stage: pass, fail or not started; hints used
  byo trace 08 [options]       one schedule of stage 08 as a timeline of its sinks
      --records N              the graded input of length N
      --barrier-every B        a barrier after every B records
      --crash-after K          crash after K records (default: no crash)
      --lag L                  notifications L barriers late (default 0)
      --mine                   run your code beside the reference, first divergence marked
  byo grade DIR... [options]   grade submissions (copies of learners' repositories)
      --out DIR                where reports and the gradebook go (default: grades)
      --seed N                 plan seed (default: fresh, recorded in every report)
      --weights FILE           JSON stage weights, e.g. {\"01\": 1, \"08\": 3}
      --stages 01,02,...       grade only these stages
      --timeout SECONDS        per-case time limit (default 10)
      --gradescope, --junit    also write results.json / junit.xml per submission
  byo help                     this text

Every verb also runs as `just <verb> ...` and as `cargo byo <verb> ...`.
";

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `byo help`
    Help,
    /// `byo start NN`
    Start {
        /// The stage to start.
        stage: u8,
    },
    /// `byo test ...`
    Test(TestOptions),
    /// `byo hint [NN]`
    Hint {
        /// The stage, if named.
        stage: Option<u8>,
    },
    /// `byo status`
    Status,
    /// `byo trace NN ...`
    Trace {
        /// The stage whose schedule to draw.
        stage: u8,
        /// The stage's own trace arguments.
        args: Vec<String>,
    },
    /// `byo grade ...`
    Grade(super::grade::options::GradeOptions),
}

/// The options of `byo test`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TestOptions {
    /// The stages named, in order; empty means 01..=current.
    pub stages: Vec<u8>,
    /// The plan seed.
    pub seed: Option<u64>,
    /// Replay only this case.
    pub case: Option<usize>,
    /// Per-case time limit.
    pub timeout: Option<Duration>,
}

/// Parses the arguments after the program name.
///
/// # Errors
/// A one-line message naming the argument that is wrong.
pub fn parse(argv: &[String]) -> Result<Command> {
    let Some((verb, rest)) = argv.split_first() else {
        return Ok(Command::Help);
    };
    match verb.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "start" => match rest {
            [stage] => Ok(Command::Start {
                stage: stage_number("start", stage)?,
            }),
            [] => bail!("start: which stage? give its number, e.g. `byo start 01`"),
            [_, extra, ..] => bail!("start: unexpected argument `{extra}`"),
        },
        "hint" => match rest {
            [] => Ok(Command::Hint { stage: None }),
            [stage] => Ok(Command::Hint {
                stage: Some(stage_number("hint", stage)?),
            }),
            [_, extra, ..] => bail!("hint: unexpected argument `{extra}`"),
        },
        "status" => match rest {
            [] => Ok(Command::Status),
            [extra, ..] => bail!("status: unexpected argument `{extra}`"),
        },
        "test" => parse_test(rest).map(Command::Test),
        "trace" => match rest {
            [stage, args @ ..] => Ok(Command::Trace {
                stage: stage_number("trace", stage)?,
                args: args.to_vec(),
            }),
            [] => bail!(
                "trace: which stage? e.g. `byo trace 08 --records 4 --barrier-every 2 --crash-after 3 --lag 1`"
            ),
        },
        "grade" => super::grade::options::parse(rest).map(Command::Grade),
        other => {
            bail!(
                "unknown command `{other}`: expected start, test, hint, status, trace, grade or help"
            )
        }
    }
}

fn parse_test(rest: &[String]) -> Result<TestOptions> {
    let mut options = TestOptions::default();
    let mut args = rest.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .ok_or_else(|| anyhow!("test: {flag} needs a value"))
                .cloned()
        };
        match arg.as_str() {
            "--seed" => {
                let v = value("--seed")?;
                options.seed = Some(
                    v.parse()
                        .map_err(|_| anyhow!("test: --seed must be a whole number, got `{v}`"))?,
                );
            }
            "--case" => {
                let v = value("--case")?;
                options.case = Some(v.parse().map_err(|_| {
                    anyhow!("test: --case must be a case number from a report, got `{v}`")
                })?);
            }
            "--timeout" => {
                let v = value("--timeout")?;
                let seconds: u64 = v.parse().ok().filter(|s| *s > 0).ok_or_else(|| {
                    anyhow!("test: --timeout must be a positive number of seconds, got `{v}`")
                })?;
                options.timeout = Some(Duration::from_secs(seconds));
            }
            flag if flag.starts_with('-') => bail!("test: unknown option `{flag}`"),
            stage => options.stages.push(stage_number("test", stage)?),
        }
    }
    if options.case.is_some() && options.stages.len() != 1 {
        bail!("test: --case replays one case of one stage; name exactly one stage");
    }
    Ok(options)
}

/// Parses `1`..`8` or `01`..`08`, naming the verb in the error.
fn stage_number(verb: &str, text: &str) -> Result<u8> {
    let last = stages::LADDER.len();
    match text.parse::<u8>() {
        Ok(n) if stages::get(n).is_some() => Ok(n),
        Ok(_) | Err(_) if text.chars().all(|c| c.is_ascii_digit()) && !text.is_empty() => {
            bail!("{verb}: there is no stage {text}; stages are 01 to {last:02}")
        }
        _ => bail!("{verb}: stage must be a number from 01 to {last:02}, got `{text}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command> {
        let argv: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        parse(&argv)
    }

    #[test]
    fn stage_numbers_accept_one_or_two_digits() {
        assert_eq!(parse_str("start 1").unwrap(), Command::Start { stage: 1 });
        assert_eq!(parse_str("start 08").unwrap(), Command::Start { stage: 8 });
    }

    #[test]
    fn bad_stage_numbers_name_the_argument() {
        let err = |line| parse_str(line).unwrap_err().to_string();
        assert_eq!(
            err("start 09"),
            "start: there is no stage 09; stages are 01 to 08"
        );
        assert_eq!(
            err("start x"),
            "start: stage must be a number from 01 to 08, got `x`"
        );
        assert_eq!(
            err("test 42"),
            "test: there is no stage 42; stages are 01 to 08"
        );
        assert_eq!(
            err("test 01 --seed z"),
            "test: --seed must be a whole number, got `z`"
        );
        assert_eq!(
            err("test 01 --timeout 0"),
            "test: --timeout must be a positive number of seconds, got `0`"
        );
    }

    #[test]
    fn a_replay_names_one_stage() {
        assert!(parse_str("test --case 3").is_err());
        let Command::Test(options) = parse_str("test 02 --case 3 --seed 9").unwrap() else {
            panic!("not a test command");
        };
        assert_eq!(
            (options.stages, options.case, options.seed),
            (vec![2], Some(3), Some(9))
        );
    }
}
