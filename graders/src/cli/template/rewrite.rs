//! The text edits that turn the instructor's files into the student's: the workspace
//! without `solutions/`, the graders without their test suite (it grades the references
//! and the mutants), the justfile with the learner's verbs only, and the top-level
//! README's learner sections.
//!
//! Each edit names the line or heading it expects and fails when it is missing, so a
//! change to the instructor's files breaks `byo template` loudly (and its unit tests,
//! which run on this repository's files), never into a template that still mentions
//! the answers.

use anyhow::{Result, bail};

/// The workspace manifest without the reference crates, the real-sinks-only dependency
/// and the committer's profile.
pub fn workspace_manifest(text: &str) -> Result<String> {
    let members = "members = [\"graders\", \"graders/launch\", \"stages/*\", \"solutions/*\"]";
    if !text.contains(members) {
        bail!("Cargo.toml: no `{members}` line; byo template does not know this workspace");
    }
    let text = text
        .replace(
            members,
            "members = [\"graders\", \"graders/launch\", \"stages/*\"]",
        )
        .replace(
            "# The `byo` CLI and the real-sinks binaries parse their arguments with it.",
            "# The `byo` CLI parses its arguments with it.",
        );
    let text = remove_entry(&text, "postgres = ", "Cargo.toml")?;
    remove_section(&text, "[profile.dev.package.committer]", "Cargo.toml")
}

/// The graders' manifest without the test targets and the references they depend on.
pub fn graders_manifest(text: &str) -> Result<String> {
    let mut out = text.to_owned();
    while out.contains("\n[[test]]\n") {
        out = remove_section(&out, "[[test]]", "graders/Cargo.toml")?;
    }
    let before = out.lines().count();
    let kept: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("solution0"))
        .collect();
    if kept.len() == before {
        bail!("graders/Cargo.toml: no `solution0N` dev-dependency to remove");
    }
    Ok(kept.join("\n") + "\n")
}

/// The justfile with the learner's recipes only: the instructor's and the project's
/// groups (grading, the real sinks, PostgreSQL) go.
pub fn justfile(text: &str) -> Result<String> {
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let kept: Vec<&str> = blocks
        .iter()
        .copied()
        .filter(|b| !b.contains("[group('instructor')]") && !b.contains("[group('project')]"))
        .collect();
    if kept.len() == blocks.len() || kept.len() < 2 {
        bail!("justfile: no instructor or project recipe group found to remove");
    }
    let header = "# The learner's verbs. Each recipe is a thin wrapper over the `byo` command, which\n\
                  # also runs without `just` as `cargo byo <verb> ...`. `[no-exit-message]` (just >= 1.20)\n\
                  # keeps just's \"recipe failed\" line off the end of a failing run, so byo's verdict is\n\
                  # the last thing printed; the exit code still says it failed.";
    let mut out = vec![header];
    // The first block is the instructor's header comment.
    out.extend(kept.into_iter().skip(1));
    Ok(out.join("\n\n").trim_end().to_owned() + "\n")
}

/// The student's README, from the top-level one: its title and introduction (up to its
/// status), its quick start and learner's loop without the paragraph on hiding
/// `solutions/`, then `tail`. What follows the loop is the instructor's and the project's
/// (the pointers to `graders/README.md` and `solutions/README.md`, which the template does
/// not ship, the project's tests, the instructor's layout) and is left out.
pub fn readme(text: &str, tail: &str) -> Result<String> {
    let intro = between(text, "", "\n## Status")?;
    let learner = between(text, "\n## Quick start", "\n## For instructors")?;
    let reference = "**Keeping the reference out of the way.**";
    let paragraphs: Vec<&str> = learner.split("\n\n").collect();
    let kept: Vec<&str> = paragraphs
        .iter()
        .copied()
        .filter(|p| !p.starts_with(reference))
        .collect();
    if kept.len() == paragraphs.len() {
        bail!("README.md: no `{reference}` paragraph in the learner's loop to remove");
    }
    Ok(format!(
        "{}\n\n{}\n\n{}",
        intro.trim_end(),
        kept.join("\n\n").trim_end(),
        tail
    ))
}

/// The text from the line `start` (included; "" is the beginning) to `end` (excluded).
fn between<'a>(text: &'a str, start: &str, end: &str) -> Result<&'a str> {
    let from = match start {
        "" => 0,
        _ => match text.find(start) {
            Some(i) => i + 1,
            None => bail!("README.md: no `{}` heading", start.trim()),
        },
    };
    match text[from..].find(end) {
        Some(len) => Ok(&text[from..from + len]),
        None => bail!(
            "README.md: no `{}` heading after `{}`",
            end.trim(),
            start.trim()
        ),
    }
}

