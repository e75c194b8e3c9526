//! Runs one schedule: attempts until the job finishes, each restoring the latest
//! completed checkpoint, then judges the external system.

use std::collections::VecDeque;
use std::mem;

use anyhow::{Context, Result, bail};
use committer::{
    CheckpointId, CommitOutcome, CommitterOperator, Crash, InMemoryOperatorState, RunContext, Step,
    SubtaskId, Succession, Tripwire, merge_snapshots,
};
use solution03::{key_group_for, operator_index_for, parents};

use super::MAX_PARALLELISM;
use super::adopters::Adopter;
use super::schedule::{Distribution, Fault, Schedule};
use super::tripwire::SharedTripwire;

/// What a finished job went through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Steps reached in each attempt (the crash points it offers).
    pub steps: Vec<usize>,
    /// Restarts because end of input found commits outstanding (a lost notification).
    pub gate_restarts: usize,
    /// The crashes that happened, in order.
    pub crashes: Vec<Step>,
    /// What recovery did at each successful open, in order.
    pub recovered: Vec<(CheckpointId, CommitOutcome)>,
}

/// A completed checkpoint: the source offset and every subtask's operator state.
#[derive(Debug, Clone)]
struct Completed {
    id: CheckpointId,
    offset: usize,
    parallelism: u32,
    states: Vec<Vec<u8>>,
}

type Operators<A> = Vec<CommitterOperator<<A as Adopter>::Sink, InMemoryOperatorState>>;

const MAX_ATTEMPTS: usize = 12;

/// Runs `schedule` against a fresh external system of `A` and judges it.
///
/// # Errors
/// When the framework fails for a reason other than a planned crash, the job does not
/// finish, or the external system does not hold the input exactly once.
pub fn run<A: Adopter>(schedule: &Schedule) -> Result<Outcome> {
    let adopter = A::fresh();
    let outcome = run_on(&adopter, schedule)?;
    let input = A::input(schedule.len);
    adopter
        .verdict(&input)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("{schedule:?}, {outcome:?}"))?;
    Ok(outcome)
}

/// Runs `schedule` against `adopter`'s external system, without judging it.
///
/// # Errors
/// As [`run`], but without the verdict.
pub fn run_on<A: Adopter>(adopter: &A, schedule: &Schedule) -> Result<Outcome> {
    let input = A::input(schedule.len);
    let mut latest: Option<Completed> = None;
    let mut outcome = Outcome::default();
    for attempt in 0..MAX_ATTEMPTS {
        let tripwire = SharedTripwire::default();
        tripwire.0.borrow_mut().crash_after = schedule.crashes.get(attempt).copied().flatten();
        tripwire.0.borrow_mut().crash_on = schedule.crash_steps.get(attempt).copied().flatten();
        let generation = attempt as u64 + 1;
        let result = Attempt::<A> {
            adopter,
            schedule,
            input: &input,
            tripwire: tripwire.clone(),
            parallelism: schedule.parallelism_at(attempt),
            generation,
            inflight: VecDeque::new(),
            late: Vec::new(),
            reordered: Vec::new(),
        }
        .run(&mut latest, &mut outcome.recovered);
        outcome.steps.push(tripwire.0.borrow().reached);
        match result {
            Ok(Finish::Done) => return Ok(outcome),
            Ok(Finish::GateHeld) => outcome.gate_restarts += 1,
            Err(e) => match e.chain().find_map(|c| c.downcast_ref::<Crash>()) {
                Some(crash) => outcome.crashes.push(crash.0),
                None => return Err(e.context(format!("{schedule:?}, attempt {attempt}"))),
            },
        }
    }
    bail!("the job did not finish in {MAX_ATTEMPTS} attempts: {schedule:?}")
}

enum Finish {
    Done,
    GateHeld,
}

struct Attempt<'a, A: Adopter> {
    adopter: &'a A,
    schedule: &'a Schedule,
    input: &'a [A::Record],
    tripwire: SharedTripwire,
    parallelism: u32,
    generation: u64,
    inflight: VecDeque<Completed>,
    late: Vec<CheckpointId>,
    reordered: Vec<CheckpointId>,
}

