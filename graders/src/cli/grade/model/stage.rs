//! How one stage of a submission came out: its verdict, a grade per check, and how it
//! fares over the learner's own earlier stages; serialisable for `report.json`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::harness::printed::PrintedLine;

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
    /// An earlier stage it depends on does not compile. Only in older reports: each
    /// stage is now scored over the references of the earlier ones, so nothing blocks it.
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
    /// The title of the misconception card this failure matches (the belief behind the
    /// mistake, [`crate::misconception`]), which `detail` prints too.
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
    /// How it fares over the learner's own earlier stages, when one of those it uses did
    /// not pass on its own (it is scored over the references either way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_your_stages: Option<OverYourStages>,
    /// What the learner's code printed while the stage was judged: its first and last
    /// lines (bounded as the driver keeps them), each with its case and run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<PrintedLine>,
}

/// How a stage fares over the learner's own earlier stages, when one it uses did not
/// pass on its own (or it does not build over the references).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverYourStages {
    /// The learner's earlier stages it uses, and how each came out on its own.
    pub uses: BTreeMap<u8, Verdict>,
    /// How it came out over them: passed, failed, or does not build.
    pub verdict: Verdict,
    /// The checks that failed over them, with their anomaly (`crash: time-out`).
    pub failing: Vec<String>,
}

impl OverYourStages {
    /// The sentence a report shows: "stage 04 passes over the reference 03; over your 03
    /// (does not build) it does not build."
    pub fn sentence(&self, grade: &StageGrade) -> String {
        let list = |f: &dyn Fn(&(&u8, &Verdict)) -> String| {
            self.uses
                .iter()
                .map(|u| f(&u))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let reference = list(&|(n, _)| format!("{n:02}"));
        let yours = list(&|(n, v)| format!("{n:02} ({})", v.text()));
        let here = match grade.verdict {
            Verdict::Passed => "passes",
            Verdict::DoesNotBuild => "does not build",
            _ => "fails",
        };
        let there = match self.verdict {
            Verdict::Passed => "it passes".to_owned(),
            Verdict::DoesNotBuild | Verdict::Blocked => "it does not build".to_owned(),
            Verdict::NotJudged => "it could not be judged".to_owned(),
            _ => format!("it fails {}", self.failing.join(", ")),
        };
        format!(
            "{} {here} over the reference {reference}; over your {yours} {there}",
            grade.title
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_names_both_chains() {
        let four = StageGrade {
            stage: 4,
            title: "stage 04 · event-time".into(),
            verdict: Verdict::Passed,
            score: 0.0,
            weight: 1.0,
            checks: Vec::new(),
            errors: None,
            cases_judged: 0,
            seconds: 0.0,
            over_your_stages: None,
            printed: Vec::new(),
        };
        let over = |verdict, failing: &[&str]| OverYourStages {
            uses: [(3, Verdict::DoesNotBuild)].into(),
            verdict,
            failing: failing.iter().map(|f| f.to_string()).collect(),
        };
        assert_eq!(
            over(Verdict::DoesNotBuild, &[]).sentence(&four),
            "stage 04 · event-time passes over the reference 03; over your 03 (does not \
             build) it does not build"
        );
        assert_eq!(
            over(Verdict::Failed, &["`crash` (time-out)"]).sentence(&four),
            "stage 04 · event-time passes over the reference 03; over your 03 (does not \
             build) it fails `crash` (time-out)"
        );
    }
}
