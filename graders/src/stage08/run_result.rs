//! How one run of the stage-08 job ended (its output, its error or its panic), and the
//! message of a caught panic: what the driver records of every run, the learner's own
//! sink's run included, and what the judge and the trace read.

use serde::{Deserialize, Serialize};

/// How one run of the job ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunResult {
    /// It returned this output.
    Output(Vec<u32>),
    /// It returned an error with this message.
    Error(String),
    /// It panicked with this message.
    Panicked(String),
}

/// A panic's message, from its payload.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panicked with a non-string payload".to_owned())
}
