//! An untouched skeleton scores 0: every check of every stage fails on the learner's
//! crate as shipped (every body `todo!()`), under the learner's seed and under the fresh
//! seeds of `byo grade`. A check that passes on a skeleton gives credit for nothing.

use graders::harness::stage::DEFAULT_SEED;
use graders::harness::{Stage, driver::run_in_process};

graders::impl_stage01!(Skeleton01, stage01);
graders::impl_stage02!(Skeleton02, Skeleton02Spy, stage02);
graders::impl_stage03!(Skeleton03, stage03);
graders::impl_stage04!(Skeleton04, stage04);
graders::impl_stage05!(Skeleton05, Skeleton05Operator, stage05);
graders::impl_stage06!(Skeleton06, stage06);
graders::impl_stage07!(Skeleton07, Skeleton07Spy, stage07);
graders::impl_stage08!(Skeleton08, Skeleton08Spy, stage08);

/// The learner's seed and a few of the kind `byo grade` draws.
const SEEDS: [u64; 4] = [DEFAULT_SEED, 1, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF];

/// Fails unless every check of stage `S` fails on the skeleton under every seed.
fn scores_zero<S: Stage>(drive: fn(&S::Case) -> S::Observation) {
    let passing: Vec<String> = SEEDS
        .iter()
        .flat_map(|&seed| {
            run_in_process::<S>(seed, drive)
                .checks
                .into_iter()
                .filter(|c| c.first_failure.is_none())
                .map(move |c| format!("{} (seed {seed:#x})", c.name))
        })
        .collect();
    if !passing.is_empty() {
        // The harness's panic hook keeps panic messages for its reports: say it first.
        let why = format!(
            "stage {:02}: checks that pass on the untouched skeleton: {passing:?}",
            S::NUMBER
        );
        eprintln!("{why}");
        panic!("{why}");
    }
}

#[test]
fn stage01_skeleton_scores_zero() {
    scores_zero::<graders::stage01::Dataflow>(graders::stage01::drive::<Skeleton01>);
}

#[test]
fn stage02_skeleton_scores_zero() {
    scores_zero::<graders::stage02::KeyedStateStage>(graders::stage02::drive::<Skeleton02>);
}

#[test]
fn stage03_skeleton_scores_zero() {
    scores_zero::<graders::stage03::Parallelism>(graders::stage03::drive::<Skeleton03>);
}

#[test]
fn stage04_skeleton_scores_zero() {
    scores_zero::<graders::stage04::EventTime>(graders::stage04::drive::<Skeleton04>);
}

#[test]
fn stage05_skeleton_scores_zero() {
    scores_zero::<graders::stage05::Windows>(graders::stage05::drive::<Skeleton05>);
}

#[test]
fn stage06_skeleton_scores_zero() {
    scores_zero::<graders::stage06::Barriers>(graders::stage06::drive::<Skeleton06>);
}

#[test]
fn stage07_skeleton_scores_zero() {
    scores_zero::<graders::stage07::ExactlyOnceState>(graders::stage07::drive::<Skeleton07>);
}

#[test]
fn stage08_skeleton_scores_zero() {
    scores_zero::<graders::stage08::TransactionalSinkStage>(graders::stage08::drive::<Skeleton08>);
}
