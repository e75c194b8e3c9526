//! What a named scenario must go through, and a run judged against it: the crashes,
//! what recovery did, the restarts and failures, and what the external system holds at
//! the end, which need not be the input exactly once (an operator may accept a loss,
//! and the framework cannot see every duplicate).

use committer::{CheckpointId, CommitOutcome, Step};

use super::adopters::Adopter;
use super::job::{Outcome, run_on};
use super::schedule::Schedule;

/// What the external system holds at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// The input exactly once, nothing staged, prepared or open.
    ExactlyOnce,
    /// Fewer records than the input: a loss the operator accepted.
    Fewer,
    /// More records than the input: duplicates the framework cannot see.
    More,
}

/// What a scenario must go through.
#[derive(Debug, Clone)]
pub struct Expect {
    /// The crashes, in order.
    pub crashes: Vec<Step>,
    /// What recovery did at each open, in order.
    pub recovered: Vec<(CheckpointId, CommitOutcome)>,
    /// Restarts because end of input found a commit outstanding.
    pub gate_restarts: usize,
    /// Attempts failed by a failed commit or a lost handle.
    pub failures: usize,
    /// A zombie's late effects rejected.
    pub fenced: usize,
    /// What the external system holds at the end.
    pub holds: Holds,
}

/// A scenario with these crashes and recoveries and nothing else: no restart, no
/// failure, no zombie, and the input exactly once at the end.
pub fn expect(crashes: &[Step], recovered: &[(CheckpointId, CommitOutcome)]) -> Expect {
    Expect {
        crashes: crashes.to_vec(),
        recovered: recovered.to_vec(),
        gate_restarts: 0,
        failures: 0,
        fenced: 0,
        holds: Holds::ExactlyOnce,
    }
}

/// Runs `schedule` on a fresh external system of `A`: what the job went through, and what
/// the system holds. Panics when it holds as many records as the input but not the input
/// exactly once, which no scenario expects.
pub fn judged<A: Adopter>(schedule: &Schedule) -> (Outcome, Holds) {
    let adopter = A::fresh();
    let outcome = run_on(&adopter, schedule).unwrap();
    let input = A::input(schedule.len);
    let holds = match adopter.verdict(&input) {
        Ok(()) => Holds::ExactlyOnce,
        Err(_) if adopter.visible() < input.len() => Holds::Fewer,
        Err(e) if adopter.visible() == input.len() => panic!("not exactly once: {e}"),
        Err(_) => Holds::More,
    };
    (outcome, holds)
}
