//! The wire between a driver (child process) and the judge (the `byo` process).
//!
//! The judge writes one [`Request`] line on the driver's standard input, read before any
//! implementation code runs, so the seed and the run's nonce never sit in the driver's
//! environment or arguments. The driver writes one message per line on its standard
//! output, each behind a marker and the nonce, so that whatever the implementation prints
//! in between is kept apart (and shown in the report as the code's output) rather than
//! mistaken for an observation, and so that it cannot forge a protocol line: it does not
//! know the nonce.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The environment variable that turns a grade binary into a driver: set (to any value),
/// the binary reads its [`Request`] as one JSON line on standard input.
pub const REQUEST_ENV: &str = "BYO_DRIVE";

/// Marks a protocol line. The record separator character never appears in normal
/// printing, so a learner's output cannot collide with it by accident.
pub const MARKER: &str = "\u{1e}byo:";

/// What the judge asks a driver to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The stage whose plan to run (a binary bound to another stage refuses).
    pub stage: u8,
    /// The seed of the plan.
    pub seed: u64,
    /// The plan indices to run, in this order: the whole plan, one driver's share of it,
    /// what is left of a share after a driver died, or one case (a replay).
    pub cases: Vec<usize>,
    /// The fingerprint of the plan the judge will use ([`plan_fingerprint`]): a driver
    /// built from other grader sources has another plan, and refuses rather than be
    /// judged against cases it did not run.
    pub plan: u64,
    /// A fresh random number per run that every protocol line must carry: code running
    /// beside the driver does not know it, so it cannot print a line the judge believes.
    pub nonce: u64,
}

impl Request {
    /// A request for `cases` with a fresh, unpredictable nonce.
    pub fn new(stage: u8, seed: u64, cases: Vec<usize>, plan: u64) -> Self {
        Self {
            stage,
            seed,
            cases,
            plan,
            nonce: fresh_nonce(),
        }
    }
}

/// 64 bits the child cannot predict: the standard library seeds every `RandomState` from
/// the operating system's randomness.
pub fn fresh_nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.finish()
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Message {
    /// The driver refused the request (e.g. it is bound to another stage).
    Refused(String),
    /// Case `index` is about to run: if nothing follows, this case killed the driver.
    Start(usize),
    /// Within the running case, the implementation is about to run again: what it prints
    /// from here on comes from this run, as the stage names it ("crash after 3, lag 1").
    Run(String),
    /// Case `index` ended; an observation stays raw JSON until the judge reads it.
    Ended(usize, Outcome<Box<RawValue>>),
    /// Every requested case ran; the driver is about to exit normally.
    Finished,
}

impl Message {
    /// The message as one protocol line of the run with `nonce`, without the newline.
    pub fn to_line(&self, nonce: u64) -> String {
        // Serialising a `Message` cannot fail: every field is a plain value or JSON
        // already written.
        let json = serde_json::to_string(self).unwrap_or_else(|e| {
            serde_json::to_string(&Message::Refused(format!("unserialisable message: {e}")))
                .unwrap_or_default()
        });
        format!("{MARKER}{nonce:016x}:{json}")
    }

    /// Writes the message as one protocol line of the run with `nonce`, newline included,
    /// straight into `out` (an observation is not copied into a line first).
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_line(&self, nonce: u64, out: &mut impl std::io::Write) -> std::io::Result<()> {
        write!(out, "{MARKER}{nonce:016x}:")?;
        serde_json::to_writer(&mut *out, self)?;
        out.write_all(b"\n")
    }

    /// The message a line carries, if it is a protocol line of the run with `nonce`. The
    /// marker may follow text the implementation printed without a newline; a marker with
    /// another nonce is not a protocol line (it is something the implementation printed).
    pub fn from_line(line: &str, nonce: u64) -> Option<Result<Self, String>> {
        let tag = Self::tag(nonce);
        let start = line.find(&tag)?;
        let json = &line[start + tag.len()..];
        Some(serde_json::from_str(json).map_err(|e| format!("{e}: {json}")))
    }

    /// What starts the protocol lines of the run with `nonce`.
    pub fn tag(nonce: u64) -> String {
        format!("{MARKER}{nonce:016x}:")
    }
}
