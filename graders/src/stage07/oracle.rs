//! What stage 07 must do: a model store and the whole run, step by step.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use super::Run;

/// Counts per word.
pub type Counts = BTreeMap<String, u64>;

/// One call the runner made on the store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Call {
    /// `save(id, offset, state)`.
    Save {
        /// The checkpoint.
        id: u64,
        /// The offset saved.
        offset: u64,
        /// The state bytes saved.
        state: Vec<u8>,
    },
    /// `complete(id)`.
    Complete {
        /// The checkpoint.
        id: u64,
    },
    /// `latest_completed()`, and the id it returned.
    LatestCompleted {
        /// The checkpoint returned, if any.
        returned: Option<u64>,
    },
}

/// A checkpoint as stored.
pub type Stored = (u64, u64, Vec<u8>);

/// The store of the brief: in-flight and completed checkpoints.
#[derive(Debug, Clone, Default)]
pub struct ModelStore {
    saved: BTreeMap<u64, (Stored, bool)>,
}

impl ModelStore {
    /// `save`.
    ///
    /// # Errors
    /// For id 0 or an id already completed.
    pub fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> Result<(), String> {
        if id == 0 {
            return Err("checkpoint ids start at 1".into());
        }
        if self.saved.get(&id).is_some_and(|(_, done)| *done) {
            return Err(format!("checkpoint {id} is already completed"));
        }
        self.saved.insert(id, ((id, offset, state), false));
        Ok(())
    }

    /// `complete`.
    ///
    /// # Errors
    /// For an id never saved.
    pub fn complete(&mut self, id: u64) -> Result<(), String> {
        match self.saved.get_mut(&id) {
            Some((_, done)) => {
                *done = true;
                Ok(())
            }
            None => Err(format!("checkpoint {id} was never saved")),
        }
    }

    /// Whether `id` is saved and not completed.
    pub fn is_in_flight(&self, id: u64) -> bool {
        self.saved.get(&id).is_some_and(|(_, done)| !*done)
    }

    /// Whether `id` is completed.
    pub fn is_completed(&self, id: u64) -> bool {
        self.saved.get(&id).is_some_and(|(_, done)| *done)
    }

    /// Loses every checkpoint, in flight or completed, with an id above `kept`: a store
    /// brought back to an older copy of itself.
    pub fn forget_after(&mut self, kept: u64) {
        self.saved.retain(|id, _| *id <= kept);
    }

    /// `latest_completed`.
    pub fn latest_completed(&self) -> Option<Stored> {
        self.saved
            .values()
            .rev()
            .find(|(_, done)| *done)
            .map(|(stored, _)| stored.clone())
    }
}

/// Everything a correct run does.
#[derive(Debug, Clone)]
pub struct Expected {
    /// The store calls, `latest_completed` left out.
    pub calls: Vec<Call>,
    /// How many of them the first attempt made.
    pub before_crash: usize,
    /// The checkpoint recovery restores, `(id, offset)`; `(0, 0)` for none.
    pub restored: (u64, u64),
    /// The final counts.
    pub counts: Counts,
    /// Every emission.
    pub emitted: Vec<(String, u64)>,
}

/// The counts of the first `n` words.
pub fn prefix_counts(words: &[String], n: usize) -> Counts {
    let mut counts = Counts::new();
    for w in &words[..n] {
        *counts.entry(w.clone()).or_default() += 1;
    }
    counts
}

/// The emissions of `words[from..to]` counted on top of `counts`.
pub fn emissions(
    words: &[String],
    from: usize,
    to: usize,
    mut counts: Counts,
) -> Vec<(String, u64)> {
    words[from..to]
        .iter()
        .map(|w| {
            let c = counts.entry(w.clone()).or_default();
            *c += 1;
            (w.clone(), *c)
        })
        .collect()
}

/// The correct run.
pub fn expected(run: &Run) -> Expected {
    expected_after_loss(run, None)
}

/// The correct run when the store, asked at the recovery, has lost every checkpoint
/// after `kept` (none lost for `None`): the recovery restores what the store still holds.
pub fn expected_after_loss(run: &Run, kept: Option<u64>) -> Expected {
    recovered(run, kept, None)
}

/// The correct run when the store, asked at the recovery, hands back its latest completed
/// checkpoint with `counts` as its state: the recovery restores them, as they are.
pub fn expected_from_state(run: &Run, counts: &Counts) -> Expected {
    recovered(run, None, Some(counts))
}

/// The state bytes of `counts`, as a job saves them.
pub fn state_of(counts: &Counts) -> Vec<u8> {
    serde_json::to_vec(counts).unwrap_or_default()
}

fn recovered(run: &Run, kept: Option<u64>, handed: Option<&Counts>) -> Expected {
    let len = run.words.len();
    let mut store = ModelStore::default();
    let mut calls = Vec::new();
    let mut emitted = Vec::new();
    let stop = run.crash_after.unwrap_or(len);
    let mut counts = Counts::new();
    let mut in_flight = attempt(
        run,
        0,
        stop,
        &mut counts,
        &mut store,
        &mut calls,
        &mut emitted,
    );
    let before_crash = calls.len();
    let mut restored = (0, 0);
    if run.crash_after.is_some() {
        if let Some(kept) = kept {
            store.forget_after(kept);
        }
        let (id, offset, state) = store.latest_completed().unwrap_or((0, 0, b"{}".to_vec()));
        restored = (id, offset);
        counts = match handed {
            Some(handed) => handed.clone(),
            None => serde_json::from_slice(&state).unwrap_or_default(),
        };
        in_flight = attempt(
            run,
            offset as usize,
            len,
            &mut counts,
            &mut store,
            &mut calls,
            &mut emitted,
        );
    }
    for id in in_flight {
        calls.push(Call::Complete { id });
    }
    Expected {
        calls,
        before_crash,
        restored,
        counts,
        emitted,
    }
}

fn attempt(
    run: &Run,
    from: usize,
    to: usize,
    counts: &mut Counts,
    store: &mut ModelStore,
    calls: &mut Vec<Call>,
    emitted: &mut Vec<(String, u64)>,
) -> VecDeque<u64> {
    let mut in_flight = VecDeque::new();
    for (i, word) in run.words.iter().enumerate().take(to).skip(from) {
        let c = counts.entry(word.clone()).or_default();
        *c += 1;
        emitted.push((word.clone(), *c));
        let offset = i + 1;
        if offset % run.barrier_every == 0 {
            let id = (offset / run.barrier_every) as u64;
            let state = serde_json::to_vec(&*counts).unwrap_or_default();
            let _ = store.save(id, offset as u64, state.clone());
            calls.push(Call::Save {
                id,
                offset: offset as u64,
                state,
            });
            in_flight.push_back(id);
            while in_flight.len() > run.commit_lag {
                if let Some(done) = in_flight.pop_front() {
                    let _ = store.complete(done);
                    calls.push(Call::Complete { id: done });
                }
            }
        }
    }
    in_flight
}

/// A store call as the reports show it: `save(2, offset 4, state ...)`.
pub(super) fn show(call: &Call) -> String {
    match call {
        Call::Save { id, offset, state } => format!(
            "save({id}, offset {offset}, state {})",
            String::from_utf8_lossy(state)
        ),
        Call::Complete { id } => format!("complete({id})"),
        Call::LatestCompleted { .. } => "latest_completed()".to_owned(),
    }
}
