//! End of input on the real sinks: records written after the last completed checkpoint
//! are refused by `finish` rather than lost, and the base's `end_of_input` makes them
//! visible exactly once (the file sink on a real filesystem, the XA and upsert sinks on
//! PostgreSQL, which skip loudly without `BYO_PG`).

mod common;

use committer::connectors::{Change, RowKind};
use committer::{
    CommitterOperator, CommittingSink, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId,
    Succession,
};
use real_sinks::file::{FileSink, Layout, read_complete};
use real_sinks::pg::{PgUpsertSink, PgXaSink, PgXaStore, XaRow, connect, shared};

fn run(job: &str, generation: u64, restored: Option<u64>) -> RunContext {
    RunContext {
        job: job.to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1).unwrap(), 128).unwrap(),
        restored,
    }
}

/// Writes input 1, completes checkpoint 1, writes input 2; `finish` must refuse. The
/// restart from checkpoint 1 replays input 2 and ends through `end_of_input`.
fn tail_after_the_last_checkpoint<S: CommittingSink>(
    job: &str,
    mut sink: impl FnMut() -> S,
    record: impl Fn(u32) -> S::Record,
) {
    let open = |sink: S, state, (generation, restored)| {
        let run = run(job, generation, restored);
        CommitterOperator::open(sink, state, &run, Box::new(NoTripwire)).unwrap()
    };
    let mut op = open(sink(), InMemoryOperatorState::new(), (1, None));
    op.write(record(1)).unwrap();
    let completed = op.on_barrier(1).unwrap();
    op.on_checkpoint_complete(1).unwrap();
    op.write(record(2)).unwrap();
    let refused = op
        .finish()
        .err()
        .expect("finish closed over records")
        .to_string();
    assert!(refused.contains("open transaction"), "{refused}");

    let restored = InMemoryOperatorState::restore(&completed).unwrap();
    let mut op = open(sink(), restored, (2, Some(1)));
    op.write(record(2)).unwrap();
    op.end_of_input(2).unwrap();
    op.on_checkpoint_complete(2).unwrap();
    op.finish().unwrap();
}

#[test]
fn the_file_sinks_tail_is_published_exactly_once() {
    let root = common::scratch("eoi-file");
    let layout = Layout::new(&root, "files").unwrap();
    tail_after_the_last_checkpoint("files", || FileSink::new(layout.clone()), |n| n.to_string());
    let mut published: Vec<String> = std::fs::read_dir(layout.output())
        .unwrap()
        .flat_map(|entry| read_complete(&entry.unwrap().path()).unwrap())
        .collect();
    published.sort();
    assert_eq!(published, ["1", "2"]);
    assert_eq!(std::fs::read_dir(layout.staging()).unwrap().count(), 0);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_xa_sinks_tail_is_committed_exactly_once() {
    let Some(pg) = common::postgres("the_xa_sinks_tail_is_committed_exactly_once") else {
        return;
    };
    let job = format!("t-eoi-xa-{}", std::process::id());
    let control = shared(connect(&pg).unwrap());
    let sink =
        || PgXaSink::new(PgXaStore::open(&job, connect(&pg).unwrap(), control.clone(), 4).unwrap());
    let row = |n: u32| XaRow {
        seq: i64::from(n),
        payload: format!("p{n}"),
    };
    tail_after_the_last_checkpoint(&job, sink, row);
    let mut reader = connect(&pg).unwrap();
    let seqs: Vec<i64> = reader
        .query(
            "SELECT seq FROM xo_xa_rows WHERE job = $1 ORDER BY seq",
            &[&job],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(seqs, [1, 2]);
    let prepared = reader
        .query(
            "SELECT 1 FROM pg_prepared_xacts WHERE gid LIKE $1",
            &[&format!("{job}-%")],
        )
        .unwrap();
    assert!(prepared.is_empty(), "a transaction was left prepared");
}

#[test]
fn the_upsert_sinks_tail_is_flushed() {
    let Some(pg) = common::postgres("the_upsert_sinks_tail_is_flushed") else {
        return;
    };
    let job = format!("t-eoi-upsert-{}", std::process::id());
    let sink = || PgUpsertSink::open(&job, connect(&pg).unwrap()).unwrap();
    let change = |n: u32| Change {
        kind: RowKind::Insert,
        key: i64::from(n),
        value: format!("v{n}"),
    };
    tail_after_the_last_checkpoint(&job, sink, change);
    let keys: Vec<i64> = connect(&pg)
        .unwrap()
        .query(
            "SELECT key FROM xo_upsert_rows WHERE job = $1 ORDER BY key",
            &[&job],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(keys, [1, 2]);
}
