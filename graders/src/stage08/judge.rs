//! Judges stage-08 observations: invariants of the protocol, never the reference's
//! exact call sequence.
//!
//! The first sink (the attempt before the crash, or the only one) is held to the
//! schedule: barriers at `barrier_every`, `2 * barrier_every`, ...; each checkpoint
//! committed exactly when its notification is due; at the crash, the notified
//! checkpoints visible and everything else aborted. The fresh sink after a crash is held
//! only to what the replay must achieve: exactly `records[offset..]` written, committed
//! in pre-commit order, all of it visible at the end. So a replay that commits its tail
//! as one transaction, or keeps taking checkpoints, passes, and a clean finish may skip
//! pre-committing an empty trailing transaction.

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::{CellFailure, fail, multiset_anomaly};
use super::commit_order::out_of_order_prefixes;
use super::driver::{Observation, SpiedRun};
use super::first_sink::walk_first_sink;
use super::fresh_sink::walk_fresh_sink;
use super::grid::{grid, grid_failure, output_of};
use super::id_zero::id_zero_sequences;
use super::many_checkpoints::{all_prepared_at_once, high_ids, many_checkpoints};
use super::oracle::{ModelSink, OtherWriter, Schedule};
use super::plan::{
    AT_CRASH, Case, MANY_CHECKPOINTS_AT_ONCE, OTHER_WRITER, SHOWN_BEFORE, pending_at_once_input,
};
use super::recovery_order::judge_recovery_order;
use super::run_result::RunResult;
use super::sequences::sequences_from;
use super::sink_model::judge_sink_model;
use super::sink_snapshot::{judge_sink_snapshot, snapshot_sequences};
use super::stray_aborts::{aborted_on_the_fresh_sink, aborts_name_prepared_ids};
use crate::harness::arguments::contains_name;
use crate::harness::case::Failure;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (Case::SinkSnapshot { first }, Observation::SinkSnapshot { after }) => {
            judge_sink_snapshot(&snapshot_sequences(*first), after)
        }
        (Case::SinkCommitOrderSnapshot, Observation::SinkSnapshot { after }) => {
            judge_sink_snapshot(&out_of_order_prefixes(), after)
        }
        (Case::SinkCommitOrder, Observation::SinkModel { committed }) => {
            judge_sink_model(&out_of_order_prefixes(), committed)
        }
        (Case::SinkModel { first }, Observation::SinkModel { committed }) => {
            judge_sink_model(&sequences_from(&[*first]), committed)
        }
        (Case::SinkIdZero { first }, Observation::SinkModel { committed }) => {
            judge_sink_model(&id_zero_sequences(*first), committed)
        }
        (Case::SinkHighIds, Observation::SinkModel { committed }) => {
            judge_sink_model(&high_ids(), committed)
        }
        (Case::SinkMany { checkpoints, lag }, Observation::SinkModel { committed }) => {
            judge_sink_model(&many_checkpoints(*checkpoints, *lag), committed)
        }
        (Case::SinkManyAtOnce, Observation::SinkModel { committed }) => {
            judge_sink_model(&[all_prepared_at_once(MANY_CHECKPOINTS_AT_ONCE)], committed)
        }
        (Case::ManyPending, Observation::Protocol { cells }) => {
            let records = pending_at_once_input();
            let at = Case::many_pending_cells(records.len());
            judge_contract(&records, 1, &at, cells)
        }
        (
            Case::ExactlyOnce {
                records,
                barrier_every,
            },
            Observation::ExactlyOnce { cells },
        ) => {
            let verdicts = grid(records, *barrier_every, cells, |schedule, cell| {
                let _ = schedule;
                judge_exactly_once(records, cell)
            });
            let outputs = cells.iter().map(output_of).collect::<Vec<_>>();
            grid_failure(records, *barrier_every, &verdicts, &outputs, "exactly-once")
        }
        (
            Case::Protocol {
                records,
                barrier_every,
            },
            Observation::Protocol { cells },
        ) => judge_protocol_grid(records, *barrier_every, cells, &Beside::default()),
        (
            Case::Contract {
                records,
                barrier_every,
            },
            Observation::Protocol { cells },
        ) => judge_contract(
            records,
            *barrier_every,
            &Case::contract_cells(records.len()),
            cells,
        ),
        (
            Case::ShownBefore {
                records,
                barrier_every,
            },
            Observation::Protocol { cells },
        ) => judge_protocol_grid(
            records,
            *barrier_every,
            cells,
            &Beside {
                shown_before: &SHOWN_BEFORE,
                other_writer: &OTHER_WRITER,
                at_crash: None,
            },
        ),
        (
            Case::WriterAtCrash {
                records,
                barrier_every,
            },
            Observation::Protocol { cells },
        ) => judge_protocol_grid(
            records,
            *barrier_every,
            cells,
            &Beside {
                shown_before: &SHOWN_BEFORE,
                other_writer: &OTHER_WRITER,
                at_crash: Some(AT_CRASH),
            },
        ),
        (
            Case::BadInput {
                barrier_every,
                crash_after,
                ..
            },
            Observation::BadInput {
                plain,
                spied,
                sinks,
            },
        ) => {
            let argument = if *barrier_every == 0 {
                "barrier_every"
            } else {
                "crash_after"
            };
            let expected = format!("Err(..) whose message names `{argument}`");
            for (entry, result) in [
                ("run_exactly_once_sink", plain),
                ("run_exactly_once_sink_with", spied),
            ] {
                let (anomaly, actual) = match result {
                    RunResult::Error(e) if contains_name(e, argument) => continue,
                    RunResult::Error(e) => (Anomaly::ErrorWithoutArgument, format!("Err({e})")),
                    RunResult::Output(o) => (Anomaly::AcceptedBadInput, format!("Ok({o:?})")),
                    RunResult::Panicked(m) => (Anomaly::Panicked, format!("panicked: {m}")),
                };
                let rule = if *barrier_every == 0 {
                    "08-R20"
                } else {
                    "08-R21"
                };
                return Err(Failure::new(expected, format!("{}: {actual}", anomaly.name()))
                    .step(format!("{entry} with barrier_every = {barrier_every}, crash_after = {crash_after:?}"))
                    .requirement(rule));
            }
            // The error is right; it must also come before the job touched a sink.
            let touched = sinks.iter().flatten().find(|call| {
                matches!(
                    call,
                    SpyCall::Write(_) | SpyCall::PreCommit(_) | SpyCall::Commit(_)
                )
            });
            if let Some(call) = touched {
                return Err(Failure::new(
                    "the error, and no call on a sink",
                    format!("the error, after {call:?} on a sink"),
                )
                .step(format!(
                    "run_exactly_once_sink_with with barrier_every = {barrier_every}, crash_after = {crash_after:?}: the job wrote to a sink before refusing its arguments"
                ))
                .requirement("08-R26"));
            }
            Ok(())
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

/// What the spies' tables hold besides the job's rows, per sink in creation order.
#[derive(Debug, Default, Clone, Copy)]
struct Beside<'a> {
    /// Rows from before the job, shown when `new_sink()` makes the sink.
    shown_before: &'a [&'a [u32]],
    /// A row another writer commits right after the job's first commit on the sink.
    other_writer: &'a [u32],
    /// A row another writer commits to the first sink right after the job's write of the
    /// crash point's record.
    at_crash: Option<u32>,
}

