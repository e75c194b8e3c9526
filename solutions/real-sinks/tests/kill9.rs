//! Bounded crash runs: tens of real SIGKILLs per sink, each followed by the output
//! checks, then exactly-once at the end of every job; every restart rescales (3 → 2 → 4). The PostgreSQL sinks skip (loudly)
//! without `BYO_PG`; `just soak` runs the long version.

mod common;

use std::time::Duration;

use real_sinks::crash::{self, CrashPlan, Landing};
use real_sinks::job::{JobConfig, SinkKind};

fn bounded(sink: SinkKind, postgres: Option<String>) {
    let root = common::scratch(&format!("kill9-{sink}"));
    let plan = CrashPlan {
        exe: env!("CARGO_BIN_EXE_demo").into(),
        root: root.clone(),
        config: JobConfig {
            job: format!("kill9-{sink}-{}", std::process::id()),
            sink,
            records: 2000,
            parallelism: 2,
            barrier_every: 40,
            commit_lag: 1,
            seed: 7,
        },
        kills: 30,
        seed: 8 + sink as u64,
        delay_ms: (1, 100),
        budget: Duration::from_secs(120),
        postgres,
        verbose: false,
        // Every restart rescales: scale-in and scale-out with pending handles.
        rescale: vec![3, 2, 4],
        min_landings: 2,
    };
    let report = crash::run(&plan, &mut std::io::stderr()).unwrap();
    eprintln!("{sink}: {report:?}");
    assert!(
        report.kills >= 30,
        "only {} kills in the time budget",
        report.kills
    );
    assert!(report.rounds >= 1);
    // Every kill is placed, and the aimed kills reached every place a kill can land.
    assert_eq!(report.landings.values().sum::<u64>(), report.kills);
    for landing in Landing::MEASURED {
        let hits = report.landings.get(&landing).copied().unwrap_or(0);
        assert!(
            hits >= 2,
            "{landing}: {hits} kill(s) in {:?}",
            report.landings
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_file_sink_survives_tens_of_kills_exactly_once() {
    bounded(SinkKind::File, None);
}

#[test]
fn the_xa_sink_survives_tens_of_kills_exactly_once() {
    if let Some(pg) = common::postgres("the_xa_sink_survives_tens_of_kills_exactly_once") {
        bounded(SinkKind::Xa, Some(pg));
    }
}

#[test]
fn the_upsert_sink_converges_through_tens_of_kills() {
    if let Some(pg) = common::postgres("the_upsert_sink_converges_through_tens_of_kills") {
        bounded(SinkKind::Upsert, Some(pg));
    }
}
