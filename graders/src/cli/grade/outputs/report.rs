//! What `byo grade` writes per submission: `report.md`, `report.json`, and optionally
//! Gradescope's `results.json` ([`super::gradescope`]) and JUnit's `junit.xml`
//! ([`super::formats`]). The files
//! across submissions are [`super::gradebook`]'s.
//!
//! In `report.md`, the stages a learner has not started (every failing check reached a
//! `todo!()` of the skeleton: [`Verdict::NotStarted`]) share one line, since a block each
//! would repeat the same `todo!()` once per check and bury the stages that need reading.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use super::folder::{REPORT_MD, write};
use super::formats;
use super::gradescope::{self, Visibility};
use super::inert::{code, fence, text};
use super::{report_history, report_printed};
use crate::cli::grade::model::{SubmissionReport, Verdict};

/// Writes one submission's reports into `dir` (`results.json` when `gradescope` gives
/// its tests' visibility, with what the code printed when `printed_in_results`).
///
/// # Errors
/// When a file cannot be written.
pub fn write_submission(
    dir: &Path,
    report: &SubmissionReport,
    gradescope: Option<Visibility>,
    junit: bool,
    printed_in_results: bool,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write(dir, REPORT_MD, &markdown(report))?;
    write(dir, "report.json", &serde_json::to_string_pretty(report)?)?;
    if let Some(visibility) = gradescope {
        write(
            dir,
            "results.json",
            &serde_json::to_string_pretty(&gradescope::results(
                report,
                visibility,
                printed_in_results,
            ))?,
        )?;
    }
    if junit {
        write(dir, "junit.xml", &formats::junit_xml(report)?)?;
    }
    Ok(())
}

