//! Replayable sources: a log of records read by position.

use anyhow::Result;

/// A position in a source: the number of records before it.
pub type Offset = u64;

/// A replayable source of records.
///
/// Unlike an iterator, a source can go back: `seek` moves the read position to any
/// offset up to the end.
pub trait Source {
    /// The records this source yields.
    type Item;

    /// The record at the current position, advancing past it (01-R1); `None` at the end,
    /// where it moves nothing (01-R13).
    fn poll(&mut self) -> Option<Self::Item>;

    /// The offset of the next record `poll` returns (01-R2): the count of records before it.
    fn position(&self) -> Offset;

    /// Moves the read position to `offset`; `offset == len` is the end and is allowed
    /// (01-R3).
    ///
    /// # Errors
    /// When `offset` is past the end of the source (01-R4): the message names the offset
    /// (01-R5), and the source stays where it was (01-R14). Never a panic, not even for
    /// `u64::MAX` (01-R15).
    fn seek(&mut self, offset: Offset) -> Result<()>;
}

/// A source over an owned vector: the simplest replayable log.
#[derive(Debug, Clone)]
pub struct VecSource<T> {
    records: Vec<T>,
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
        // TODO(stage 01): return a clone of the record at `self.next` and move past it;
        // `None` once every record has been read.
        todo!()
    }

    fn position(&self) -> Offset {
        // TODO(stage 01): the offset of the next record `poll` returns.
        todo!()
    }

    fn seek(&mut self, offset: Offset) -> Result<()> {
        // TODO(stage 01): move to `offset`. `offset == len` is allowed (the end); past
        // the end, return an error naming the offset and leave the position unchanged.
        let _ = (offset, &self.records, self.next);
        todo!()
    }
}
