//! A checkpoint file's bytes: a header line, then the checkpoint as JSON.
//!
//! ```text
//! byo-checkpoint v3 lineage=<id> seal=<hex>
//! {"id":7,"offset":350,"snapshots":[...]}
//! ```
//!
//! The seal is FNV-1a (64 bits) over the history's key, the JSON and the key again;
//! the key lives at the destination ([`super::lineage`]), never in the job folder. A
//! torn write, an edited offset (even with a checksum recomputed the way this file
//! documents), a checkpoint of another history or of another format version is refused
//! by name instead of restored: a wrong offset silently loses or duplicates records.
//! The seal is not a cryptographic MAC: it stops accidents, hand edits and copies
//! between histories, not an adversary who reads the key at the destination.

use anyhow::{Context, Result, bail};

use super::checkpoint::Checkpoint;
use super::lineage::Lineage;

/// The format version checkpoint files are written in.
pub const CHECKPOINT_VERSION: u32 = 3;

/// A checkpoint's bytes on disk, sealed for `lineage`.
///
/// # Errors
/// When it cannot be serialised.
pub fn encode(checkpoint: &Checkpoint, lineage: &Lineage) -> Result<Vec<u8>> {
    let body = serde_json::to_vec(checkpoint)?;
    let header = format!(
        "byo-checkpoint v{CHECKPOINT_VERSION} lineage={} seal={:016x}\n",
        lineage.id,
        seal(lineage.key, &body)
    );
    let mut bytes = header.into_bytes();
    bytes.extend_from_slice(&body);
    Ok(bytes)
}

/// Reads bytes [`encode`] wrote for `lineage`.
///
/// # Errors
/// Naming what is wrong: no header, another version, another history, a seal that
/// does not match.
pub fn decode(bytes: &[u8], lineage: &Lineage) -> Result<Checkpoint> {
    let newline = bytes.iter().position(|&b| b == b'\n');
    let Some((header, body)) = newline.map(|at| (&bytes[..at], &bytes[at + 1..])) else {
        bail!("no `byo-checkpoint` header line: torn, or not a checkpoint of this version");
    };
    let header = std::str::from_utf8(header).context("the header line is not text")?;
    let fields = header.strip_prefix("byo-checkpoint v").and_then(|rest| {
        let (version, rest) = rest.split_once(" lineage=")?;
        let (id, sealed) = rest.split_once(" seal=")?;
        Some((version, id, sealed))
    });
    let Some((version, id, sealed)) = fields else {
        bail!("header {header:?} is not `byo-checkpoint v<version> lineage=<id> seal=<hex>`");
    };
    if version != CHECKPOINT_VERSION.to_string() {
        bail!(
            "checkpoint format version {version} is not {CHECKPOINT_VERSION}, the one this build reads"
        );
    }
    if id != lineage.id {
        bail!(
            "it belongs to the history {id}, not {}, the one its destination holds: a \
             checkpoint of another folder's history restores offsets that mean nothing here",
            lineage.id
        );
    }
    let actual = format!("{:016x}", seal(lineage.key, body));
    if sealed != actual {
        bail!(
            "seal mismatch (the header says {sealed}, the contents seal to {actual}): the file \
             was edited or torn, and restoring it could lose or duplicate records"
        );
    }
    serde_json::from_slice(body).context("the checkpoint's JSON")
}

/// FNV-1a, 64 bits, over `key`, `body`, `key`: dependency-free, and not computable
/// without the key.
fn seal(key: u64, body: &[u8]) -> u64 {
    let key = key.to_le_bytes();
    key.iter()
        .chain(body)
        .chain(&key)
        .fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            id: 7,
            offset: 350,
            snapshots: vec![b"{}".to_vec()],
        }
    }

    fn lineage() -> Lineage {
        Lineage {
            id: "0123abcd".into(),
            key: 0x5eed,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let bytes = encode(&sample(), &lineage()).unwrap();
        assert_eq!(decode(&bytes, &lineage()).unwrap(), sample());
    }

    #[test]
    fn an_edited_torn_foreign_or_unkeyed_checkpoint_is_refused_by_name() {
        let bytes = encode(&sample(), &lineage()).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        let edited = text.replace("350", "950");
        let error = decode(edited.as_bytes(), &lineage())
            .unwrap_err()
            .to_string();
        assert!(error.contains("seal mismatch"), "{error}");
        let torn = decode(&bytes[..bytes.len() - 3], &lineage()).unwrap_err();
        assert!(torn.to_string().contains("seal mismatch"), "{torn}");
        let other = Lineage {
            id: "ffff".into(),
            ..lineage()
        };
        let error = decode(&bytes, &other).unwrap_err().to_string();
        assert!(error.contains("belongs to the history 0123abcd"), "{error}");
        // Someone who knows the format but not the key: the seal recomputed without it.
        let (_, body) = edited.split_once('\n').unwrap();
        let forged = format!(
            "byo-checkpoint v3 lineage=0123abcd seal={:016x}\n{body}",
            seal(0, body.as_bytes())
        );
        let error = decode(forged.as_bytes(), &lineage())
            .unwrap_err()
            .to_string();
        assert!(error.contains("seal mismatch"), "{error}");
        let older = text.replacen("v3", "v2", 1);
        let error = decode(older.as_bytes(), &lineage())
            .unwrap_err()
            .to_string();
        assert!(error.contains("version 2"), "{error}");
    }
}
