//! `cohort.md`: what the class misunderstands. Not started, blocked and wrong are counted
//! apart; each failing check names its students; failures are grouped by misconception
//! (where one is recognised) and by anomaly; each stage has its statistics; stages like
//! the reference or the graders' oracles, submissions alike and identical submissions are
//! flagged (scores unchanged: the instructor decides); a row per submission links to its
//! report.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::findings::Findings;
use crate::cli::grade::intake::likeness::THRESHOLD;
use crate::cli::grade::model::{SubmissionReport, Verdict};
use crate::cli::grade::outputs::folder::report_href;
use crate::cli::grade::outputs::inert::text;

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

/// How many matching regions a flag shows (each `report.json` has them all).
const REGIONS: usize = 2;

const OUTCOMES: [&str; 7] = [
    "mastered",
    "partial",
    "wrong",
    "not started",
    "does not build",
    "blocked",
    "not judged",
];

/// The cohort summary of the `findings`.
pub fn page(findings: &Findings<'_>) -> String {
    let reports = findings.reports;
    let mut md = format!(
        "# Cohort: {} submission(s)\n\n## Verdicts\n\n",
        reports.len()
    );
    let mut verdicts: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for report in reports {
        verdicts
            .entry(report.overall())
            .or_default()
            .push(&report.submission);
    }
    md.push_str("| verdict | submissions | who |\n|---|---|---|\n");
    for (verdict, who) in &verdicts {
        let _ = writeln!(md, "| {verdict} | {} | {} |", who.len(), names(who));
    }
    stages(&mut md, reports);
    checks(&mut md, findings);
    copies(&mut md, findings);
    submissions(&mut md, reports);
    md
}

/// A row per submission, its name a link to its report: verdict, total and each stage's
/// score (blank where its report has no such stage).
fn submissions(md: &mut String, reports: &[SubmissionReport]) {
    let stages: std::collections::BTreeSet<u8> = reports
        .iter()
        .flat_map(|r| r.stages.iter().map(|s| s.stage))
        .collect();
    md.push_str("\n## Submissions\n\n| submission | verdict | total |");
    for stage in &stages {
        let _ = write!(md, " {stage:02} |");
    }
    md.push_str("\n|---|---|---|");
    md.push_str(&"---|".repeat(stages.len()));
    md.push('\n');
    for report in reports {
        let _ = write!(
            md,
            "| [{}]({}) | {} | {:.1} |",
            text(&report.submission),
            report_href(&report.submission),
            report.overall(),
            report.total
        );
        for stage in &stages {
            match report.stages.iter().find(|s| s.stage == *stage) {
                Some(s) => {
                    let _ = write!(md, " {:.1} |", 100.0 * s.score);
                }
                None => md.push_str(" |"),
            }
        }
        md.push('\n');
    }
}

/// Submission names (or places that start with one), escaped, in a table cell.
fn names<S: AsRef<str>>(who: &[S]) -> String {
    who.iter()
        .map(|w| text(w.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many came out each way, and every score, of one stage.
type StageTally = (BTreeMap<&'static str, usize>, Vec<f64>);

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

/// The failing checks, who fails them, the misconceptions and the anomalies.
fn checks(md: &mut String, findings: &Findings<'_>) {
    md.push_str(
        "\n## Failing checks\n\nIn stages the learners started (not started, not building and \
         blocked are counted in the stage table, not here).\n\n\
         | stage | check | core | submissions failing | who |\n|---|---|---|---|---|\n",
    );
    for row in &findings.failing_checks {
        let core = if row.gate { "yes" } else { "" };
        let _ = writeln!(
            md,
            "| {} | {} | {core} | {} | {} |",
            row.stage,
            row.check,
            row.who.len(),
            names(&row.who)
        );
    }
    let misconceptions = &findings.misconceptions;
    if !misconceptions.is_empty() {
        md.push_str(
            "\n## Misconceptions\n\nFailures grouped by the misconception recognised behind \
             them (the card a learner's report shows):\n\n\
             | misconception | occurrences | where |\n|---|---|---|\n",
        );
        for (card, places) in misconceptions {
            let _ = writeln!(md, "| {card} | {} | {} |", places.len(), names(places));
        }
    }
    md.push_str("\n## Anomalies\n\n| anomaly | occurrences | where |\n|---|---|---|\n");
    for (anomaly, places) in &findings.anomalies {
        let _ = writeln!(md, "| {anomaly} | {} | {} |", places.len(), names(places));
    }
}

/// Stages like the reference or the graders' oracles, submissions alike, and pairs of
/// submissions whose changed files of a stage are byte for byte the same.
fn copies(md: &mut String, findings: &Findings<'_>) {
    let flagged = &findings.like_reference;
    if !flagged.is_empty() {
        let _ = write!(
            md,
            "\n## Like the reference or the graders' oracles\n\nStages whose own code (the \
             skeleton's given code set aside) has {:.0}% or more of its fingerprints (names, \
             literals and comments abstracted) in the stage's reference or in the graders' \
             oracles (scores unchanged: the instructor decides):\n\n\
             | submission | stage | how alike, and where |\n|---|---|---|\n",
            100.0 * THRESHOLD
        );
        for (who, stage, likeness) in flagged {
            let _ = writeln!(
                md,
                "| {} | {stage:02} | {} |",
                text(who),
                text(&likeness.described(REGIONS))
            );
        }
    }
    if !findings.peers.is_empty() {
        let _ = write!(
            md,
            "\n## Like another submission\n\nPairs of submissions where {:.0}% or more of \
             one's own code on a stage is in the other's, both ways (scores unchanged):\n\n\
             | stage | submissions | how alike, and where |\n|---|---|---|\n",
            100.0 * THRESHOLD
        );
        for pair in &findings.peers {
            let _ = writeln!(
                md,
                "| {:02} | {}, {} | {}: {} · {}: {} |",
                pair.stage,
                text(&pair.first),
                text(&pair.second),
                text(&pair.first),
                text(&pair.first_in_second.described(REGIONS)),
                text(&pair.second),
                text(&pair.second_in_first.described(REGIONS))
            );
        }
    }
    let pairs = &findings.identical;
    if !pairs.is_empty() {
        md.push_str(
            "\n## Identical submissions\n\nStages whose changed files are the same, byte for \
             byte, in more than one submission (scores unchanged):\n\n\
             | stage | submissions |\n|---|---|\n",
        );
        for (folder, who) in pairs {
            let _ = writeln!(md, "| {} | {} |", text(folder), names(who));
        }
    }
}