impl<A: Adopter> Attempt<'_, A> {
    fn run(
        mut self,
        latest: &mut Option<Completed>,
        recovered: &mut Vec<(CheckpointId, CommitOutcome)>,
    ) -> Result<Finish> {
        let mut ops = self.open_all(latest.as_ref())?;
        recovered.extend(ops.iter().flat_map(|op| op.recovered().iter().copied()));
        let (mut next, offset) = latest.as_ref().map_or((1, 0), |c| (c.id + 1, c.offset));
        for i in offset..self.input.len() {
            let record = self.input[i].clone();
            let group = key_group_for(&A::routing_key(&record), MAX_PARALLELISM)?;
            let n = operator_index_for(group, self.parallelism, MAX_PARALLELISM)?;
            ops[n as usize].write(record)?;
            if (i + 1) % self.schedule.barrier_every == 0 {
                self.barrier(&mut ops, next, i + 1, latest)?;
                next += 1;
            }
        }
        // End of input: everything in flight completes, then final checkpoints are taken
        // until one completes (an aborted final checkpoint is retried, carrying its data).
        while let Some(c) = self.inflight.pop_front() {
            self.complete(&mut ops, c, latest)?;
        }
        loop {
            let id = next;
            next += 1;
            self.barrier(&mut ops, id, self.input.len(), latest)?;
            while let Some(c) = self.inflight.pop_front() {
                self.complete(&mut ops, c, latest)?;
            }
            if self.schedule.faults.get(&id) != Some(&Fault::Aborted) {
                break;
            }
        }
        let stragglers = [mem::take(&mut self.late), mem::take(&mut self.reordered)].concat();
        self.notify(&mut ops, &stragglers)?;
        for op in &ops {
            if op.staged_commits_outstanding()? > 0 {
                return Ok(Finish::GateHeld);
            }
        }
        for op in ops {
            op.finish()?;
        }
        Ok(Finish::Done)
    }

    fn open_all(&self, restored: Option<&Completed>) -> Result<Operators<A>> {
        let q = self.parallelism;
        (0..q)
            .map(|n| {
                let state = match restored {
                    None => InMemoryOperatorState::new(),
                    Some(c) => {
                        let olds: Vec<u32> = match self.schedule.distribution {
                            Distribution::Parents => parents(n, c.parallelism, q, MAX_PARALLELISM)?,
                            Distribution::Everything => (0..c.parallelism).collect(),
                        };
                        let merged =
                            merge_snapshots(olds.iter().map(|&o| c.states[o as usize].as_slice()))?;
                        InMemoryOperatorState::restore(&merged)?
                    }
                };
                let run = RunContext {
                    job: "orders".to_owned(),
                    generation: self.generation,
                    succession: Succession::new(SubtaskId::new(n, q)?, MAX_PARALLELISM)?,
                };
                let tripwire = Box::new(self.tripwire.clone());
                let op = CommitterOperator::open(self.adopter.open_sink(), state, &run, tripwire)?;
                // Recovery finalised or handed off every restored handle: none may be
                // left to hold end of input open.
                let left = op.staged_commits_outstanding()?;
                if left > 0 {
                    bail!("subtask {n} of {q} kept {left} restored handle(s) after recovery");
                }
                Ok(op)
            })
            .collect()
    }

    fn barrier(
        &mut self,
        ops: &mut Operators<A>,
        id: CheckpointId,
        offset: usize,
        latest: &mut Option<Completed>,
    ) -> Result<()> {
        let states = ops
            .iter_mut()
            .map(|op| op.on_barrier(id))
            .collect::<Result<Vec<_>>>()?;
        self.inflight.push_back(Completed {
            id,
            offset,
            parallelism: self.parallelism,
            states,
        });
        while self.inflight.len() > self.schedule.commit_lag {
            let c = self
                .inflight
                .pop_front()
                .expect("longer than the commit lag");
            self.complete(ops, c, latest)?;
        }
        Ok(())
    }

    /// The coordinator's completion of `c`, with its fault.
    fn complete(
        &mut self,
        ops: &mut Operators<A>,
        c: Completed,
        latest: &mut Option<Completed>,
    ) -> Result<()> {
        let id = c.id;
        let fault = self.schedule.faults.get(&id).copied();
        if fault == Some(Fault::Aborted) {
            ops.iter_mut().for_each(|op| op.on_checkpoint_aborted(id));
            return Ok(());
        }
        *latest = Some(c);
        self.tripwire.reached(Step::CheckpointCompleted(id))?;
        let mut round = mem::take(&mut self.late);
        match fault {
            None => round.push(id),
            Some(Fault::Duplicated) => round.extend([id, id]),
            Some(Fault::Late) => self.late.push(id),
            Some(Fault::Lost | Fault::Reordered | Fault::Aborted) => {}
        }
        round.append(&mut self.reordered);
        if fault == Some(Fault::Reordered) {
            self.reordered.push(id);
        }
        self.notify(ops, &round)
    }

    fn notify(&mut self, ops: &mut Operators<A>, ids: &[CheckpointId]) -> Result<()> {
        for &id in ids {
            for op in ops.iter_mut() {
                op.on_checkpoint_complete(id)?;
                // The protocol, not only the end state: a notification leaves nothing
                // pending at or below its id (a lost one is repaired by the next).
                let left = op.pending_committables()?;
                if let Some((stale, _)) = left.iter().find(|(c, _)| *c <= id) {
                    bail!("after the notification of c{id}, c{stale} is still pending");
                }
            }
        }
        Ok(())
    }
}
