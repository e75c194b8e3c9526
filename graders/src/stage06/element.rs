//! The elements of stage 06's streams in the grader's own terms: what goes into an
//! aligner (records tagged with their input and position, barriers) and what comes out.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One element of an input, in the grader's own terms.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Elem {
    /// A record (its tag names its input and position: `b1` is input 1's second record).
    Record(String),
    /// A barrier.
    Barrier(u64),
}

/// One element an aligner let through, in the grader's own terms.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Out {
    /// A record to process.
    Record(String),
    /// Snapshot now.
    Checkpoint(u64),
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Record(r) => f.write_str(r),
            Elem::Barrier(c) => write!(f, "B{c}"),
        }
    }
}

impl fmt::Display for Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Out::Record(r) => f.write_str(r),
            Out::Checkpoint(c) => write!(f, "Checkpoint({c})"),
        }
    }
}

/// `[a0, Checkpoint(1), a1]`.
pub fn list<T: fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(ToString::to_string).collect();
    format!("[{}]", inner.join(", "))
}

/// Input `i`'s letter, as in its record tags.
pub fn letter(input: usize) -> char {
    (b'a' + input as u8) as char
}
