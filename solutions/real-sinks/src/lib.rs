//! Real sinks · the stage-08 committer framework against a real filesystem and a real
//! PostgreSQL, and a pipeline that survives `kill -9`.
//!
//! The reference crate proves the protocol against in-memory stand-ins; this crate runs
//! the same [`CommitterOperator`](committer::CommitterOperator) over real
//! systems, where a crash is a SIGKILL at an arbitrary instruction and durability is an
//! `fsync` or a server's write-ahead log:
//!
//! - [`file::FileSink`], shape A: staged files, fsynced at the barrier, renamed into the
//!   output folder at the commit;
//! - [`pg::PgXaSink`], shape B: `PREPARE TRANSACTION` at the barrier, `COMMIT PREPARED`
//!   at the commit;
//! - [`pg::PgUpsertSink`], shape C: netted upserts and deletes by key.
//!
//! **Law (no partial output).** At every instant, killed or not, the output holds only
//! whole checkpoints' output: no torn file in the output folder, no row of an
//! unprepared or uncommitted transaction.
//!
//! **Law (exactly once through kills).** However often the process is killed, restarting
//! it until the input is done leaves every record in the output exactly once (shapes A
//! and B), or the table in the state the input defines (shape C), and nothing staged or
//! prepared behind.
//!
//! [`job`] is the pipeline the `demo` binary runs; [`crash`] is the harness that kills
//! it at aimed and seeded random moments and checks both laws; [`watchdog`] fails a run
//! whose PostgreSQL server stopped answering, instead of letting it hang.

pub mod cli;
pub mod crash;
pub mod doctor;
pub mod durable;
pub mod file;
pub mod job;
pub mod pg;
pub mod rng;
pub mod watchdog;
