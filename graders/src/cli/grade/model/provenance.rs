//! Where a grade came from, so that it can be defended and replayed later: the grader's
//! commit and whether its tree was clean, the lock file, the toolchain, the limits and
//! the date. (The hash of every file graded is intake's, beside the files.)

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Where the grades came from, so that a grade can be reproduced.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Provenance {
    /// The instructor repository's commit.
    pub grader_revision: String,
    /// Whether the instructor's checkout had no uncommitted edits (grading always uses
    /// the committed tree; edits mean the checkout no longer shows what was graded).
    #[serde(default)]
    pub grader_tree_clean: bool,
    /// `git hash-object Cargo.lock` of that commit.
    pub lock_hash: String,
    /// `rustc --version`.
    pub toolchain: String,
    /// Whether submissions' builds and drivers ran in the sandbox (`--no-sandbox`: not).
    #[serde(default)]
    pub sandboxed: bool,
    /// The per-case time limit, in seconds.
    #[serde(default)]
    pub case_time_limit_seconds: f64,
    /// The per-stage build time limit, in seconds.
    #[serde(default)]
    pub build_time_limit_seconds: f64,
    /// When grading started, in UTC (`2026-12-01T07:25:50Z`).
    #[serde(default)]
    pub graded_at: String,
}

impl Provenance {
    /// What the checkout at `root`, its committed tree `pristine` and the limits say.
    pub fn read(root: &Path, pristine: &Path, case: Duration, build: Duration) -> Self {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
        Self {
            grader_revision: command_output("git", &["rev-parse", "HEAD"], root),
            grader_tree_clean: command_output("git", &["status", "--porcelain"], root).is_empty(),
            lock_hash: command_output("git", &["hash-object", "Cargo.lock"], pristine),
            toolchain: command_output(&rustc, &["--version"], root),
            sandboxed: false,
            case_time_limit_seconds: case.as_secs_f64(),
            build_time_limit_seconds: build.as_secs_f64(),
            graded_at: utc(SystemTime::now()),
        }
    }
}

fn command_output(program: &str, args: &[&str], dir: &Path) -> String {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_civil_dates() {
        let at = |s: u64| utc(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_796_023_550), "2026-11-30T07:25:50Z");
    }
}
