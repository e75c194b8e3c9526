//! The crash harness: real SIGKILLs at seeded random moments, and the checks of the
//! crate's two laws after every kill and at the end of every job.

mod delays;
mod harness;
mod landing;
mod verify;

pub use harness::{CrashPlan, CrashReport, run};
pub use landing::{Landing, MARKER, Phase, PhaseTripwire};
pub use verify::Verifier;
