//! Copies of the reference: a stage whose learner-written files all match the
//! reference's, once comments and whitespace are set aside.
//!
//! The files a learner writes are those where the reference differs from the skeleton;
//! given code (the same in both) says nothing. A flagged stage keeps its score: the
//! instructor decides what a copy means. Grading flags it in the report, `grades.csv`,
//! `grades.json` and the cohort summary.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::tokens::{Token, tokens};

/// Stage folders (`08-transactional-sink`) of `workspace` whose learner-written sources
/// match `pristine`'s reference, each with the files that match.
pub fn copies_of_reference(pristine: &Path, workspace: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(pristine.join("solutions")) else {
        // A student template has no reference to compare with.
        return Vec::new();
    };
    let mut folders: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .collect();
    folders.sort();
    folders
        .into_iter()
        .filter_map(|folder| {
            let src = |root: &Path, side: &str| sources(&root.join(side).join(&folder).join("src"));
            let reference = src(pristine, "solutions");
            let skeleton = src(pristine, "stages");
            let learner = src(workspace, "stages");
            let written: Vec<&PathBuf> = reference
                .iter()
                .filter(|(file, ours)| skeleton.get(*file) != Some(ours))
                .map(|(file, _)| file)
                .collect();
            let copied = !written.is_empty()
                && written
                    .iter()
                    .all(|file| learner.get(*file) == reference.get(*file));
            copied.then(|| {
                let files: Vec<String> = written.iter().map(|f| f.display().to_string()).collect();
                format!("{folder}: {}", files.join(", "))
            })
        })
        .collect()
}

/// Every `.rs` file under `src`, as tokens, by path relative to `src`.
fn sources(src: &Path) -> BTreeMap<PathBuf, Vec<Token>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = fs::read_dir(src.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let child = rel.join(entry.file_name());
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(child),
                Ok(kind) if kind.is_file() && child.extension().is_some_and(|e| e == "rs") => {
                    if let Ok(bytes) = fs::read(entry.path()) {
                        found.insert(child, tokens(&String::from_utf8_lossy(&bytes)));
                    }
                }
                _ => {}
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }

    #[test]
    fn a_reformatted_copy_is_flagged_and_own_work_is_not() {
        let pristine = tempfile::tempdir().expect("temp dir");
        let p = pristine.path();
        write(
            p,
            "stages/01-a/src/lib.rs",
            "pub fn given() {}\npub fn f() -> u8 { todo!() }",
        );
        write(p, "stages/01-a/src/given.rs", "pub struct G;");
        write(
            p,
            "solutions/01-a/src/lib.rs",
            "pub fn given() {}\npub fn f() -> u8 { 7 }",
        );
        write(p, "solutions/01-a/src/given.rs", "pub struct G;");

        let copy = tempfile::tempdir().expect("temp dir");
        write(
            copy.path(),
            "stages/01-a/src/lib.rs",
            "// mine!\npub fn given() {}\n\npub fn f() -> u8 {\n    7\n}\n",
        );
        assert_eq!(copies_of_reference(p, copy.path()), ["01-a: lib.rs"]);

        let own = tempfile::tempdir().expect("temp dir");
        write(
            own.path(),
            "stages/01-a/src/lib.rs",
            "pub fn given() {}\npub fn f() -> u8 { 3 + 4 }",
        );
        assert!(copies_of_reference(p, own.path()).is_empty());

        let untouched = tempfile::tempdir().expect("temp dir");
        write(
            untouched.path(),
            "stages/01-a/src/lib.rs",
            "pub fn given() {}\npub fn f() -> u8 { todo!() }",
        );
        assert!(copies_of_reference(p, untouched.path()).is_empty());
    }
}
