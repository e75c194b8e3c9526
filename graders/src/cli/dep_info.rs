//! The compiler's own record of what it read: the dep-info file rustc writes for every
//! crate it compiles (`deps/<crate>-<hash>.d`, make syntax), and which of those records
//! belong to one cargo run.
//!
//! A record belongs to a run when rustc wrote it during the run (its modification time is
//! not before the run started), or when cargo reports the crate fresh and the record is no
//! newer than the artifacts it describes (rustc writes the record first, then the
//! metadata and the library; a later compilation that failed would have left a newer
//! record over an older artifact, and that record describes no artifact in use). Records
//! of earlier runs in the same target folder, such as another submission's build in the
//! same slot, are therefore never read as this run's.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One crate's record: where it is, the crate's root source, and every file it read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The dep-info file.
    pub file: PathBuf,
    /// The crate's root source (the first file read), as an absolute path.
    pub root: PathBuf,
    /// Every file the compiler read for the crate, the root included, as absolute paths
    /// (relative ones resolved against the folder cargo ran rustc in).
    pub reads: Vec<PathBuf>,
}

/// The records of one cargo run, and the fresh crates whose record could not be found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Records {
    /// The records that belong to the run.
    pub found: Vec<Record>,
    /// A fresh artifact of the run (by its first output file) with no record that
    /// belongs to it.
    pub missing: Vec<PathBuf>,
}

/// A fresh artifact cargo reported, whose record is looked up next to it.
#[derive(Debug, Clone)]
pub struct FreshArtifact {
    /// The artifact's output files (`libstage01-<hash>.rlib`, `.rmeta`).
    pub outputs: Vec<PathBuf>,
}

/// When a cargo run into `target` starts, by the file system's own clock (the clock that
/// stamps the records): the modification time of a marker written now. Without a target
/// folder yet, the system's time.
pub fn run_started(target: &Path) -> SystemTime {
    let marker = target.join(".byo-build-started");
    let stamped = std::fs::create_dir_all(target)
        .and_then(|()| std::fs::write(&marker, b""))
        .and_then(|()| std::fs::metadata(&marker)?.modified());
    stamped.unwrap_or_else(|_| SystemTime::now())
}

/// The records of a cargo run that started at `started` in `workspace` and built into
/// the dependency folder `deps`, with `fresh` the library artifacts it reported fresh
/// that need a record.
pub fn records_of_run(
    workspace: &Path,
    deps: &Path,
    started: SystemTime,
    fresh: &[FreshArtifact],
) -> Records {
    let mut records = Records::default();
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    if let Ok(entries) = std::fs::read_dir(deps) {
        for entry in entries.flatten() {
            let path = entry.path();
            let written_now = modified(&path).is_some_and(|m| m >= started);
            if path.extension().is_some_and(|e| e == "d")
                && written_now
                && let Some(record) = read(workspace, &path)
            {
                records.found.push(record);
            }
        }
    }
    for artifact in fresh {
        let Some(first) = artifact.outputs.first() else {
            continue;
        };
        let record = record_path_of(first);
        if records.found.iter().any(|r| r.file == record) {
            continue;
        }
        let newest_output = artifact.outputs.iter().filter_map(|o| modified(o)).max();
        let describes_output = matches!(
            (modified(&record), newest_output),
            (Some(written), Some(output)) if written <= output
        );
        match describes_output.then(|| read(workspace, &record)).flatten() {
            Some(found) => records.found.push(found),
            None => records.missing.push(first.clone()),
        }
    }
    records
}

/// Where rustc writes the record of the crate whose output is `output`:
/// `deps/libstage01-<hash>.rlib` is described by `deps/stage01-<hash>.d`.
pub fn record_path_of(output: &Path) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = stem.strip_prefix("lib").unwrap_or(&stem);
    output.with_file_name(format!("{stem}.d"))
}

