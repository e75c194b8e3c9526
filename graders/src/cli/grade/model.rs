//! What a grade is made of: a verdict per stage, a grade per check, and the report of a
//! whole submission, all serialisable for `report.json` and the gradebook.

use serde::{Deserialize, Serialize};

use super::overlay::Overlay;

/// How a stage came out, for the gradebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every check passed.
    Passed,
    /// Some check failed.
    Failed,
    /// Every failure was a `todo!()`.
    NotStarted,
    /// The stage does not compile.
    DoesNotBuild,
    /// An earlier stage it depends on does not compile.
    Blocked,
    /// Its grade binary could not be driven.
    NotJudged,
    /// The stage has no grader yet.
    NoGrader,
}

impl Verdict {
    /// How reports and gradebooks say it.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Passed => "pass",
            Verdict::Failed => "fail",
            Verdict::NotStarted => "not started",
            Verdict::DoesNotBuild => "does not build",
            Verdict::Blocked => "blocked",
            Verdict::NotJudged => "not judged",
            Verdict::NoGrader => "no grader",
        }
    }
}

/// One check of one stage, graded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckGrade {
    /// The check's name.
    pub name: String,
    /// Whether it passed (every planned case judged, none failing).
    pub passed: bool,
    /// The smallest failing case, if it failed.
    pub failure: Option<FailureGrade>,
    /// Why the failure is nondeterministic, when re-running its case alone did not
    /// repeat it the same way (the check fails all the same).
    pub not_reproduced: Option<String>,
    /// Its share of the stage, relative to the stage's other checks.
    #[serde(default = "one")]
    pub weight: f64,
    /// Whether the stage earns nothing unless it passes (its core law).
    #[serde(default)]
    pub gate: bool,
}

fn one() -> f64 {
    1.0
}

/// The smallest failing case of a check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureGrade {
    /// The case's index in the plan for the recorded seed.
    pub case_index: usize,
    /// The case in the stage's terms.
    pub case: String,
    /// The anomaly: wrong result, panic, time-out, ...
    pub anomaly: String,
    /// The failure as a learner's report shows it.
    pub detail: String,
    /// The likely misconception behind it (its card's title), when one is recognised.
    #[serde(default)]
    pub misconception: Option<String>,
}

/// One stage of one submission, graded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageGrade {
    /// The stage number.
    pub stage: u8,
    /// `stage NN · slug`.
    pub title: String,
    /// How it came out.
    pub verdict: Verdict,
    /// In `0..=1`: 0 when a gate fails or it was not judged, else the weighted share
    /// of the checks passed.
    pub score: f64,
    /// Its weight in the total.
    pub weight: f64,
    /// Every check.
    pub checks: Vec<CheckGrade>,
    /// The compiler's errors, trimmed, when it does not build; why it was not judged.
    pub errors: Option<String>,
    /// Cases judged.
    pub cases_judged: usize,
    /// Building and judging time.
    pub seconds: f64,
}

/// Everything known about one submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The submission's name (its folder's name).
    pub submission: String,
    /// The folder graded.
    pub path: String,
    /// The plan seed.
    pub seed: u64,
    /// The grader's commit, `Cargo.lock`'s git blob hash, and the toolchain.
    pub provenance: super::Provenance,
    /// Every selected stage.
    pub stages: Vec<StageGrade>,
    /// The weighted total, in percent.
    pub total: f64,
    /// Files overlaid, ignored and refused.
    pub files: Overlay,
    /// The git blob hash of every file graded from the submission, by path.
    #[serde(default)]
    pub file_hashes: std::collections::BTreeMap<String, String>,
    /// The files graded that differ from the skeleton (the learner's work).
    #[serde(default)]
    pub changed_from_skeleton: Vec<String>,
    /// When grading this submission failed as a whole, why.
    pub error: Option<String>,
    /// Total grading time.
    pub seconds: f64,
}
