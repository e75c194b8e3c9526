//! One run of the pipeline: restore, recover, read, checkpoint, commit, until the input
//! ends or the process is killed.
//!
//! The run is a single process with `parallelism` sink subtasks, each a
//! [`CommitterOperator`] over an [`InMemoryOperatorState`]: operator state lives in
//! memory and reaches disk only inside the checkpoint (as in Flink), so a handle costs
//! no file write of its own; the restore reads it back from the checkpoint file. At a barrier every subtask
//! prepares and persists its handle, then the coordinator writes the checkpoint file,
//! which completes the checkpoint; notifications follow `commit_lag` checkpoints later, so a
//! kill often finds several completed but uncommitted handles, the case recovery exists for.

use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::rc::Rc;

use anyhow::{Context, Result};
use committer::{
    CheckpointId, CommitOutcome, CommitPolicy, CommitterOperator, CommittingSink, Fence,
    InMemoryOperatorState, RunContext, SubtaskId, Succession, merge_snapshots,
};
use solution01::Source;
use solution03::{key_group_for, operator_index_for};

use crate::crash::{Phase, PhaseTripwire};
use crate::watchdog::Progress;

use super::barrier::{Barrier, Coordinator, Operators};
use super::checkpoints::{CheckpointStore, is_done, mark_done};
use super::config::JobConfig;
use super::fence::RunFence;
use super::hook::{Hook, Reach};
use super::input::{self, InputRecord};
use super::lineage::Lineage;
use super::marks::{SinkMark, check_restore};

/// Key groups of the job; fixed for its life (it bounds the parallelism).
pub const MAX_PARALLELISM: u32 = 128;

/// Distinct keys of the upsert sink's changes; records are routed by key so that every
/// change of one key goes to one subtask, in order.
pub const KEYS: u64 = 101;

/// The subtask `seq` goes to: its key's key group, and the subtask whose key-group
/// range holds it at `parallelism` (stage 03's assignment, so a rescale moves whole key
/// groups between subtasks).
///
/// # Errors
/// When `parallelism` is 0 or above [`MAX_PARALLELISM`].
pub fn route(seq: u64, parallelism: u32) -> Result<usize> {
    let key = seq % KEYS;
    let group = key_group_for(&key.to_le_bytes(), MAX_PARALLELISM)?;
    Ok(operator_index_for(group, parallelism, MAX_PARALLELISM)? as usize)
}

/// [`route`] of every key at `parallelism`, computed once per run.
fn routes(parallelism: u32) -> Result<Vec<usize>> {
    (0..KEYS).map(|key| route(key, parallelism)).collect()
}

/// How a run went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSummary {
    /// This run's generation.
    pub generation: u64,
    /// The checkpoint restored, if any.
    pub restored: Option<CheckpointId>,
    /// What recovery did at open: per subtask, per restored handle.
    pub recovered: Vec<(SubtaskId, CheckpointId, CommitOutcome)>,
    /// The offset the run started reading at.
    pub resumed_at: u64,
}

/// What a run holds and checks besides its configuration.
pub struct RunGuards {
    /// The run's fence, taken on its folder (and the external system).
    pub fence: Rc<RunFence>,
    /// What the sink already holds, read under the fence.
    pub mark: Option<SinkMark>,
    /// How handles are finalised: retries, and what to do with a lost one.
    pub policy: CommitPolicy,
    /// Whether to print phase markers for the kill harness ([`crate::crash::Phase`]).
    pub phase_markers: bool,
    /// Beaten between every two calls into the sink, for a client-side deadline.
    pub progress: Progress,
    /// What a test does at the run's named points.
    pub hook: Hook,
    /// The job's history, checked against the destination's claim.
    pub lineage: Lineage,
    /// How far the run goes.
    pub reach: Reach,
}

