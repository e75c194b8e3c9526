//! Rescale succession: which new subtask discards an old subtask's orphans.
//!
//! A restored handle is finalised by whichever subtask is handed it (see
//! [`crate::CommitterOperator::open`]). An *orphan* is handed to nobody: a transaction
//! or artifact prepared after the restored checkpoint, which only the external system
//! still knows. If every subtask discarded every orphan it found, they would race (and
//! a subtask of the new run could discard another's fresh work); if none did, orphans
//! would pile up. So every old subtask has exactly one successor, its *first child*:
//! the lowest new subtask whose key-group range overlaps the old one's, and only it
//! discards that old subtask's orphans. That reads as three cases:
//!
//! - no rescale: a subtask succeeds itself;
//! - scale-up: of an old subtask's children only the first succeeds it;
//! - scale-down: a subtask succeeds every parent it inherits, except a parent that
//!   straddles it and its left neighbour, which the neighbour (the first child) takes.
//!
//! Every old subtask has at least one child (the ranges tile the key groups), so every
//! orphan has a discarder; the first child is unique, so it has only one.

use anyhow::Result;

use crate::ids::SubtaskId;
use solution03::parents;

/// The succession of one new subtask: decides which authors' orphans it discards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Succession {
    me: SubtaskId,
    max_parallelism: u32,
}

impl Succession {
    /// The succession of subtask `me` among key groups `0..max_parallelism`.
    ///
    /// # Errors
    /// When `me.parallelism` exceeds `max_parallelism` (a subtask would own no key group).
    pub fn new(me: SubtaskId, max_parallelism: u32) -> Result<Self> {
        parents(me.index, me.parallelism, me.parallelism, max_parallelism)?;
        Ok(Self {
            me,
            max_parallelism,
        })
    }

    /// The subtask this succession belongs to.
    pub fn me(&self) -> SubtaskId {
        self.me
    }

    /// Whether this subtask discards what `author` left orphaned.
    ///
    /// # Errors
    /// When `author` ran at a parallelism above `max_parallelism`.
    pub fn succeeds(&self, author: SubtaskId) -> Result<bool> {
        if author.parallelism == self.me.parallelism {
            return Ok(author.index == self.me.index);
        }
        let is_child = |index: u32| -> Result<bool> {
            let ps = parents(
                index,
                author.parallelism,
                self.me.parallelism,
                self.max_parallelism,
            )?;
            Ok(ps.contains(&author.index))
        };
        // Children of one parent are contiguous, so "first child" is "a child whose left
        // neighbour is not one".
        let left_is_child = self.me.index > 0 && is_child(self.me.index - 1)?;
        Ok(is_child(self.me.index)? && !left_is_child)
    }
}

#[cfg(test)]
mod tests {
    use crate::*;

    #[test]
    fn every_author_has_exactly_one_successor() {
        for p in 1..=8 {
            for q in 1..=8 {
                for old in 0..p {
                    let author = SubtaskId::new(old, p).unwrap();
                    let owners = (0..q)
                        .filter(|&n| {
                            let me = SubtaskId::new(n, q).unwrap();
                            Succession::new(me, 128).unwrap().succeeds(author).unwrap()
                        })
                        .count();
                    assert_eq!(owners, 1, "{p}->{q}, author {old}");
                }
            }
        }
    }
}
