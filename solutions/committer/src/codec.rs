//! The persisted form of a handle: the sink's committable in a versioned envelope.
//!
//! The envelope is written by the base, not the connector, so every handle in operator
//! state says which version of its shape it is; a binary that reads an older one can
//! upgrade it instead of misreading it.
//!
//! Its layout: the version as four little-endian bytes, then the committable as JSON.
//! The version comes first and has a fixed size, so it is read without parsing what
//! follows (an older shape may not parse as the current one), and it costs nothing to
//! write beside the committable, which matters because a handle is encoded at every
//! barrier.

use anyhow::{Context, Result};

use crate::verbs::CommittingSink;

/// The bytes persisted for `committable`.
///
/// # Errors
/// When the committable cannot be serialised.
pub fn encode<S: CommittingSink>(committable: &S::Committable) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(64);
    encode_into::<S>(committable, &mut bytes)?;
    Ok(bytes)
}

/// [`encode`] into `bytes`, replacing what they held: the base encodes every barrier's
/// handle into one buffer it keeps, rather than allocating one per barrier.
///
/// # Errors
/// When the committable cannot be serialised.
pub(crate) fn encode_into<S: CommittingSink>(
    committable: &S::Committable,
    bytes: &mut Vec<u8>,
) -> Result<()> {
    bytes.clear();
    bytes.extend_from_slice(&S::COMMITTABLE_VERSION.to_le_bytes());
    serde_json::to_writer(bytes, committable).context("serialising a committable")
}

/// The committable that `bytes` persisted, upgraded if an older version wrote it.
///
/// # Errors
/// When `bytes` is not an envelope, or its version cannot be read by this sink.
pub fn decode<S: CommittingSink>(bytes: &[u8]) -> Result<S::Committable> {
    let (version, committable) = bytes
        .split_first_chunk::<4>()
        .context("a persisted handle is shorter than its envelope's version")?;
    let version = u32::from_le_bytes(*version);
    // The usual case reads the committable straight into its type; only an older
    // version goes through a generic value, for the sink to upgrade.
    if version == S::COMMITTABLE_VERSION {
        return serde_json::from_slice(committable).with_context(|| {
            format!("a persisted handle does not match committable version {version}")
        });
    }
    let raw = serde_json::from_slice(committable)
        .with_context(|| format!("a persisted handle of version {version} is not JSON"))?;
    S::upgrade_committable(version, raw)
}