/// Runs the job in `dir` to the end of its input under `guards`. `make_sink` builds subtask `me`'s sink, `convert` turns an input record into the
/// sink's record; progress goes to `log`.
///
/// # Errors
/// When the configuration differs from the job's, the checkpoint is missing, damaged or
/// older than the sink's mark, a newer run fenced this one, or any durable step fails.
pub fn run<S, F, C>(
    dir: &Path,
    config: &JobConfig,
    guards: RunGuards,
    mut make_sink: F,
    convert: C,
    log: &mut impl Write,
) -> Result<RunSummary>
where
    S: CommittingSink,
    F: FnMut(SubtaskId) -> Result<S>,
    C: Fn(&InputRecord) -> S::Record,
{
    let config = config.load_or_init(dir)?;
    let RunGuards {
        fence,
        mark,
        policy,
        phase_markers: marks,
        progress,
        hook,
        lineage,
        reach,
    } = guards;
    let generation = fence.generation();
    let store = CheckpointStore::new(dir, &lineage);
    let latest = store.latest()?;
    for (path, why) in latest.iter().flat_map(|r| &r.passed_over) {
        let warning = format!(
            "g{generation}: WARNING: passing over checkpoint file {} ({why}); restoring the \
             one before it",
            path.display()
        );
        eprintln!("{warning}");
        writeln!(log, "{warning}")?;
    }
    let fell_back = latest.as_ref().is_some_and(|r| !r.passed_over.is_empty());
    let restored = latest.map(|r| r.checkpoint);
    let resumed_at = restored.as_ref().map_or(0, |c| c.offset);
    let mut summary = RunSummary {
        generation,
        restored: restored.as_ref().map(|c| c.id),
        recovered: Vec::new(),
        resumed_at,
    };
    if is_done(dir) {
        writeln!(log, "g{generation}: the input is already done")?;
        return Ok(summary);
    }
    check_restore(restored.as_ref(), mark, &config.job).with_context(|| {
        if fell_back {
            "the latest checkpoint file was damaged and the one before it is too old"
        } else {
            "checking the checkpoint against the sink's output"
        }
    })?;
    let mut source = input::open(dir, config.records, config.seed)?;
    source.seek(resumed_at)?;
    // The checkpoint's snapshots are dealt out round-robin, as Flink redistributes a
    // committer's state: each handle goes to one subtask, which finalises it whoever
    // wrote it, so the same code restores at the same parallelism, after a scale-in
    // and after a scale-out.
    let snapshots = restored.as_ref().map_or(&[][..], |c| &c.snapshots[..]);
    let mut operators: Operators<S> = Vec::new();
    for index in 0..config.parallelism {
        let me = SubtaskId::new(index, config.parallelism)?;
        // From the checkpoint: live state of a checkpoint that never completed is gone
        // with the process that held it.
        let dealt = snapshots
            .iter()
            .skip(index as usize)
            .step_by(config.parallelism as usize);
        let snapshot = merge_snapshots(dealt.map(Vec::as_slice))?;
        let state = InMemoryOperatorState::restore(&snapshot)?;
        let context = RunContext {
            job: config.job.clone(),
            generation,
            succession: Succession::new(me, MAX_PARALLELISM)?,
            restored: summary.restored,
        };
        Phase::Sweep.mark(marks);
        progress.beat();
        let operator = CommitterOperator::open_with(
            make_sink(me)?,
            state,
            &context,
            Box::new(PhaseTripwire { enabled: marks }),
            Box::new(Rc::clone(&fence)),
            policy,
        )
        .with_context(|| format!("opening {me}"))?;
        let recovered = operator.recovered().iter().map(|&(c, o)| (me, c, o));
        summary.recovered.extend(recovered);
        operators.push(operator);
    }
    writeln!(
        log,
        "g{generation}: restored {} at offset {resumed_at}; recovered {}",
        summary
            .restored
            .map_or("nothing".into(), |c| format!("checkpoint {c}")),
        describe(&summary.recovered)
    )?;
    log.flush()?;
    if reach == Reach::Recovery {
        // Everything restored is finalised and every orphan swept; nothing is open.
        return Ok(summary);
    }
    Phase::Writing.mark(marks);

    let mut next = summary.restored.map_or(1, |c| c + 1);
    let mut coordinator = Coordinator {
        store: &store,
        fence: &fence,
        marks,
        progress: &progress,
        hook: &hook,
        commit_lag: config.commit_lag,
        waiting: VecDeque::new(),
    };
    let routes = routes(config.parallelism)?;
    while let Some(record) = source.poll() {
        let subtask = routes[(record.seq % KEYS) as usize];
        operators[subtask].write(convert(&record))?;
        progress.beat();
        if source.position() % config.barrier_every == 0 {
            let barrier = (next, Barrier::Periodic);
            coordinator.checkpoint(&mut operators, barrier, source.position())?;
            next += 1;
        }
    }
    // End of input: the base prepares the records after the last barrier under a final
    // checkpoint (and would refuse to finish over them).
    if source.position() % config.barrier_every != 0 {
        let barrier = (next, Barrier::EndOfInput);
        coordinator.checkpoint(&mut operators, barrier, source.position())?;
    }
    coordinator.notify(&mut operators, 0)?;
    for operator in operators {
        operator.finish()?;
    }
    fence.check()?;
    mark_done(dir)?;
    writeln!(log, "g{generation}: done at offset {}", source.position())?;
    Ok(summary)
}

fn describe(recovered: &[(SubtaskId, CheckpointId, CommitOutcome)]) -> String {
    if recovered.is_empty() {
        return "no handle".into();
    }
    let parts: Vec<String> = recovered
        .iter()
        .map(|(s, c, o)| match o {
            CommitOutcome::Committed => format!("{s} c{c} committed"),
            CommitOutcome::AlreadyCommitted => format!("{s} c{c} already committed"),
            CommitOutcome::Abandoned => format!("{s} c{c} ABANDONED (its records are lost)"),
        })
        .collect();
    parts.join(", ")
}