impl Beside<'_> {
    /// What sink `sink` shows at the end of `calls` (its whole list) in a run that crashes
    /// after `crash_after` records: the rows from before the job, then the job's commits
    /// with the other writer's rows where the spy put them.
    fn shown_after(&self, sink: usize, calls: &[SpyCall], crash_after: Option<usize>) -> Vec<u32> {
        let mut table = ModelSink {
            committed: self
                .shown_before
                .get(sink)
                .copied()
                .unwrap_or_default()
                .to_vec(),
            ..ModelSink::default()
        };
        let at_crash = crash_after.zip(self.at_crash).filter(|_| sink == 0);
        let mut other = OtherWriter::new(self.other_writer.get(sink).copied(), at_crash);
        for call in calls {
            table.apply_beside(*call, &mut other);
        }
        table.committed
    }
}

/// Judges a grid of spied runs against the protocol, where the spies' tables held `beside`.
fn judge_protocol_grid(
    records: &[u32],
    barrier_every: usize,
    cells: &[SpiedRun],
    beside: &Beside,
) -> Result<(), Failure> {
    let verdicts = grid(records, barrier_every, cells, |schedule, cell| {
        judge_protocol_showing(records, schedule, cell, beside)
    });
    let outputs = cells
        .iter()
        .map(|c| output_of(&c.result))
        .collect::<Vec<_>>();
    grid_failure(records, barrier_every, &verdicts, &outputs, "protocol").map_err(|mut failure| {
        if let ([first, fresh, ..], [first_other, fresh_other, ..]) =
            (beside.shown_before, beside.other_writer)
        {
            // Said first: byo trace starts its sinks empty, so the trace the report
            // points to may not show the failure.
            let at_crash = beside.at_crash.map_or_else(String::new, |row| {
                format!(", and {row} to the first sink right after the job's write of record crash_after, its last before the crash")
            });
            failure.first_wrong_step = Some(format!(
                "(the sinks already showed rows from before the job when new_sink() made them: the first {first:?}, the fresh one {fresh:?}; another writer committed {first_other} and {fresh_other} to them right after the job's first commit on each{at_crash}; byo trace starts its sinks empty and alone) {}",
                failure.first_wrong_step.unwrap_or_default()
            ));
        }
        failure
    })
}

