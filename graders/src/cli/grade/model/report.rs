//! The report of a whole submission: every stage's grade, the total, where the grade came
//! from and what happened to the submission's files; and what the report says of the
//! submission as a whole, for the gradebook and the cohort.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::draw::SeedDraw;
use super::provenance::Provenance;
use super::similarity::StageSimilarity;
use super::stage::{StageGrade, Verdict};
use super::stage_run::{ScoreChange, StageRun};
use super::term::Term;

/// Everything known about one submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The submission's name (its folder's name).
    pub submission: String,
    /// The folder graded.
    pub path: String,
    /// The plan seed every case was drawn from: what `byo test NN --seed` replays.
    pub seed: u64,
    /// How [`seed`](Self::seed) was drawn: the run's seed and this submission's salt.
    #[serde(default)]
    pub draw: SeedDraw,
    /// The grader's commit, `Cargo.lock`'s git blob hash, and the toolchain.
    pub provenance: Provenance,
    /// Every selected stage.
    pub stages: Vec<StageGrade>,
    /// The weighted total, in percent.
    pub total: f64,
    /// Files overlaid, ignored and refused.
    pub files: Overlay,
    /// The git blob hash of every file graded from the submission, by path.
    #[serde(default)]
    pub file_hashes: BTreeMap<String, String>,
    /// The files graded that differ from the skeleton (the learner's work).
    #[serde(default)]
    pub changed_from_skeleton: Vec<String>,
    /// Which run judged each stage: stages a later run did not judge keep theirs.
    #[serde(default)]
    pub stage_runs: BTreeMap<u8, StageRun>,
    /// Every change of a stage's score, oldest first.
    #[serde(default)]
    pub history: Vec<ScoreChange>,
    /// Each graded stage's learner-written code compared with the reference and the
    /// graders' oracles, with its fingerprints for the cohort's comparison.
    #[serde(default)]
    pub similarity: Vec<StageSimilarity>,
    /// The student the roster names for it, and when it came in against the due date.
    #[serde(default)]
    pub term: Term,
    /// When grading this submission failed as a whole, why.
    pub error: Option<String>,
    /// Total grading time.
    pub seconds: f64,
}

impl SubmissionReport {
    /// The submission as a whole, for the gradebook's `verdict` column.
    pub fn overall(&self) -> &'static str {
        if let Some(error) = &self.error {
            return if error.starts_with("not a submission") {
                "not a submission"
            } else {
                "not graded"
            };
        }
        let judged: Vec<Verdict> = self
            .stages
            .iter()
            .map(|s| s.verdict)
            .filter(|v| *v != Verdict::NoGrader)
            .collect();
        let all = |v: Verdict| !judged.is_empty() && judged.iter().all(|j| *j == v);
        let unbuilt = |v: &Verdict| matches!(v, Verdict::DoesNotBuild | Verdict::Blocked);
        if all(Verdict::Passed) {
            "mastered"
        } else if all(Verdict::NotStarted) {
            "not started"
        } else if self.total > 0.0 {
            "partial"
        } else if judged.iter().any(unbuilt) {
            "did not build"
        } else {
            "failed"
        }
    }

    /// The stage numbers (`08`) flagged as like the reference or the graders' oracles.
    pub fn copied_stages(&self) -> Vec<String> {
        self.files
            .copies_of_reference
            .iter()
            .map(|c| c.chars().take(2).collect())
            .collect()
    }
}

/// What happened to a submission's files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overlay {
    /// Stage sources taken from the submission (paths relative to its root).
    pub overlaid: Vec<String>,
    /// Files the submission changed or added that grading does not use.
    pub ignored: Vec<String>,
    /// Entries refused outright (symlinks, names that are not UTF-8, sources that reach
    /// outside their stage's `src/`), with the reason.
    pub refused: Vec<String>,
    /// Graded stages whose learner-written code is flagged as like the reference or the
    /// graders' oracles (a share of its fingerprints at or above the threshold), each as
    /// `08-transactional-sink: 97% in the reference (412 fingerprint(s))`. Flagged only:
    /// the score is the instructor's to decide.
    #[serde(default)]
    pub copies_of_reference: Vec<String>,
}
