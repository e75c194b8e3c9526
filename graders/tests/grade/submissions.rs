//! Submissions for the grading test: the skeleton, or the references up to a stage, with
//! a fixture of `tests/fixtures/` laid over.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stage folders (`01-dataflow`, ...) that have a reference.
pub fn stage_folders() -> Vec<String> {
    let mut folders: Vec<String> = fs::read_dir(repo().join("solutions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        // Only stage references (`NN-slug`); solutions/ also holds crates that are no
        // stage (real-sinks), which have no learner counterpart to copy over.
        .filter(|f| f.len() > 2 && f.as_bytes()[..2].iter().all(u8::is_ascii_digit))
        .collect();
    folders.sort();
    folders
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            fs::create_dir_all(to).unwrap();
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

pub enum Base {
    Skeleton,
    /// The references' `src/` of the stages up to and including this one.
    ReferenceUpTo(u8),
}

pub fn submission(
    root: &Path,
    name: impl AsRef<Path>,
    base: Base,
    fixture: Option<&str>,
) -> PathBuf {
    let dir = root.join(name);
    // A learner's repository always has its stages, even untouched.
    fs::create_dir_all(dir.join("stages")).unwrap();
    if let Base::ReferenceUpTo(last) = base {
        for folder in stage_folders() {
            let number: u8 = folder[..2].parse().unwrap();
            if number <= last {
                let src = dir.join("stages").join(&folder).join("src");
                fs::create_dir_all(&src).unwrap();
                copy_tree(&repo().join("solutions").join(&folder).join("src"), &src);
            }
        }
    }
    if let Some(fixture) = fixture {
        copy_tree(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(fixture),
            &dir,
        );
    }
    dir
}

/// A submission folder and an output folder whose names are not UTF-8, where the file
/// system allows it.
pub fn odd_names() -> (OsString, OsString) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        (
            OsString::from_vec(b"all-correct-\xff".to_vec()),
            OsString::from_vec(b"out-all-\xfe".to_vec()),
        )
    }
    #[cfg(not(unix))]
    {
        ("all-correct".into(), "out-all".into())
    }
}
