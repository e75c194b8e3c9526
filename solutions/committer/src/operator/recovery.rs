//! Opening the base, where recovery happens: every restored handle this subtask was
//! handed is checked against the restored checkpoint, `on_open` sees them, and each is
//! finalised and erased, whoever wrote it, all before the first record is written.
//!
//! Recovery is idempotent, so a crash halfway through it needs no repair of its own: the
//! next open restores the same checkpoint, finds the same handles, and finalises each
//! again ([`CommitOutcome::AlreadyCommitted`](crate::CommitOutcome::AlreadyCommitted) for
//! one already committed).

use std::collections::VecDeque;

use anyhow::{Context, Result, bail};

use super::{CommitterOperator, Input, RunContext, load, pending_keys};
use crate::commit_policy::{CommitPolicy, Finalise, finalise};
use crate::fence::{Fence, NoFence};
use crate::ids::RunToken;
use crate::pending::PendingKey;
use crate::state_backend::OperatorStateBackend;
use crate::steps::{Step, Tripwire};
use crate::verbs::{CommittingSink, OpenContext};

impl<S: CommittingSink, B: OperatorStateBackend> CommitterOperator<S, B> {
    /// Opens `sink` over `state` (restored from checkpoint [`RunContext::restored`], or
    /// empty): `on_open`, then every restored handle in `state` is recovered and erased,
    /// whoever wrote it and however the restore dealt the checkpoint's state out, before
    /// the operator accepts a record.
    ///
    /// # Errors
    /// When a restored handle cannot be read or belongs to a checkpoint after the
    /// restored one (the state and the id disagree), or the sink fails to open or
    /// recover.
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
        // Every handle this subtask was handed is its to finalise, whoever wrote it and
        // however the restore distributed the state, as in Flink: a handle is never
        // erased because its author's successor is someone else (who may have been
        // handed nothing). Handed to several subtasks, it is finalised by each, which
        // the verbs make idempotent.
        let owned = pending_keys(&state)?;
        for key in &owned {
            check_restored(run, key)?;
        }
        // The name goes into state before anything is written under it, so every later
        // checkpoint remembers it, whatever the job is called by then.
        state.record_name(&run.job)?;
        let names = state.names()?;
        let pending = owned
            .iter()
            .map(|key| Ok((key.checkpoint, load::<S, B>(&state, key)?)))
            .collect::<Result<Vec<_>>>()?;
        let context = OpenContext {
            job: &run.job,
            names: &names,
            generation: run.generation,
            run_token: RunToken(run.generation),
            succession: run.succession,
            restored: run.restored,
            pending: &pending,
        };
        fence.check()?;
        sink.on_open(&context).context("opening the sink")?;
        tripwire.reached(Step::Opened(me))?;
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

/// Refuses a handle the restored checkpoint cannot hold: restored state handed over
/// with a wrong checkpoint id (or none) would make the orphan sweeps discard what
/// recovery is about to commit.
fn check_restored(run: &RunContext, key: &PendingKey) -> Result<()> {
    match run.restored {
        Some(restored) if key.checkpoint <= restored => Ok(()),
        Some(restored) => bail!(
            "{} was handed handle {key} with restored checkpoint {restored}: a checkpoint \
             cannot hold a handle of a later one, so the state and the checkpoint id \
             handed to the subtask disagree",
            run.succession.me()
        ),
        None => bail!(
            "{} was handed handle {key} but no restored checkpoint: pass the checkpoint \
             the state comes from as RunContext::restored",
            run.succession.me()
        ),
    }
}
