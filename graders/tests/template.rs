//! `byo template`: the student repository it writes has no answers, builds on its own
//! (its `Cargo.lock` complete, `--locked`), its `byo test` judges every untouched stage
//! "not started" and exits 1 (some stage does not pass), not 2 (byo broken), and its
//! `cargo test --workspace` (what its CI runs) passes. Its README is the learner's, with no
//! link that dangles in the template (the reader's and instructor's guides stay behind).
//!
//! The template's build shares one target folder across runs (`target/template-kata`,
//! beside this workspace's), so only the first run pays for its dependencies.

mod links;

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn template(out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_byo"))
        .env("BYO_ROOT", repo())
        .args(["template", "--out"])
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn the_template_has_no_answers_and_judges_every_skeleton_not_started() {
    let dir = tempfile::tempdir().unwrap();
    let kata = dir.path().join("kata");
    let written = template(&kata);
    assert!(written.status.success(), "{written:?}");

    for gone in ["solutions", "graders/tests", "graders/README.md", ".ci"] {
        assert!(!kata.join(gone).exists(), "{gone} is in the template");
    }
    for kept in [
        "stages/08-transactional-sink/src/lib.rs",
        "hints/08.md",
        "graders/src/lib.rs",
        ".cargo/config.toml",
        ".github/workflows/byo.yml",
    ] {
        assert!(kata.join(kept).is_file(), "{kept} is missing");
    }
    // What a student reads and runs names no reference and no instructor verb.
    for file in [
        "README.md",
        "justfile",
        "Cargo.toml",
        "graders/Cargo.toml",
        ".vscode/settings.json",
        ".github/workflows/byo.yml",
    ] {
        let text = std::fs::read_to_string(kata.join(file)).unwrap();
        for word in ["solutions", "byo grade", "real-sinks", "postgres"] {
            assert!(!text.contains(word), "{file} mentions `{word}`");
        }
    }
    let broken = links::broken_links(&kata.join("README.md"));
    assert!(
        broken.is_empty(),
        "the student's README links to what is not there:\n{broken:?}"
    );
    let readme = std::fs::read_to_string(kata.join("README.md")).unwrap();
    assert!(
        readme.contains("### The learner's loop") && readme.contains("## Your repository"),
        "{readme}"
    );
    assert!(
        !links::relative_links(&readme).is_empty(),
        "the briefs are linked"
    );
    let lock = std::fs::read_to_string(kata.join("Cargo.lock")).unwrap();
    assert!(
        !lock.contains("name = \"solution01\"") && !lock.contains("name = \"postgres\""),
        "the lock still holds what only the references use"
    );

    // Never overwritten: a second run into the same folder is refused.
    let again = template(&kata);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("is not empty"),
        "{again:?}"
    );

    // The student's first `byo test`, through the repository's own cargo alias.
    let judged = Command::new(env!("CARGO"))
        .current_dir(&kata)
        .env("CARGO_TARGET_DIR", repo().join("target/template-kata"))
        .env_remove("BYO_ROOT")
        .args(["--locked", "byo", "test"])
        .args(["01", "02", "03", "04", "05", "06", "07", "08"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&judged.stdout);
    let stderr = String::from_utf8_lossy(&judged.stderr);
    assert_eq!(
        judged.status.code(),
        Some(1),
        "byo test exits 1 when a stage does not pass:\n{stdout}\n{stderr}"
    );
    for n in 1..=8 {
        let verdict = stdout
            .lines()
            .find(|l| l.starts_with(&format!("stage {n:02} ")))
            .unwrap_or_else(|| panic!("no verdict for stage {n:02}:\n{stdout}\n{stderr}"));
        assert!(verdict.contains("NOT STARTED"), "{verdict}");
    }
    assert!(!stdout.contains("panicked at"), "{stdout}");

    // What the template's CI runs first: the workspace's own tests pass without the
    // references (the graders' unit tests, the stages' crates).
    let tested = Command::new(env!("CARGO"))
        .current_dir(&kata)
        .env("CARGO_TARGET_DIR", repo().join("target/template-kata"))
        .env_remove("BYO_ROOT")
        .args(["test", "--workspace", "--locked"])
        .output()
        .unwrap();
    assert!(
        tested.status.success(),
        "cargo test --workspace in the template:\n{}\n{}",
        String::from_utf8_lossy(&tested.stdout),
        String::from_utf8_lossy(&tested.stderr)
    );
}
