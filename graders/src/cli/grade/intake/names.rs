//! Which folders are submissions, and the name each has in `--out`: its folder's name,
//! never one the output folder uses for itself, never one another submission has; and
//! how a report shows the folder ([`shown_path`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

/// Names the output folder uses for itself: a submission named so would overwrite them.
pub(crate) const RESERVED: [&str; 6] = [
    ".byo-grade",
    "grades.csv",
    "grades.json",
    "cohort.md",
    "cohort.html",
    "lock",
];

/// Why `path` cannot be graded as a submission, if it cannot.
pub(crate) fn not_a_submission(path: &Path, name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!(
            "its name `{name}` is one the output folder uses for itself; rename the folder"
        ));
    }
    if !path.is_dir() {
        return Some(format!("`{}` is not a folder", path.display()));
    }
    if !path.join("stages").is_dir() {
        return Some(format!(
            "`{}` has no stages/ folder, so it is not a copy of the kata",
            path.display()
        ));
    }
    None
}

/// Each submission's name in `--out`: its folder's name. Two submissions of one name
/// would share a report folder, so that is refused before anything is graded.
pub(crate) fn submission_names(paths: &[PathBuf]) -> Result<Vec<String>> {
    let mut taken: BTreeMap<String, &Path> = BTreeMap::new();
    let mut names = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty() && n != "." && n != "..")
            .unwrap_or_else(|| "submission".to_owned());
        if let Some(first) = taken.insert(name.clone(), path) {
            bail!(
                "grade: `{}` and `{}` would both be reported as `{name}`; rename one of the \
                 folders or grade them into different --out folders",
                first.display(),
                path.display()
            );
        }
        names.push(name);
    }
    Ok(names)
}

/// `path` as a report shows it: relative to the current folder when it lies inside it,
/// else by its name alone, so that no folder of the instructor's machine is in what a
/// student reads.
pub(crate) fn shown_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    let shown = relative.as_deref().unwrap_or(path);
    if shown.is_absolute()
        || shown
            .components()
            .any(|c| c == std::path::Component::ParentDir)
    {
        let name = path.file_name().unwrap_or(path.as_os_str());
        return format!("…/{}", name.to_string_lossy());
    }
    shown.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_submissions_of_one_name_are_refused_not_renamed() {
        let paths = [
            PathBuf::from("a/alice"),
            PathBuf::from("b/bob"),
            PathBuf::from("b/alice"),
        ];
        let error = submission_names(&paths).unwrap_err().to_string();
        assert!(
            error.contains("`a/alice` and `b/alice` would both be reported as `alice`"),
            "{error}"
        );
        assert_eq!(submission_names(&paths[..2]).unwrap(), ["alice", "bob"]);
    }
}
