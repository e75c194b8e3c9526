//! Runs one schedule: attempts until the job finishes, each restoring the latest
//! completed checkpoint, then judges the external system. An attempt opens every
//! subtask and feeds it the source here; its checkpoints are the
//! [`coordinator`]'s.

use std::collections::VecDeque;
use std::mem;
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use committer::{
    CheckpointId, CommitOutcome, CommitPolicy, CommitterOperator, Crash, FenceRegister, FenceToken,
    HandleLost, InMemoryOperatorState, OnLostHandle, RunContext, Step, SubtaskId, Succession,
    merge_snapshots,
};
use solution03::{key_group_for, operator_index_for, parents};

use super::MAX_PARALLELISM;
use super::adopters::Adopter;
use super::checkpoints::{Completed, History};
use super::faults::{Faulty, Injected, SharedFault, Zombie};
use super::schedule::{Distribution, Fault, Schedule};
use super::tripwire::SharedTripwire;

mod coordinator;

use coordinator::Barrier;

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
    /// Attempts that failed by a failed commit or a lost handle (and were restarted).
    pub failures: usize,
    /// Late effects of a zombie rejected by fencing.
    pub fenced: usize,
}

type Sink<A> = Faulty<<A as Adopter>::Sink>;
type Operators<A> = Vec<CommitterOperator<Sink<A>, InMemoryOperatorState>>;

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
    let mut history = History::default();
    let mut outcome = Outcome::default();
    let register = FenceRegister::new();
    let fault: SharedFault = Rc::default();
    *fault.borrow_mut() = schedule.commit_fault;
    let mut zombie = None;
    for attempt in 0..MAX_ATTEMPTS {
        let tripwire = SharedTripwire::default();
        tripwire.0.borrow_mut().crash_after = schedule.crashes.get(attempt).copied().flatten();
        tripwire.0.borrow_mut().crash_on = schedule.crash_steps.get(attempt).copied().flatten();
        if schedule.restore_previous.contains(&attempt) {
            history.fall_back();
        }
        let on_lost = match schedule.abandon_from {
            Some(from) if attempt >= from => OnLostHandle::Abandon,
            _ => OnLostHandle::Fail,
        };
        let result = Attempt::<A> {
            adopter,
            schedule,
            input: &input,
            tripwire: tripwire.clone(),
            parallelism: schedule.parallelism_at(attempt),
            generation: attempt as u64 + 1,
            fence: Rc::new(register.take()),
            fault: Rc::clone(&fault),
            on_lost,
            inflight: VecDeque::new(),
            late: Vec::new(),
            reordered: Vec::new(),
        }
        .run(&mut history, &mut outcome, &mut zombie);
        outcome.steps.push(tripwire.0.borrow().reached);
        match result {
            Ok(Finish::Done) => return Ok(outcome),
            Ok(Finish::GateHeld) => outcome.gate_restarts += 1,
            Err(e) => {
                if let Some(crash) = e.chain().find_map(|c| c.downcast_ref::<Crash>()) {
                    outcome.crashes.push(crash.0);
                } else if e
                    .chain()
                    .any(|c| c.is::<Injected>() || c.is::<HandleLost>())
                {
                    outcome.failures += 1;
                } else {
                    return Err(e.context(format!("{schedule:?}, attempt {attempt}")));
                }
            }
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
    fence: Rc<FenceToken>,
    fault: SharedFault,
    on_lost: OnLostHandle,
    inflight: VecDeque<Completed>,
    late: Vec<CheckpointId>,
    reordered: Vec<CheckpointId>,
}

impl<A: Adopter> Attempt<'_, A> {
    fn run(
        mut self,
        history: &mut History,
        outcome: &mut Outcome,
        zombie: &mut Option<Zombie<Sink<A>>>,
    ) -> Result<Finish> {
        let mut ops = self.open_all(history.latest.as_ref())?;
        outcome
            .recovered
            .extend(ops.iter().flat_map(|op| op.recovered().iter().copied()));
        if let Some(zombie) = zombie.take() {
            outcome.fenced += zombie.wake()?;
        }
        let result = self.drive(&mut ops, history);
        let crashed = result
            .as_ref()
            .is_err_and(|e| e.chain().any(|c| c.is::<Crash>()));
        if crashed && self.schedule.zombie && outcome.crashes.is_empty() {
            // Past any id it took: its next barrier is new to it.
            let next = history.latest.as_ref().map_or(1, |c| c.id + 1) + 100;
            *zombie = Some(Zombie {
                operators: ops,
                next,
            });
        }
        result
    }

    fn drive(&mut self, ops: &mut Operators<A>, latest: &mut History) -> Result<Finish> {
        let (mut next, offset) = (latest.latest.as_ref()).map_or((1, 0), |c| (c.id + 1, c.offset));
        for i in offset..self.input.len() {
            let record = self.input[i].clone();
            let group = key_group_for(&A::routing_key(&record), MAX_PARALLELISM)?;
            let n = operator_index_for(group, self.parallelism, MAX_PARALLELISM)?;
            ops[n as usize].write(record)?;
            if (i + 1) % self.schedule.barrier_every == 0 {
                self.barrier(ops, (next, Barrier::Periodic), i + 1, latest)?;
                next += 1;
            }
        }
        // End of input: everything in flight completes, then the base prepares the tail
        // under a final checkpoint, retried until one completes (an aborted final
        // checkpoint's handle is carried by the next barrier).
        while let Some(c) = self.inflight.pop_front() {
            self.complete(ops, c, latest)?;
        }
        let mut barrier = Barrier::EndOfInput;
        loop {
            let id = next;
            next += 1;
            self.barrier(ops, (id, barrier), self.input.len(), latest)?;
            barrier = Barrier::Periodic;
            while let Some(c) = self.inflight.pop_front() {
                self.complete(ops, c, latest)?;
            }
            if self.schedule.faults.get(&id) != Some(&Fault::Aborted) {
                break;
            }
        }
        let stragglers = [mem::take(&mut self.late), mem::take(&mut self.reordered)].concat();
        self.notify(ops, &stragglers)?;
        for op in ops.iter() {
            if op.staged_commits_outstanding()? > 0 {
                return Ok(Finish::GateHeld);
            }
        }
        for op in mem::take(ops) {
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
                            Distribution::RoundRobin => {
                                (0..c.parallelism).filter(|o| o % q == n).collect()
                            }
                            Distribution::AllToLast => {
                                (0..c.parallelism).filter(|_| n == q - 1).collect()
                            }
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
                    restored: restored.map(|c| c.id),
                };
                let tripwire = Box::new(self.tripwire.clone());
                let sink = Faulty {
                    inner: self.adopter.open_sink(),
                    fault: Rc::clone(&self.fault),
                };
                let policy = CommitPolicy {
                    retries: 2,
                    backoff: Duration::ZERO,
                    on_lost: self.on_lost,
                };
                let fence = Box::new(Rc::clone(&self.fence));
                let op = CommitterOperator::open_with(sink, state, &run, tripwire, fence, policy)?;
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
}
