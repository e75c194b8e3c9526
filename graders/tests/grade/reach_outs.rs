//! `byo grade` against submissions that make the compiler read a file outside their
//! stage's `src/` in ways a lexer reads otherwise than rustc (`tests/fixtures/attack-*`
//! with a reach-out, see the fixtures' README): none gets the file. A learner crate's
//! rustc runs in a sandbox of its own where the file is not there, so the build fails
//! naming it; were it there, the compiler's own record of what it read would refuse the
//! build. Either way nothing of the file is shown, while an honest submission graded
//! beside them keeps full marks.

use std::fs;
use std::path::Path;

use super::attacks::{files_named, sandbox_available};
use super::grade;
use super::reading::{listed, report, stage, verdict};
use super::submissions::{Base, repo, submission};

/// Each attack, and the file it reads (relative to the repository).
const ATTACKS: [(&str, &str); 4] = [
    ("attack-path-escape", "graders/src/stage08/anomaly.rs"),
    (
        "attack-include-escape",
        "solutions/08-transactional-sink/src/lib.rs",
    ),
    (
        "attack-include-field",
        "solutions/07-exactly-once-state/src/lib.rs",
    ),
    ("attack-include-range", "graders/src/stage01/judge.rs"),
];

#[test]
fn reach_outs_are_refused_by_what_the_compiler_read_and_show_nothing_of_it() {
    if !sandbox_available() {
        return;
    }
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let mut dirs = Vec::new();
    for (name, _) in ATTACKS {
        let dir = submission(&subs, name, Base::ReferenceUpTo(1), Some(name));
        dirs.push(dir.display().to_string());
    }
    let reads_cargo_home = submission(
        &subs,
        "attack-cargo-home",
        Base::ReferenceUpTo(1),
        Some("attack-cargo-home"),
    );
    dirs.push(reads_cargo_home.display().to_string());
    let honest = submission(&subs, "honest", Base::ReferenceUpTo(1), None);
    dirs.push(honest.display().to_string());
    let out = scratch.path().join("out");
    let mut args: Vec<String> = dirs;
    args.extend(
        [
            "--out",
            &out.display().to_string(),
            "--seed",
            "7",
            "--stages",
            "01",
        ]
        .map(String::from),
    );
    args.extend(["--timeout", "2"].map(String::from));
    grade(&args);

    let r = report(&out, "honest");
    assert_eq!(verdict(&r, 1), "passed", "{r:#}");
    assert_eq!(r["total"], 100.0);

    let written: Vec<(String, String)> = files_named(&out, "")
        .into_iter()
        .map(|file| {
            let text = fs::read_to_string(&file).unwrap_or_default();
            (file, text)
        })
        .collect();
    for (name, read) in ATTACKS {
        let r = report(&out, name);
        assert_eq!(verdict(&r, 1), "does-not-build", "{name}: {r:#}");
        assert_eq!(r["total"], 0.0, "{name}");
        let errors = stage(&r, 1)["errors"].as_str().expect("errors");
        let file = Path::new(read)
            .file_name()
            .expect("a file")
            .to_string_lossy();
        let refused = format!("refused: stage 01's crate made the compiler read `{read}`");
        assert!(
            errors.contains(&refused) || errors.contains(&*file),
            "{name}: the errors name neither a refusal nor the file: {errors}"
        );
        for line in secret_lines(&repo().join(read)) {
            for (file, text) in &written {
                assert!(!text.contains(&line), "{file} shows `{line}` of {read}");
            }
        }
    }

    // A file of $CARGO_HOME named through the build's environment: the text scan refuses
    // an include of no plain literal (the skeleton's file is graded instead), and were it
    // let through, the learner crate's rustc would have no $CARGO_HOME to read.
    let r = report(&out, "attack-cargo-home");
    let refused = listed(&r, "refused", "stages/01-dataflow/src/run.rs");
    assert!(
        refused || verdict(&r, 1) == "does-not-build",
        "neither refused nor unbuilt: {r:#}"
    );
    assert_ne!(verdict(&r, 1), "passed", "{r:#}");
    let env = cargo_home().map(|home| home.join("env"));
    if let Some(env) = env.filter(|env| env.is_file()) {
        let text = fs::read_to_string(&env).unwrap_or_default();
        for line in text.lines().map(str::trim).filter(|l| l.len() >= 20) {
            for (file, written) in &written {
                assert!(
                    !written.contains(line),
                    "{file} shows `{line}` of {}",
                    env.display()
                );
            }
        }
    }
}

/// The instructor's `$CARGO_HOME` (rustup's default `~/.cargo` when unset).
fn cargo_home() -> Option<std::path::PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
}

/// The lines of `file` long enough to be its own (not a brace or a common phrase).
fn secret_lines(file: &Path) -> Vec<String> {
    let text = fs::read_to_string(file).expect("the file read");
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() >= 30)
        .map(String::from)
        .collect();
    assert!(lines.len() >= 3, "{} has lines of its own", file.display());
    lines
}