/// The record at `file`, its paths resolved against `workspace`; `None` when it cannot
/// be read or names no file.
pub fn read(workspace: &Path, file: &Path) -> Option<Record> {
    let text = std::fs::read(file).ok()?;
    let text = String::from_utf8_lossy(&text);
    let stem = file.file_stem()?.to_string_lossy().into_owned();
    let outputs_dir = file.parent()?;
    let is_output = |path: &Path| {
        path.parent() == Some(outputs_dir)
            && path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&stem))
    };
    let mut reads: Vec<PathBuf> = Vec::new();
    for word in words(&text) {
        let path = workspace.join(word);
        if !is_output(&path) && !reads.contains(&path) {
            reads.push(path);
        }
    }
    Some(Record {
        file: file.to_path_buf(),
        root: reads.first()?.clone(),
        reads,
    })
}

/// Every path a dep-info text names, targets and prerequisites alike, in order: words
/// are split on unescaped whitespace (rustc writes a space in a path as `\ `), a rule's
/// colon is dropped, and comment lines (`# env-dep:...`) are skipped.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let mut word = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    word.push(' ');
                    chars.next();
                }
                c if c.is_whitespace() => push_word(&mut out, &mut word),
                c => word.push(c),
            }
        }
        push_word(&mut out, &mut word);
    }
    out
}

fn push_word(out: &mut Vec<String>, word: &mut String) {
    let taken = std::mem::take(word);
    let path = taken.strip_suffix(':').unwrap_or(&taken);
    if !path.is_empty() {
        out.push(path.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_of_a_record_is_read_and_its_outputs_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let deps = dir.path().join("deps");
        std::fs::create_dir(&deps).unwrap();
        let out = |name: &str| deps.join(name).display().to_string();
        let text = format!(
            "{}: s/src/lib.rs s/src/a\\ b.rs s/src/../README.md\n\n{}: s/src/lib.rs\n\n\
             s/src/lib.rs:\ns/src/a\\ b.rs:\ns/src/../README.md:\n\n# env-dep:HOME=/root\n",
            out("stage01-abc.d"),
            out("libstage01-abc.rmeta"),
        );
        let file = deps.join("stage01-abc.d");
        std::fs::write(&file, text).unwrap();
        let record = read(Path::new("/w"), &file).unwrap();
        assert_eq!(record.root, PathBuf::from("/w/s/src/lib.rs"));
        assert_eq!(
            record.reads,
            ["s/src/lib.rs", "s/src/a b.rs", "s/src/../README.md"].map(|p| Path::new("/w").join(p))
        );
    }

    #[test]
    fn a_record_older_than_the_run_is_not_the_runs_unless_it_describes_a_fresh_artifact() {
        let dir = tempfile::tempdir().unwrap();
        let deps = dir.path();
        std::fs::write(deps.join("stage01-abc.d"), "x.d: s/src/lib.rs\n").unwrap();
        std::fs::write(deps.join("libstage01-abc.rlib"), "").unwrap();
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        let none = records_of_run(Path::new("/w"), deps, later, &[]);
        assert_eq!(none, Records::default());
        let fresh = [FreshArtifact {
            outputs: vec![deps.join("libstage01-abc.rlib")],
        }];
        let reused = records_of_run(Path::new("/w"), deps, later, &fresh);
        assert_eq!(reused.found.len(), 1, "{reused:?}");
        // A compilation that failed after the artifact was made rewrote the record: it
        // describes no artifact in use, and the fresh crate has no record.
        let old = std::fs::File::options()
            .write(true)
            .open(deps.join("libstage01-abc.rlib"))
            .unwrap();
        old.set_modified(SystemTime::UNIX_EPOCH).unwrap();
        let stale = records_of_run(Path::new("/w"), deps, later, &fresh);
        assert_eq!(stale.missing, vec![deps.join("libstage01-abc.rlib")]);
        assert!(stale.found.is_empty());
    }
}
