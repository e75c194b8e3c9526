//! Opening the base, where recovery happens: the restored handles are sorted by
//! [`Succession`](crate::Succession), `on_open` sees the ones this subtask owns, each of
//! them is finalised and erased, and every other copy is erased, all before the first
//! record is written.
//!
//! Recovery is idempotent, so a crash halfway through it needs no repair of its own: the
//! next open restores the same checkpoint, finds the same handles, and finalises each
//! again ([`CommitOutcome::AlreadyCommitted`](crate::CommitOutcome::AlreadyCommitted) for
//! one already committed).

use std::collections::VecDeque;

use anyhow::{Context, Result};

use super::{CommitterOperator, Input, RunContext, load, pending_keys};
use crate::commit_policy::{CommitPolicy, Finalise, finalise};
use crate::fence::{Fence, NoFence};
use crate::ids::RunToken;
use crate::state_backend::OperatorStateBackend;
use crate::steps::{Step, Tripwire};
use crate::verbs::{CommittingSink, OpenContext};

impl<S: CommittingSink, B: OperatorStateBackend> CommitterOperator<S, B> {
    /// Opens `sink` over `state` (restored from the last completed checkpoint, or empty):
    /// `on_open`, then every restored handle this subtask owns is recovered and erased
    /// and every other copy erased, before the operator accepts a record.
    ///
    /// # Errors
    /// When a restored handle cannot be read, or the sink fails to open or recover.
    pub fn open(sink: S, state: B, run: &RunContext, tripwire: Box<dyn Tripwire>) -> Result<Self> {
        Self::open_fenced(sink, state, run, tripwire, Box::new(NoFence))
    }

    /// [`CommitterOperator::open`] for a run that holds `fence`: the fence is checked
    /// before the orphan sweep, before each recovery, at every barrier and before every
    /// commit, so a run overtaken by a newer one stops at its next step with
    /// [`crate::Fenced`] and neither commits nor discards anything more.
    ///
    /// # Errors
    /// As [`CommitterOperator::open`], and when the run is fenced.
    pub fn open_fenced(
        sink: S,
        state: B,
        run: &RunContext,
        tripwire: Box<dyn Tripwire>,
        fence: Box<dyn Fence>,
    ) -> Result<Self> {
        Self::open_with(sink, state, run, tripwire, fence, CommitPolicy::default())
    }

    /// [`CommitterOperator::open_fenced`] finalising handles under `policy` (retries of
    /// transient failures, what to do with a lost handle), at recovery and at commits.
    ///
    /// # Errors
    /// As [`CommitterOperator::open_fenced`].
    pub fn open_with(
        mut sink: S,
        mut state: B,
        run: &RunContext,
        mut tripwire: Box<dyn Tripwire>,
        fence: Box<dyn Fence>,
        policy: CommitPolicy,
    ) -> Result<Self> {
        let me = run.succession.me();
        let mut owned = Vec::new();
        let mut others = Vec::new();
        for key in pending_keys(&state)? {
            if run.succession.succeeds(key.author)? {
                owned.push(key);
            } else {
                others.push(key);
            }
        }
        let pending = owned
            .iter()
            .map(|key| Ok((key.checkpoint, load::<S, B>(&state, key)?)))
            .collect::<Result<Vec<_>>>()?;
        let context = OpenContext {
            job: &run.job,
            generation: run.generation,
            run_token: RunToken(run.generation),
            succession: run.succession,
            pending: &pending,
        };
        fence.check()?;
        sink.on_open(&context).context("opening the sink")?;
        tripwire.reached(Step::Opened(me))?;
        // Another subtask succeeds these authors and finalises its own copy.
        for key in others {
            state.remove(&key)?;
        }
        let mut recovered = Vec::new();
        for (key, (checkpoint, committable)) in owned.iter().zip(&pending) {
            let outcome = finalise(&mut sink, &*fence, &policy, Finalise::Recover, committable)
                .with_context(|| {
                    format!("{me} recovering the handle of checkpoint {checkpoint}")
                })?;
            tripwire.reached(Step::Recovered(me, *checkpoint))?;
            state.remove(key)?;
            tripwire.reached(Step::RecoveryErased(me, *checkpoint))?;
            recovered.push((*checkpoint, outcome));
        }
        // Every restored key was erased above, so `state` and `pending` start equal
        // (empty) and every change below goes to both.
        Ok(Self {
            sink,
            state,
            me,
            watch_writes: tripwire.watches_writes(),
            tripwire,
            fence,
            policy,
            recovered,
            pending: VecDeque::new(),
            encoded: Vec::new(),
            committed: Vec::new(),
            input: Input::Open,
        })
    }
}
