//! `demo doctor`: a killed run's leftovers listed with where each stands, resolved by
//! `--sweep` exactly as the next run's open would, or all ended by `--release`.

mod common;

use std::path::Path;

use real_sinks::crash::Verifier;
use real_sinks::doctor::{Remedy, doctor};
use real_sinks::job::{Hook, JobConfig, Point, RunOptions, SinkKind, run_with_options};

fn config(name: &str, sink: SinkKind) -> JobConfig {
    JobConfig {
        job: format!("{name}-{}", std::process::id()),
        sink,
        records: 3000,
        parallelism: 2,
        barrier_every: 50,
        commit_lag: 1,
        seed: 17,
    }
}

/// Runs the job in `dir` and kills it right after every subtask prepared checkpoint 11,
/// before its file is written: checkpoint 10 completed (not committed), 11 orphaned.
fn killed_at_barrier_11(dir: &Path, config: &JobConfig, pg: Option<&str>) {
    let hook = Hook::new(|point| match point {
        Point::CheckpointFenced(11) => anyhow::bail!("killed at barrier 11"),
        _ => Ok(()),
    });
    let options = RunOptions {
        hook,
        ..RunOptions::default()
    };
    let killed = run_with_options(dir, config, pg, options, &mut std::io::sink());
    assert!(killed.unwrap_err().to_string().contains("killed"));
}

fn list_then_sweep(name: &str, sink: SinkKind, pg: Option<String>) {
    let dir = common::scratch(name);
    let config = config(name, sink);
    let mut verifier = Verifier::new(&dir, &config, pg.as_deref()).unwrap();
    verifier.purge().unwrap();
    killed_at_barrier_11(&dir, &config, pg.as_deref());

    let mut listing = Vec::new();
    let left = doctor(&dir, &config, pg.as_deref(), Remedy::List, &mut listing).unwrap();
    let listing = String::from_utf8(listing).unwrap();
    let at = |c| left.iter().filter(|l| l.checkpoint == Some(c)).count();
    assert_eq!((at(10), at(11), left.len()), (2, 2, 4), "{listing}");
    assert_eq!(
        listing.matches("held by checkpoint 10").count(),
        2,
        "{listing}"
    );
    assert_eq!(listing.matches("an orphan").count(), 2, "{listing}");
    assert!(
        listing.contains("--sweep"),
        "the listing says how to resolve: {listing}"
    );

    let left = doctor(
        &dir,
        &config,
        pg.as_deref(),
        Remedy::Sweep,
        &mut std::io::sink(),
    )
    .unwrap();
    assert!(left.is_empty(), "the sweep left {left:?}");
    run_with_options(
        &dir,
        &config,
        pg.as_deref(),
        RunOptions::default(),
        &mut std::io::sink(),
    )
    .unwrap();
    verifier.at_end().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_doctor_lists_and_sweeps_a_killed_file_jobs_leftovers() {
    list_then_sweep("doctor-file", SinkKind::File, None);
}

#[test]
fn the_doctor_lists_and_sweeps_a_killed_xa_jobs_leftovers() {
    if let Some(pg) = common::postgres("the_doctor_lists_and_sweeps_a_killed_xa_jobs_leftovers") {
        list_then_sweep("doctor-xa", SinkKind::Xa, Some(pg));
    }
}

#[test]
fn release_from_another_folder_ends_the_history_so_that_folder_may_begin() {
    let Some(pg) = common::postgres("release_from_another_folder_ends_the_history") else {
        return;
    };
    let (first, second) = (common::scratch("release-a"), common::scratch("release-b"));
    let config = config("doctor-release", SinkKind::Xa);
    Verifier::new(&first, &config, Some(&pg))
        .unwrap()
        .purge()
        .unwrap();
    killed_at_barrier_11(&first, &config, Some(&pg));
    let run = |dir: &Path| {
        run_with_options(
            dir,
            &config,
            Some(&pg),
            RunOptions::default(),
            &mut std::io::sink(),
        )
    };
    assert!(format!("{:#}", run(&second).unwrap_err()).contains("belongs to the history"));
    let mut log = Vec::new();
    let left = doctor(&second, &config, Some(&pg), Remedy::Release, &mut log).unwrap();
    assert!(left.is_empty(), "release left {left:?}");
    assert_eq!(
        String::from_utf8(log).unwrap().matches("released ").count(),
        4
    );
    // The history is ended; what it committed is still there, and is the one thing
    // still refused: starting over means clearing that output first, as it says.
    let refused = format!("{:#}", run(&second).unwrap_err());
    assert!(refused.contains("already holds output"), "{refused}");
    let mut verifier = Verifier::new(&second, &config, Some(&pg)).unwrap();
    verifier.purge().unwrap();
    run(&second).unwrap();
    verifier.at_end().unwrap();
    for dir in [first, second] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
