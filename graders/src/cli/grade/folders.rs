//! The output folder `byo grade` writes, which it claims only when it is new or its own
//! (the grading workspace's lock is [`super::lock`]'s), and the names submissions have in it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Marks an output folder as `byo grade`'s, so it is never written into a folder the
/// instructor owns for something else.
pub(super) const OUT_MARKER: &str = ".byo-grade";

/// Creates `out`, or accepts it if an earlier `byo grade` made it; refuses any other
/// folder that is not empty, so nothing the instructor keeps there is overwritten.
pub(super) fn claim_out_dir(out: &Path) -> Result<()> {
    let marker = out.join(OUT_MARKER);
    if out.exists() && !out.is_dir() {
        bail!(
            "grade: --out {} is a file, not a folder; name a folder for the reports",
            out.display()
        );
    }
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty && !marker.exists() {
            bail!(
                "grade: --out {} is not empty and was not made by byo grade; choose another folder",
                out.display()
            );
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    std::fs::write(&marker, "written by byo grade\n")
        .with_context(|| format!("writing {}", marker.display()))
}
/// Each submission's name in `--out`: its folder's name. Two submissions of one name
/// would share a report folder, so that is refused before anything is graded.
pub(super) fn submission_names(paths: &[PathBuf]) -> Result<Vec<String>> {
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

    #[test]
    fn the_out_folder_is_ours_or_new() {
        let scratch = tempfile::tempdir().unwrap();
        let file = scratch.path().join("grades.txt");
        std::fs::write(&file, "notes").unwrap();
        let error = claim_out_dir(&file).unwrap_err().to_string();
        assert!(error.contains("is a file, not a folder"), "{error}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "notes");

        let theirs = scratch.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::fs::write(theirs.join("keep.md"), "mine").unwrap();
        let error = claim_out_dir(&theirs).unwrap_err().to_string();
        assert!(
            error.contains("is not empty and was not made by byo grade"),
            "{error}"
        );

        let ours = scratch.path().join("new/grades");
        claim_out_dir(&ours).unwrap();
        claim_out_dir(&ours).unwrap();
        assert!(ours.join(OUT_MARKER).is_file());
    }
}
