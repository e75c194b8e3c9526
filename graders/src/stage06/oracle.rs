//! What a correct aligner lets through at every arrival: a plain model of the protocol.

use std::collections::{BTreeSet, VecDeque};

use super::{Elem, Out};

/// The model aligner: the protocol of the brief, written as directly as possible.
#[derive(Debug, Clone)]
pub struct Model {
    inputs: usize,
    /// The checkpoint whose barriers are expected next.
    next: u64,
    /// Inputs that delivered `Barrier(next)`.
    blocked: BTreeSet<usize>,
    /// Held-back arrivals, oldest first.
    buffer: VecDeque<(usize, Elem)>,
}

impl Model {
    /// A model of `inputs` inputs that completed checkpoint `completed` (0: none).
    pub fn new(inputs: usize, completed: u64) -> Self {
        Self {
            inputs,
            next: completed + 1,
            blocked: BTreeSet::new(),
            buffer: VecDeque::new(),
        }
    }

    /// What the operator receives when `element` arrives on `input`.
    pub fn on_element(&mut self, input: usize, element: Elem) -> Vec<Out> {
        let mut out = Vec::new();
        let mut arrivals = VecDeque::from([(input, element)]);
        while let Some((input, element)) = arrivals.pop_front() {
            if self.blocked.contains(&input) {
                self.buffer.push_back((input, element));
                continue;
            }
            match element {
                Elem::Record(r) => out.push(Out::Record(r)),
                Elem::Barrier(_) => {
                    self.blocked.insert(input);
                    if self.blocked.len() == self.inputs {
                        out.push(Out::Checkpoint(self.next));
                        self.next += 1;
                        self.blocked.clear();
                        let mut released = std::mem::take(&mut self.buffer);
                        released.append(&mut arrivals);
                        arrivals = released;
                    }
                }
            }
        }
        out
    }

    /// `is_blocked` of every input.
    pub fn blocked(&self) -> Vec<bool> {
        (0..self.inputs)
            .map(|i| self.blocked.contains(&i))
            .collect()
    }

    /// Whether `input` is blocked.
    pub fn is_blocked(&self, input: usize) -> bool {
        self.blocked.contains(&input)
    }

    /// The checkpoint being aligned, and the inputs that have not delivered its barrier.
    pub fn waiting_for(&self) -> (u64, Vec<usize>) {
        let missing = (0..self.inputs)
            .filter(|i| !self.blocked.contains(i))
            .collect();
        (self.next, missing)
    }
}

/// One arrival as the model sees it: who delivered what, and what must come out.
#[derive(Debug, Clone)]
pub struct ModelStep {
    /// The input that delivered.
    pub input: usize,
    /// What it delivered.
    pub element: Elem,
    /// The model's state before the arrival.
    pub before: Model,
    /// What must come out.
    pub out: Vec<Out>,
    /// `is_blocked` of every input afterwards.
    pub blocked: Vec<bool>,
}

/// The model's steps for `schedule`, each input starting at `starts[i]`, after checkpoint
/// `completed`.
pub fn steps(
    inputs: &[Vec<Elem>],
    schedule: &[usize],
    completed: u64,
    starts: &[usize],
) -> Vec<ModelStep> {
    let mut model = Model::new(inputs.len(), completed);
    let mut next = starts.to_vec();
    schedule
        .iter()
        .map(|&input| {
            let element = inputs[input][next[input]].clone();
            next[input] += 1;
            let before = model.clone();
            let out = model.on_element(input, element.clone());
            ModelStep {
                input,
                element,
                before,
                out,
                blocked: model.blocked(),
            }
        })
        .collect()
}

/// The position just after `Barrier(c)` on every input (0 everywhere for `c = 0`).
pub fn cuts(inputs: &[Vec<Elem>], c: u64) -> Vec<usize> {
    inputs
        .iter()
        .map(|elements| {
            elements
                .iter()
                .position(|e| *e == Elem::Barrier(c))
                .map_or(0, |p| p + 1)
        })
        .collect()
}

/// The records before `Barrier(c)` on every input, input by input.
pub fn records_before(inputs: &[Vec<Elem>], c: u64) -> Vec<String> {
    inputs
        .iter()
        .zip(cuts(inputs, c))
        .flat_map(|(elements, cut)| records(&elements[..cut]))
        .collect()
}

/// Every record of `elements`, in order.
pub fn records(elements: &[Elem]) -> Vec<String> {
    elements
        .iter()
        .filter_map(|e| match e {
            Elem::Record(r) => Some(r.clone()),
            Elem::Barrier(_) => None,
        })
        .collect()
}

/// What is left of `schedule` once each input `i` has had its first `cuts[i]` arrivals:
/// the arrivals a replay from the cuts delivers again, in the same relative order.
pub fn replay_schedule(schedule: &[usize], cuts: &[usize]) -> Vec<usize> {
    let mut skip = cuts.to_vec();
    schedule
        .iter()
        .copied()
        .filter(|&input| {
            if skip[input] > 0 {
                skip[input] -= 1;
                false
            } else {
                true
            }
        })
        .collect()
}

/// The state at every checkpoint when the operator appends every record it receives.
pub fn fold_snapshots(outs: &[Out]) -> Vec<(u64, Vec<String>)> {
    let mut state = Vec::new();
    let mut snapshots = Vec::new();
    for out in outs {
        match out {
            Out::Record(r) => state.push(r.clone()),
            Out::Checkpoint(c) => snapshots.push((*c, state.clone())),
        }
    }
    snapshots
}
