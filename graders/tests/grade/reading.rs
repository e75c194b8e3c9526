//! Reading what `byo grade` wrote: a submission's `report.json`, a stage's verdict, a
//! check's anomaly, the files listed, and `report.md` with its varying lines elided.

use std::fs;
use std::path::Path;

use serde_json::Value;

pub fn report(out: &Path, name: &str) -> Value {
    serde_json::from_slice(&fs::read(out.join(name).join("report.json")).unwrap()).unwrap()
}

pub fn stage(report: &Value, number: u64) -> &Value {
    report["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"] == number)
        .unwrap_or_else(|| panic!("stage {number} in {report:#}"))
}

pub fn verdict(report: &Value, number: u64) -> String {
    stage(report, number)["verdict"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The anomaly of `check` in stage `number`, or "passed".
pub fn check(report: &Value, number: u64, name: &str) -> String {
    let check = stage(report, number)["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("check {name} in {report:#}"))
        .clone();
    if check["passed"] == true {
        "passed".to_owned()
    } else {
        check["failure"]["anomaly"]
            .as_str()
            .unwrap_or("incomplete")
            .to_owned()
    }
}

pub fn listed(report: &Value, kind: &str, needle: &str) -> bool {
    report["files"][kind]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f.as_str().unwrap().contains(needle))
}

/// `report` with the lines that differ from run to run (paths, commit, lock hash,
/// toolchain, timings) elided as `[..]`, as `tests/expected/*.report.md` holds them.
pub fn elide(report: &str) -> String {
    const VARYING: [&str; 5] = [
        "- graded at:",
        "- grader revision:",
        "- Cargo.lock (git blob):",
        "- toolchain:",
        "- grading time:",
    ];
    report
        .split('\n')
        .map(|line| {
            if let Some(key) = VARYING.iter().find(|k| line.starts_with(**k)) {
                format!("{key} [..]")
            } else if line.starts_with("| stage ") && line.ends_with(" s |") {
                let kept = line.trim_end_matches(" |");
                let cut = kept.rfind('|').map_or(0, |i| i + 1);
                format!("{} [..] |", &kept[..cut])
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The pinned text `graders/tests/expected/{name}`. With `BYO_PIN=overwrite`, `actual` is
/// written there first (as trycmd's `TRYCMD=overwrite`), for a change that moves it on
/// purpose: review the diff before committing it.
pub fn pinned(name: &str, actual: &str) -> String {
    let pin = super::submissions::repo()
        .join("graders/tests/expected")
        .join(name);
    if std::env::var_os("BYO_PIN").is_some_and(|v| v == "overwrite") {
        fs::write(&pin, actual).unwrap();
    }
    fs::read_to_string(&pin).unwrap()
}

/// Stage `number`'s failing checks, a line each (`check: anomaly: detail`), for an
/// assertion's message that a CI log does not cut short as it cuts a whole report.
pub fn failures(report: &Value, number: u64) -> String {
    stage(report, number)["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] != true)
        .map(|c| {
            format!(
                "{}: {}: {}",
                c["name"].as_str().unwrap_or("?"),
                c["failure"]["anomaly"].as_str().unwrap_or("incomplete"),
                c["failure"]["detail"]
                    .as_str()
                    .unwrap_or("")
                    .replace('\n', " / ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
