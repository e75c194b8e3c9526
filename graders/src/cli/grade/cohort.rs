//! `cohort.md`: what the class misunderstands. Not started, blocked and wrong are counted
//! apart; each failing check names its students; failures are grouped by misconception
//! (where one is recognised) and by anomaly; each
//! stage has its statistics; copies of the reference and identical submissions are
//! flagged (scores unchanged: the instructor decides).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::gradebook::{copied_stages, overall};
use super::model::{CheckGrade, FailureGrade, StageGrade, SubmissionReport, Verdict};

/// How one stage of one submission came out, for the per-stage table.
fn outcome(verdict: Verdict, score: f64) -> &'static str {
    match verdict {
        Verdict::Passed => "mastered",
        Verdict::Failed if score > 0.0 => "partial",
        Verdict::Failed => "wrong",
        Verdict::NotStarted => "not started",
        Verdict::DoesNotBuild => "does not build",
        Verdict::Blocked => "blocked",
        Verdict::NotJudged | Verdict::NoGrader => "not judged",
    }
}

const OUTCOMES: [&str; 7] = [
    "mastered",
    "partial",
    "wrong",
    "not started",
    "does not build",
    "blocked",
    "not judged",
];

/// The cohort summary of `reports`.
pub fn cohort(reports: &[SubmissionReport]) -> String {
    let mut md = format!(
        "# Cohort: {} submission(s)\n\n## Verdicts\n\n",
        reports.len()
    );
    let mut verdicts: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for report in reports {
        verdicts
            .entry(overall(report))
            .or_default()
            .push(&report.submission);
    }
    md.push_str("| verdict | submissions | who |\n|---|---|---|\n");
    for (verdict, who) in &verdicts {
        let _ = writeln!(md, "| {verdict} | {} | {} |", who.len(), who.join(", "));
    }
    stages(&mut md, reports);
    checks(&mut md, reports);
    copies(&mut md, reports);
    md
}

