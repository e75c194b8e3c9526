//! What the cohort's reports say across submissions, gathered once for `cohort.md`
//! ([`super::markdown`]) and `cohort.html` ([`super::html`]) alike: failing checks with
//! who fails them, failures grouped by anomaly and by misconception, stages like the
//! reference or the graders' oracles, submissions alike ([`super::peers`]) and identical
//! submissions, and the stage-08 matrix summed ([`super::matrix`]).

use std::collections::BTreeMap;

use super::matrix::{self, CohortMatrix};
use super::peers::{self, PeerPair};
use super::places;
use crate::cli::grade::model::{
    CheckGrade, FailureGrade, Likeness, StageGrade, SubmissionReport, Verdict,
};

/// What the cohort's reports say across submissions.
pub struct Findings<'a> {
    /// Every report, in submission order.
    pub reports: &'a [SubmissionReport],
    /// The checks that fail in stages the learners started, most failed first.
    pub failing_checks: Vec<FailingCheck>,
    /// Failures grouped by the misconception recognised behind them, most frequent
    /// first; failures with none recognised are left out.
    pub misconceptions: Vec<Group>,
    /// Failures grouped by anomaly, most frequent first; stages that did not build, were
    /// blocked or not judged, and submissions not graded, count as their own kinds.
    pub anomalies: Vec<Group>,
    /// Each stage flagged as like the reference or the graders' oracles: the submission,
    /// the stage, and the comparison that flagged it (the higher share when both did).
    pub like_reference: Vec<(String, u8, &'a Likeness)>,
    /// Pairs of submissions alike on a stage, by stage, the most alike first.
    pub peers: Vec<PeerPair>,
    /// Stage folders whose changed files are byte for byte the same in more than one
    /// submission, with those submissions.
    pub identical: Vec<(String, Vec<String>)>,
    /// The stage-08 crash point × commit lag matrix, summed over the cohort.
    pub matrix: CohortMatrix,
}

impl<'a> Findings<'a> {
    /// What `reports` say across submissions.
    pub fn gather(reports: &'a [SubmissionReport]) -> Self {
        Self {
            reports,
            failing_checks: failing_checks(reports),
            misconceptions: misconceptions(reports),
            anomalies: anomalies(reports),
            like_reference: like_reference(reports),
            peers: peers::alike(reports),
            identical: identical(reports),
            matrix: matrix::summed(reports),
        }
    }
}

/// A check failing in stages the learners started, with who fails it.
pub struct FailingCheck {
    /// `stage NN · slug`.
    pub stage: String,
    /// The check's name.
    pub check: String,
    /// Whether it is a core check (its stage earns nothing unless it passes).
    pub gate: bool,
    /// The submissions failing it.
    pub who: Vec<String>,
}

/// A kind of failure (an anomaly, or a misconception) and where it happens:
/// `submission (NN check)`, `submission (NN file:line)` for a stage that does not build,
/// `submission (NN reason)` for one not judged, `submission (reason)` for one not graded.
pub type Group = (String, Vec<String>);

/// The checks that fail in stages the learners started, most failed first.
fn failing_checks(reports: &[SubmissionReport]) -> Vec<FailingCheck> {
    let mut by_check: BTreeMap<(String, String, bool), Vec<String>> = BTreeMap::new();
    for_each_failure(reports, |report, stage, check| {
        let key = (stage.title.clone(), check.name.clone(), check.gate);
        by_check
            .entry(key)
            .or_default()
            .push(report.submission.clone());
    });
    let mut rows: Vec<FailingCheck> = by_check
        .into_iter()
        .map(|((stage, check, gate), who)| FailingCheck {
            stage,
            check,
            gate,
            who,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.who
            .len()
            .cmp(&a.who.len())
            .then_with(|| (&a.stage, &a.check).cmp(&(&b.stage, &b.check)))
    });
    rows
}

