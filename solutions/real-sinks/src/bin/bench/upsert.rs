//! The PostgreSQL upsert sink against the same netted upserts in one plain transaction
//! per checkpoint (without the sink's flush mark).

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Result;
use committer::{CommitterOperator, NoTripwire};
use real_sinks::job::{InputRecord, upsert_change};
use real_sinks::pg::{PgUpsertSink, connect, ensure_schema};

use super::drive::{drive_alone, drive_operator, epochs, open_fresh, run_context, state};
use super::timed;

/// The baseline: each checkpoint's changes netted by key, then one `INSERT … ON
/// CONFLICT` and one `DELETE` in a plain transaction, as the sink sends them.
pub fn plain_upserts(pg: &str, job: &str, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut client = connect(pg)?;
    ensure_schema(&mut client)?;
    timed(|| {
        let mut netted = BTreeMap::new();
        for (_, epoch) in epochs(records, every) {
            for record in epoch {
                let change = upsert_change(record);
                netted.insert(change.key, change.kind.keeps_row().then_some(change.value));
            }
            let (mut keys, mut values, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
            for (key, row) in std::mem::take(&mut netted) {
                match row {
                    Some(value) => {
                        keys.push(key);
                        values.push(value);
                    }
                    None => deleted.push(key),
                }
            }
            let mut txn = client.transaction()?;
            txn.execute(
                "INSERT INTO xo_upsert_rows (job, key, value) \
                 SELECT $1, * FROM unnest($2::bigint[], $3::text[]) \
                 ON CONFLICT (job, key) DO UPDATE SET value = EXCLUDED.value",
                &[&job, &keys, &values],
            )?;
            txn.execute(
                "DELETE FROM xo_upsert_rows WHERE job = $1 AND key = ANY($2)",
                &[&job, &deleted],
            )?;
            txn.commit()?;
        }
        Ok(())
    })
}

/// The upsert sink's own verbs: net, and flush at every checkpoint.
pub fn upsert_alone(pg: &str, job: &str, records: &[InputRecord], every: u64) -> Result<Duration> {
    let mut sink = PgUpsertSink::open(job, connect(pg)?)?;
    open_fresh(&mut sink, job)?;
    timed(|| drive_alone(&mut sink, records, every, upsert_change))
}

/// The upsert sink as the pipeline runs it: through the base.
pub fn upsert_operator(
    pg: &str,
    job: &str,
    records: &[InputRecord],
    every: u64,
) -> Result<Duration> {
    let sink = PgUpsertSink::open(job, connect(pg)?)?;
    let operator =
        CommitterOperator::open(sink, state(), &run_context(job)?, Box::new(NoTripwire))?;
    timed(|| drive_operator(operator, records, every, upsert_change))
}