/// Judges `run_exactly_once_sink` on one cell: each record exactly once.
pub fn judge_exactly_once(records: &[u32], result: &RunResult) -> Result<(), CellFailure> {
    match result {
        RunResult::Output(output) => {
            multiset_anomaly(records, output).map_or(Ok(()), Err)?;
            // Every record once, and in order too: empty `TransactionalSink`s that each
            // commit oldest first show `records[..offset]`, then `records[offset..]`
            // (08-R19). Which rule broke, only the spied runs of `protocol` can tell.
            if output != records {
                return fail(
                    Anomaly::OutOfInputOrder,
                    format!(
                        "returned {output:?}: every record once, but out of the input's order. From empty sinks, the first sink's committed() at the crash then the fresh sink's is {records:?}, when each sink commits its checkpoints oldest first (08-R9, 08-R10) and shows them in commit order (08-R6): the result is not read from the sinks as 08-R19 says, or it is and one of those broke (`protocol` and `sink-model` watch the calls)"
                    ),
                );
            }
            Ok(())
        }
        RunResult::Error(e) => fail(Anomaly::RejectedValidInput, format!("returned Err({e})")),
        RunResult::Panicked(m) => fail(Anomaly::Panicked, format!("panicked: {m}")),
    }
}

/// Judges one spied run against the protocol.
pub fn judge_protocol(
    records: &[u32],
    schedule: Schedule,
    run: &SpiedRun,
) -> Result<(), CellFailure> {
    judge_protocol_showing(records, schedule, run, &Beside::default())
}

/// Judges one spied run against the protocol, where the spies' tables held `beside`: rows
/// that are not the job's, part of what the job returns.
fn judge_protocol_showing(
    records: &[u32],
    schedule: Schedule,
    run: &SpiedRun,
    beside: &Beside,
) -> Result<(), CellFailure> {
    let output = match &run.result {
        RunResult::Output(output) => output,
        RunResult::Error(e)
            if schedule.crash_after == Some(records.len()) && contains_name(e, "crash_after") =>
        {
            return fail(
                Anomaly::RejectedCrashAtEnd,
                format!(
                    "returned Err({e}): crash_after = {} = the number of records is a crash after the last record, a valid run (only a larger crash_after is an error)",
                    records.len()
                ),
            );
        }
        RunResult::Error(e) => {
            return fail(Anomaly::RejectedValidInput, format!("returned Err({e})"));
        }
        RunResult::Panicked(m) => return fail(Anomaly::Panicked, format!("panicked: {m}")),
    };
    let Some(first) = run.sinks.first() else {
        return fail(
            Anomaly::NoSink,
            format!(
                "returned {output:?} without creating a sink: the output never went through the two-phase protocol"
            ),
        );
    };
    // Counted before any sink is judged: with an extra sink, the sinks the judge takes for
    // the first and the fresh one (the order new_sink() made them) are not the job's.
    let needed = if schedule.crash_after.is_some() { 2 } else { 1 };
    if run.sinks.len() > needed {
        return fail(
            Anomaly::ExtraSink,
            format!(
                "new_sink() was called {} times in a run {}: a sink is made only at the start{}, never to look or to try",
                run.sinks.len(),
                if needed == 1 {
                    "without a crash"
                } else {
                    "with one crash"
                },
                if needed == 1 {
                    ""
                } else {
                    " and after the crash"
                },
            ),
        );
    }
    if let (Some(k), [dead]) = (schedule.crash_after, run.sinks.as_slice())
        && used_after_its_aborts(dead, k)
    {
        // Recovery ran (its aborts are there) but went on with the dead sink: the sink
        // is what was never replaced, whatever the calls on it look like afterwards.
        let offset = schedule.restart_offset();
        return fail(
            Anomaly::ReplayIntoDeadSink,
            format!(
                "after the crash after record {k}, recovery aborted on the dead sink and then went on calling it: the replay (records[{offset}..] = {:?}) and its commits belong in a fresh sink from new_sink()",
                &records[offset..]
            ),
        );
    }
    let first = walk_first_sink(records, schedule, first)
        .map_err(|f| aborted_on_the_fresh_sink(f, run.sinks.get(1)))?;
    // The walks judged the job's own rows; a table shows them among the others.
    let mut visible = beside.shown_after(0, &run.sinks[0], schedule.crash_after);
    let offset = schedule.restart_offset();
    match (schedule.crash_after, run.sinks.len()) {
        (None, _) => {}
        (Some(k), 1) if offset == records.len() => {
            return fail(
                Anomaly::NoFreshSinkNothingLeft,
                format!(
                    "after the crash after record {k}, no fresh sink was created: a crash is a crash even when nothing is left to replay, and recovery still calls new_sink()"
                ),
            );
        }
        (Some(k), 1) => {
            return fail(
                Anomaly::NoFreshSink,
                format!(
                    "after the crash after record {k}, no fresh sink received the replay of records[{offset}..] = {:?}",
                    &records[offset..]
                ),
            );
        }
        (Some(_), _) => {
            let named_in_aborts = run.sinks[0]
                .iter()
                .filter_map(|call| match call {
                    SpyCall::Abort(id) => Some(*id),
                    _ => None,
                })
                .collect();
            walk_fresh_sink(
                records,
                offset,
                schedule.commit_lag,
                &first.transactions,
                &named_in_aborts,
                &run.sinks[1],
            )?;
            judge_recovery_order(&run.sinks, &run.order)?;
            visible.extend(beside.shown_after(1, &run.sinks[1], schedule.crash_after));
        }
    }
    if *output != visible {
        return fail(
            Anomaly::ResultNotFromSinks,
            format!(
                "returned {output:?}, but the sinks made {visible:?} visible (the first sink's committed() at the crash, then the fresh sink's)"
            ),
        );
    }
    // Last: an abort the in-memory sink ignores changes nothing the checks above see.
    aborts_name_prepared_ids(&run.sinks)
}