/// Failures grouped by anomaly, most frequent first; stages that did not build, were
/// blocked or not judged, and submissions not graded at all, count as their own kinds,
/// each placed where its report says it went wrong ([`places`]).
fn anomalies(reports: &[SubmissionReport]) -> Vec<Group> {
    let mut groups = grouped(reports, |failure| {
        Some(
            failure
                .map_or("not every case judged", |f| f.anomaly.as_str())
                .to_owned(),
        )
    });
    let mut unjudged: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for report in reports {
        if let Some(place) = places::ungraded(report) {
            unjudged.entry(report.overall()).or_default().push(place);
        }
        for stage in &report.stages {
            if let Some(place) = places::unjudged(report, stage) {
                unjudged
                    .entry(stage.verdict.text())
                    .or_default()
                    .push(place);
            }
        }
    }
    for (kind, places) in unjudged {
        groups.push((kind.to_owned(), places));
    }
    sort_groups(&mut groups);
    groups
}

/// Failures grouped by the misconception recognised behind them (its card's title),
/// most frequent first; failures with none recognised are left out.
fn misconceptions(reports: &[SubmissionReport]) -> Vec<Group> {
    let mut groups = grouped(reports, |failure| {
        failure.and_then(|f| f.misconception.clone())
    });
    sort_groups(&mut groups);
    groups
}

fn grouped(
    reports: &[SubmissionReport],
    kind: impl Fn(Option<&FailureGrade>) -> Option<String>,
) -> Vec<Group> {
    let mut by_kind: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for_each_failure(reports, |report, stage, check| {
        if let Some(kind) = kind(check.failure.as_ref()) {
            by_kind.entry(kind).or_default().push(format!(
                "{} ({:02} {})",
                report.submission, stage.stage, check.name
            ));
        }
    });
    by_kind.into_iter().collect()
}

fn sort_groups(groups: &mut [Group]) {
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
}

/// Calls `f` for every failing check of every stage judged as failed.
fn for_each_failure<'a>(
    reports: &'a [SubmissionReport],
    mut f: impl FnMut(&'a SubmissionReport, &'a StageGrade, &'a CheckGrade),
) {
    for report in reports {
        for stage in failed_stages(report) {
            for check in stage.checks.iter().filter(|c| !c.passed) {
                f(report, stage, check);
            }
        }
    }
}

fn failed_stages(report: &SubmissionReport) -> impl Iterator<Item = &StageGrade> {
    report
        .stages
        .iter()
        .filter(|s| s.verdict == Verdict::Failed)
}

/// Each stage flagged as like the reference or the oracles, in submission order.
fn like_reference(reports: &[SubmissionReport]) -> Vec<(String, u8, &Likeness)> {
    let mut flagged = Vec::new();
    for report in reports {
        for stage in &report.similarity {
            let highest = stage
                .against
                .iter()
                .filter(|l| l.flagged)
                .max_by(|a, b| a.share.total_cmp(&b.share));
            if let Some(likeness) = highest {
                flagged.push((report.submission.clone(), stage.stage, likeness));
            }
        }
    }
    flagged
}

/// A stage folder and its changed files with their hashes: one learner's work on it.
type Work<'a> = (String, Vec<(&'a str, &'a str)>);

/// Stage folders whose changed files are byte for byte the same in more than one
/// submission, with those submissions.
fn identical(reports: &[SubmissionReport]) -> Vec<(String, Vec<String>)> {
    // Per stage folder, the changed files and their hashes: equal and not empty, a pair.
    let mut work: BTreeMap<Work<'_>, Vec<String>> = BTreeMap::new();
    for report in reports {
        let mut by_stage: BTreeMap<String, Vec<(&str, &str)>> = BTreeMap::new();
        for path in &report.changed_from_skeleton {
            let Some(folder) = path
                .strip_prefix("stages/")
                .and_then(|p| p.split('/').next())
            else {
                continue;
            };
            let hash = report.file_hashes.get(path).map_or("", String::as_str);
            by_stage
                .entry(folder.to_owned())
                .or_default()
                .push((path.as_str(), hash));
        }
        for (folder, files) in by_stage {
            work.entry((folder, files))
                .or_default()
                .push(report.submission.clone());
        }
    }
    work.into_iter()
        .filter(|(_, who)| who.len() > 1)
        .map(|((folder, _), who)| (folder, who))
        .collect()
}
