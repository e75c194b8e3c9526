//! The watch loop against a real folder: saves wake it (once per burst), `q` ends it.

use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// Long enough for any file-system event to arrive on a loaded machine; the test only
/// waits this long when something is wrong.
const PATIENCE: Duration = Duration::from_secs(30);

#[test]
fn a_save_judges_again_and_q_quits() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lib.rs");
    std::fs::write(&file, "0").unwrap();
    let (wakes, inbox) = mpsc::channel();
    let watcher = watch_sources(dir.path(), wakes.clone()).unwrap();
    let (judged, verdicts) = mpsc::channel();
    let looping = std::thread::spawn(move || {
        watch(&inbox, || {
            let _ = judged.send(std::fs::read_to_string(&file).unwrap_or_default());
        });
    });
    assert_eq!(
        verdicts.recv_timeout(PATIENCE).unwrap(),
        "0",
        "judged at start"
    );
    // A burst of saves, as an editor makes: judged after it settles, on the last text.
    for text in ["1", "12", "123"] {
        std::fs::write(dir.path().join("lib.rs"), text).unwrap();
    }
    let mut last = verdicts.recv_timeout(PATIENCE).unwrap();
    // A slow machine may split the burst; the last judgement still sees the last save.
    while last != "123" {
        last = verdicts.recv_timeout(PATIENCE).unwrap();
    }
    wakes.send(Wake::Quit).unwrap();
    looping.join().unwrap();
    drop(watcher);
}

#[test]
fn quit_ends_the_wait_for_quiet() {
    let (wakes, inbox) = mpsc::channel();
    for wake in [Wake::Saved, Wake::Saved, Wake::Quit] {
        wakes.send(wake).unwrap();
    }
    let mut judged = 0;
    watch(&inbox, || judged += 1);
    assert_eq!(
        judged, 1,
        "only the first judgement: quit came during the burst"
    );
}

#[test]
fn a_failure_shows_only_the_first_failing_check() {
    use crate::harness::judge::{CaseFailure, CheckReport, Fault, StageReport};
    let failing = |name: &str, index| CheckReport {
        name: name.to_owned(),
        law: format!("the law of {name}"),
        judged: 1,
        planned: 1,
        first_failure: Some(CaseFailure {
            index,
            case: format!("case of {name}"),
            fault: Fault::StackOverflow,
        }),
    };
    let report = StageReport {
        stage: 1,
        seed: 0,
        judged: 2,
        planned: 2,
        checks: vec![failing("second", 5), failing("first", 2)],
        printed: Vec::new(),
        gave_up: None,
    };
    let text = first_failure(&report, &Style::plain());
    assert!(text.contains("2 of 2 checks fail"), "{text}");
    assert!(text.contains("first: the law of first"), "{text}");
    assert!(!text.contains("the law of second"), "{text}");
    assert!(text.contains("and 1 more failing check(s)"), "{text}");
}
