//! Shapes B and C against a real PostgreSQL: prepare, idempotent commit, orphan
//! rollback at open, the serialised shared connection, and upsert netting. Each test
//! skips, loudly, without `BYO_PG`.

mod common;

use std::thread;

use committer::connectors::{Change, GlobalTxnId, RowKind, XaStore};
use committer::{
    AbortOutcome, CommitOutcome, CommittingSink, OpenContext, RunToken, SubtaskId, Succession,
};
use postgres::Client;
use real_sinks::pg::{
    PgUpsertSink, PgXaSink, PgXaStore, SharedClient, XaRow, connect, lock, shared,
};

fn job(name: &str) -> String {
    format!("t-{name}-{}", std::process::id())
}

/// The open of job `job[0]`, which has run under no other name.
fn context<'a>(
    job: &'a [String],
    generation: u64,
    pending: &'a [(u64, GlobalTxnId)],
) -> OpenContext<'a, GlobalTxnId> {
    OpenContext {
        job: &job[0],
        names: job,
        generation,
        run_token: RunToken(generation),
        succession: Succession::new(SubtaskId::new(0, 1).unwrap(), 128).unwrap(),
        // These tests restore the checkpoint of the newest handle they hand over.
        restored: pending.iter().map(|(checkpoint, _)| *checkpoint).max(),
        pending,
    }
}

fn xa_sink(pg: &str, job: &str, control: &SharedClient) -> PgXaSink {
    PgXaSink::new(PgXaStore::open(job, connect(pg).unwrap(), control.clone(), 4).unwrap())
}

