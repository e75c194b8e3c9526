//! The files across submissions: `grades.csv` and `grades.json` (one row per submission,
//! one column per stage, the total) and `cohort.md` (which checks and anomalies fail most).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::model::{SubmissionReport, Verdict};
use super::output::write;

/// Writes `grades.csv`, `grades.json` and `cohort.md` for all `reports` into `out`.
///
/// # Errors
/// When a file cannot be written.
pub fn write_gradebook(out: &Path, reports: &[SubmissionReport], stages: &[u8]) -> Result<()> {
    let mut csv = String::from("submission");
    for stage in stages {
        let _ = write!(csv, ",{stage:02}");
    }
    csv.push_str(",total,copies_of_reference\n");
    let mut rows = Vec::new();
    for report in reports {
        let _ = write!(csv, "{}", csv_field(&report.submission));
        let mut row = serde_json::Map::new();
        row.insert("submission".into(), json!(report.submission));
        for stage in stages {
            let score = report
                .stages
                .iter()
                .find(|s| s.stage == *stage)
                .map_or(0.0, |s| 100.0 * s.score);
            let _ = write!(csv, ",{score:.1}");
            row.insert(format!("{stage:02}"), json!((score * 10.0).round() / 10.0));
        }
        let copies = copied_stages(report);
        let _ = writeln!(csv, ",{:.1},{}", report.total, csv_field(&copies.join(" ")));
        row.insert("total".into(), json!((report.total * 10.0).round() / 10.0));
        row.insert("copies_of_reference".into(), json!(copies));
        row.insert("seed".into(), json!(report.seed));
        rows.push(serde_json::Value::Object(row));
    }
    write(out, "grades.csv", &csv)?;
    write(out, "grades.json", &serde_json::to_string_pretty(&rows)?)?;
    write(out, "cohort.md", &cohort(reports))
}

/// The stage numbers (`08`) flagged as matching the reference.
fn copied_stages(report: &SubmissionReport) -> Vec<String> {
    report
        .files
        .copies_of_reference
        .iter()
        .map(|c| c.chars().take(2).collect())
        .collect()
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Which checks and anomalies fail most across the cohort.
fn cohort(reports: &[SubmissionReport]) -> String {
    let mut by_check: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut by_anomaly: BTreeMap<String, usize> = BTreeMap::new();
    for report in reports {
        for stage in &report.stages {
            if let Some(kind) = match stage.verdict {
                Verdict::DoesNotBuild => Some("does not build"),
                Verdict::Blocked => Some("blocked by an earlier stage"),
                Verdict::NotJudged => Some("not judged"),
                _ => None,
            } {
                *by_anomaly.entry(kind.to_owned()).or_default() += 1;
            }
            for check in &stage.checks {
                if let Some(failure) = &check.failure {
                    *by_check
                        .entry((stage.title.clone(), check.name.clone()))
                        .or_default() += 1;
                    *by_anomaly.entry(failure.anomaly.clone()).or_default() += 1;
                }
            }
        }
    }
    let mut md = format!(
        "# Cohort: {} submission(s)\n\n## Failing checks\n\n",
        reports.len()
    );
    let mut checks: Vec<_> = by_check.into_iter().collect();
    checks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("| stage | check | submissions failing |\n|---|---|---|\n");
    for ((stage, check), count) in checks {
        let _ = writeln!(md, "| {stage} | {check} | {count} |");
    }
    let copies: Vec<String> = reports
        .iter()
        .filter(|r| !r.files.copies_of_reference.is_empty())
        .map(|r| format!("| {} | {} |", r.submission, copied_stages(r).join(", ")))
        .collect();
    if !copies.is_empty() {
        md.push_str("\n## Matches the reference\n\nStages whose sources match the reference once comments and whitespace are set aside (scores unchanged):\n\n| submission | stages |\n|---|---|\n");
        for line in copies {
            let _ = writeln!(md, "{line}");
        }
    }
    let mut anomalies: Vec<_> = by_anomaly.into_iter().collect();
    anomalies.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("\n## Anomalies\n\n| anomaly | occurrences |\n|---|---|\n");
    for (anomaly, count) in anomalies {
        let _ = writeln!(md, "| {anomaly} | {count} |");
    }
    md
}
