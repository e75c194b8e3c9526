//! Stage 01 mutants of the source's contract: what a call does at the boundaries, going
//! back, past the end and after a refused seek.

/// A `VecSource` mutant: the fields beside `records`, and the three bodies.
macro_rules! source {
    (
        $(#[$doc:meta])*
        mod $name:ident { $($field:ident: $ty:ty = $init:expr),* }
        poll($p:ident) $poll:block
        position($q:ident) $position:block
        seek($s:ident, $offset:ident) $seek:block
    ) => {
        $(#[$doc])*
        pub mod $name {
            pub use solution01::*;

            pub struct VecSource<T> {
                records: Vec<T>,
                $($field: $ty),*
            }
            impl<T> VecSource<T> {
                pub fn new(records: Vec<T>) -> Self {
                    Self { records, $($field: $init),* }
                }
            }
            impl<T: Clone> Source for VecSource<T> {
                type Item = T;
                fn poll(&mut $p) -> Option<T> $poll
                fn position(&$q) -> Offset $position
                fn seek(&mut $s, $offset: Offset) -> anyhow::Result<()> $seek
            }
        }
    };
}

source! {
    /// **Mistake:** `poll` hands out the newest record first (`records[len - 1 - next]`),
    /// as a stack would; `position()` and `seek` are right.
    /// **Verdict:** `contract` fails: on `[5, 0]`, the first `poll()` returns 0, not 5.
    mod poll_reads_from_the_back { next: usize = 0 }
    poll(self) {
        let len = self.records.len();
        let record = self.records.get(len.checked_sub(self.next + 1)?)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** `seek` only moves forward, as if the source were a stream being read:
    /// going back is refused. Every check that seeks a fresh source passes.
    /// **Verdict:** `contract` fails: `poll()`, then `seek(0)` is refused.
    mod seek_only_forward { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        anyhow::ensure!(offset >= self.next as Offset, "cannot go back from {} to {offset}", self.next);
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the error of a seek past the end says what went wrong but not which
    /// offset: "the error names the offset" read as optional.
    /// **Verdict:** `seek-past-end` fails: the message of `seek(1)` on `[]` has no 1.
    mod error_without_offset { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "seek past the end of the source");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** `seek` lets slicing check the bound (`&records[..offset]`), so an
    /// offset past the end panics instead of returning an error.
    /// **Verdict:** `seek-past-end` fails: `seek(1)` on `[]` panics.
    mod seek_panics_past_the_end { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        let before = &self.records[..offset as usize];
        self.next = before.len();
        Ok(())
    }
}

source! {
    /// **Mistake:** `seek` assigns the offset first and checks it after, so a refused
    /// seek leaves the source at the offset it refused.
    /// **Verdict:** `seek-past-end` fails: after a refused `seek(2)`, `position()` is 2.
    mod refused_seek_moves { next: u64 = 0 }
    poll(self) {
        let record = self.records.get(usize::try_from(self.next).ok()?)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next }
    seek(self, offset) {
        self.next = offset;
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        Ok(())
    }
}

source! {
    /// **Mistake:** every `poll` moves the source on, even the one that finds nothing, so
    /// `position()` runs past the length at the end.
    /// **Verdict:** `seek` fails: after draining `[x]`, `position()` is 2.
    mod poll_moves_at_the_end { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next).cloned();
        self.next += 1;
        record
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Control:** a correct source written otherwise: the records reversed in memory
    /// (the next one is the last), the position kept as a `u64`, and its own wording of
    /// the error (the offset and the length, in other words).
    mod reversed_in_memory { position: u64 = 0, reversed: bool = false }
    poll(self) {
        if !self.reversed {
            self.records.reverse();
            self.reversed = true;
        }
        let len = self.records.len() as u64;
        if self.position >= len {
            return None;
        }
        let record = self.records[(len - 1 - self.position) as usize].clone();
        self.position += 1;
        Some(record)
    }
    position(self) { self.position }
    seek(self, offset) {
        let len = self.records.len() as u64;
        if offset > len {
            anyhow::bail!("cannot seek to {offset}: this log has only {len} record(s)");
        }
        self.position = offset;
        Ok(())
    }
}
