//! Where a grade came from, so that it can be defended and replayed later: the grader's
//! commit and whether its tree was clean, the lock file, the toolchain, the limits, the
//! date, and a hash of every file graded; and the instructor's paths kept out of what a
//! student reads.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
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

/// The git blob hash of each of `paths` (relative to `dir`), as `git hash-object` gives
/// it, so a file graded can be matched to a copy later; "unknown" when git cannot say.
pub fn file_hashes(dir: &Path, paths: &[String]) -> BTreeMap<String, String> {
    let hashes = (|| {
        let mut child = Command::new("git")
            .args(["hash-object", "--no-filters", "--stdin-paths"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        // Absolute: inside a git checkout, `--stdin-paths` reads paths from the
        // checkout's top, not from the current folder.
        let list: String = paths
            .iter()
            .map(|p| format!("{}\n", dir.join(p).display()))
            .collect();
        stdin.write_all(list.as_bytes()).ok()?;
        drop(stdin);
        let output = child.wait_with_output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        (output.status.success() && lines.len() == paths.len()).then_some(lines)
    })();
    let hashes = hashes.unwrap_or_else(|| vec!["unknown".to_owned(); paths.len()]);
    paths.iter().cloned().zip(hashes).collect()
}

/// `text` with each of `folders` (and what follows it up to the next `/`) cut, so that
/// `/home/teacher/kata/target/byo-grade/workspace/stages/..` reads `stages/..`.
pub fn scrub(text: &str, folders: &[&Path]) -> String {
    let mut text = text.to_owned();
    for folder in folders {
        let prefix = folder.display().to_string();
        if prefix.len() > 1 {
            text = text
                .replace(&format!("{prefix}/"), "")
                .replace(&prefix, ".");
        }
    }
    text
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

    #[test]
    fn the_instructors_folders_do_not_show() {
        let workspace = Path::new("/home/t/kata/target/byo-grade/workspace");
        let text = "error: --> /home/t/kata/target/byo-grade/workspace/stages/03-p/src/lib.rs:3\n\
                    Compiling stage03 (/home/t/kata/target/byo-grade/workspace)";
        assert_eq!(
            scrub(text, &[workspace]),
            "error: --> stages/03-p/src/lib.rs:3\nCompiling stage03 (.)"
        );
    }

    #[test]
    fn every_file_graded_has_its_blob_hash() {
        // Inside this checkout, where git reads relative paths from its top.
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        std::fs::write(dir.path().join("a.rs"), "hello\n").unwrap();
        let hashes = file_hashes(dir.path(), &["a.rs".to_owned()]);
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(hashes["a.rs"], "ce013625030ba8dba906f756967f9e9ca394464a");
    }
}
