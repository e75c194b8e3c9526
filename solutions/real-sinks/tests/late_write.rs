//! The fence holds to the last write, and a damaged latest checkpoint falls back.
//!
//! A run paused between its fence check and its checkpoint write, its lock lost
//! meanwhile, once wrote its checkpoint 20 over a newer run's checkpoint 60, and every
//! restart after asked for a checkpoint file that no longer existed. The schedule is
//! driven step by step through the run's hook: frozen at [`Point::CheckpointFenced`],
//! the old run's lock is taken from it and a newer run goes to checkpoint 40 and dies;
//! the old run then resumes and writes its own checkpoint 40. Written under its older
//! epoch, it could never win over the newer run's; the old run sees the newer file,
//! takes its own back and stops, fenced; the next run restores the newer checkpoint.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use committer::Fenced;
use real_sinks::crash::Verifier;
use real_sinks::job::{
    Hook, JobConfig, Point, RunOptions, SinkKind, checkpoint_files, run_with_options,
};
use real_sinks::pg::connect;

fn config(name: &str, sink: SinkKind) -> JobConfig {
    JobConfig {
        job: format!("{name}-{}", std::process::id()),
        sink,
        records: 3000,
        parallelism: 2,
        barrier_every: 50,
        commit_lag: 1,
        seed: 13,
    }
}

fn run(dir: &Path, config: &JobConfig, pg: Option<&str>, hook: Hook) -> anyhow::Result<String> {
    let options = RunOptions {
        hook,
        ..RunOptions::default()
    };
    let mut log = Vec::new();
    run_with_options(dir, config, pg, options, &mut log)?;
    Ok(String::from_utf8(log)?)
}

/// A hook that stops the run right after checkpoint `stop` completes.
fn stop_after(stop: u64) -> Hook {
    Hook::new(move |point| match point {
        Point::CheckpointCompleted(c) if c == stop => anyhow::bail!("killed after c{c}"),
        _ => Ok(()),
    })
}

/// Takes the old run's locks from it, as an operator or a partition would.
fn take_the_locks(dir: &Path, config: &JobConfig, pg: Option<&str>) {
    std::fs::remove_file(dir.join("run.lock")).unwrap();
    if let Some(pg) = pg {
        connect(pg)
            .unwrap()
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' \
                 AND objid = (hashtextextended($1, 8080) & 4294967295)::oid",
                &[&config.job],
            )
            .unwrap();
    }
}

fn frozen_between_check_and_write(name: &str, sink: SinkKind, pg: Option<String>) {
    let dir = common::scratch(name);
    let config = config(name, sink);
    let mut verifier = Verifier::new(&dir, &config, pg.as_deref()).unwrap();
    verifier.purge().unwrap();
    let frozen_once = AtomicBool::new(false);
    let (newer_dir, newer_config, newer_pg): (PathBuf, _, _) =
        (dir.clone(), config.clone(), pg.clone());
    let freeze = Hook::new(move |point| {
        if point == Point::CheckpointFenced(40) && !frozen_once.swap(true, Ordering::SeqCst) {
            take_the_locks(&newer_dir, &newer_config, newer_pg.as_deref());
            let newer = run(
                &newer_dir,
                &newer_config,
                newer_pg.as_deref(),
                stop_after(40),
            );
            assert!(newer.unwrap_err().to_string().contains("killed after c40"));
        }
        Ok(())
    });
    // Resumed, the old run writes its checkpoint 40 under its older epoch, finds the
    // newer run's 40, takes its own back and stops: it was overtaken.
    let old = run(&dir, &config, pg.as_deref(), freeze).unwrap_err();
    let fenced = old.downcast_ref::<Fenced>().copied();
    assert_eq!(
        fenced,
        Some(Fenced {
            held: 1,
            current: 2
        }),
        "{old:#}"
    );
    // The newer run's checkpoint is the latest; the one kept before it is still the
    // old run's 39, which the newer run restored (its 40's handles were swept).
    let files = checkpoint_files(&dir).unwrap();
    let kept: Vec<(u64, u64)> = files.iter().map(|(e, c, _)| (*e, *c)).collect();
    assert_eq!(
        kept,
        [(2, 40), (1, 39)],
        "the late checkpoint won or displaced one"
    );

    run(&dir, &config, pg.as_deref(), Hook::default()).unwrap();
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_run_frozen_between_its_fence_check_and_its_write_never_wins() {
    frozen_between_check_and_write("late-write-file", SinkKind::File, None);
}

#[test]
fn an_xa_run_frozen_between_its_fence_check_and_its_write_never_wins() {
    if let Some(pg) = common::postgres("an_xa_run_frozen_between_its_fence_check_and_its_write") {
        frozen_between_check_and_write("late-write-xa", SinkKind::Xa, Some(pg));
    }
}

fn damaged_latest_falls_back(name: &str, sink: SinkKind, pg: Option<String>) {
    let dir = common::scratch(name);
    let config = config(name, sink);
    let mut verifier = Verifier::new(&dir, &config, pg.as_deref()).unwrap();
    verifier.purge().unwrap();
    // Killed right after checkpoint 30 completed: 29 and 30 are not committed yet.
    run(&dir, &config, pg.as_deref(), stop_after(30)).unwrap_err();
    let latest = checkpoint_files(&dir).unwrap()[0].2.clone();
    let bytes = std::fs::read(&latest).unwrap();
    std::fs::write(&latest, &bytes[..bytes.len() / 2]).unwrap();
    let log = run(&dir, &config, pg.as_deref(), Hook::default()).unwrap();
    assert!(
        log.contains("WARNING: passing over checkpoint file"),
        "{log}"
    );
    assert!(log.contains("restored checkpoint 29"), "{log}");
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_torn_latest_file_checkpoint_falls_back_loudly_and_ends_exactly_once() {
    damaged_latest_falls_back("fallback-file", SinkKind::File, None);
}

#[test]
fn a_torn_latest_xa_checkpoint_falls_back_loudly_and_ends_exactly_once() {
    if let Some(pg) = common::postgres("a_torn_latest_xa_checkpoint_falls_back") {
        damaged_latest_falls_back("fallback-xa", SinkKind::Xa, Some(pg));
    }
}
