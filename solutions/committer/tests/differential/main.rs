//! Two implementations that check each other: every schedule of the stage-08 grader's
//! plan runs through the direct runner (`solution08`) and through the framework (a
//! `CommitterOperator` over the `TwoPhaseAdopter`), and both must return the same
//! output (or the same error) and make the same calls on every sink they create.

mod framework_job;
mod recording;

use std::cell::RefCell;
use std::rc::Rc;

use anyhow::Result;
use graders::stage08::{MAX_LAG, MAX_LEN, input};

use framework_job::run_on_framework;
use recording::{Call, Calls, Recording};

/// The seeds whose inputs are compared (the plan draws one input per length and seed).
const SEEDS: [u64; 4] = [0, 1, 2, 8];

/// A job's answer and the calls it made, one list per sink.
type Run = (std::result::Result<Vec<u32>, String>, Vec<Vec<Call>>);

fn recorded(job: impl FnOnce(&mut dyn FnMut() -> Recording) -> Result<Vec<u32>>) -> Run {
    let calls: Calls = Rc::new(RefCell::new(Vec::new()));
    let result = job(&mut || Recording::new(&calls)).map_err(|e| format!("{e:#}"));
    let calls = calls.borrow().clone();
    (result, calls)
}

#[test]
fn the_direct_runner_and_the_framework_agree_on_every_schedule_of_the_plan() {
    let mut schedules = 0;
    for seed in SEEDS {
        for len in 0..=MAX_LEN {
            let records = input(seed, len);
            // The plan's grid (barrier_every 1..=len+1, crash None or 0..=len, every lag)
            // and its bad inputs (barrier_every 0, a crash past the end), and more.
            for barrier_every in 0..=len + 1 {
                let crashes = std::iter::once(None).chain((0..=len + 1).map(Some));
                for crash_after in crashes {
                    for commit_lag in 0..=MAX_LAG {
                        let direct = recorded(|new_sink| {
                            solution08::run_exactly_once_sink_with(
                                &records,
                                barrier_every,
                                crash_after,
                                commit_lag,
                                new_sink,
                            )
                        });
                        let framework = recorded(|new_sink| {
                            run_on_framework(
                                &records,
                                barrier_every,
                                crash_after,
                                commit_lag,
                                new_sink,
                            )
                        });
                        assert_eq!(
                            direct, framework,
                            "{records:?}, barrier_every {barrier_every}, \
                             crash_after {crash_after:?}, commit_lag {commit_lag}"
                        );
                        schedules += 1;
                    }
                }
            }
        }
    }
    // Per seed: the sum over len of (len + 2) cadences x (len + 3) crash points x 3 lags.
    assert_eq!(schedules, SEEDS.len() * 2_178);
}

#[test]
fn both_refuse_bad_arguments_before_creating_a_sink() {
    let records = input(0, 3);
    for (barrier_every, crash_after) in [(0, None), (0, Some(1)), (1, Some(4)), (1, Some(10))] {
        let direct = recorded(|new_sink| {
            solution08::run_exactly_once_sink_with(
                &records,
                barrier_every,
                crash_after,
                0,
                new_sink,
            )
        });
        let framework = recorded(|new_sink| {
            run_on_framework(&records, barrier_every, crash_after, 0, new_sink)
        });
        assert!(direct.0.is_err() && direct.1.is_empty(), "{direct:?}");
        assert_eq!(direct, framework);
    }
}
