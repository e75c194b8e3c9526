//! The options of `byo grade`, each bad one named in its error.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};

use crate::stages;

/// What `byo grade` was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct GradeOptions {
    /// The submissions: copies of learners' repositories.
    pub submissions: Vec<PathBuf>,
    /// The plan seed; fresh (and recorded) when not given.
    pub seed: Option<u64>,
    /// Where reports and gradebooks go.
    pub out: PathBuf,
    /// A JSON file of stage weights, e.g. `{"01": 1, "08": 3}`.
    pub weights: Option<PathBuf>,
    /// Also write a Gradescope `results.json` per submission.
    pub gradescope: bool,
    /// Also write a JUnit `junit.xml` per submission.
    pub junit: bool,
    /// Grade only these stages (default: every stage).
    pub stages: Option<Vec<u8>>,
    /// The per-case time limit.
    pub timeout: Option<Duration>,
}

/// Parses the arguments after `grade`.
///
/// # Errors
/// A one-line message naming the bad argument.
pub fn parse(rest: &[String]) -> Result<GradeOptions> {
    let mut options = GradeOptions {
        submissions: Vec::new(),
        seed: None,
        out: PathBuf::from("grades"),
        weights: None,
        gradescope: false,
        junit: false,
        stages: None,
        timeout: None,
    };
    let mut args = rest.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| anyhow!("grade: {flag} needs a value"))
        };
        match arg.as_str() {
            "--seed" => {
                let v = value("--seed")?;
                options.seed = Some(
                    v.parse()
                        .map_err(|_| anyhow!("grade: --seed must be a whole number, got `{v}`"))?,
                );
            }
            "--out" => options.out = PathBuf::from(value("--out")?),
            "--weights" => options.weights = Some(PathBuf::from(value("--weights")?)),
            "--gradescope" => options.gradescope = true,
            "--junit" => options.junit = true,
            "--stages" => {
                let v = value("--stages")?;
                let parsed = v
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<u8>()
                            .ok()
                            .filter(|n| stages::get(*n).is_some())
                            .ok_or_else(|| anyhow!("grade: --stages takes stage numbers 01 to 08 separated by commas, got `{v}`"))
                    })
                    .collect::<Result<Vec<u8>>>()?;
                options.stages = Some(parsed);
            }
            "--timeout" => {
                let v = value("--timeout")?;
                let seconds: u64 = v.parse().ok().filter(|s| *s > 0).ok_or_else(|| {
                    anyhow!("grade: --timeout must be a positive number of seconds, got `{v}`")
                })?;
                options.timeout = Some(Duration::from_secs(seconds));
            }
            flag if flag.starts_with('-') => bail!("grade: unknown option `{flag}`"),
            submission => options.submissions.push(PathBuf::from(submission)),
        }
    }
    if options.submissions.is_empty() {
        bail!("grade: name at least one submission folder, e.g. `byo grade submissions/*`");
    }
    Ok(options)
}
