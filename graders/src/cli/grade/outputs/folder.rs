//! The output folder `byo grade` writes, which it claims only when it is new or its own
//! (the grading workspace's lock is [`crate::cli::grade::confine::lock`]'s), and each file
//! written into it.

use std::path::Path;

use anyhow::{Context, Result, bail};

/// Marks an output folder as `byo grade`'s, so it is never written into a folder the
/// instructor owns for something else.
pub(crate) const OUT_MARKER: &str = ".byo-grade";

/// Creates `out`, or accepts it if an earlier `byo grade` made it; refuses any other
/// folder that is not empty, so nothing the instructor keeps there is overwritten.
pub(crate) fn claim_out_dir(out: &Path) -> Result<()> {
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

/// Writes `text` to `dir/name`.
pub(crate) fn write(dir: &Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
