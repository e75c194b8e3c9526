//! The part of `report.md` that shows what the learner's code printed while each stage
//! was judged: the first and last lines the driver kept, grouped by case and run.

use std::fmt::Write as _;

use super::inert::fence;
use crate::cli::grade::model::SubmissionReport;
use crate::harness::printed::{PrintedLine, grouped};

/// The section, or nothing when no stage's code printed anything.
pub(super) fn section(report: &SubmissionReport) -> String {
    let printing: Vec<_> = report
        .stages
        .iter()
        .filter(|s| !s.printed.is_empty())
        .collect();
    if printing.is_empty() {
        return String::new();
    }
    let mut md = String::from(
        "\n## What your code printed\n\n\
         The first and last lines each stage's code printed while it was judged, under the \
         case (and run) that printed them:\n",
    );
    for stage in printing {
        // Inside one fence the text cannot close: the places' run labels come from the
        // driver's process too.
        let shown = as_text(&stage.printed);
        let _ = write!(md, "\n### {}\n\n{}\n", stage.title, fence("text", &shown));
    }
    md
}

/// Printed lines as plain text, each run of them under a `--- case 12 · run` line: what
/// `report.md` fences and `results.json` shows as it is.
pub(super) fn as_text(printed: &[PrintedLine]) -> String {
    let mut text = String::new();
    for (place, lines) in grouped(printed) {
        if let Some(place) = place {
            let _ = writeln!(text, "--- {place}");
        }
        for line in lines {
            let _ = writeln!(text, "{line}");
        }
    }
    text.trim_end().to_owned()
}
