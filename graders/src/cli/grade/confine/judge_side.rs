//! The judge's side of a slot's target folder: the compiled `graders` and reference
//! artifacts, recorded once the instructor's own build is done and checked before each
//! submission, so that a build or driver that replaced them cannot judge the next one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result, bail};

/// What the judge's side of the grading build looks like: every compiled `graders` and
/// reference artifact, by size and modification time. Submissions' builds never touch
/// them (only learner crates differ); a change means something wrote into the target
/// folder that should not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeSide(BTreeMap<PathBuf, (u64, SystemTime)>);

impl JudgeSide {
    /// Reads the judge's side of `target`.
    ///
    /// # Errors
    /// When the target folder cannot be read.
    pub fn read(target: &Path) -> Result<Self> {
        let deps = target.join("debug").join("deps");
        let mut files = BTreeMap::new();
        let Ok(entries) = std::fs::read_dir(&deps) else {
            return Ok(Self(files));
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("libgraders-") || name.starts_with("libsolution")) {
                continue;
            }
            let meta = entry
                .metadata()
                .with_context(|| format!("reading {}", entry.path().display()))?;
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            files.insert(entry.path(), (meta.len(), modified));
        }
        Ok(Self(files))
    }

    /// Checks that `target`'s judge side is still `self`: every artifact recorded is
    /// there, unchanged. A new artifact beside them is no change: cargo adds one when a
    /// build needs a judge crate in a combination of features not built before, and a
    /// build can add files to the target folder anyway; what must never happen is that
    /// the judge's own artifacts are replaced or removed. Wipes the target folder when
    /// they were, so that no later run builds on it.
    ///
    /// # Errors
    /// When it changed: a grading-environment error naming when it was seen and what.
    pub fn verify(&self, target: &Path, after: &str) -> Result<()> {
        let now = JudgeSide::read(target)?;
        let changed: Vec<String> = self
            .0
            .iter()
            .filter(|(path, stamp)| now.0.get(*path) != Some(stamp))
            .map(|(path, _)| {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                let how = if now.0.contains_key(path) {
                    "rewritten"
                } else {
                    "removed"
                };
                format!("{name} {how}")
            })
            .collect();
        if changed.is_empty() {
            return Ok(());
        }
        let _ = std::fs::remove_dir_all(target);
        bail!(
            "the graders' build in {} changed while {after} was being graded ({}), which no \
             build or driver may do: the target folder was wiped; grade again (and keep \
             the sandbox on)",
            target.display(),
            changed.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_artifact_is_no_change_but_a_rewritten_or_removed_one_is() {
        let target = tempfile::tempdir().unwrap();
        let deps = target.path().join("debug/deps");
        std::fs::create_dir_all(&deps).unwrap();
        std::fs::write(deps.join("libgraders-1.rlib"), "judge").unwrap();
        std::fs::write(deps.join("libsolution01-1.rlib"), "reference").unwrap();
        std::fs::write(deps.join("libstage01-1.rlib"), "learner").unwrap();
        let side = JudgeSide::read(target.path()).unwrap();
        assert_eq!(side.0.len(), 2, "only the judge's artifacts");
        std::fs::write(deps.join("libstage01-1.rlib"), "the learner's again").unwrap();
        std::fs::write(deps.join("libsolution01-2.rlib"), "a new variant").unwrap();
        side.verify(target.path(), "a").unwrap();

        std::fs::write(deps.join("libgraders-1.rlib"), "a forged judge").unwrap();
        let error = side.verify(target.path(), "b").unwrap_err().to_string();
        assert!(error.contains("libgraders-1.rlib rewritten"), "{error}");
        assert!(!target.path().join("debug").exists(), "wiped");

        std::fs::create_dir_all(&deps).unwrap();
        let error = side.verify(target.path(), "c").unwrap_err().to_string();
        assert!(error.contains("libsolution01-1.rlib removed"), "{error}");
    }
}
