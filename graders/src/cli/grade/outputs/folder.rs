//! The output folder `byo grade` writes, which it claims only when it is new or its own
//! (the grading workspace's lock is [`crate::cli::grade::confine::lock`]'s), each file
//! written into it, and where in it a submission's report lies (a folder per submission,
//! named as the submission, holding `report.md`), as the cohort's pages link to it.

use std::path::Path;

use anyhow::{Context, Result, bail};

/// Marks an output folder as `byo grade`'s, so it is never written into a folder the
/// instructor owns for something else.
pub(crate) const OUT_MARKER: &str = ".byo-grade";

/// The report a learner reads, in each submission's folder.
pub(crate) const REPORT_MD: &str = "report.md";

/// The link from a page in `out` to `submission`'s report: relative, so the folder can be
/// moved or served as it is, and percent-encoded, so that no name (a submission's folder
/// is named by its author) can make it a link elsewhere: `javascript:x` would be a scheme,
/// `a#b` a fragment, `a b` two words in Markdown.
pub(crate) fn report_href(submission: &str) -> String {
    let mut href = String::from("./");
    for byte in submission.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            href.push(char::from(byte));
        } else {
            href.push_str(&format!("%{byte:02X}"));
        }
    }
    href.push('/');
    href.push_str(REPORT_MD);
    href
}

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

    #[test]
    fn a_report_link_stays_in_its_submission_s_folder() {
        assert_eq!(report_href("ada-1.b_c~"), "./ada-1.b_c~/report.md");
        assert_eq!(
            report_href("javascript:alert(1)#x y"),
            "./javascript%3Aalert%281%29%23x%20y/report.md"
        );
        assert_eq!(report_href("é<"), "./%C3%A9%3C/report.md");
    }
}