/// The human report of one submission.
pub fn markdown(report: &SubmissionReport) -> String {
    let mut md = String::new();
    // The folder's name is the submission's: shown, never obeyed.
    let _ = writeln!(md, "# Grade report: {}\n", text(&report.submission));
    let _ = writeln!(md, "Total: **{:.1} / 100**\n", report.total);
    let p = &report.provenance;
    let _ = writeln!(md, "- submission: {}", code(&report.submission));
    let term = &report.term;
    if let Some(student) = &term.student {
        let _ = writeln!(
            md,
            "- student: {} ({})",
            code(&student.id),
            text(&student.name)
        );
    }
    if let Some(at) = &term.submitted_at {
        let late = match (term.due.as_deref(), term.late_minutes) {
            (Some(due), Some(0)) => format!("; due {due}: on time"),
            (Some(due), Some(m)) => format!("; due {due}: **late by {m} min**"),
            _ => String::new(),
        };
        let _ = writeln!(md, "- handed in: {at} (its newest graded file){late}");
    }
    let _ = writeln!(
        md,
        "- seed: {} (the run's seed {} with this submission's salt {}; \
         `cargo byo test NN --seed {} --case N` replays case N of stage NN)",
        report.seed, report.draw.run_seed, report.draw.salt, report.seed
    );
    let _ = writeln!(
        md,
        "- grader revision: {}{}",
        p.grader_revision,
        if p.grader_tree_clean {
            ""
        } else {
            " (the checkout had uncommitted edits; the committed tree was graded)"
        }
    );
    let _ = writeln!(md, "- Cargo.lock (git blob): {}", p.lock_hash);
    let _ = writeln!(md, "- toolchain: {}", p.toolchain);
    if p.sandboxed {
        let _ = writeln!(
            md,
            "- sandbox: bubblewrap (read-only file system, no network, own processes)"
        );
    } else {
        let _ = writeln!(
            md,
            "- sandbox: **none**: graded with `--no-sandbox`, the submission's code ran unconfined"
        );
    }
    let _ = writeln!(
        md,
        "- time limits: {} s per case, {} s per build",
        p.case_time_limit_seconds, p.build_time_limit_seconds
    );
    let _ = writeln!(md, "- graded at: {}", p.graded_at);
    let _ = writeln!(md, "- grading time: {:.1} s\n", report.seconds);
    if let Some(error) = &report.error {
        let _ = writeln!(
            md,
            "**This submission could not be graded:** {}\n",
            text(error)
        );
    }
    let _ = writeln!(
        md,
        "| stage | result | checks passed | score | weight | time |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for stage in &report.stages {
        let passed = stage.checks.iter().filter(|c| c.passed).count();
        let _ = writeln!(
            md,
            "| {} | {} | {passed}/{} | {:.0}% | {} | {:.1} s |",
            stage.title,
            stage.verdict.text(),
            stage.checks.len(),
            stage.score * 100.0,
            stage.weight,
            stage.seconds
        );
    }
    let not_started: Vec<String> = report
        .stages
        .iter()
        .filter(|s| s.verdict == Verdict::NotStarted)
        .map(|s| format!("{:02}", s.stage))
        .collect();
    match not_started.len() {
        0 => {}
        1 => {
            let _ = writeln!(md, "\nNot started: {} — it scores 0", not_started[0]);
        }
        _ => {
            let _ = writeln!(
                md,
                "\nNot started: {} — each scores 0",
                not_started.join(", ")
            );
        }
    }
    let over_yours: Vec<String> = report
        .stages
        .iter()
        .filter_map(|s| s.over_your_stages.as_ref().map(|o| o.sentence(s)))
        .collect();
    if !over_yours.is_empty() {
        let _ = writeln!(
            md,
            "\n## Over your own earlier stages\n\n\
             Each stage is scored over the references of the earlier stages it uses, so a \
             mistake costs only the stage it is in. Where one of yours did not pass, the \
             later stages that use it were also judged over yours (not scored):\n"
        );
        for sentence in over_yours {
            let _ = writeln!(md, "- {sentence}.");
        }
    }
    for stage in &report.stages {
        let failing: Vec<_> = stage
            .checks
            .iter()
            .filter(|c| c.failure.is_some())
            .collect();
        if matches!(stage.verdict, Verdict::Passed | Verdict::NotStarted) {
            continue;
        }
        let _ = writeln!(md, "\n## {}: {}\n", stage.title, stage.verdict.text());
        let gates: Vec<&str> = stage
            .checks
            .iter()
            .filter(|c| c.gate && !c.passed)
            .map(|c| c.name.as_str())
            .collect();
        if !gates.is_empty() {
            let _ = writeln!(
                md,
                "The stage's core law is not met ({}): it earns nothing until it is.\n",
                gates.join(", ")
            );
        }
        if let Some(errors) = &stage.errors {
            let _ = writeln!(md, "{}", fence("text", errors));
        }
        for check in failing {
            if let Some(failure) = &check.failure {
                let _ = writeln!(
                    md,
                    "- **{}** ({}):\n\n{}\n",
                    check.name,
                    failure.anomaly,
                    fence("text", &failure.detail)
                );
            }
        }
        for check in stage
            .checks
            .iter()
            .filter(|c| !c.passed && c.failure.is_none())
        {
            let _ = writeln!(
                md,
                "- **{}** (not judged): the driver stopped before every case of this check ran; it earns nothing",
                check.name
            );
        }
    }
    md.push_str(&report_printed::section(report));
    md.push_str(&report_history::section(report));
    let files = &report.files;
    let _ = writeln!(md, "\n## Files\n");
    let _ = writeln!(
        md,
        "Graded from the submission: {} file(s), of which changed from the skeleton ({}): {}",
        files.overlaid.len(),
        report.changed_from_skeleton.len(),
        list(&report.changed_from_skeleton)
    );
    let _ = writeln!(
        md,
        "\nIgnored (changed, but never used by grading) ({}): {}",
        files.ignored.len(),
        list(&files.ignored)
    );
    let _ = writeln!(
        md,
        "\nRefused ({}): {}",
        files.refused.len(),
        list(&files.refused)
    );
    md.push_str(&super::similarity::section(report));
    md
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.iter().map(|i| code(i)).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