/// Judges a contract case: each cell with the protocol judge; the failure is the first
/// failing cell (the lags are not a grid's `0..=MAX_LAG`, so no matrix).
fn judge_contract(
    records: &[u32],
    barrier_every: usize,
    at: &[(Option<usize>, usize)],
    cells: &[SpiedRun],
) -> Result<(), Failure> {
    for (i, &(crash_after, commit_lag)) in at.iter().enumerate() {
        let schedule = Schedule {
            len: records.len(),
            barrier_every,
            crash_after,
            commit_lag,
        };
        let verdict = match cells.get(i) {
            Some(run) => judge_protocol(records, schedule, run),
            None => fail(
                Anomaly::Panicked,
                "the driver recorded no result for this cell",
            ),
        };
        let Err(failure) = verdict else {
            continue;
        };
        let output = cells.get(i).and_then(|run| output_of(&run.result));
        let crash = crash_after.map_or("none".to_owned(), |k| k.to_string());
        let actual = format!(
            "{}: {}",
            failure.anomaly.name(),
            output
                .as_ref()
                .map_or_else(|| "no output".to_owned(), |o| format!("output {o:?}"))
        );
        let failure = Failure::new("the two-phase protocol, as for every schedule of `protocol`", actual)
            .step(format!(
                "with barrier_every = {barrier_every}, crash_after = {crash}, commit_lag = {commit_lag}: {}",
                failure.step
            ))
            .requirement(failure.anomaly.requirement());
        return Err(match output {
            Some(output) => failure.multiset(records, &output),
            None => failure,
        });
    }
    Ok(())
}

/// Whether a sink that reached the crash (`crash_after` records written) was written,
/// pre-committed or committed again after its first abort: only recovery aborts, and
/// after recovery only the fresh sink is used.
fn used_after_its_aborts(sink: &[SpyCall], crash_after: usize) -> bool {
    let is_abort = |call: &SpyCall| matches!(call, SpyCall::Abort(_) | SpyCall::AbortOpen);
    let Some(first_abort) = sink.iter().position(is_abort) else {
        return false;
    };
    let (attempt, recovery) = sink.split_at(first_abort);
    let written = attempt
        .iter()
        .filter(|call| matches!(call, SpyCall::Write(_)))
        .count();
    written >= crash_after
        && recovery.iter().any(|call| {
            matches!(
                call,
                SpyCall::Write(_) | SpyCall::PreCommit(_) | SpyCall::Commit(_)
            )
        })
}
