//! The file sink's handle: the staged file's name, with the length and checksum it had
//! when it was prepared, so that a file damaged while it waited (truncated while the
//! job was down, a byte changed) is refused by name instead of published as it is.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::Path;

use anyhow::{Context, Result, bail};
use committer::connectors::StagedName;
use serde::{Deserialize, Serialize};

/// A prepared file: its name, and what its bytes were when the barrier prepared it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StagedFile {
    /// The file's name (its folder, author, run and checkpoint).
    pub name: StagedName,
    /// How many bytes it held.
    pub len: u64,
    /// [`Digest`] of those bytes.
    pub checksum: u64,
}

impl StagedFile {
    /// Checks the file at `path` against the handle, reading it whole.
    ///
    /// # Errors
    /// When it cannot be read (a missing file is `ErrorKind::NotFound`, for the caller
    /// to tell a lost handle from a published one), or its length or checksum differ:
    /// it was damaged after it was prepared, and publishing it would lose or invent
    /// records.
    pub fn verify(&self, path: &Path) -> Result<()> {
        let mut file = File::open(path)?;
        let mut digest = Digest::default();
        let mut buffer = vec![0; 1 << 16];
        loop {
            match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => digest.update(&buffer[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            }
        }
        let (len, checksum) = digest.finish();
        if (len, checksum) != (self.len, self.checksum) {
            bail!(
                "refusing to publish {}: it holds {len} bytes with checksum {checksum:016x}, \
                 but was prepared with {} bytes and checksum {:016x}; it was damaged while \
                 staged, and publishing it would lose or invent records. Restore the file, \
                 or accept the loss of checkpoint {}'s records from subtask {} (demo run \
                 --abandon-lost-handles after removing it)",
                path.display(),
                self.len,
                self.checksum,
                self.name.checkpoint,
                self.name.author
            );
        }
        Ok(())
    }
}

/// A checksum of a byte stream, taken eight bytes at a time (FNV-1a's multiply over
/// words, with a rotation to spread them): fast enough to run over every record as it
/// is written, and it catches a changed or missing byte. Not cryptographic.
#[derive(Debug, Clone, Default)]
pub struct Digest {
    hash: u64,
    len: u64,
    pending: [u8; 8],
    filled: usize,
}

const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Digest {
    /// Takes `bytes` in.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.filled > 0 {
            let take = bytes.len().min(8 - self.filled);
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.word(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    fn word(&mut self, word: u64) {
        self.hash = ((self.hash ^ word).wrapping_mul(PRIME)).rotate_left(29);
    }

    /// The length taken in, and the checksum.
    pub fn finish(&self) -> (u64, u64) {
        let mut last = [0; 8];
        last[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        let hash = ((self.hash ^ u64::from_le_bytes(last)).wrapping_mul(PRIME)) ^ self.len;
        (self.len, hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_does_not_depend_on_how_the_bytes_are_cut() {
        let bytes: Vec<u8> = (0..100u8).collect();
        let mut whole = Digest::default();
        whole.update(&bytes);
        for cut in [1, 3, 7, 8, 9, 50] {
            let mut pieces = Digest::default();
            bytes.chunks(cut).for_each(|piece| pieces.update(piece));
            assert_eq!(pieces.finish(), whole.finish(), "cut every {cut}");
        }
    }

    #[test]
    fn a_changed_a_missing_or_an_extra_byte_changes_it() {
        let digest = |bytes: &[u8]| {
            let mut d = Digest::default();
            d.update(bytes);
            d.finish()
        };
        let base = digest(b"12\tpayload\n#end 1\n");
        assert_ne!(digest(b"13\tpayload\n#end 1\n"), base);
        assert_ne!(digest(b"12\tpayload\n#end 1"), base);
        assert_ne!(digest(b"12\tpayload\n#end 1\n\0"), base);
        assert_ne!(digest(b""), digest(b"\0"));
    }
}
