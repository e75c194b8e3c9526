//! Every sink the reference job creates sees exactly the calls of the grader's
//! canonical run (`reference_calls`), which `byo trace 08` shows a learner beside their
//! own: the reference and the trace's canonical lane never disagree.

use graders::stage08::{RunResult, Schedule, reference_calls, spied};

graders::impl_stage08!(Binding, SpySink, solution08);

#[test]
fn every_sink_sees_the_canonical_calls_at_every_crash_point_and_lag() {
    let mut runs = 0;
    for len in 0..=7_usize {
        let records: Vec<u32> = (0..len).map(|i| (i * 7 % 5) as u32).collect();
        for barrier_every in 1..=len + 1 {
            let crashes = std::iter::once(None).chain((0..=len).map(Some));
            for crash_after in crashes {
                for commit_lag in 0..=2 {
                    let run = spied::<Binding>(&records, barrier_every, crash_after, commit_lag);
                    let schedule = Schedule {
                        len,
                        barrier_every,
                        crash_after,
                        commit_lag,
                    };
                    let case = format!("{records:?}, {schedule:?}");
                    assert!(
                        matches!(run.result, RunResult::Output(_)),
                        "{case}: {run:?}"
                    );
                    assert_eq!(run.sinks, reference_calls(&records, schedule), "{case}");
                    runs += 1;
                }
            }
        }
    }
    // Lengths 0..=7: every barrier cadence, crash point (or none) and lag.
    assert_eq!(runs, 720);
}
