//! The bytes of an operator-state snapshot, and the entries and job names they hold:
//! what every backend writes into a checkpoint and restores from.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result, bail};

use crate::ids::SubtaskId;
use crate::pending::PendingKey;

/// What a snapshot holds, and what a backend keeps: persisted handles by key, oldest
/// checkpoint first.
pub(crate) type Entries = BTreeMap<PendingKey, Vec<u8>>;

/// Every name the job has run under, its current one included: the prefixes of
/// whatever it may have left prepared or staged.
pub(crate) type Names = BTreeSet<String>;

/// The first bytes of every snapshot: what the bytes are, and the format's version.
const MAGIC: &[u8; 8] = b"OPSTATE2";

/// The first version, without names; still read (as a history of no earlier name).
const MAGIC_V1: &[u8; 8] = b"OPSTATE1";

/// The snapshot format shared by every backend. It is taken at every barrier, so it is
/// written with a few stores and no text formatting (it used to be a JSON array of hex
/// strings):
///
/// | bytes | field |
/// |---|---|
/// | 8 | `OPSTATE2` |
/// | 4 | entry count |
/// | per entry: 8, 4, 4 | key: checkpoint, author index, author parallelism |
/// | per entry: 4, n | handle: its length n, its bytes |
/// | 4 | name count |
/// | per name: 4, n | a job name the job has run under: its length n, its UTF-8 |
///
/// All integers little-endian, entries in key order (oldest checkpoint first), names in
/// order. No checksum: a snapshot travels inside a checkpoint, which carries its own.
/// `OPSTATE1`, the same without the names, is still read.
pub(crate) fn entries_to_bytes(entries: &Entries, names: &Names) -> Result<Vec<u8>> {
    write(
        entries.iter().map(|(key, handle)| (key, handle.as_slice())),
        names,
    )
}

/// [`entries_to_bytes`] of entries listed in key order by any backend.
pub(crate) fn write<'a>(
    entries: impl ExactSizeIterator<Item = (&'a PendingKey, &'a [u8])> + Clone,
    names: &Names,
) -> Result<Vec<u8>> {
    let size = entries
        .clone()
        .map(|(_, handle)| 20 + handle.len())
        .chain(names.iter().map(|name| 4 + name.len()))
        .sum::<usize>();
    let mut bytes = Vec::with_capacity(MAGIC.len() + 8 + size);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&length(entries.len(), "entries")?.to_le_bytes());
    for (key, handle) in entries {
        bytes.extend_from_slice(&key.checkpoint.to_le_bytes());
        bytes.extend_from_slice(&key.author.index.to_le_bytes());
        bytes.extend_from_slice(&key.author.parallelism.to_le_bytes());
        bytes.extend_from_slice(&length(handle.len(), "a handle's bytes")?.to_le_bytes());
        bytes.extend_from_slice(handle);
    }
    bytes.extend_from_slice(&length(names.len(), "names")?.to_le_bytes());
    for name in names {
        bytes.extend_from_slice(&length(name.len(), "a name's bytes")?.to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
    }
    Ok(bytes)
}

fn length(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).with_context(|| format!("operator state has too many {what}: {n}"))
}

/// The entries and names that [`entries_to_bytes`] wrote.
///
/// # Errors
/// When `bytes` is not a whole snapshot: another format, cut short, followed by more
/// bytes, an author that cannot exist, or keys out of order (a snapshot is written
/// sorted, so disorder means the bytes were damaged, and a damaged snapshot must not
/// restore).
pub(crate) fn entries_from_bytes(bytes: &[u8]) -> Result<(Entries, Names)> {
    let mut reader = Reader(bytes);
    let magic = reader.take(MAGIC.len())?;
    let with_names = match magic {
        m if m == MAGIC => true,
        m if m == MAGIC_V1 => false,
        _ => bail!("restoring operator state: not a snapshot (no {MAGIC:?} header)"),
    };
    let count = reader.u32()?;
    let mut entries = Entries::new();
    let mut previous = None;
    for _ in 0..count {
        let checkpoint = reader.u64()?;
        let (index, parallelism) = (reader.u32()?, reader.u32()?);
        let author = SubtaskId::new(index, parallelism)
            .context("restoring operator state: a key's author cannot exist")?;
        let key = PendingKey { checkpoint, author };
        if previous.is_some_and(|previous| previous >= key) {
            bail!("restoring operator state: key {key} is out of order, the snapshot is damaged");
        }
        let len = reader.u32()? as usize;
        entries.insert(key, reader.take(len)?.to_vec());
        previous = Some(key);
    }
    let mut names = Names::new();
    for _ in 0..if with_names { reader.u32()? } else { 0 } {
        let len = reader.u32()? as usize;
        let name = std::str::from_utf8(reader.take(len)?)
            .context("restoring operator state: a job name is not UTF-8")?;
        if !names.insert(name.to_owned()) {
            bail!(
                "restoring operator state: job name {name:?} is listed twice, the snapshot is damaged"
            );
        }
    }
    if !reader.0.is_empty() {
        bail!(
            "restoring operator state: {} byte(s) follow the last entry",
            reader.0.len()
        );
    }
    Ok((entries, names))
}

/// What is left of a snapshot being read.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.0.len() < n {
            bail!("restoring operator state: the snapshot is cut short");
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into()?))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into()?))
    }
}
