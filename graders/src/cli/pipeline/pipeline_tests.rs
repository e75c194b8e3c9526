//! The pipeline starts every build and driver through its launcher.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;

/// Counts what it starts and replaces every command with `sh -c script`.
struct Stand<'s> {
    script: &'s str,
    started: AtomicUsize,
}

impl Launcher for Stand<'_> {
    fn build(&self, _: Command) -> Command {
        self.driver(Command::new("cargo"))
    }

    fn driver(&self, _: Command) -> Command {
        self.started.fetch_add(1, Ordering::Relaxed);
        let mut command = Command::new("sh");
        command.args(["-c", self.script]);
        command
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_build_starts_through_the_launcher() {
    let stand = Stand {
        script: "echo 'error: refused by the launcher' >&2; exit 101",
        started: AtomicUsize::new(0),
    };
    let root = root();
    let pipeline = Pipeline::new(&root).launcher(&stand);
    let stage = stages::get(1).unwrap();
    let built = pipeline.build(&[stage]).unwrap();
    assert!(
        matches!(built.get(&1), Some(Built::Failed(e)) if e.contains("refused by the launcher")),
        "{built:?}"
    );
    // One stage's failed build already has its own errors: it is not built again.
    assert_eq!(stand.started.load(Ordering::Relaxed), 1);
}

#[test]
fn every_driver_starts_through_the_launcher() {
    let missing = Path::new("/nonexistent/grade-binary");
    let root = root();
    let direct = Pipeline::new(&root).judge(missing, 1, 0, None, Limits::default());
    assert!(
        matches!(&direct, StageOutcome::Undriven(e) if e.contains("starting the grade binary")),
        "{direct:?}"
    );
    let stand = Stand {
        script: "exit 0",
        started: AtomicUsize::new(0),
    };
    let pipeline = Pipeline::new(&root).launcher(&stand);
    let run = pipeline.drive(missing, 1, 0, Some(0), Limits::default());
    assert!(
        run.is_ok_and(|r| !r.finished),
        "the stand-in ran and reported nothing"
    );
    assert_eq!(stand.started.load(Ordering::Relaxed), 1);
}
