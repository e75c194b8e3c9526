//! `bench`: its help and its refusals pinned with trycmd, and the `--json` rows held to
//! their schema (every sink's paths, each ratio against its own `plain`).

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use serde::Deserialize;

#[test]
fn bench_help_and_refusals() {
    trycmd::TestCases::new().case("tests/cmd/bench-*.trycmd");
}

/// One `--json` line; an unknown or missing field fails to parse.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    sink: String,
    path: String,
    barrier_every: u64,
    records: u64,
    records_per_s: f64,
    ratio: f64,
}

#[test]
fn json_rows_follow_the_schema_for_every_sink_and_path() {
    let postgres = common::postgres("json_rows_follow_the_schema");
    let sinks = if postgres.is_some() {
        "file,xa,upsert,memory"
    } else {
        "file,memory"
    };
    let mut bench = Command::new(env!("CARGO_BIN_EXE_bench"));
    bench.args(["--json", "--records", "250", "--memory-records", "300"]);
    bench.args(["--barrier-every", "100,1000"]);
    bench.args(["--repeat", "1", "--sinks", sinks]);
    match &postgres {
        Some(pg) => bench.env("BYO_PG", pg),
        None => bench.env_remove("BYO_PG"),
    };
    let output = bench.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<Row> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();

    let mut paths: BTreeMap<(&str, u64), Vec<&str>> = BTreeMap::new();
    for row in &rows {
        let records = if row.sink == "memory" { 300 } else { 250 };
        assert_eq!(row.records, records, "{row:?}");
        assert!(
            row.records_per_s.is_finite() && row.records_per_s > 0.0,
            "{row:?}"
        );
        assert!(row.ratio.is_finite() && row.ratio > 0.0, "{row:?}");
        if row.path == "plain" {
            assert_eq!(row.ratio, 1.0, "plain is its own base: {row:?}");
        }
        paths
            .entry((row.sink.as_str(), row.barrier_every))
            .or_default()
            .push(row.path.as_str());
    }
    let expected: &[(&str, &[&str])] = &[
        ("file", &["plain", "minimal", "verbs", "framework"]),
        ("xa", &["plain", "verbs", "framework"]),
        ("upsert", &["plain", "verbs", "framework"]),
        (
            "memory",
            &["plain", "minimal", "verbs", "framework", "reference"],
        ),
    ];
    let mut wanted = BTreeMap::new();
    for (sink, sink_paths) in expected {
        if !sinks.contains(sink) {
            continue;
        }
        for every in [100, 1000] {
            wanted.insert((*sink, every), sink_paths.to_vec());
        }
    }
    assert_eq!(paths, wanted);
    // A row's ratio is its plain row's time over its own.
    for row in &rows {
        let plain = rows
            .iter()
            .find(|r| {
                r.sink == row.sink && r.barrier_every == row.barrier_every && r.path == "plain"
            })
            .unwrap();
        let ratio = row.records_per_s / plain.records_per_s;
        assert!(
            (ratio - row.ratio).abs() < 1e-9 * ratio.max(1.0),
            "{row:?} vs {plain:?}"
        );
    }
}
