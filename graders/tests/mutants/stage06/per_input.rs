//! An aligner with one buffer per input, written from scratch: correct when the buffers
//! are merged back by arrival number, wrong when they are re-fed input by input (a
//! mistake only an alignment where two inputs hold elements back at once can show, so
//! only with three inputs or more).

use std::collections::VecDeque;

use anyhow::{Result, ensure};
use solution06::{Aligned, CheckpointId, Element};

/// One queue per input; `MERGED` re-feeds them by arrival number (correct), otherwise
/// input 0's queue first, then input 1's, ...
pub struct PerInput<T, const MERGED: bool> {
    /// The checkpoint being aligned, or the next one.
    next: CheckpointId,
    blocked: Vec<bool>,
    held: Vec<VecDeque<(u64, Element<T>)>>,
    arrivals: u64,
}

impl<T, const MERGED: bool> PerInput<T, MERGED> {
    pub fn new(inputs: usize) -> Result<Self> {
        Self::after(inputs, 0)
    }

    fn after(inputs: usize, completed: CheckpointId) -> Result<Self> {
        ensure!(inputs > 0, "an aligner needs inputs > 0");
        let next = completed
            .checked_add(1)
            .ok_or_else(|| anyhow::anyhow!("not an aligner snapshot: no checkpoint follows"))?;
        Ok(Self {
            next,
            blocked: vec![false; inputs],
            held: (0..inputs).map(|_| VecDeque::new()).collect(),
            arrivals: 0,
        })
    }

    pub fn is_blocked(&self, input: usize) -> bool {
        self.blocked.get(input).copied().unwrap_or(false)
    }

    pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
        ensure!(input < self.blocked.len(), "there is no input {input}");
        let mut out = Vec::new();
        self.arrivals += 1;
        self.feed(input, self.arrivals, element, &mut out)?;
        Ok(out)
    }

    /// Handles one arrival (`seq` is its arrival number), recursively for a release.
    fn feed(
        &mut self,
        input: usize,
        seq: u64,
        element: Element<T>,
        out: &mut Vec<Aligned<T>>,
    ) -> Result<()> {
        if self.blocked[input] {
            self.held[input].push_back((seq, element));
            return Ok(());
        }
        match element {
            Element::Record(r) => out.push(Aligned::Record(r)),
            Element::Barrier(c) => {
                ensure!(
                    c == self.next,
                    "barrier {c} out of turn: expected {}",
                    self.next
                );
                ensure!(c < CheckpointId::MAX, "no checkpoint follows barrier {c}");
                self.blocked[input] = true;
                if self.blocked.iter().all(|b| *b) {
                    out.push(Aligned::Checkpoint(c));
                    self.next += 1;
                    self.blocked.fill(false);
                    let mut released: Vec<(usize, u64, Element<T>)> = Vec::new();
                    for (i, queue) in self.held.iter_mut().enumerate() {
                        released.extend(std::mem::take(queue).into_iter().map(|(s, e)| (i, s, e)));
                    }
                    if MERGED {
                        released.sort_by_key(|(_, s, _)| *s);
                    }
                    for (i, s, e) in released {
                        self.feed(i, s, e, out)?;
                    }
                }
            }
        }
        Ok(())
    }

    pub fn snapshot(&self) -> Result<Vec<u8>> {
        Ok((self.next - 1).to_string().into_bytes())
    }

    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
        let completed: CheckpointId = std::str::from_utf8(bytes)?.parse()?;
        Self::after(inputs, completed)
    }
}
