//! The files across submissions: `grades.csv` and `grades.json` (one row per submission:
//! its verdict, seed, a column per stage, the total, the stages flagged as like the
//! reference or the graders' oracles, the submissions it is alike with, and the student's
//! id, name, hand-in time and lateness when `--roster` and `--due` gave them), `cohort.md` and
//! `cohort.html` ([`super::cohort`]), rebuilt from every `report.json` in the output
//! folder, so that regrading one submission changes its row and no other (but for who is
//! alike with it).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::cohort::findings::Findings;
use super::cohort::{html, markdown};
use super::folder::write;
use super::inert::csv_cell;
use crate::cli::grade::model::SubmissionReport;

/// Every `report.json` one folder down in `out`, by submission name.
///
/// # Errors
/// When `out` cannot be listed, or a `report.json` in it cannot be read or understood
/// (a gradebook that silently dropped a row would be wrong).
pub fn read_reports(out: &Path) -> Result<Vec<SubmissionReport>> {
    let mut reports = Vec::new();
    let entries = std::fs::read_dir(out).with_context(|| format!("listing {}", out.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("listing {}", out.display()))?;
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        reports.extend(read_report(&entry.path())?);
    }
    reports.sort_by(|a, b| a.submission.cmp(&b.submission));
    Ok(reports)
}

/// The `report.json` in `dir`, if there is one.
///
/// # Errors
/// When it is there but cannot be read or understood.
pub fn read_report(dir: &Path) -> Result<Option<SubmissionReport>> {
    let path = dir.join("report.json");
    if !path.is_file() {
        return Ok(None);
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let report = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a report byo grade wrote; remove it or grade into another --out",
            path.display()
        )
    })?;
    Ok(Some(report))
}

/// Rebuilds `grades.csv`, `grades.json`, `cohort.md` and `cohort.html` in `out` from every report there.
///
/// # Errors
/// When a report cannot be read or a file cannot be written.
pub fn write_gradebook(out: &Path) -> Result<()> {
    let reports = read_reports(out)?;
    let stages: BTreeSet<u8> = reports
        .iter()
        .flat_map(|r| r.stages.iter().map(|s| s.stage))
        .collect();
    let mut csv = String::from("submission,verdict,seed");
    for stage in &stages {
        let _ = write!(csv, ",{stage:02}");
    }
    csv.push_str(",total,copies_of_reference,copies_of_peers,student_id,student_name,submitted_at,late_minutes\n");
    let findings = Findings::gather(&reports);
    let mut rows = Vec::new();
    for report in &reports {
        let verdict = report.overall();
        let _ = write!(
            csv,
            "{},{verdict},{}",
            csv_cell(&report.submission),
            report.seed
        );
        let mut row = serde_json::Map::new();
        row.insert("submission".into(), json!(report.submission));
        row.insert("verdict".into(), json!(verdict));
        for stage in &stages {
            // A stage never judged for this student is blank (null), not 0.
            let score = report
                .stages
                .iter()
                .find(|s| s.stage == *stage)
                .map(|s| 100.0 * s.score);
            match score {
                Some(score) => {
                    let _ = write!(csv, ",{score:.1}");
                    row.insert(format!("{stage:02}"), json!((score * 10.0).round() / 10.0));
                }
                None => {
                    csv.push(',');
                    row.insert(format!("{stage:02}"), serde_json::Value::Null);
                }
            }
        }
        let copies = report.copied_stages();
        let peers = peers_of(&findings, &report.submission);
        let term = &report.term;
        let (id, name) = term
            .student
            .as_ref()
            .map_or(("", ""), |s| (s.id.as_str(), s.name.as_str()));
        let _ = writeln!(
            csv,
            ",{:.1},{},{},{},{},{},{}",
            report.total,
            csv_cell(&copies.join(" ")),
            csv_cell(&peers.join("; ")),
            csv_cell(id),
            csv_cell(name),
            term.submitted_at.as_deref().unwrap_or(""),
            term.late_minutes.map(|m| m.to_string()).unwrap_or_default()
        );
        row.insert(
            "student_id".into(),
            json!(term.student.as_ref().map(|s| &s.id)),
        );
        row.insert(
            "student_name".into(),
            json!(term.student.as_ref().map(|s| &s.name)),
        );
        row.insert("submitted_at".into(), json!(term.submitted_at));
        row.insert("late_minutes".into(), json!(term.late_minutes));
        row.insert("total".into(), json!((report.total * 10.0).round() / 10.0));
        row.insert("copies_of_reference".into(), json!(copies));
        row.insert("copies_of_peers".into(), json!(peers));
        row.insert("seed".into(), json!(report.seed));
        rows.push(serde_json::Value::Object(row));
    }
    write(out, "grades.csv", &csv)?;
    write(out, "grades.json", &serde_json::to_string_pretty(&rows)?)?;
    write(out, "cohort.md", &markdown::page(&findings))?;
    write(out, "cohort.html", &html::page(&findings))
}

/// The submissions `name` is alike with, as `08:bob`, by stage, then by name.
fn peers_of(findings: &Findings<'_>, name: &str) -> Vec<String> {
    let mut alike: Vec<(u8, &str)> = findings
        .peers
        .iter()
        .filter_map(|p| {
            let other = if p.first == name {
                &p.second
            } else if p.second == name {
                &p.first
            } else {
                return None;
            };
            Some((p.stage, other.as_str()))
        })
        .collect();
    alike.sort_unstable();
    alike
        .into_iter()
        .map(|(stage, other)| format!("{stage:02}:{other}"))
        .collect()
}

#[cfg(test)]
#[path = "gradebook_tests.rs"]
mod tests;
