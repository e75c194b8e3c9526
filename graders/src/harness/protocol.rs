//! The wire between a driver (child process) and the judge (the `byo` process).
//!
//! The driver writes one message per line on its standard output, each behind a marker
//! so that whatever the learner's code prints in between is kept apart (and shown in the
//! report as the code's output) rather than mistaken for an observation.

use serde::{Deserialize, Serialize};

/// The environment variable that turns a grade binary into a driver; its value is a
/// JSON [`Request`].
pub const REQUEST_ENV: &str = "BYO_DRIVE";

/// Marks a protocol line. The record separator character never appears in normal
/// printing, so a learner's output cannot collide with it by accident.
pub const MARKER: &str = "\u{1e}byo:";

/// What the judge asks a driver to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The stage whose plan to run (a binary bound to another stage refuses).
    pub stage: u8,
    /// The seed of the plan.
    pub seed: u64,
    /// Run only this case of the plan (a replay), instead of all of them.
    pub only: Option<usize>,
    /// The fingerprint of the plan the judge will use ([`plan_fingerprint`]): a driver
    /// built from other grader sources has another plan, and refuses rather than be
    /// judged against cases it did not run.
    pub plan: u64,
}

/// A fingerprint of a plan: FNV-1a over its JSON.
pub fn plan_fingerprint<C: Serialize>(plan: &[C]) -> u64 {
    let bytes = serde_json::to_vec(plan).unwrap_or_default();
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// How one case ended inside the driver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outcome<O> {
    /// The implementation returned; this is what the driver observed.
    Returned(O),
    /// The implementation panicked (`todo!()` included).
    Panicked {
        /// The panic message.
        message: String,
        /// Where it panicked, `file:line:column`.
        location: Option<String>,
    },
}

/// One line of the driver's output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Message {
    /// The driver refused the request (e.g. it is bound to another stage).
    Refused(String),
    /// Case `index` is about to run: if nothing follows, this case killed the driver.
    Start(usize),
    /// Case `index` ended.
    Ended(usize, Outcome<serde_json::Value>),
    /// Every requested case ran; the driver is about to exit normally.
    Finished,
}

impl Message {
    /// The message as one protocol line, without the newline.
    pub fn to_line(&self) -> String {
        // Serialising a `Message` cannot fail: every field is a plain value or a
        // `serde_json::Value`, neither of which has non-string map keys.
        let json = serde_json::to_string(self).unwrap_or_else(|e| {
            serde_json::to_string(&Message::Refused(format!("unserialisable message: {e}")))
                .unwrap_or_default()
        });
        format!("{MARKER}{json}")
    }

    /// The message a line carries, if it is a protocol line. The marker may follow text
    /// the learner printed without a newline.
    pub fn from_line(line: &str) -> Option<Result<Self, String>> {
        let start = line.find(MARKER)?;
        let json = &line[start + MARKER.len()..];
        Some(serde_json::from_str(json).map_err(|e| format!("{e}: {json}")))
    }
}
