//! The coordinator's durable records: completed checkpoints and run generations.
//!
//! `checkpoint.json` is a header line, `byo-checkpoint v<version> fnv1a64=<hex>`, then
//! the checkpoint as JSON; the checksum covers the JSON bytes. A torn write, a hand-edited
//! offset or a file of another version is refused by name instead of restored: a wrong
//! offset silently loses or duplicates records. (The checksum catches accidents and
//! edits, not an adversary who recomputes it; the sink's committed mark, checked at
//! restore, catches a valid but older copy.)
//!
//! Writing the checkpoint file *is* the completion: once it is on disk, a restart
//! restores it, so its handles must be committed (by a notification or by recovery).
//! The generation is bumped, durably, before a run opens anything: two runs never share
//! one, even when both restore the same checkpoint, because the run token and the XA
//! global ids are minted from it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use committer::CheckpointId;
use serde::{Deserialize, Serialize};
use solution01::Offset;

use crate::durable::replace_file;

/// A completed checkpoint: where the source resumes and each subtask's operator state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Its id.
    pub id: CheckpointId,
    /// The source offset its barrier was injected at.
    pub offset: Offset,
    /// Operator-state snapshot of each subtask, by index.
    pub snapshots: Vec<Vec<u8>>,
}

/// The coordinator's files in a job folder.
#[derive(Debug, Clone)]
pub struct CheckpointStore {
    dir: PathBuf,
}

impl CheckpointStore {
    /// The store of the job in `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_owned(),
        }
    }

    /// The latest completed checkpoint, if any.
    ///
    /// # Errors
    /// When the checkpoint file cannot be read.
    pub fn latest(&self) -> Result<Option<Checkpoint>> {
        let path = self.dir.join("checkpoint.json");
        match fs::read(&path) {
            Ok(bytes) => {
                Ok(Some(decode(&bytes).with_context(|| {
                    format!("refusing to restore {}", path.display())
                })?))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Completes `checkpoint`, durably.
    ///
    /// # Errors
    /// When it cannot be written; the previous checkpoint then stays the latest.
    pub fn complete(&self, checkpoint: &Checkpoint) -> Result<()> {
        replace_file(&self.dir.join("checkpoint.json"), &encode(checkpoint)?)
    }

    /// The next run's generation (1 for the first run), recorded before it is used.
    ///
    /// # Errors
    /// When the generation file cannot be read or written.
    pub fn bump_generation(&self) -> Result<u64> {
        let path = self.generation_file();
        let last = match fs::read_to_string(&path) {
            Ok(text) => text
                .trim()
                .parse()
                .with_context(|| format!("reading {}", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let next: u64 = last + 1;
        replace_file(&path, next.to_string().as_bytes())?;
        Ok(next)
    }

    /// The file holding the latest run's generation (the job's fencing epoch).
    pub fn generation_file(&self) -> PathBuf {
        self.dir.join("generation")
    }

    /// Whether a run has finished the input.
    pub fn is_done(&self) -> bool {
        self.dir.join("done").exists()
    }

    /// Records that the input is finished and every handle committed.
    ///
    /// # Errors
    /// When the marker cannot be written.
    pub fn mark_done(&self) -> Result<()> {
        replace_file(&self.dir.join("done"), b"done\n")
    }
}

/// The format version `checkpoint.json` is written in.
pub const CHECKPOINT_VERSION: u32 = 2;

/// A checkpoint's bytes on disk: the header line, then its JSON.
///
/// # Errors
/// When it cannot be serialised.
pub fn encode(checkpoint: &Checkpoint) -> Result<Vec<u8>> {
    let body = serde_json::to_vec(checkpoint)?;
    let mut bytes = format!(
        "byo-checkpoint v{CHECKPOINT_VERSION} fnv1a64={:016x}\n",
        fnv1a64(&body)
    )
    .into_bytes();
    bytes.extend_from_slice(&body);
    Ok(bytes)
}

/// Reads bytes [`encode`] wrote.
///
/// # Errors
/// Naming what is wrong: no header, another version, a checksum that does not match.
pub fn decode(bytes: &[u8]) -> Result<Checkpoint> {
    let newline = bytes.iter().position(|&b| b == b'\n');
    let Some((header, body)) = newline.map(|at| (&bytes[..at], &bytes[at + 1..])) else {
        bail!("no `byo-checkpoint` header line: not a checkpoint of this version");
    };
    let header = std::str::from_utf8(header).context("the header line is not text")?;
    let Some((version, checksum)) = header
        .strip_prefix("byo-checkpoint v")
        .and_then(|rest| rest.split_once(" fnv1a64="))
    else {
        bail!("header {header:?} is not `byo-checkpoint v<version> fnv1a64=<hex>`");
    };
    if version != CHECKPOINT_VERSION.to_string() {
        bail!(
            "checkpoint format version {version} is not {CHECKPOINT_VERSION}, the one this build reads"
        );
    }
    let actual = format!("{:016x}", fnv1a64(body));
    if checksum != actual {
        bail!(
            "checksum mismatch (header says {checksum}, contents hash to {actual}): the file \
             was edited or torn, and restoring it could lose or duplicate records"
        );
    }
    serde_json::from_slice(body).context("the checkpoint's JSON")
}

/// FNV-1a, 64 bits: enough to catch a torn write or an edit, and dependency-free.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
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

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        assert_eq!(decode(&encode(&sample()).unwrap()).unwrap(), sample());
    }

    #[test]
    fn an_edited_torn_or_foreign_checkpoint_is_refused_by_name() {
        let bytes = encode(&sample()).unwrap();
        let edited = String::from_utf8(bytes.clone())
            .unwrap()
            .replace("350", "950");
        let error = decode(edited.as_bytes()).unwrap_err().to_string();
        assert!(error.contains("checksum mismatch"), "{error}");
        let torn = decode(&bytes[..bytes.len() - 3]).unwrap_err().to_string();
        assert!(torn.contains("checksum mismatch"), "{torn}");
        let old = serde_json::to_vec(&sample()).unwrap();
        assert!(decode(&old).unwrap_err().to_string().contains("header"));
        let other = String::from_utf8(bytes).unwrap().replacen("v2", "v9", 1);
        let error = decode(other.as_bytes()).unwrap_err().to_string();
        assert!(error.contains("version 9"), "{error}");
    }
}
