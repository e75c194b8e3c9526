//! The generated input: a replayable log of numbered records in a file.
//!
//! Generated once, from the seed, before the first run; every restart reads the same
//! file and seeks to its checkpoint's offset, which is what "replayable" means. Payloads
//! vary in length so files and batches are not all alike.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use solution01::VecSource;

use crate::durable::replace_file;
use crate::rng::Rng;

/// One input record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRecord {
    /// Its position in the input (0-based): what the harness counts.
    pub seq: u64,
    /// Its content.
    pub payload: String,
}

impl InputRecord {
    /// The record as one line (`seq<TAB>payload`), the file sink's format.
    pub fn line(&self) -> String {
        format!("{}\t{}", self.seq, self.payload)
    }

    /// Reads a line [`InputRecord::line`] wrote.
    ///
    /// # Errors
    /// When the line has no tab or no number before it.
    pub fn parse(line: &str) -> Result<Self> {
        let (seq, payload) = line
            .split_once('\t')
            .with_context(|| format!("record line {line:?} has no tab"))?;
        Ok(Self {
            seq: seq
                .parse()
                .with_context(|| format!("record line {line:?} has no sequence number"))?,
            payload: payload.to_owned(),
        })
    }
}

const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// The `records` records of `seed`.
pub fn generate(records: u64, seed: u64) -> Vec<InputRecord> {
    let mut rng = Rng::new(seed);
    (0..records)
        .map(|seq| {
            let len = rng.between(8, 40) as usize;
            let payload = (0..len)
                .map(|_| ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize] as char)
                .collect();
            InputRecord { seq, payload }
        })
        .collect()
}

/// Writes the input of (`records`, `seed`) into `dir` unless it is there, and opens it
/// as a source positioned at offset 0.
///
/// # Errors
/// When the file cannot be written or read, or holds other than `records` records.
pub fn open(dir: &Path, records: u64, seed: u64) -> Result<VecSource<InputRecord>> {
    let path = dir.join("input.txt");
    if !path.exists() {
        let text: String = generate(records, seed)
            .iter()
            .map(|r| r.line() + "\n")
            .collect();
        replace_file(&path, text.as_bytes())?;
    }
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let input = text
        .lines()
        .map(InputRecord::parse)
        .collect::<Result<Vec<_>>>()?;
    if input.len() as u64 != records {
        bail!(
            "{} holds {} records, the job was configured with {records}",
            path.display(),
            input.len()
        );
    }
    Ok(VecSource::new(input))
}
