//! The persisted form of a handle: the sink's committable in a versioned envelope.
//!
//! The envelope is written by the base, not the connector, so every handle in operator
//! state says which version of its shape it is; a binary that reads an older one can
//! upgrade it instead of misreading it.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::verbs::CommittingSink;

#[derive(Serialize, Deserialize)]
struct Envelope<C> {
    version: u32,
    committable: C,
}

/// An envelope read for its version alone (the committable is skipped unread).
#[derive(Deserialize)]
struct Version {
    version: u32,
}

/// The bytes persisted for `committable`.
///
/// # Errors
/// When the committable cannot be serialised.
pub fn encode<S: CommittingSink>(committable: &S::Committable) -> Result<Vec<u8>> {
    serde_json::to_vec(&Envelope {
        version: S::COMMITTABLE_VERSION,
        committable,
    })
    .context("serialising a committable")
}

/// The committable that `bytes` persisted, upgraded if an older version wrote it.
///
/// # Errors
/// When `bytes` is not an envelope, or its version cannot be read by this sink.
pub fn decode<S: CommittingSink>(bytes: &[u8]) -> Result<S::Committable> {
    let not_an_envelope = "a persisted handle is not a committable envelope";
    let Version { version } = serde_json::from_slice(bytes).context(not_an_envelope)?;
    // The usual case reads the committable straight into its type; only an older
    // version goes through a generic value, for the sink to upgrade.
    if version == S::COMMITTABLE_VERSION {
        let envelope: Envelope<S::Committable> =
            serde_json::from_slice(bytes).with_context(|| {
                format!("a persisted handle does not match committable version {version}")
            })?;
        return Ok(envelope.committable);
    }
    let envelope: Envelope<serde_json::Value> =
        serde_json::from_slice(bytes).context(not_an_envelope)?;
    S::upgrade_committable(envelope.version, envelope.committable)
}
