//! The crash harness: real SIGKILLs at aimed or seeded random moments, and the checks of the
//! crate's two laws after every kill and at the end of every job.

mod aim;
mod delays;
mod harness;
mod landing;
mod verify;
mod watch;

pub use aim::{Aims, Kill};
pub use harness::{CrashPlan, CrashReport, run};
pub use landing::{Landing, MARKER, Phase, PhaseTripwire, Tracker};
pub use verify::Verifier;
