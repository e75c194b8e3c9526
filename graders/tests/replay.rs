//! `byo test NN --case I` reports the one case it replayed, never the stage's verdict:
//! no PASS or FAIL of the stage, no "next", no count of stages passing, and the stage's
//! standing (`.byo/progress.json`) left as its last full run made it.

use std::process::Command;

#[test]
fn a_replay_reports_its_case_and_leaves_the_standing_alone() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let progress = root.join(".byo/progress.json");
    let before = std::fs::read(&progress).ok();
    let out = Command::new(env!("CARGO_BIN_EXE_byo"))
        .args(["test", "01", "--case", "0"])
        .env("BYO_ROOT", &root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The skeleton reaches todo!(): the case is not started, and the run says so.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("stage 01 · dataflow") && first.contains("case 0 not started"),
        "{stdout}"
    );
    assert!(stdout.contains("    not started: todo!() at "), "{stdout}");
    for verdict in ["NOT STARTED", "PASS", "next:", "stage(s) pass"] {
        assert!(!stdout.contains(verdict), "`{verdict}` in:\n{stdout}");
    }
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("case 0 of stage 01 replayed alone (")),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read(&progress).ok(),
        before,
        "a replay is not a standing"
    );
}
