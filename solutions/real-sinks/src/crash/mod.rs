//! The crash harness: real SIGKILLs at seeded random moments, and the checks of the
//! crate's two laws after every kill and at the end of every job.

mod harness;
mod verify;

pub use harness::{CrashPlan, CrashReport, run};
pub use verify::Verifier;
