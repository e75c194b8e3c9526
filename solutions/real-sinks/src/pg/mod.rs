//! Shapes B and C on a real PostgreSQL, through the `postgres` crate.
//!
//! - [`PgXaStore`] is the framework's [`XaStore`](committer::connectors::XaStore) over
//!   `PREPARE TRANSACTION` / `COMMIT PREPARED`, so shape B is the framework's own
//!   [`XaSink`](committer::connectors::XaSink) over it ([`PgXaSink`]);
//! - [`PgUpsertSink`] is shape C: netted `INSERT … ON CONFLICT … DO UPDATE` and deletes.
//!
//! Tables live in the server's `public` schema and carry a `job` column, so jobs (and
//! concurrent test runs) share one database without seeing each other's rows.

mod fence;
mod schema;
mod upsert;
mod xa;

pub use fence::PgFence;
pub use schema::{
    SharedClient, check_prepared_capacity, connect, ensure_schema, max_prepared_transactions,
    shared,
};
pub use upsert::PgUpsertSink;
pub use xa::{PgXaStore, XaRow, is_transient, lock};

/// Shape B on PostgreSQL: the framework's XA adopter over [`PgXaStore`].
pub type PgXaSink = committer::connectors::XaSink<PgXaStore>;
