//! A job's history on the real sinks: one XA job name run from two folders in turn,
//! and a job restored under a new name.
//!
//! Two folders of one job name against one PostgreSQL once each minted generation 1,
//! so the same global ids for different records, and each swept and committed the
//! other's transactions: 150 silent duplicates. Now the second folder is refused before
//! it touches anything, and the first, rerun, ends exactly once. A job restored under a
//! new name once left its old name's prepared transactions and staged files forever;
//! now its operator state remembers the old name and the open sweeps it.

mod common;

use std::path::Path;

use committer::{
    CommitterOperator, CommittingSink, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId,
    Succession,
};
use postgres::Client;
use real_sinks::crash::Verifier;
use real_sinks::file::{FileSink, Layout};
use real_sinks::job::{Hook, JobConfig, Point, RunOptions, SinkKind, run_with_options};
use real_sinks::pg::{PgXaSink, PgXaStore, XaRow, connect, shared};

fn config(job: &str, barrier_every: u64) -> JobConfig {
    JobConfig {
        job: job.to_owned(),
        sink: SinkKind::Xa,
        records: 3000,
        parallelism: 2,
        barrier_every,
        commit_lag: 1,
        seed: 3,
    }
}

/// Runs the job in `dir`, stopped (as by a kill) right after checkpoint `stop` completes.
fn run_until(dir: &Path, config: &JobConfig, pg: &str, stop: Option<u64>) -> anyhow::Result<()> {
    let hook = Hook::new(move |point| match point {
        Point::CheckpointCompleted(c) if Some(c) == stop => anyhow::bail!("killed after c{c}"),
        _ => Ok(()),
    });
    let options = RunOptions {
        hook,
        ..RunOptions::default()
    };
    run_with_options(dir, config, Some(pg), options, &mut std::io::sink()).map(|_| ())
}

fn prepared(client: &mut Client, job: &str) -> Vec<String> {
    let pattern = format!("{job}-%");
    let rows = client
        .query(
            "SELECT gid FROM pg_prepared_xacts WHERE gid LIKE $1 ORDER BY gid",
            &[&pattern],
        )
        .unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

#[test]
fn one_xa_job_from_two_folders_in_turn_is_refused_in_the_second_and_exactly_once() {
    let Some(pg) = common::postgres("one_xa_job_from_two_folders_in_turn") else {
        return;
    };
    let job = format!("t-two-folders-{}", std::process::id());
    let (first, second) = (
        common::scratch("two-folders-a"),
        common::scratch("two-folders-b"),
    );
    let mut verifier = Verifier::new(&first, &config(&job, 50), Some(&pg)).unwrap();
    verifier.purge().unwrap();
    run_until(&first, &config(&job, 50), &pg, Some(10)).unwrap_err();
    let mut admin = connect(&pg).unwrap();
    let left = prepared(&mut admin, &job);
    assert!(
        !left.is_empty(),
        "the killed run left nothing prepared to protect"
    );

    // Another folder, another barrier interval: its checkpoint ids would mean other
    // offsets. It is refused, and the first folder's transactions are untouched.
    let refused = run_until(&second, &config(&job, 37), &pg, Some(10)).unwrap_err();
    let message = format!("{refused:#}");
    assert!(message.contains("belongs to the history"), "{message}");
    assert!(
        message.contains("demo doctor"),
        "the refusal says how to resolve it: {message}"
    );
    assert_eq!(
        prepared(&mut admin, &job),
        left,
        "the refused run touched the destination"
    );

    run_until(&first, &config(&job, 50), &pg, None).unwrap();
    verifier.at_end().unwrap();
    for dir in [first, second] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn run(job: &str, generation: u64, restored: Option<u64>) -> RunContext {
    RunContext {
        job: job.to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1).unwrap(), 128).unwrap(),
        restored,
    }
}

/// As Flink's `shouldAbortLingeringTransactions`: a run as `old` completes checkpoint 1
/// and dies before its notification with 2 and 3 prepared; the restart from 1 as `new`
/// commits 1 under its old name, discards 2 and 3, and ends through its end of input.
fn renamed<S: CommittingSink>(
    (old, new): (&str, &str),
    mut sink: impl FnMut() -> S,
    record: impl Fn(u32) -> S::Record,
) {
    let open = |sink: S, state, run: RunContext| {
        CommitterOperator::open(sink, state, &run, Box::new(NoTripwire)).unwrap()
    };
    let mut op = open(sink(), InMemoryOperatorState::new(), run(old, 1, None));
    op.write(record(1)).unwrap();
    let completed = op.on_barrier(1).unwrap();
    op.write(record(2)).unwrap();
    op.on_barrier(2).unwrap();
    op.write(record(3)).unwrap();
    op.on_barrier(3).unwrap();
    drop(op);
    let restored = InMemoryOperatorState::restore(&completed).unwrap();
    let mut op = open(sink(), restored, run(new, 2, Some(1)));
    op.write(record(2)).unwrap();
    op.write(record(3)).unwrap();
    op.end_of_input(4).unwrap();
    op.on_checkpoint_complete(4).unwrap();
    op.finish().unwrap();
}

#[test]
fn a_renamed_file_job_leaves_nothing_staged_under_its_old_name() {
    let root = common::scratch("renamed-file");
    let layout = |job| Layout::new(&root, job).unwrap();
    let mut job = "old";
    renamed(
        ("old", "new"),
        || {
            let sink = FileSink::new(layout(job));
            job = "new";
            sink
        },
        |n| n.to_string(),
    );
    for name in ["old", "new"] {
        let staged = std::fs::read_dir(layout(name).staging()).unwrap().count();
        assert_eq!(staged, 0, "{name}: something left staged");
    }
    let published = |name| std::fs::read_dir(layout(name).output()).unwrap().count();
    assert_eq!((published("old"), published("new")), (1, 1));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_renamed_xa_job_leaves_nothing_prepared_under_its_old_name() {
    let Some(pg) = common::postgres("a_renamed_xa_job_leaves_nothing_prepared") else {
        return;
    };
    let pid = std::process::id();
    let (old, new) = (format!("t-old-{pid}"), format!("t-new-{pid}"));
    let control = shared(connect(&pg).unwrap());
    let mut job = old.clone();
    renamed(
        (&old, &new),
        || {
            let store = PgXaStore::open(&job, connect(&pg).unwrap(), control.clone(), 4).unwrap();
            job.clone_from(&new);
            PgXaSink::new(store)
        },
        |n| XaRow {
            seq: i64::from(n),
            payload: format!("p{n}"),
        },
    );
    let mut admin = connect(&pg).unwrap();
    assert!(
        prepared(&mut admin, &old).is_empty(),
        "left prepared under the old name"
    );
    assert!(prepared(&mut admin, &new).is_empty());
    let rows = admin
        .query(
            "SELECT seq FROM xo_xa_rows WHERE job = $1 OR job = $2 ORDER BY seq",
            &[&old, &new],
        )
        .unwrap();
    let seqs: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(seqs, [1, 2, 3]);
}
