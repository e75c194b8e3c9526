//! Where a stage that was never judged case by case went wrong, as the cohort's "where"
//! cells and tooltips say it: for a stage that does not build, the first compiler error's
//! file and line; for one blocked or not judged, and for a submission not graded at all,
//! the first line of what its report says. A failing check's place is its own name
//! ([`super::findings`]); these stages have no failing check to name.

use crate::cli::grade::model::{StageGrade, SubmissionReport, Verdict};

/// How much of a report's sentence a cell shows: the table stays a table.
const MOST_CHARS: usize = 80;

/// `submission (NN what)`: where stage `stage` of `report` went wrong, when it was not
/// judged case by case (it does not build, was blocked or not judged); `None` otherwise.
pub(super) fn unjudged(report: &SubmissionReport, stage: &StageGrade) -> Option<String> {
    if !matches!(
        stage.verdict,
        Verdict::DoesNotBuild | Verdict::Blocked | Verdict::NotJudged
    ) {
        return None;
    }
    let place = stage_place(stage).unwrap_or_else(|| stage.verdict.text().to_owned());
    Some(format!(
        "{} ({:02} {place})",
        report.submission, stage.stage
    ))
}

/// What a stage's report says of where it went wrong, without the submission's name:
/// `stages/04-event-time/src/lib.rs:12` for a build, the reason's first line else;
/// `None` when it says nothing.
pub(super) fn stage_place(stage: &StageGrade) -> Option<String> {
    let errors = stage.errors.as_deref().unwrap_or("");
    if stage.verdict == Verdict::DoesNotBuild
        && let Some(at) = first_error_location(errors)
    {
        return Some(at);
    }
    Some(first_line(errors).to_owned()).filter(|line| !line.is_empty())
}

/// `submission (why)`: a submission not graded at all, with its report's reason.
pub(super) fn ungraded(report: &SubmissionReport) -> Option<String> {
    let error = report.error.as_deref()?;
    Some(format!("{} ({})", report.submission, first_line(error)))
}

/// `file:line` of the compiler's first error, from its `--> file:line:column` line.
fn first_error_location(errors: &str) -> Option<String> {
    let at = errors
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("--> "))?
        .trim();
    // `file:line:column`: the column is dropped, a path may hold `:` of its own.
    let mut parts = at.rsplitn(3, ':');
    let (column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let numbers = [column, line]
        .iter()
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    Some(if numbers {
        format!("{file}:{line}")
    } else {
        at.to_owned()
    })
}

/// The first non-blank line of `text`, at most [`MOST_CHARS`] characters of it.
fn first_line(text: &str) -> &str {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty());
    let line = line.unwrap_or("");
    match line.char_indices().nth(MOST_CHARS) {
        Some((end, _)) => &line[..end],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unbuilt(verdict: Verdict, errors: &str) -> StageGrade {
        StageGrade {
            stage: 4,
            title: "stage 04".to_owned(),
            verdict,
            score: 0.0,
            weight: 1.0,
            checks: Vec::new(),
            errors: Some(errors.to_owned()),
            cases_judged: 0,
            seconds: 0.0,
            over_your_stages: None,
            printed: Vec::new(),
        }
    }

    #[test]
    fn a_build_is_placed_at_its_first_error_and_the_rest_by_their_reason() {
        let errors = "error[E0308]: mismatched types\n  --> stages/04-event-time/src/lib.rs:12:5\n   |\n\
                      error[E0425]: cannot find value\n  --> stages/04-event-time/src/x.rs:3:1";
        let place = |verdict, errors: &str| stage_place(&unbuilt(verdict, errors));
        assert_eq!(
            place(Verdict::DoesNotBuild, errors).as_deref(),
            Some("stages/04-event-time/src/lib.rs:12")
        );
        // A build that failed with no place (a time limit, a linker) says its first line.
        assert_eq!(
            place(Verdict::DoesNotBuild, "\nthe build took over 600 s\nmore").as_deref(),
            Some("the build took over 600 s")
        );
        let blocked = "stage 03 does not build, and this stage depends on it";
        assert_eq!(place(Verdict::Blocked, blocked).as_deref(), Some(blocked));
        let long = "x".repeat(200);
        assert_eq!(
            place(Verdict::NotJudged, &long).map(|p| p.len()),
            Some(MOST_CHARS)
        );
        assert_eq!(place(Verdict::NotJudged, " \n"), None);
    }
}
