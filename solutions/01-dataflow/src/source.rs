//! Replayable sources: a log of records read by position.

use anyhow::{Result, bail};

/// A position in a source: the number of records before it.
pub type Offset = u64;

/// A replayable source of records.
///
/// Unlike an iterator, a source can go back: `seek` moves the read position to any
/// offset up to the end, which is what a recovering job does with the offset it stored
/// in its last checkpoint.
pub trait Source {
    /// The records this source yields.
    type Item;

    /// The record at the current position, advancing past it; `None` at the end.
    fn poll(&mut self) -> Option<Self::Item>;

    /// The offset of the next record `poll` returns (the count of records before it).
    fn position(&self) -> Offset;

    /// Moves the read position to `offset`; `offset == len` is the end and is allowed.
    ///
    /// # Errors
    /// When `offset` is past the end of the source.
    fn seek(&mut self, offset: Offset) -> Result<()>;
}

/// A source over an owned vector: the simplest replayable log.
#[derive(Debug, Clone)]
pub struct VecSource<T> {
    records: Vec<T>,
    // `usize` because it indexes `records`; `position()` widens it to an `Offset`.
    next: usize,
}

impl<T> VecSource<T> {
    /// A source positioned at offset 0 of `records`.
    pub fn new(records: Vec<T>) -> Self {
        Self { records, next: 0 }
    }

    /// The number of records in the log.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the log holds no records at all.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

impl<T: Clone> Source for VecSource<T> {
    type Item = T;

    fn poll(&mut self) -> Option<T> {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }

    fn position(&self) -> Offset {
        self.next as Offset
    }

    fn seek(&mut self, offset: Offset) -> Result<()> {
        let len = self.records.len();
        // Compare in u64 so an offset beyond usize::MAX cannot wrap into range.
        if offset > len as Offset {
            bail!("seek: offset {offset} is past the end of the source ({len} records)");
        }
        self.next = offset as usize;
        Ok(())
    }
}
