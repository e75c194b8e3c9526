//! Rescales: a crash with handles pending, then a restart at another parallelism, for
//! every `p -> q` in 1..=4 and every way of handing out old state (each child its
//! parents', everyone everything, round-robin, all to the last subtask). Whoever is
//! handed a handle finalises it; the simulator's verdict says nothing was lost or
//! written twice, and no handle held end of input open.

mod sim;

use std::time::Instant;

use sim::{Adopter, Distribution, Schedule, ShapeA, ShapeB, run};

/// Every crash point of the first attempt, restarted at `q`, for every `p -> q`.
/// Returns (schedules, handles recovered across all of them).
fn rescale_every_way<A: Adopter>() -> (usize, usize) {
    let (mut schedules, mut recovered) = (0, 0);
    for p in 1..=4 {
        for q in 1..=4 {
            let mut recovered_here = 0;
            for distribution in [
                Distribution::Parents,
                Distribution::Everything,
                Distribution::RoundRobin,
                Distribution::AllToLast,
            ] {
                for (barrier_every, commit_lag) in [(1, 1), (2, 0), (2, 2)] {
                    let base = Schedule::new(6, barrier_every, commit_lag)
                        .at(&[p, q])
                        .distributed(distribution);
                    let clean = run::<A>(&base).unwrap();
                    for first in 1..=clean.steps[0] {
                        let outcome = run::<A>(&base.clone().crash(&[Some(first)])).unwrap();
                        assert_eq!(outcome.gate_restarts, 0, "{p}->{q}: a handle held the gate");
                        recovered_here += outcome.recovered.len();
                        schedules += 1;
                    }
                }
            }
            // The point of the exercise: restores that did carry pending handles.
            assert!(
                recovered_here > 0,
                "{p}->{q} never restored a pending handle"
            );
            recovered += recovered_here;
        }
    }
    (schedules, recovered)
}

#[test]
fn every_rescale_and_distribution_publishes_each_pending_staged_artifact_once() {
    let started = Instant::now();
    let (schedules, recovered) = rescale_every_way::<ShapeA>();
    eprintln!(
        "rescale, shape A: {schedules} schedules, {recovered} handles recovered, {:.2?}",
        started.elapsed()
    );
}

#[test]
fn every_rescale_and_distribution_commits_each_pending_xa_transaction_once() {
    let started = Instant::now();
    let (schedules, recovered) = rescale_every_way::<ShapeB>();
    eprintln!(
        "rescale, shape B: {schedules} schedules, {recovered} handles recovered, {:.2?}",
        started.elapsed()
    );
}
