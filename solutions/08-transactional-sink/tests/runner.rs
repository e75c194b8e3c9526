//! The job against its laws: exactly once at every crash point and commit lag, input
//! order without a crash, the replay's starting point, and named bad arguments.

use anyhow::Result;
use solution08::{TransactionalSink, run_exactly_once_sink, run_exactly_once_sink_with};

/// Records with duplicate values, as the graders generate them.
fn records(len: usize) -> Vec<u32> {
    (0..len).map(|i| (i * 7 % 5) as u32).collect()
}

#[test]
fn every_record_is_output_exactly_once_at_every_crash_point_and_lag() -> Result<()> {
    for len in 0..=8 {
        let input = records(len);
        let mut expected = input.clone();
        expected.sort_unstable();
        for barrier_every in 1..=len + 1 {
            let crashes = std::iter::once(None).chain((0..=len).map(Some));
            for crash_after in crashes {
                for commit_lag in 0..=2 {
                    let mut output =
                        run_exactly_once_sink(&input, barrier_every, crash_after, commit_lag)?;
                    output.sort_unstable();
                    assert_eq!(
                        output, expected,
                        "len {len}, barrier_every {barrier_every}, \
                         crash_after {crash_after:?}, commit_lag {commit_lag}"
                    );
                }
            }
        }
    }
    Ok(())
}

#[test]
fn without_a_crash_the_output_keeps_input_order() -> Result<()> {
    let input = records(7);
    assert_eq!(run_exactly_once_sink(&input, 2, None, 1)?, input);
    Ok(())
}

#[test]
fn replay_starts_at_the_last_notified_checkpoint() -> Result<()> {
    // Barriers after records 2 and 4; with lag 1 only checkpoint 1 (offset 2) is
    // notified when the job dies after record 5, so the replay rewrites 2..6.
    let input = records(6);
    let mut sinks = Vec::new();
    let output = run_exactly_once_sink_with(&input, 2, Some(5), 1, || {
        sinks.push(());
        TransactionalSink::new()
    })?;
    assert_eq!(sinks.len(), 2);
    assert_eq!(output, input);
    Ok(())
}

#[test]
fn the_briefs_example_holds() -> Result<()> {
    // Checkpoint 1 (offset 2) is notified at barrier 2; the job dies after record 4,
    // so checkpoint 2 is aborted and the replay rewrites records 2..5.
    let records = [3, 1, 4, 1, 5];
    assert_eq!(run_exactly_once_sink(&records, 2, Some(4), 1)?, records);
    Ok(())
}

#[test]
fn bad_arguments_are_named() {
    let input = records(3);
    let zero = run_exactly_once_sink(&input, 0, None, 0).unwrap_err();
    assert!(zero.to_string().contains("barrier_every"), "{zero}");
    let past = run_exactly_once_sink(&input, 1, Some(4), 0).unwrap_err();
    assert!(past.to_string().contains("crash_after"), "{past}");
}
