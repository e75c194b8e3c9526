//! The heatmap of `cohort.html`: a row per submission, a column per check, each cell
//! passed, failed (its anomaly and misconception in the tooltip), not started, not
//! built (where, in the tooltip), or not judged; and per row how many checks fail.
//!
//! A stage that did not build, was blocked or not judged has no check of its own in its
//! report, yet none of its checks passed: each of its cells counts as failing, as does
//! every cell of a submission that was not graded at all. Otherwise a submission whose
//! stage does not build would count fewer failures than one whose stage builds and is
//! wrong. A stage for which no report has a check at all gets one column of its own, so
//! that it is shown and counted.

use std::fmt::Write as _;

use super::markup::{CLOSE_TABLE, class, columns, escape, open_table, submission_cell};
use super::places::stage_place;
use crate::cli::grade::model::{StageGrade, SubmissionReport, Verdict};

/// A column: its stage and check index (`None` for a stage no report has a check of),
/// and its header.
type Column = ((u8, Option<usize>), String);

/// Submissions × checks: each cell passed, failed (with the anomaly and misconception in
/// its tooltip), not started, not built, or not judged.
pub(super) fn heatmap(html: &mut String, reports: &[SubmissionReport]) {
    let checks = every_column(reports);
    html.push_str(
        "<section id=\"heatmap\">\n<h2>Submissions × checks</h2>\n\
         <p class=\"legend\"><span class=\"pass\">pass</span> <span class=\"fail\">fail</span> \
         <span class=\"todo\">not started</span> <span class=\"unbuilt\">does not build or \
         blocked</span> <span class=\"none\">not judged</span></p>\n\
         <p class=\"note\"><em>failing</em> counts the checks that fail, with every check of a \
         stage that does not build, is blocked or was not judged, and of a submission not \
         graded; not started is not counted.</p>\n",
    );
    html.push_str(&open_table("sortable heat"));
    html.push_str("<thead><tr><th>submission</th><th>failing</th>");
    for (_, name) in &checks {
        let _ = write!(
            html,
            "<th class=\"check\"><span>{}</span></th>",
            escape(name)
        );
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for report in reports {
        let mut cells = String::new();
        let mut failing = 0;
        for ((stage, i), name) in &checks {
            let grade = report.stages.iter().find(|s| s.stage == *stage);
            let cell = cell(report, grade, *i);
            failing += usize::from(cell.failing);
            let _ = write!(
                cells,
                "<td class=\"{}\" title=\"{}: {}\"></td>",
                cell.class,
                escape(name),
                escape(&cell.title)
            );
        }
        let _ = writeln!(
            html,
            "<tr>{}<td>{failing}</td>{cells}</tr>",
            submission_cell(&report.submission)
        );
    }
    html.push_str(CLOSE_TABLE);
    html.push_str("</section>\n");
}

/// Every check any report has, in stage order, and a column of its own for each stage
/// that no report has a check of.
fn every_column(reports: &[SubmissionReport]) -> Vec<Column> {
    let stages = columns(reports, |s| vec![(s.stage, format!("{:02}", s.stage))]);
    let checks = columns(reports, |s| {
        s.checks
            .iter()
            .enumerate()
            .map(|(i, c)| ((s.stage, Some(i)), format!("{:02} {}", s.stage, c.name)))
            .collect()
    });
    let mut all = checks.clone();
    for (stage, name) in stages {
        if !checks.iter().any(|((s, _), _)| *s == stage) {
            all.push(((stage, None), name));
        }
    }
    all.sort_by_key(|(key, _)| *key);
    all
}

/// One heatmap cell: its class, its tooltip, and whether it counts as failing.
struct Cell {
    class: &'static str,
    title: String,
    failing: bool,
}

fn cell(report: &SubmissionReport, grade: Option<&StageGrade>, check: Option<usize>) -> Cell {
    let of = |class, title: String, failing| Cell {
        class,
        title,
        failing,
    };
    let Some(stage) = grade else {
        return match &report.error {
            Some(_) => of("none", report.overall().to_owned(), true),
            None => of("none", "not graded".to_owned(), false),
        };
    };
    match check.and_then(|i| stage.checks.get(i)) {
        Some(c) if c.passed => of("pass", "passed".to_owned(), false),
        Some(_) if stage.verdict == Verdict::NotStarted => {
            of("todo", "not started".to_owned(), false)
        }
        Some(c) => match &c.failure {
            Some(f) => of(
                "fail",
                match &f.misconception {
                    Some(m) => format!("{}; {m}", f.anomaly),
                    None => f.anomaly.clone(),
                },
                true,
            ),
            None => of("fail", "not every case judged".to_owned(), true),
        },
        None => {
            let unjudged = matches!(
                stage.verdict,
                Verdict::DoesNotBuild | Verdict::Blocked | Verdict::NotJudged
            );
            let title = match stage_place(stage).filter(|_| unjudged) {
                Some(place) => format!("{}: {place}", stage.verdict.text()),
                None => stage.verdict.text().to_owned(),
            };
            of(class(stage.verdict, false), title, unjudged)
        }
    }
}
