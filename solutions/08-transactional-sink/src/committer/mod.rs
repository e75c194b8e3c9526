//! The sink committer framework. (Module docs: written below, see the end of the work.)

mod codec;
mod file_state;
mod guarantee;
mod ids;
pub mod key_groups;
mod operator;
mod pending;
mod state_backend;
mod steps;
mod succession;
mod verbs;

pub use codec::{decode, encode};
pub use file_state::FileOperatorState;
pub use guarantee::{
    DeliveryGuarantee, ExactlyOnce, ExactlyOnceCapable, Mechanism, request_guarantee,
};
pub use ids::{CheckpointId, RunToken, SubtaskId};
pub use operator::{CommitterOperator, RunContext};
pub use pending::PendingKey;
pub use state_backend::{InMemoryOperatorState, OperatorStateBackend, merge_snapshots};
pub use steps::{Crash, NoTripwire, Step, Tripwire};
pub use succession::Succession;
pub use verbs::{AbortOutcome, CommitOutcome, CommittingSink, OpenContext};
