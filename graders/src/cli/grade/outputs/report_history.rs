//! The part of `report.md` that says where each stage's grade came from when runs
//! differ: the stages kept from an earlier run, and every change of a stage's score.

use std::fmt::Write as _;

use crate::cli::grade::model::SubmissionReport;

/// The section, or nothing when one run judged every stage and none was judged twice.
pub(super) fn section(report: &SubmissionReport) -> String {
    let this_run = |stage: &u8| {
        report.stage_runs.get(stage).is_none_or(|run| {
            run.draw == report.draw && run.graded_at == report.provenance.graded_at
        })
    };
    let kept: Vec<String> = report
        .stages
        .iter()
        .filter(|s| !this_run(&s.stage))
        .filter_map(|s| {
            let run = report.stage_runs.get(&s.stage)?;
            Some(format!(
                "- {}: graded at {}, grader revision {}, seed {}",
                s.title, run.graded_at, run.grader_revision, run.seed
            ))
        })
        .collect();
    let regraded = report.history.iter().any(|c| c.from.is_some());
    if kept.is_empty() && !regraded {
        return String::new();
    }
    let mut md = String::from("\n## Earlier runs\n\n");
    if !kept.is_empty() {
        md.push_str("Kept from an earlier run, which this one did not judge again:\n\n");
        for line in kept {
            let _ = writeln!(md, "{line}");
        }
        md.push('\n');
    }
    md.push_str("Every change of a stage's score, oldest first:\n\n");
    md.push_str("| stage | from | to | graded at | grader revision | seed |\n");
    md.push_str("|---|---|---|---|---|---|\n");
    for change in &report.history {
        let from = change
            .from
            .map_or_else(|| "—".to_owned(), |f| format!("{:.0}%", f * 100.0));
        let _ = writeln!(
            md,
            "| {:02} | {from} | {:.0}% | {} | {} | {} |",
            change.stage,
            change.to * 100.0,
            change.run.graded_at,
            change.run.grader_revision,
            change.run.seed
        );
    }
    md
}
