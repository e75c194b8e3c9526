//! The ladder's order and blocking, with builds that fail without running cargo.

use std::cell::RefCell;
use std::path::Path;
use std::process::Command;

use super::*;
use crate::cli::launcher::Launcher;
use crate::stages;

/// Every build fails with a compiler error, without running cargo.
struct Broken;

impl Launcher for Broken {
    fn build(&self, _: Command) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", "echo 'error[E0425]: cannot find value' >&2; exit 101"]);
        command
    }
}

fn walk(batch: Batch) -> (Vec<String>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pipeline = Pipeline::new(&root).launcher(&Broken);
    let selected = [stages::get(1).unwrap(), stages::get(2).unwrap()];
    let steps = RefCell::new(Vec::new());
    let on_step = |step: Step<'_>| {
        steps.borrow_mut().push(match step {
            Step::Building(s) => {
                format!("build {:?}", s.iter().map(|s| s.number).collect::<Vec<_>>())
            }
            Step::Judging(s) => format!("judge {}", s.number),
        });
    };
    let outcomes = pipeline
        .ladder(&selected, 0, None, Limits::default(), batch, &on_step)
        .map(|run| match run.unwrap().outcome {
            StageOutcome::DoesNotBuild(e) => format!("does not build: {e}"),
            StageOutcome::Blocked(by) => format!("blocked by {by:02}"),
            other => format!("{other:?}"),
        })
        .collect();
    (outcomes, steps.into_inner())
}

#[test]
fn stages_use_what_their_manifests_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let uses = stage_uses(&root);
    let of = |n: u8| uses[&n].iter().copied().collect::<Vec<_>>();
    assert_eq!(of(1), Vec::<u8>::new());
    assert_eq!(of(3), [1, 2]);
    assert_eq!(of(6), Vec::<u8>::new(), "06 uses neither 04 nor 05");
    assert!(of(8).contains(&7) && of(8).contains(&1));
}

#[test]
fn a_stage_that_does_not_build_blocks_the_later_ones() {
    let expected = [
        "does not build: error[E0425]: cannot find value",
        "blocked by 01",
    ];
    let (outcomes, steps) = walk(Batch::Together);
    assert_eq!(outcomes, expected);
    assert_eq!(steps, ["build [1, 2]"]);
    let (outcomes, steps) = walk(Batch::OneByOne);
    assert_eq!(outcomes, expected);
    // Stage 02 is never built: its errors would be stage 01's again.
    assert_eq!(steps, ["build [1]"]);
}

#[test]
fn judging_at_once_decides_as_the_walk_in_turn_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pipeline = Pipeline::new(&root).launcher(&Broken);
    let selected = [stages::get(1).unwrap(), stages::get(2).unwrap()];
    let runs = pipeline
        .ladder(
            &selected,
            0,
            None,
            Limits::default(),
            Batch::Together,
            &|_| {},
        )
        .judge_at_once(2)
        .unwrap();
    let outcomes: Vec<String> = runs
        .iter()
        .map(|run| match &run.outcome {
            StageOutcome::DoesNotBuild(e) => format!("{:02} does not build: {e}", run.stage.number),
            StageOutcome::Blocked(by) => format!("{:02} blocked by {by:02}", run.stage.number),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            "01 does not build: error[E0425]: cannot find value",
            "02 blocked by 01"
        ]
    );
}
