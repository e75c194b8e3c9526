//! The options of `byo grade`, declared for clap; paths are taken as given (`args_os`),
//! so a submission or an output folder whose name is not UTF-8 is graded, not refused.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::confine::slots::MAX_SLOTS;

use crate::cli::values::{positive_seconds, seed, stage_number, utc_time};

/// What `byo grade` was asked to do.
#[derive(Debug, Clone, PartialEq, Args)]
pub struct GradeOptions {
    /// The submissions: copies of learners' repositories.
    #[arg(value_name = "DIR", required = true)]
    pub submissions: Vec<PathBuf>,
    /// Where reports and the gradebook go.
    #[arg(long, value_name = "DIR", default_value = "grades")]
    pub out: PathBuf,
    /// The run's seed (default: fresh), mixed with a fresh salt for each submission
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = seed)]
    pub seed: Option<u64>,
    /// Replay a recorded run: mix in this salt, not fresh ones (never to grade with)
    // A salt known before the run is a plan a submission can prepare for.
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = seed, requires = "seed")]
    pub salt: Option<u64>,
    /// Give each submission its own run seed, drawn from --seed and its folder's name
    #[arg(long)]
    pub seed_per_student: bool,
    /// CSV of student_id, name and folder: adds each student's id to every output
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Due date, UTC (2026-12-01T23:59:00Z): adds when each submission came in and how late
    #[arg(long, value_name = "TIME", value_parser = utc_time)]
    pub due: Option<std::time::SystemTime>,
    /// JSON stage weights, e.g. {"01": 1, "08": 3}; finite and 0 or more.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Grade only these stages, e.g. 01,02 (default: every stage).
    #[arg(long, value_name = "NN,...", value_delimiter = ',', value_parser = stage_number)]
    pub stages: Option<Vec<u8>>,
    /// Per-case time limit [default: 10].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = positive_seconds)]
    pub timeout: Option<Duration>,
    /// Also write Gradescope's results.json per submission.
    #[arg(long)]
    pub gradescope: bool,
    /// Who sees results.json's tests: hidden, after_due_date, after_published or visible
    /// (Gradescope's settings).
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t,
        requires = "gradescope",
        hide_possible_values = true
    )]
    pub visibility: super::outputs::gradescope::Visibility,
    /// Also show students what their code printed, in results.json
    #[arg(long, requires = "gradescope")]
    pub printed_in_results: bool,
    /// Also write junit.xml per submission.
    #[arg(long)]
    pub junit: bool,
    /// Longest one stage's build may take [default: 600].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = positive_seconds)]
    pub build_timeout: Option<Duration>,
    /// Run submissions' builds and drivers without the sandbox (bubblewrap); every
    /// report then says so.
    #[arg(long)]
    pub no_sandbox: bool,
    /// Grade N submissions at once, each in its own workspace and target folder (the
    /// first run with N jobs builds the graders in each).
    #[arg(long, value_name = "N", default_value = "1", allow_negative_numbers = true, value_parser = jobs)]
    pub jobs: NonZeroUsize,
}

/// `--jobs`: 1 to [`MAX_SLOTS`] submissions at once.
fn jobs(text: &str) -> Result<NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err(
            "0 jobs would grade nothing: give 1 (one submission after another) or more".to_owned(),
        ),
        Ok(n) if n <= MAX_SLOTS => Ok(NonZeroUsize::new(n).expect("not 0")),
        Ok(_) => Err(format!(
            "at most {MAX_SLOTS} submissions are graded at once: each job builds and keeps its \
             own target folder (gigabytes), and a machine gains nothing from more jobs than cores"
        )),
        Err(_) => {
            Err("the number of submissions graded at once is a whole number, 1 or more".to_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use crate::cli::args::{Verb, parse};

    fn grade(argv: &[OsString]) -> Result<super::GradeOptions, String> {
        let words = ["byo", "grade"].map(OsString::from);
        match parse(words.iter().cloned().chain(argv.iter().cloned())) {
            Ok(cli) => match cli.verb {
                Some(Verb::Grade(options)) => Ok(options),
                other => Err(format!("not grade: {other:?}")),
            },
            Err(e) => Err(e.to_string()),
        }
    }

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn defaults_and_flags_keep_their_meaning() {
        let options = grade(&words("a b --stages 01,8 --gradescope --timeout 4")).unwrap();
        assert_eq!(
            options.submissions,
            [PathBuf::from("a"), PathBuf::from("b")]
        );
        assert_eq!(options.out, PathBuf::from("grades"));
        assert_eq!(options.stages, Some(vec![1, 8]));
        assert_eq!(options.timeout, Some(Duration::from_secs(4)));
        assert!(options.gradescope && !options.junit);
        assert_eq!(
            options.visibility,
            super::super::outputs::gradescope::Visibility::Visible
        );
        let hidden = grade(&words("a --gradescope --visibility after_due_date")).unwrap();
        assert_eq!(
            hidden.visibility,
            super::super::outputs::gradescope::Visibility::AfterDueDate
        );
    }

    #[test]
    fn bad_options_name_the_argument() {
        let err = |line: &str| grade(&words(line)).unwrap_err();
        assert!(err("").contains("<DIR>..."), "{}", err(""));
        assert!(err("a --stages 01,09").contains("'--stages <NN,...>'"));
        assert!(err("a --stages 01,x").contains("'--stages <NN,...>'"));
        assert!(err("a --stages 01,01").contains("stage 01 is named twice in '--stages"));
        assert!(err("a --timeout 0").contains("'--timeout <SECONDS>'"));
        assert!(err("a --seed -1").contains("--seed"));
        assert!(err("a --visibility hidden").contains("--gradescope"));
        // A salt replays a recorded run, which had a seed.
        assert!(
            err("a --salt 3").contains("--seed"),
            "{}",
            err("a --salt 3")
        );
        assert!(err("a --seed 1 --salt x").contains("'--salt <T>'"));
        assert_eq!(grade(&words("a --seed 1 --salt 3")).unwrap().salt, Some(3));
        assert!(err("a --gradescope --visibility later").contains("after_published"));
        for bad in ["0", "33", "-2", "many", "99999999999999999999999"] {
            let error = err(&format!("a --jobs {bad}"));
            assert!(error.contains("'--jobs <N>'"), "{bad}: {error}");
        }
        assert_eq!(grade(&words("a --jobs 32")).unwrap().jobs.get(), 32);
        assert_eq!(grade(&words("a")).unwrap().jobs.get(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_utf8() {
        use std::os::unix::ffi::OsStringExt;
        let odd = OsString::from_vec(b"sub\xffmission".to_vec());
        let out = OsString::from_vec(b"out\xfe".to_vec());
        let argv = [odd.clone(), OsString::from("--out"), out.clone()];
        let options = grade(&argv).unwrap();
        assert_eq!(options.submissions, [PathBuf::from(odd)]);
        assert_eq!(options.out, PathBuf::from(out));
    }

    use std::path::PathBuf;
    use std::time::Duration;
}
