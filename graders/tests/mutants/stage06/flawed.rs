//! The one flawed aligner of the stage-06 mutants: the protocol with one mistake,
//! switched on by a `MISTAKE` constant.

use std::collections::{BTreeSet, VecDeque};

use anyhow::{Result, bail};
use solution06::{Aligned, CheckpointId, Element};

pub const NONE: u8 = 0;
pub const FIRST_BARRIER: u8 = 1;
pub const NO_BLOCKING: u8 = 2;
pub const RELEASE_BEFORE_CHECKPOINT: u8 = 3;
pub const DROP_BUFFERED_BARRIERS: u8 = 4;
pub const LIFO_BUFFER: u8 = 5;
pub const NEVER_UNBLOCK: u8 = 6;
pub const RELEASE_WITHOUT_REFEED: u8 = 7;
pub const RESTORE_FROM_SCRATCH: u8 = 8;
pub const NO_TURN_CHECK: u8 = 9;
pub const NONEXISTENT_BLOCKED: u8 = 10;
pub const SINGLE_INPUT_NO_CHECKPOINT: u8 = 11;
pub const OLD_BARRIER_IGNORED: u8 = 12;
pub const RESTORE_GARBAGE_FRESH: u8 = 13;
pub const BLOCK_ALL: u8 = 14;
pub const NEW_ZERO_OK: u8 = 15;
pub const UNKNOWN_INPUT_PASSES: u8 = 16;
pub const SNAPSHOT_AFTER_CALL: u8 = 17;
pub const PAST_END_SKIPPED: u8 = 18;
pub const BLOCKED_MEANS_BUFFERED: u8 = 19;
pub const ONE_OFF_TURN_CHECK: u8 = 20;
pub const UNKNOWN_INPUT_BARRIER: u8 = 21;
pub const RESTORE_REFUSES_FRESH: u8 = 22;
pub const SNAPSHOT_REFUSES_HELD: u8 = 23;
pub const BROKEN_AFTER_ERROR: u8 = 24;
pub const COUNT_AS_U8: u8 = 25;
pub const BARRIER_MAX_OVERFLOWS: u8 = 26;
pub const REFEED_REBLOCKS_ONE: u8 = 27;
pub const BOUNDED_BUFFER: u8 = 28;
pub const BLOCKED_BY_INDEX: u8 = 29;

/// For BOUNDED_BUFFER: the most elements held back at once.
const BUFFER_BOUND: usize = 8;

/// The reference protocol, with one mistake switched on by `M`.
pub struct Aligner<T, const M: u8> {
    inputs: usize,
    next: CheckpointId,
    blocked: BTreeSet<usize>,
    /// For FIRST_BARRIER: checkpoints already emitted at their first barrier.
    emitted: BTreeSet<CheckpointId>,
    buffer: VecDeque<(usize, Element<T>)>,
    /// For BROKEN_AFTER_ERROR: a refused barrier left the protocol state half taken.
    broken: bool,
}

impl<T, const M: u8> Aligner<T, M> {
    pub fn new(inputs: usize) -> Result<Self> {
        if inputs == 0 && M != NEW_ZERO_OK {
            bail!("inputs must be at least 1, got 0");
        }
        Ok(Self {
            inputs,
            next: 1,
            blocked: BTreeSet::new(),
            emitted: BTreeSet::new(),
            buffer: VecDeque::new(),
            broken: false,
        })
    }

    pub fn is_blocked(&self, input: usize) -> bool {
        if M == BLOCKED_MEANS_BUFFERED {
            return self.buffer.iter().any(|(i, _)| *i == input);
        }
        if M == BLOCKED_BY_INDEX {
            let flags: Vec<bool> = (0..self.inputs)
                .map(|i| self.blocked.contains(&i))
                .collect();
            return flags[input];
        }
        (M == NONEXISTENT_BLOCKED && input >= self.inputs) || self.blocked.contains(&input)
    }

    pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
        if M == BROKEN_AFTER_ERROR && self.broken {
            unreachable!("the alignment phase was taken out and never put back");
        }
        // UNKNOWN_INPUT_BARRIER: only a record is checked for an input that exists.
        let unchecked = M == UNKNOWN_INPUT_BARRIER && matches!(element, Element::Barrier(_));
        if input >= self.inputs && !unchecked {
            if M == UNKNOWN_INPUT_PASSES {
                return Ok(match element {
                    Element::Record(r) => vec![Aligned::Record(r)],
                    Element::Barrier(_) => Vec::new(),
                });
            }
            bail!("input {input} does not exist");
        }
        let mut out = Vec::new();
        let mut arrivals = VecDeque::from([(input, element)]);
        // REFEED_REBLOCKS_ONE: once a release re-feeds, only the last input a re-fed
        // barrier blocked again is held back (`Some(None)`: none yet).
        let mut reblocked: Option<Option<usize>> = None;
        while let Some((input, element)) = arrivals.pop_front() {
            let held_back = match reblocked {
                Some(last) if M == REFEED_REBLOCKS_ONE => last == Some(input),
                _ => self.blocked.contains(&input),
            };
            if held_back && M != NO_BLOCKING {
                if M == BOUNDED_BUFFER && self.buffer.len() >= BUFFER_BOUND {
                    bail!(
                        "input {input}: the alignment buffer is full ({BUFFER_BOUND} elements held back)"
                    );
                }
                self.buffer.push_back((input, element));
                continue;
            }
            // BLOCK_ALL: while any input is blocked, every input's records wait.
            if M == BLOCK_ALL && !self.blocked.is_empty() && matches!(element, Element::Record(_)) {
                self.buffer.push_back((input, element));
                continue;
            }
            match element {
                Element::Record(r) => out.push(Aligned::Record(r)),
                Element::Barrier(id) => {
                    if M == OLD_BARRIER_IGNORED && id < self.next {
                        continue;
                    }
                    if M == SINGLE_INPUT_NO_CHECKPOINT && self.inputs == 1 && id == self.next {
                        self.next += 1;
                        continue;
                    }
                    // ONE_OFF_TURN_CHECK: "one ahead, and one behind" taken literally.
                    let out_of_turn = match M {
                        ONE_OFF_TURN_CHECK => {
                            Some(id) == self.next.checked_add(1)
                                || Some(id) == self.next.checked_sub(1)
                        }
                        _ => id != self.next,
                    };
                    if out_of_turn && M != NO_TURN_CHECK {
                        self.broken = true;
                        bail!(
                            "input {input} delivered barrier {id}, expected {}",
                            self.next
                        );
                    }
                    // No checkpoint follows u64::MAX: its barrier, in turn, is refused,
                    // where `next += 1` would overflow (reached from restored bytes only).
                    // Out of turn, it is the turn check's (or its mistake's) to judge.
                    if id == CheckpointId::MAX && id == self.next && M != BARRIER_MAX_OVERFLOWS {
                        bail!("input {input} delivered barrier {id}: no checkpoint follows it");
                    }
                    if M == FIRST_BARRIER && self.emitted.insert(id) {
                        out.push(Aligned::Checkpoint(id));
                    }
                    self.blocked.insert(input);
                    let aligned = if M == COUNT_AS_U8 {
                        self.blocked.len() as u8 == self.inputs as u8
                    } else {
                        self.blocked.len() == self.inputs
                    };
                    if !aligned {
                        if reblocked.is_some() {
                            reblocked = Some(Some(input));
                        }
                        continue;
                    }
                    reblocked = Some(None);
                    let mut released = std::mem::take(&mut self.buffer);
                    if M == LIFO_BUFFER {
                        released = released.into_iter().rev().collect();
                    }
                    if M == DROP_BUFFERED_BARRIERS {
                        released.retain(|(_, e)| matches!(e, Element::Record(_)));
                    }
                    if M == RELEASE_BEFORE_CHECKPOINT {
                        release_as_records(&mut released, &mut out);
                    }
                    if M != FIRST_BARRIER {
                        out.push(Aligned::Checkpoint(id));
                    }
                    if M == RELEASE_WITHOUT_REFEED {
                        release_as_records(&mut released, &mut out);
                    }
                    self.next += 1;
                    if M != NEVER_UNBLOCK {
                        self.blocked.clear();
                    }
                    released.append(&mut arrivals);
                    arrivals = released;
                }
            }
        }
        Ok(out)
    }

    pub fn snapshot(&self) -> Result<Vec<u8>> {
        if M == SNAPSHOT_REFUSES_HELD && !self.buffer.is_empty() {
            bail!("elements are held back: a snapshot now would lose them");
        }
        Ok(serde_json::to_vec(&(self.next - 1))?)
    }

    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
        let mut aligner = Self::new(inputs)?;
        if M != RESTORE_FROM_SCRATCH {
            let completed: CheckpointId = if M == RESTORE_GARBAGE_FRESH {
                serde_json::from_slice(bytes).unwrap_or(0)
            } else {
                serde_json::from_slice(bytes)?
            };
            if M == RESTORE_REFUSES_FRESH && completed == 0 {
                bail!("not an aligner snapshot: checkpoints are numbered from 1");
            }
            aligner.next = completed
                .checked_add(1)
                .ok_or_else(|| anyhow::anyhow!("not an aligner snapshot: no checkpoint follows"))?;
        }
        Ok(aligner)
    }
}

/// Appends every held-back record to `out` as it is, skipping held-back barriers.
fn release_as_records<T>(released: &mut VecDeque<(usize, Element<T>)>, out: &mut Vec<Aligned<T>>) {
    for (_, element) in released.drain(..) {
        if let Element::Record(r) = element {
            out.push(Aligned::Record(r));
        }
    }
}

/// `aligned_snapshots` over the flawed aligner.
pub fn aligned_snapshots<T, S: Clone, const M: u8>(
    inputs: Vec<Vec<Element<T>>>,
    schedule: &[usize],
    init: S,
    mut fold: impl FnMut(&mut S, &T),
) -> Result<Vec<(CheckpointId, S)>> {
    let mut aligner = Aligner::<T, M>::new(inputs.len())?;
    let mut pending: Vec<_> = inputs.into_iter().map(Vec::into_iter).collect();
    let mut state = init;
    let mut snapshots = Vec::new();
    let n = pending.len();
    for &input in schedule {
        let Some(element) = pending.get_mut(input).and_then(Iterator::next) else {
            if M == PAST_END_SKIPPED && input < n {
                continue;
            }
            bail!("bad schedule");
        };
        let mut taken = Vec::new();
        for aligned in aligner.on_element(input, element)? {
            match aligned {
                Aligned::Record(r) => fold(&mut state, &r),
                Aligned::Checkpoint(id) if M == SNAPSHOT_AFTER_CALL => taken.push(id),
                Aligned::Checkpoint(id) => snapshots.push((id, state.clone())),
            }
        }
        // SNAPSHOT_AFTER_CALL: the state once the whole call's output is folded.
        snapshots.extend(taken.into_iter().map(|id| (id, state.clone())));
    }
    Ok(snapshots)
}
