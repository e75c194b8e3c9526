//! Fencing on the real sinks: a second run of a job while the first lives is refused,
//! two pipelines started at once end with every record exactly once and nothing staged
//! or prepared, and a run overtaken behind its back learns it at its next check.

mod common;

use std::sync::Barrier;
use std::thread;

use committer::{Fence, Fenced};
use real_sinks::crash::Verifier;
use real_sinks::job::{FolderFence, JobConfig, SinkKind, run_with};
use real_sinks::pg::{PgFence, connect};

fn config(job: &str, sink: SinkKind) -> JobConfig {
    JobConfig {
        job: format!("{job}-{}", std::process::id()),
        sink,
        records: 3000,
        parallelism: 2,
        barrier_every: 50,
        commit_lag: 1,
        seed: 11,
    }
}

fn verifier(dir: &std::path::Path, config: &JobConfig, pg: Option<&str>) -> Verifier {
    let mut verifier = Verifier::new(dir, config, pg).unwrap();
    verifier.purge().unwrap();
    verifier
}

/// Two pipelines of one job in one folder, started together: one runs, the other is
/// refused (or finds the input done); the output is exactly once, nothing is left.
fn two_pipelines_at_once(name: &str, sink: SinkKind, pg: Option<&str>) {
    let dir = common::scratch(name);
    let config = config(name, sink);
    let mut verifier = verifier(&dir, &config, pg);
    let start = Barrier::new(2);
    let outcomes: Vec<Result<(), String>> = thread::scope(|scope| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    start.wait();
                    run_with(&dir, &config, pg, &mut std::io::sink())
                        .map(|_| ())
                        .map_err(|e| format!("{e:#}"))
                })
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });
    assert!(
        outcomes.iter().any(Result::is_ok),
        "neither run finished: {outcomes:?}"
    );
    for refused in outcomes.iter().filter_map(|o| o.as_ref().err()) {
        assert!(
            refused.contains("already running"),
            "not a clear refusal: {refused}"
        );
    }
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// While a run holds the job folder, another run is refused before it writes anything;
/// once the holder is gone the job runs to the end exactly once.
fn a_held_folder_refuses_a_second_run(name: &str, sink: SinkKind, pg: Option<&str>) {
    let dir = common::scratch(name);
    let config = config(name, sink);
    let mut verifier = verifier(&dir, &config, pg);
    let holder = FolderFence::take(&dir).unwrap();
    let refused = run_with(&dir, &config, pg, &mut std::io::sink()).unwrap_err();
    assert!(
        format!("{refused:#}").contains("already running"),
        "{refused:#}"
    );
    assert!(!dir.join("sink").exists(), "a refused run wrote output");
    drop(holder);
    run_with(&dir, &config, pg, &mut std::io::sink()).unwrap();
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_file_pipelines_at_once_write_every_record_once() {
    two_pipelines_at_once("fence-two-file", SinkKind::File, None);
}

#[test]
fn two_xa_pipelines_at_once_write_every_record_once() {
    if let Some(pg) = common::postgres("two_xa_pipelines_at_once_write_every_record_once") {
        two_pipelines_at_once("fence-two-xa", SinkKind::Xa, Some(&pg));
    }
}

#[test]
fn two_upsert_pipelines_at_once_converge() {
    if let Some(pg) = common::postgres("two_upsert_pipelines_at_once_converge") {
        two_pipelines_at_once("fence-two-upsert", SinkKind::Upsert, Some(&pg));
    }
}

#[test]
fn a_second_file_run_is_refused_while_the_first_holds_the_folder() {
    a_held_folder_refuses_a_second_run("fence-held-file", SinkKind::File, None);
}

#[test]
fn a_second_xa_run_is_refused_while_the_first_holds_the_folder() {
    if let Some(pg) =
        common::postgres("a_second_xa_run_is_refused_while_the_first_holds_the_folder")
    {
        a_held_folder_refuses_a_second_run("fence-held-xa", SinkKind::Xa, Some(&pg));
    }
}

#[test]
fn a_folder_run_overtaken_behind_its_back_is_fenced() {
    let dir = common::scratch("fence-overtaken-file");
    let fence = FolderFence::take(&dir).unwrap();
    fence.check().unwrap();
    // A newer run that got past a lost lock (the lock file deleted and recreated).
    std::fs::remove_file(dir.join("run.lock")).unwrap();
    let newer = FolderFence::take(&dir).unwrap();
    let error = fence.check().unwrap_err();
    assert_eq!(
        error.downcast_ref::<Fenced>(),
        Some(&Fenced {
            held: fence.epoch(),
            current: newer.epoch()
        })
    );
    newer.check().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_job_from_a_second_folder_is_refused_while_the_first_runs() {
    let Some(pg) =
        common::postgres("the_same_job_from_a_second_folder_is_refused_while_the_first_runs")
    else {
        return;
    };
    let dir = common::scratch("fence-second-folder");
    let config = config("fence-second-folder", SinkKind::Xa);
    let mut verifier = verifier(&dir, &config, Some(&pg));
    // The first run, in another folder, holds the job's name on the server.
    let first = PgFence::take(&pg, &config.job).unwrap();
    let refused = run_with(&dir, &config, Some(&pg), &mut std::io::sink()).unwrap_err();
    let message = format!("{refused:#}");
    assert!(
        message.contains("already running against this PostgreSQL"),
        "{message}"
    );
    drop(first);
    run_with(&dir, &config, Some(&pg), &mut std::io::sink()).unwrap();
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pg_run_overtaken_or_cut_off_is_fenced() {
    let Some(pg) = common::postgres("a_pg_run_overtaken_or_cut_off_is_fenced") else {
        return;
    };
    let job = format!("fence-cut-off-{}", std::process::id());
    let fence = PgFence::take(&pg, &job).unwrap();
    fence.check().unwrap();
    let mut admin = connect(&pg).unwrap();
    admin
        .execute(
            "UPDATE xo_fence SET epoch = epoch + 1 WHERE job = $1",
            &[&job],
        )
        .unwrap();
    let error = fence.check().unwrap_err();
    assert_eq!(
        error.downcast_ref::<Fenced>().map(|f| f.held),
        Some(fence.epoch() as u64)
    );
    // Its session ended by an operator: the run cannot prove its claim, so it is refused.
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks \
             WHERE locktype = 'advisory' AND objid = (hashtextextended($1, 8080) & 4294967295)::oid",
            &[&job],
        )
        .unwrap();
    assert!(
        fence.check().is_err(),
        "a run whose session ended passed its fence check"
    );
    let newer = PgFence::take(&pg, &job).unwrap();
    newer.check().unwrap();
}
