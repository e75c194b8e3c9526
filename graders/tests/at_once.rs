//! `byo test` judges the stages of the ladder at once (one per core): the reports are the
//! ones judging them in turn gives, byte for byte, in ladder order.

use std::process::Command;

fn byo_test(workers: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_byo"))
        .args(["test", "01", "02", "03", "04", "05", "06", "07", "08"])
        .env("BYO_ROOT", &root)
        .env("BYO_JUDGE_WORKERS", workers)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // The last line is the tally with the wall time.
    let mut lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.pop().is_some_and(|l| l.contains("stage(s) pass")),
        "{text}"
    );
    lines.join("\n")
}

#[test]
fn judging_at_once_reports_what_judging_in_turn_reports() {
    let in_turn = byo_test("1");
    assert!(in_turn.contains("stage 08"), "{in_turn}");
    assert_eq!(byo_test("3"), in_turn);
}
