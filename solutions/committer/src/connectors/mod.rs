//! In-memory adopters of the committer framework, one per delivery shape (see the
//! table in [`crate`]), and the external systems they write to.

mod append;
mod changelog;
mod object_store;
mod staged_artifact;
mod staged_name;
mod two_phase;
mod two_phase_system;
mod upsert;
mod xa_memory;
mod xa_sink;
mod xa_store;

pub use append::AppendSink;
pub use changelog::{Change, RowKind};
pub use object_store::{ObjectPlace, ObjectStore, SharedObjectStore};
pub use staged_artifact::StagedArtifactSink;
pub use staged_name::StagedName;
pub use two_phase::{PreparedTransaction, TwoPhaseAdopter};
pub use two_phase_system::TwoPhaseSystem;
pub use upsert::{InMemoryTable, UpsertSink};
pub use xa_memory::{XaConnection, XaDatabase};
pub use xa_sink::XaSink;
pub use xa_store::{GlobalTxnId, XaStore};