fn rows(client: &mut Client, job: &str) -> Vec<i64> {
    client
        .query(
            "SELECT seq FROM xo_xa_rows WHERE job = $1 ORDER BY seq",
            &[&job],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

fn row(seq: i64) -> XaRow {
    XaRow {
        seq,
        payload: format!("p{seq}"),
    }
}

#[test]
fn a_prepared_transaction_is_invisible_until_committed_and_commits_once() {
    let Some(pg) =
        common::postgres("a_prepared_transaction_is_invisible_until_committed_and_commits_once")
    else {
        return;
    };
    let job = job("commit");
    let control = shared(connect(&pg).unwrap());
    let mut sink = xa_sink(&pg, &job, &control);
    sink.on_open(&context(std::slice::from_ref(&job), 1, &[]))
        .unwrap();
    sink.write(row(0)).unwrap();
    sink.write(row(1)).unwrap();
    let gid = sink.prepare_commit(1).unwrap().unwrap();
    assert_eq!(gid.to_string(), format!("{job}-g1-sub0of1-c1"));
    let mut reader = connect(&pg).unwrap();
    assert!(
        rows(&mut reader, &job).is_empty(),
        "prepared rows are invisible"
    );
    // The next epoch is open on the task connection while the commit runs.
    sink.write(row(2)).unwrap();
    assert_eq!(sink.commit(&gid).unwrap(), CommitOutcome::Committed);
    assert_eq!(sink.commit(&gid).unwrap(), CommitOutcome::AlreadyCommitted);
    assert_eq!(rows(&mut reader, &job), [0, 1]);
    assert!(
        sink.abort(&gid)
            .unwrap_err()
            .to_string()
            .contains("already committed")
    );
    let never = GlobalTxnId {
        checkpoint: 99,
        ..gid
    };
    assert!(
        sink.commit(&never)
            .unwrap_err()
            .to_string()
            .contains("records are lost")
    );
    assert_eq!(sink.abort(&never).unwrap(), AbortOutcome::AlreadyAborted);
}

#[test]
fn open_rolls_back_orphans_it_succeeds_and_keeps_restored_ones() {
    let Some(pg) = common::postgres("open_rolls_back_orphans_it_succeeds_and_keeps_restored_ones")
    else {
        return;
    };
    let job = job("orphans");
    let control = shared(connect(&pg).unwrap());
    let mut crashed = xa_sink(&pg, &job, &control);
    crashed
        .on_open(&context(std::slice::from_ref(&job), 1, &[]))
        .unwrap();
    crashed.write(row(0)).unwrap();
    let kept = crashed.prepare_commit(1).unwrap().unwrap();
    crashed.write(row(1)).unwrap();
    let orphan = crashed.prepare_commit(2).unwrap().unwrap();
    crashed.write(row(2)).unwrap(); // open, dies with the connection
    drop(crashed);

    let pending = [(1, kept.clone())];
    let mut next = xa_sink(&pg, &job, &control);
    next.on_open(&context(std::slice::from_ref(&job), 2, &pending))
        .unwrap();
    let prepared: Vec<String> = lock(&control)
        .unwrap()
        .query(
            "SELECT gid FROM pg_prepared_xacts WHERE gid LIKE $1",
            &[&format!("{job}-%")],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        prepared,
        [kept.to_string()],
        "the orphan is rolled back, the restored handle kept"
    );
    assert_eq!(next.recover(&kept).unwrap(), CommitOutcome::Committed);
    assert_eq!(next.abort(&orphan).unwrap(), AbortOutcome::AlreadyAborted);
    assert_eq!(rows(&mut connect(&pg).unwrap(), &job), [0]);
}

#[test]
fn the_shared_control_connection_serialises_commits_from_several_threads() {
    let Some(pg) =
        common::postgres("the_shared_control_connection_serialises_commits_from_several_threads")
    else {
        return;
    };
    let job = job("threads");
    let control = shared(connect(&pg).unwrap());
    let mut gids = Vec::new();
    for checkpoint in 1..=8 {
        let mut store = PgXaStore::open(&job, connect(&pg).unwrap(), control.clone(), 8).unwrap();
        store.begin().unwrap();
        store.insert(row(checkpoint)).unwrap();
        let gid = format!("{job}-g1-sub0of1-c{checkpoint}");
        store.prepare(&gid).unwrap();
        gids.push(gid);
    }
    // The commit path on other threads, through one shared connection.
    let handles: Vec<_> = gids
        .chunks(2)
        .map(|pair| {
            let (pair, pg, control, job) =
                (pair.to_vec(), pg.clone(), control.clone(), job.clone());
            thread::spawn(move || {
                let mut store = PgXaStore::open(&job, connect(&pg).unwrap(), control, 8).unwrap();
                pair.iter()
                    .map(|g| store.commit_prepared(g).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), [CommitOutcome::Committed; 2]);
    }
    assert_eq!(
        rows(&mut connect(&pg).unwrap(), &job),
        (1..=8).collect::<Vec<_>>()
    );
}

#[test]
fn the_upsert_sink_nets_a_flush_to_one_statement_per_key() {
    let Some(pg) = common::postgres("the_upsert_sink_nets_a_flush_to_one_statement_per_key") else {
        return;
    };
    let job = job("upsert");
    let mut sink = PgUpsertSink::open(&job, connect(&pg).unwrap()).unwrap();
    let change = |kind, key, value: &str| Change {
        kind,
        key,
        value: value.to_owned(),
    };
    sink.write(change(RowKind::Insert, 1, "a")).unwrap();
    sink.write(change(RowKind::UpdateBefore, 1, "a")).unwrap();
    sink.write(change(RowKind::UpdateAfter, 1, "b")).unwrap();
    sink.write(change(RowKind::Insert, 2, "x")).unwrap();
    sink.write(change(RowKind::Delete, 2, "x")).unwrap();
    sink.write(change(RowKind::Insert, 3, "c")).unwrap();
    assert_eq!(
        sink.prepare_commit(1).unwrap(),
        None,
        "an upsert sink hands over no handle"
    );
    assert_eq!(
        sink.statements(),
        3,
        "six changes net to one statement per key"
    );
    // A replay of the same flush converges to the same table.
    sink.write(change(RowKind::UpdateAfter, 1, "b")).unwrap();
    sink.write(change(RowKind::Insert, 3, "c")).unwrap();
    sink.prepare_commit(2).unwrap();
    let table: Vec<(i64, String)> = connect(&pg)
        .unwrap()
        .query(
            "SELECT key, value FROM xo_upsert_rows WHERE job = $1 ORDER BY key",
            &[&job],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(table, [(1, "b".to_owned()), (3, "c".to_owned())]);
    assert!(sink.commit(&()).is_err());
}
