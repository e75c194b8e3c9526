//! `byo start`, `hint` and `status` against a scratch kata: progress is remembered, and
//! a learner's file that `byo` cannot read is reported, never overwritten.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

/// A minimal kata tree (no crates are built by these verbs) in a fresh temporary folder,
/// removed when dropped.
struct Scratch(TempDir);

impl Scratch {
    fn new(name: &str) -> Self {
        let scratch = tempfile::Builder::new()
            .prefix(&format!("byo-{name}-"))
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        fs::create_dir_all(dir.join("graders")).unwrap();
        fs::create_dir_all(dir.join("stages/01-dataflow/src")).unwrap();
        fs::create_dir_all(dir.join("hints")).unwrap();
        fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
        for file in [
            "stages/01-dataflow/README.md",
            "stages/01-dataflow/src/run.rs",
            "hints/01.md",
        ] {
            fs::copy(repo.join(file), dir.join(file)).unwrap();
        }
        Self(scratch)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn byo(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        Command::cargo_bin("byo")
            .unwrap()
            .env("BYO_ROOT", self.path())
            .env("NO_COLOR", "1")
            .args(args)
            .assert()
    }

    fn stdout(&self, args: &[&str]) -> String {
        String::from_utf8(self.byo(args).success().get_output().stdout.clone()).unwrap()
    }
}

#[test]
fn start_prints_the_brief_and_the_files_to_edit() {
    let kata = Scratch::new("start");
    let out = kata.stdout(&["start", "01"]);
    assert!(out.starts_with("# Stage 01 · dataflow"), "{out}");
    assert!(out.contains("stages/01-dataflow/src/run.rs"), "{out}");
    let status = kata.stdout(&["status"]);
    assert!(
        status.contains("stage 01 · dataflow") && status.contains("<- current"),
        "{status}"
    );
}

#[test]
fn start_and_status_name_a_stage_never_tested_with_the_same_words() {
    let kata = Scratch::new("words");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let brief = "stages/02-keyed-state/README.md";
    fs::create_dir_all(kata.path().join("stages/02-keyed-state/src")).unwrap();
    fs::copy(repo.join(brief), kata.path().join(brief)).unwrap();
    let start = kata.stdout(&["start", "02"]);
    let earlier = start
        .lines()
        .find(|l| l.trim_start().starts_with("stage 01 · dataflow"))
        .unwrap_or_else(|| panic!("{start}"));
    assert!(earlier.ends_with("not tested yet"), "{earlier}");
    let status = kata.stdout(&["status"]);
    let row = status
        .lines()
        .find(|l| l.starts_with("stage 01 · dataflow"))
        .unwrap();
    assert!(
        row.contains("not tested yet") && !row.contains("not started"),
        "{row}"
    );
}

#[test]
fn hints_are_revealed_one_at_a_time_and_remembered() {
    let kata = Scratch::new("hints");
    kata.byo(&["start", "1"]).success();
    assert!(
        kata.stdout(&["hint"])
            .starts_with("Hint 1 of 3 for stage 01 · dataflow")
    );
    assert!(kata.stdout(&["hint"]).starts_with("Hint 2 of 3"));
    assert!(kata.stdout(&["hint"]).starts_with("Hint 3 of 3"));
    assert!(
        kata.stdout(&["hint"])
            .starts_with("All 3 hints of stage 01 are revealed")
    );
    assert!(kata.stdout(&["status"]).contains("3/3"));
}

#[test]
fn an_unreadable_progress_file_is_reported_and_kept() {
    let kata = Scratch::new("corrupt");
    fs::create_dir_all(kata.path().join(".byo")).unwrap();
    let file = kata.path().join(".byo/progress.json");
    fs::write(&file, "my notes, not json").unwrap();
    let out = kata
        .byo(&["start", "01"])
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.contains("is not a byo progress file"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "my notes, not json");
}

#[test]
fn hint_offers_the_last_run_s_misconception_card_first_and_once() {
    let kata = Scratch::new("card");
    kata.byo(&["start", "1"]).success();
    // What `byo test 01` leaves when its report showed a card.
    let file = kata.path().join(".byo/progress.json");
    let mut progress: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    progress["results"]["01"] = "failed".into();
    progress["cards"]["01"] = serde_json::json!({"id": "01-clamp-past-the-end", "offered": false});
    fs::write(&file, progress.to_string()).unwrap();

    // `status` says the card is waiting, naming the commands the learner types.
    let status = kata.stdout(&["status"]);
    assert!(
        status.contains(
            "A misconception card from your last test of stage 01 is waiting: `just hint 01` \
             (or `cargo byo hint 01`) shows it before the next hint."
        ),
        "{status}"
    );
    let card = kata.stdout(&["hint"]);
    assert!(
        card.starts_with(
            "Your last test of stage 01 failed the way this belief makes it fail:\n\
             likely misconception: Seeking past the end can just stop at the end\n"
        ),
        "{card}"
    );
    assert!(
        card.ends_with("`just hint` (or `cargo byo hint`) again gives the stage's next hint.\n"),
        "{card}"
    );
    assert!(!card.contains("`byo hint`"), "{card}");
    let status = kata.stdout(&["status"]);
    assert!(!status.contains("is waiting"), "offered once: {status}");
    assert!(
        card.contains("reread: \"Task\" in stages/01-dataflow/README.md"),
        "{card}"
    );
    assert!(!card.contains("Hint 1"), "{card}");
    assert!(kata.stdout(&["hint"]).starts_with("Hint 1 of 3"));
    assert!(kata.stdout(&["hint"]).starts_with("Hint 2 of 3"));
}
