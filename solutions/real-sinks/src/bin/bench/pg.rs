//! The PostgreSQL XA sink against the same batched inserts committed per checkpoint.

use std::time::Duration;

use anyhow::Result;
use committer::{CommitterOperator, NoTripwire};
use real_sinks::job::InputRecord;
use real_sinks::pg::{PgXaSink, PgXaStore, SharedClient, XaRow, connect};

use super::drive::{drive_alone, drive_operator, open_fresh, run_context, state};
use super::timed;

fn xa_row(record: &InputRecord) -> XaRow {
    XaRow {
        seq: record.seq as i64,
        payload: record.payload.clone(),
    }
}

/// The baseline: the same batched inserts, one plain transaction per checkpoint.
pub fn plain_inserts(pg: &str, job: &str, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut client = connect(pg)?;
    real_sinks::pg::ensure_schema(&mut client)?;
    let insert = |client: &mut postgres::Client, batch: &[InputRecord]| -> Result<()> {
        let seqs: Vec<i64> = batch.iter().map(|r| r.seq as i64).collect();
        let payloads: Vec<&str> = batch.iter().map(|r| r.payload.as_str()).collect();
        client.execute(
            "INSERT INTO xo_xa_rows (job, seq, payload) SELECT $1, * FROM unnest($2::bigint[], $3::text[])",
            &[&job, &seqs, &payloads],
        )?;
        Ok(())
    };
    timed(|| {
        for epoch in records.chunks(every as usize) {
            client.batch_execute("BEGIN")?;
            // The XA store sends at most 512 rows per statement; so does the baseline.
            for batch in epoch.chunks(512) {
                insert(&mut client, batch)?;
            }
            client.batch_execute("COMMIT")?;
        }
        Ok(())
    })
}

/// The XA sink's own verbs: insert batches, prepare, commit prepared per checkpoint.
pub fn xa_alone(
    pg: &str,
    control: &SharedClient,
    job: &str,
    records: &[InputRecord],
    every: u64,
) -> Result<Duration> {
    let mut sink = PgXaSink::new(PgXaStore::open(job, connect(pg)?, control.clone(), 2)?);
    open_fresh(&mut sink, job)?;
    timed(|| drive_alone(&mut sink, records, every, xa_row))
}

/// The XA sink as the pipeline runs it: through the base, handles in operator state in
/// memory (the checkpoint carries them).
pub fn xa_operator(
    pg: &str,
    control: &SharedClient,
    job: &str,
    records: &[InputRecord],
    every: u64,
) -> Result<Duration> {
    let sink = PgXaSink::new(PgXaStore::open(job, connect(pg)?, control.clone(), 2)?);
    let operator =
        CommitterOperator::open(sink, state(), &run_context(job)?, Box::new(NoTripwire))?;
    timed(|| drive_operator(operator, records, every, xa_row))
}
