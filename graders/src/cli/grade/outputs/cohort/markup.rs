//! The small pieces every section of `cohort.html` is made of: text escaped, a table in
//! a box of its own that scrolls sideways (a phone's width is narrower than a heatmap's,
//! and the page must not scroll sideways), a submission's name linked to its report, the
//! columns a table has across every report, and the CSS class of a verdict.

use std::collections::BTreeMap;

use crate::cli::grade::model::{StageGrade, SubmissionReport, Verdict};
use crate::cli::grade::outputs::folder::report_href;

/// A table of CSS `class` opened in its own box, which scrolls where the page is narrower.
pub(super) fn open_table(class: &str) -> String {
    format!("<div class=\"scroll\">\n<table class=\"{class}\">\n")
}

/// Closes the body, the table and the box [`open_table`] opened.
pub(super) const CLOSE_TABLE: &str = "</tbody>\n</table>\n</div>\n";

/// A row's first cell: the submission's name, escaped, linking to its report.
pub(super) fn submission_cell(submission: &str) -> String {
    format!(
        "<td><a href=\"{}\">{}</a></td>",
        escape(&report_href(submission)),
        escape(submission)
    )
}

/// Text as HTML (and XML) text or attribute value.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Every column `of` gives any stage of any report, in stage order, each once.
pub(super) fn columns<K: Ord + Clone>(
    reports: &[SubmissionReport],
    of: impl Fn(&StageGrade) -> Vec<(K, String)>,
) -> Vec<(K, String)> {
    let mut all: BTreeMap<K, String> = BTreeMap::new();
    for stage in reports.iter().flat_map(|r| &r.stages) {
        for (key, name) in of(stage) {
            all.entry(key).or_insert(name);
        }
    }
    all.into_iter().collect()
}

/// The CSS class of a stage's verdict.
pub(super) fn class(verdict: Verdict, partial: bool) -> &'static str {
    match verdict {
        Verdict::Passed => "pass",
        Verdict::Failed if partial => "partial",
        Verdict::Failed => "fail",
        Verdict::NotStarted => "todo",
        Verdict::DoesNotBuild | Verdict::Blocked => "unbuilt",
        Verdict::NotJudged | Verdict::NoGrader => "none",
    }
}