/// How many came out each way, and every score, of one stage.
type StageTally = (BTreeMap<&'static str, usize>, Vec<f64>);

/// A stage folder and its changed files with their hashes: one learner's work on it.
type Work<'a> = (String, Vec<(&'a str, &'a str)>);

/// Per stage: how many came out each way, and the mean and median score of the judged.
fn stages(md: &mut String, reports: &[SubmissionReport]) {
    let mut by_stage: BTreeMap<(u8, &str), StageTally> = BTreeMap::new();
    for report in reports {
        for stage in &report.stages {
            let entry = by_stage.entry((stage.stage, &stage.title)).or_default();
            *entry
                .0
                .entry(outcome(stage.verdict, stage.score))
                .or_default() += 1;
            entry.1.push(100.0 * stage.score);
        }
    }
    md.push_str("\n## Stages\n\n| stage |");
    for o in OUTCOMES {
        let _ = write!(md, " {o} |");
    }
    md.push_str(" mean score | median score |\n|---|");
    md.push_str(&"---|".repeat(OUTCOMES.len() + 2));
    md.push('\n');
    for ((_, title), (counts, mut scores)) in by_stage {
        let _ = write!(md, "| {title} |");
        for o in OUTCOMES {
            let _ = write!(md, " {} |", counts.get(o).copied().unwrap_or(0));
        }
        scores.sort_by(f64::total_cmp);
        let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
        let median = match scores.len() {
            0 => 0.0,
            n if n % 2 == 1 => scores[n / 2],
            n => (scores[n / 2 - 1] + scores[n / 2]) / 2.0,
        };
        let _ = writeln!(md, " {mean:.1} | {median:.1} |");
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
/// `submission (NN check)`, or empty for a stage that was not judged at all.
pub type Group = (String, Vec<String>);

/// The checks that fail in stages the learners started, most failed first.
pub fn failing_checks(reports: &[SubmissionReport]) -> Vec<FailingCheck> {
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
/// blocked or not judged count as their own kinds, without places.
pub fn anomalies(reports: &[SubmissionReport]) -> Vec<Group> {
    let mut groups = grouped(reports, |failure| {
        Some(
            failure
                .map_or("not every case judged", |f| f.anomaly.as_str())
                .to_owned(),
        )
    });
    let mut unbuilt: BTreeMap<&str, usize> = BTreeMap::new();
    for stage in reports.iter().flat_map(|r| &r.stages) {
        if matches!(
            stage.verdict,
            Verdict::DoesNotBuild | Verdict::Blocked | Verdict::NotJudged
        ) {
            *unbuilt.entry(stage.verdict.text()).or_default() += 1;
        }
    }
    for (kind, count) in unbuilt {
        groups.push((kind.to_owned(), vec![String::new(); count]));
    }
    sort_groups(&mut groups);
    groups
}

/// Failures grouped by the misconception recognised behind them (its card's title),
/// most frequent first; failures with none recognised are left out.
pub fn misconceptions(reports: &[SubmissionReport]) -> Vec<Group> {
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

/// The failing checks, who fails them, the misconceptions and the anomalies.
fn checks(md: &mut String, reports: &[SubmissionReport]) {
    md.push_str(
        "\n## Failing checks\n\nIn stages the learners started (not started, not building and \
         blocked are counted in the stage table, not here).\n\n\
         | stage | check | core | submissions failing | who |\n|---|---|---|---|---|\n",
    );
    for row in failing_checks(reports) {
        let core = if row.gate { "yes" } else { "" };
        let _ = writeln!(
            md,
            "| {} | {} | {core} | {} | {} |",
            row.stage,
            row.check,
            row.who.len(),
            row.who.join(", ")
        );
    }
    let misconceptions = misconceptions(reports);
    if !misconceptions.is_empty() {
        md.push_str(
            "\n## Misconceptions\n\nFailures grouped by the misconception recognised behind \
             them (the card a learner's report shows):\n\n\
             | misconception | occurrences | where |\n|---|---|---|\n",
        );
        for (card, places) in misconceptions {
            let _ = writeln!(md, "| {card} | {} | {} |", places.len(), places.join(", "));
        }
    }
    md.push_str("\n## Anomalies\n\n| anomaly | occurrences | where |\n|---|---|---|\n");
    for (anomaly, places) in anomalies(reports) {
        let places: Vec<&str> = places
            .iter()
            .map(String::as_str)
            .filter(|p| !p.is_empty())
            .collect();
        let _ = writeln!(
            md,
            "| {anomaly} | {} | {} |",
            places.len().max(1),
            places.join(", ")
        );
    }
}

/// Per submission with copies of the reference, the stages (`08`) flagged.
pub fn reference_copies(reports: &[SubmissionReport]) -> Vec<(String, Vec<String>)> {
    reports
        .iter()
        .filter(|r| !r.files.copies_of_reference.is_empty())
        .map(|r| (r.submission.clone(), copied_stages(r)))
        .collect()
}

/// Stage folders whose changed files are byte for byte the same in more than one
/// submission, with those submissions.
pub fn identical(reports: &[SubmissionReport]) -> Vec<(String, Vec<String>)> {
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

/// Copies of the reference, and pairs of submissions whose changed files of a stage are
/// byte for byte the same.
fn copies(md: &mut String, reports: &[SubmissionReport]) {
    let copies = reference_copies(reports);
    if !copies.is_empty() {
        md.push_str(
            "\n## Matches the reference\n\nStages whose sources match the reference once \
             comments and whitespace are set aside (scores unchanged):\n\n\
             | submission | stages |\n|---|---|\n",
        );
        for (who, stages) in copies {
            let _ = writeln!(md, "| {who} | {} |", stages.join(", "));
        }
    }
    let pairs = identical(reports);
    if !pairs.is_empty() {
        md.push_str(
            "\n## Identical submissions\n\nStages whose changed files are the same, byte for \
             byte, in more than one submission (scores unchanged):\n\n\
             | stage | submissions |\n|---|---|\n",
        );
        for (folder, who) in pairs {
            let _ = writeln!(md, "| {folder} | {} |", who.join(", "));
        }
    }
}
