//! PostgreSQL faults: an expired prepared transaction and the operator action that
//! unwedges the job, and the session timeouts that turn a lock wait into an error the
//! commit path retries. Each test skips, loudly, without `BYO_PG`.

mod common;

use committer::CommitOutcome::Abandoned;
use committer::connectors::XaStore;
use committer::{
    CommitPolicy, CommitterOperator, HandleLost, InMemoryOperatorState, NoFence, NoTripwire,
    OnLostHandle, OperatorStateBackend, RunContext, SubtaskId, Succession,
};
use real_sinks::pg::{PgXaSink, PgXaStore, XaRow, connect, is_transient, shared};

type XaOp = CommitterOperator<PgXaSink, InMemoryOperatorState>;

fn open(
    pg: &str,
    job: &str,
    snapshot: &[u8],
    generation: u64,
    on_lost: OnLostHandle,
) -> anyhow::Result<XaOp> {
    let control = shared(connect(pg)?);
    let sink = PgXaSink::new(PgXaStore::open(job, connect(pg)?, control, 4)?);
    let state = InMemoryOperatorState::restore(snapshot)?;
    let run = RunContext {
        job: job.to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1)?, 128)?,
        // These tests restore the snapshot of the barrier of their newest handle.
        restored: state.keys()?.last().map(|key| key.checkpoint),
    };
    let policy = CommitPolicy {
        on_lost,
        ..CommitPolicy::default()
    };
    CommitterOperator::open_with(
        sink,
        state,
        &run,
        Box::new(NoTripwire),
        Box::new(NoFence),
        policy,
    )
}

#[test]
fn an_expired_prepared_transaction_wedges_recovery_until_the_operator_abandons_it() {
    let Some(pg) = common::postgres(
        "an_expired_prepared_transaction_wedges_recovery_until_the_operator_abandons_it",
    ) else {
        return;
    };
    let job = format!("t-expired-{}", std::process::id());
    let empty = InMemoryOperatorState::new().snapshot().unwrap();
    let mut op = open(&pg, &job, &empty, 1, OnLostHandle::Fail).unwrap();
    op.write(XaRow {
        seq: 1,
        payload: "p1".into(),
    })
    .unwrap();
    let completed = op.on_barrier(1).unwrap();
    drop(op);
    // The prepared transaction is gone before recovery (expired, or rolled back by hand).
    let mut admin = connect(&pg).unwrap();
    let gid = format!("{job}-g1-sub0of1-c1");
    admin
        .batch_execute(&format!("ROLLBACK PREPARED '{gid}'"))
        .unwrap();

    for generation in [2, 3] {
        let error = open(&pg, &job, &completed, generation, OnLostHandle::Fail)
            .err()
            .expect("recovery of an expired transaction passed");
        assert!(
            error
                .chain()
                .any(|e| e.downcast_ref::<HandleLost>().is_some()),
            "{error:#}"
        );
        assert!(
            format!("{error:#}").contains("--abandon-lost-handles"),
            "{error:#}"
        );
    }
    // The documented operator action: one restart that abandons the lost handle.
    let op = open(&pg, &job, &completed, 4, OnLostHandle::Abandon).unwrap();
    assert_eq!(op.recovered(), [(1, Abandoned)]);
    let after = op.state().snapshot().unwrap();
    drop(op);
    assert!(open(&pg, &job, &after, 5, OnLostHandle::Fail).is_ok());
}

#[test]
fn every_session_has_timeouts_and_a_lock_wait_fails_as_transient() {
    let Some(pg) =
        common::postgres("every_session_has_timeouts_and_a_lock_wait_fails_as_transient")
    else {
        return;
    };
    let mut client = connect(&pg).unwrap();
    let show = |client: &mut postgres::Client, setting: &str| -> String {
        client
            .query_one(&format!("SHOW {setting}"), &[])
            .unwrap()
            .get(0)
    };
    assert_eq!(show(&mut client, "statement_timeout"), "30s");
    assert_eq!(show(&mut client, "lock_timeout"), "5s");

    // Another session holds a lock the commit path needs: the store's statement fails
    // with lock_timeout instead of hanging, and the error is classified transient.
    let job = format!("t-timeout-{}", std::process::id());
    let mut store = PgXaStore::open(
        &job,
        connect(&pg).unwrap(),
        shared(connect(&pg).unwrap()),
        4,
    )
    .unwrap();
    let gid = format!("{job}-g1-sub0of1-c1");
    let mut holder = connect(&pg).unwrap();
    holder.batch_execute("BEGIN").unwrap();
    holder
        .execute("INSERT INTO xo_committed (gid) VALUES ($1)", &[&gid])
        .unwrap();
    store.begin().unwrap();
    store
        .insert(XaRow {
            seq: 1,
            payload: "p1".into(),
        })
        .unwrap();
    let error = store.prepare(&gid).unwrap_err();
    assert!(is_transient(&error), "not transient: {error:#}");
    assert!(format!("{error:#}").contains("lock timeout"), "{error:#}");
    holder.batch_execute("ROLLBACK").unwrap();
}