/// Removes the line starting with `prefix` and the comment lines right above it.
fn remove_entry(text: &str, prefix: &str, file: &str) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().position(|l| l.starts_with(prefix)) else {
        bail!("{file}: no `{prefix}` line to remove");
    };
    let mut from = at;
    while from > 0 && lines[from - 1].starts_with('#') {
        from -= 1;
    }
    let kept: Vec<&str> = lines[..from]
        .iter()
        .chain(&lines[at + 1..])
        .copied()
        .collect();
    Ok(kept.join("\n") + "\n")
}

/// Removes the first section headed `header`: the comment lines right above it, the
/// header, and its lines up to the next blank line or header.
fn remove_section(text: &str, header: &str, file: &str) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().position(|l| l.trim() == header) else {
        bail!("{file}: no `{header}` section to remove");
    };
    let mut from = at;
    while from > 0 && lines[from - 1].starts_with('#') {
        from -= 1;
    }
    let mut to = at + 1;
    while to < lines.len() && !lines[to].trim().is_empty() && !lines[to].starts_with('[') {
        to += 1;
    }
    // One blank line left between the neighbours, not two.
    if to < lines.len() && lines[to].trim().is_empty() && from > 0 {
        to += 1;
    }
    let kept: Vec<&str> = lines[..from].iter().chain(&lines[to..]).copied().collect();
    Ok(kept.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the instructor's repository; `None` in a student template (no
    /// `solutions/`), whose files are already the output of these edits.
    fn repo_file(path: &str) -> Option<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        if !root.join("solutions").is_dir() {
            eprintln!("skipped: a student template has no instructor's files to edit");
            return None;
        }
        Some(std::fs::read_to_string(root.join(path)).unwrap())
    }

    #[test]
    fn the_workspace_loses_the_references_and_what_only_they_use() {
        let Some(text) = repo_file("Cargo.toml") else {
            return;
        };
        let out = workspace_manifest(&text).unwrap();
        assert!(
            out.contains("members = [\"graders\", \"graders/launch\", \"stages/*\"]"),
            "{out}"
        );
        for gone in ["solutions", "postgres", "committer", "real-sinks"] {
            assert!(!out.contains(gone), "`{gone}` is still there:\n{out}");
        }
        assert!(out.contains("[profile.dev.package.serde_json]"), "{out}");
        assert!(!out.contains("\n\n\n"), "{out}");
    }

    #[test]
    fn the_graders_lose_their_test_suite_and_the_references() {
        let Some(text) = repo_file("graders/Cargo.toml") else {
            return;
        };
        let out = graders_manifest(&text).unwrap();
        assert!(
            !out.contains("[[test]]") && !out.contains("solution"),
            "{out}"
        );
        assert!(out.contains("stage08 = { path = \"../stages/08-transactional-sink\" }"));
        assert!(
            out.contains("[dev-dependencies]") && out.contains("tempfile"),
            "{out}"
        );
    }

    #[test]
    fn the_justfile_keeps_the_learners_verbs_only() {
        let Some(text) = repo_file("justfile") else {
            return;
        };
        let out = justfile(&text).unwrap();
        for verb in [
            "start stage:",
            "test *args:",
            "watch",
            "hint",
            "trace",
            "status:",
        ] {
            assert!(out.contains(verb), "{verb} is missing:\n{out}");
        }
        for gone in [
            "grade",
            "group(",
            "demo",
            "soak",
            "bench",
            "pg:",
            "instructor",
        ] {
            assert!(!out.contains(gone), "`{gone}` is still there:\n{out}");
        }
    }

    #[test]
    fn the_readme_is_the_learners() {
        let Some(text) = repo_file("README.md") else {
            return;
        };
        let out = readme(&text, "## Tail\n").unwrap();
        assert!(out.starts_with("# Build your own exactly-once"), "{out}");
        assert!(out.contains("## Quick start") && out.contains("### The learner's loop"));
        assert!(
            out.contains("**Watch mode.**") && out.ends_with("## Tail\n"),
            "{out}"
        );
        for gone in [
            "solutions",
            "graders/README.md",
            "## For instructors",
            "## Working on the kata itself",
            "byo grade",
            "## Status",
        ] {
            assert!(!out.contains(gone), "`{gone}` is still there:\n{out}");
        }
    }

    #[test]
    fn a_file_of_another_shape_is_refused_by_name() {
        let err = workspace_manifest("[workspace]\nmembers = [\"a\"]\n").unwrap_err();
        assert!(
            err.to_string().starts_with("Cargo.toml: no `members"),
            "{err}"
        );
        let err = readme("# Title\n## Quick start\n", "").unwrap_err();
        assert!(err.to_string().contains("## Status"), "{err}");
    }
}
