//! The heatmap of `cohort.html`: a row per submission, a column per check, each cell
//! passed, failed (its anomaly and misconception in the tooltip), not started, not
//! built, or not judged.

use std::fmt::Write as _;

use super::markup::{class, columns, escape};
use crate::cli::grade::model::{StageGrade, SubmissionReport, Verdict};

/// Submissions × checks: each cell passed, failed (with the anomaly and misconception in
/// its tooltip), not started, or not judged.
pub(super) fn heatmap(html: &mut String, reports: &[SubmissionReport]) {
    let checks = columns(reports, |s| {
        s.checks
            .iter()
            .enumerate()
            .map(|(i, c)| ((s.stage, i), format!("{:02} {}", s.stage, c.name)))
            .collect()
    });
    html.push_str(
        "<section id=\"heatmap\">\n<h2>Submissions × checks</h2>\n\
         <p class=\"legend\"><span class=\"pass\">pass</span> <span class=\"fail\">fail</span> \
         <span class=\"todo\">not started</span> <span class=\"unbuilt\">does not build or \
         blocked</span> <span class=\"none\">not judged</span></p>\n\
         <table class=\"sortable heat\">\n<thead><tr><th>submission</th><th>failing</th>",
    );
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
            let (class, title) = cell(grade, *i);
            failing += usize::from(class == "fail");
            let _ = write!(
                cells,
                "<td class=\"{class}\" title=\"{}: {}\"></td>",
                escape(name),
                escape(&title)
            );
        }
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{failing}</td>{cells}</tr>",
            escape(&report.submission)
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
}

/// One heatmap cell: its class and its tooltip.
fn cell(grade: Option<&StageGrade>, check: usize) -> (&'static str, String) {
    let Some(stage) = grade else {
        return ("none", "not graded".to_owned());
    };
    match stage.checks.get(check) {
        Some(c) if c.passed => ("pass", "passed".to_owned()),
        Some(_) if stage.verdict == Verdict::NotStarted => ("todo", "not started".to_owned()),
        Some(c) => match &c.failure {
            Some(f) => (
                "fail",
                match &f.misconception {
                    Some(m) => format!("{}; {m}", f.anomaly),
                    None => f.anomaly.clone(),
                },
            ),
            None => ("fail", "not every case judged".to_owned()),
        },
        None => (class(stage.verdict, false), stage.verdict.text().to_owned()),
    }
}
