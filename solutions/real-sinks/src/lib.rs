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
//! **Law (one history per destination).** A job folder is one history of its job; the
//! destination belongs to the history that claimed it first ([`job::Lineage`]), and a run
//! of another history is refused before it sweeps or writes anything. Checkpoints are
//! sealed with the destination's key and ordered by the folder's fencing epoch, so a
//! checkpoint of another history, an edited one, or a late one of an overtaken run is
//! never restored; a damaged latest checkpoint falls back, loudly, to the one before.
//!
//! [`job`] is the pipeline the `demo` binary runs, with test hooks ([`job::Hook`]) that
//! stop or pause a run at named points; [`crash`] is the harness that kills it at aimed
//! and seeded random moments and checks both laws; [`doctor`] lists and resolves what a
//! job left at its destination; [`watchdog`] fails a run whose PostgreSQL server stopped
//! answering, instead of letting it hang.
//!
//! Not built: the doctor lists and releases only the job's current name (a renamed
//! job's old names are swept by its runs, from operator state, but not listed); the
//! checkpoint seal is FNV-based, not a cryptographic MAC, so it stops edits and copies
//! but not someone who reads the key at the destination; the in-memory staged-artifact
//! sink of the framework does not check its artifacts (only the file sink does).

pub mod cli;
pub mod crash;
pub mod doctor;
pub mod durable;
pub mod file;
pub mod job;
pub mod pg;
pub mod rng;
pub mod watchdog;
