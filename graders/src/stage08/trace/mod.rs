//! `byo trace 08`: one schedule as swimlanes (source offset, open transaction, prepared
//! transactions, visible output) with barrier, notification, crash and recovery marks;
//! with `--mine`, the learner's run beside the reference's, the first divergence marked.
//!
//! The timeline is rebuilt from the calls on the sinks alone, so the reference's run
//! ([`reference_calls`]) and a learner's run (a [`SpiedRun`] from the driver) are drawn
//! by the same code.

mod args;

pub use args::TraceArgs;

use std::fmt::Write as _;

use super::binding::SpyCall;
use super::driver::{RunResult, SpiedRun};
use super::judge::judge_protocol;
use super::oracle::{ModelSink, Schedule, reference_calls};
use super::plan::input;
use crate::report::Style;

/// The trace of `args`: the reference's timeline, and with `mine` the learner's beside
/// it, the first divergence marked, and the judge's verdict on the learner's run.
pub fn render(args: &TraceArgs, mine: Option<&SpiedRun>, style: &Style) -> String {
    let records = input(args.seed, args.records);
    let schedule = args.schedule();
    let reference = reference_calls(&records, schedule);
    let mut out = String::new();
    let crash = args
        .crash_after
        .map_or("no crash".to_owned(), |k| format!("crash after record {k}"));
    let _ = writeln!(
        out,
        "{}",
        style.bold(&format!(
            "stage 08 · records {records:?} · barrier every {} · {crash} · commit_lag {}",
            args.barrier_every, args.lag
        ))
    );
    let _ = writeln!(
        out,
        "{}",
        style.dim(&format!(
            "barriers after records {:?}; notifications {} barrier(s) late; replay from offset {} (the last notified checkpoint)",
            (1..=args.records)
                .filter(|p| schedule.is_barrier(*p))
                .collect::<Vec<_>>(),
            args.lag,
            if args.crash_after.is_some() {
                schedule.restart_offset().to_string()
            } else {
                "-".to_owned()
            }
        ))
    );
    let divergence = mine.map(|m| first_divergence(&reference, &m.sinks));
    let _ = writeln!(out, "\n{}", style.bold("reference"));
    out.push_str(&timeline(
        &records,
        schedule,
        &reference,
        divergence.flatten(),
        style,
    ));
    if let Some(mine) = mine {
        let _ = writeln!(out, "\n{}", style.bold("yours"));
        out.push_str(&timeline(
            &records,
            schedule,
            &mine.sinks,
            divergence.flatten(),
            style,
        ));
        match &mine.result {
            RunResult::Output(output) => {
                let _ = writeln!(out, "  returned {output:?}");
            }
            RunResult::Error(e) => {
                let _ = writeln!(out, "  returned Err({e})");
            }
            RunResult::Panicked(m) => {
                let _ = writeln!(out, "  panicked: {m}");
            }
        }
        match divergence.flatten() {
            None => {
                let _ = writeln!(out, "\n{}", style.good("same calls as the reference"));
            }
            Some(step) => {
                let flat_ref = flatten(&reference);
                let flat_mine = flatten(&mine.sinks);
                let show = |calls: &[(usize, SpyCall)]| {
                    calls
                        .get(step)
                        .map_or("nothing (the run ended)".to_owned(), |(sink, call)| {
                            format!("{} on sink #{}", describe(*call), sink + 1)
                        })
                };
                let _ = writeln!(
                    out,
                    "\n{} at step {}: the reference does {}, yours does {}",
                    style.bad("first divergence"),
                    step + 1,
                    show(&flat_ref),
                    show(&flat_mine)
                );
            }
        }
        let verdict = match judge_protocol(&records, schedule, mine) {
            Ok(()) => style
                .good("verdict: the protocol holds (differences from the reference are allowed)"),
            Err(f) => style.bad(&format!("verdict: {}: {}", f.anomaly.name(), f.step)),
        };
        let _ = writeln!(out, "{verdict}");
    }
    out
}

fn flatten(sinks: &[Vec<SpyCall>]) -> Vec<(usize, SpyCall)> {
    sinks
        .iter()
        .enumerate()
        .flat_map(|(i, calls)| calls.iter().map(move |c| (i, *c)))
        .collect()
}

/// The first step (over all sinks, in order) where the two runs differ.
fn first_divergence(reference: &[Vec<SpyCall>], mine: &[Vec<SpyCall>]) -> Option<usize> {
    let (a, b) = (flatten(reference), flatten(mine));
    (0..a.len().max(b.len())).find(|i| a.get(*i) != b.get(*i))
}

fn describe(call: SpyCall) -> String {
    match call {
        SpyCall::Write(r) => format!("write({r})"),
        SpyCall::PreCommit(id) => format!("pre_commit({id})"),
        SpyCall::Commit(id) => format!("commit({id})"),
        SpyCall::Abort(id) => format!("abort({id})"),
        SpyCall::AbortOpen => "abort_open()".to_owned(),
    }
}

/// One run as rows: step, sink, event, source offset, open, prepared, visible.
fn timeline(
    records: &[u32],
    schedule: Schedule,
    sinks: &[Vec<SpyCall>],
    highlight: Option<usize>,
    style: &Style,
) -> String {
    let mut out = format!(
        "  {:>4}  {:<4}  {:<26} {:>6}  {:<14} {:<22} {}\n",
        "step", "sink", "event", "offset", "open", "prepared", "visible"
    );
    let mut step = 0;
    for (index, calls) in sinks.iter().enumerate() {
        let writes = calls
            .iter()
            .filter(|c| matches!(c, SpyCall::Write(_)))
            .count();
        // The replay runs to the end of the input, so its start is len - writes.
        let mut offset = if index == 0 {
            0
        } else {
            records.len().saturating_sub(writes)
        };
        if index > 0 {
            let _ = writeln!(
                out,
                "  {}",
                style.warn(&format!(
                    "↻ RECOVERY: fresh sink #{}, replay from offset {offset}",
                    index + 1
                ))
            );
        }
        let mut model = ModelSink::default();
        let mut crash_marked = false;
        let mut last_barrier = None;
        for &call in calls {
            let aborting = matches!(call, SpyCall::Abort(_) | SpyCall::AbortOpen);
            if index == 0
                && !crash_marked
                && aborting
                && let Some(k) = schedule.crash_after
            {
                crash_marked = true;
                let _ = writeln!(out, "  {}", style.bad(&format!("✗ CRASH after record {k}")));
            }
            if let SpyCall::Write(_) = call {
                offset += 1;
            }
            let event = match call {
                SpyCall::Write(r) => format!("  write({r})"),
                SpyCall::PreCommit(id)
                    if schedule.is_barrier(offset) && last_barrier != Some(offset) =>
                {
                    last_barrier = Some(offset);
                    format!("▮ barrier: pre_commit({id})")
                }
                SpyCall::PreCommit(id) if offset == records.len() => {
                    format!("▮ end: pre_commit({id})")
                }
                SpyCall::PreCommit(id) => format!("▮ pre_commit({id})"),
                SpyCall::Commit(id) => format!("✓ notified: commit({id})"),
                SpyCall::Abort(id) => format!("✗ abort({id})"),
                SpyCall::AbortOpen => "✗ abort_open()".to_owned(),
            };
            model.apply(call);
            let prepared = model
                .pending
                .iter()
                .map(|id| format!("c{id}{:?}", model.prepared(*id).unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(" ");
            let marker = if highlight == Some(step) { "▶" } else { " " };
            let row = format!(
                "{marker} {:>4}  #{:<3}  {:<26} {:>6}  {:<14} {:<22} {:?}",
                step + 1,
                index + 1,
                event,
                offset,
                format!("{:?}", model.open),
                if prepared.is_empty() {
                    "-".to_owned()
                } else {
                    prepared
                },
                model.committed
            );
            let row = if highlight == Some(step) {
                style.bad(&row)
            } else {
                row
            };
            let _ = writeln!(out, "{row}");
            step += 1;
        }
        if index == 0
            && !crash_marked
            && let Some(k) = schedule.crash_after
        {
            let _ = writeln!(out, "  {}", style.bad(&format!("✗ CRASH after record {k}")));
        }
    }
    if highlight.is_some_and(|h| h >= step) {
        let _ = writeln!(
            out,
            "{}",
            style.bad(&format!("▶ {:>4}  (no more calls)", step + 1))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::plan::{Case, MAX_LEN};
    use super::*;
    use crate::harness::driver::DEFAULT_SEED;

    fn args(
        records: usize,
        barrier_every: usize,
        crash_after: Option<usize>,
        lag: usize,
    ) -> TraceArgs {
        TraceArgs {
            records,
            barrier_every,
            crash_after,
            lag,
            mine: false,
            seed: DEFAULT_SEED,
        }
    }

    #[test]
    fn the_reference_run_is_judged_correct_on_every_schedule() {
        for len in 0..=MAX_LEN {
            let records = input(DEFAULT_SEED, len);
            for barrier_every in 1..=len + 1 {
                for (crash_after, commit_lag) in Case::cells(len) {
                    let schedule = Schedule {
                        len,
                        barrier_every,
                        crash_after,
                        commit_lag,
                    };
                    let sinks = reference_calls(&records, schedule);
                    let mut visible = Vec::new();
                    for calls in &sinks {
                        let mut output = ModelSink::default();
                        for call in calls {
                            output.apply(*call);
                        }
                        visible.extend_from_slice(&output.committed);
                    }
                    let run = SpiedRun {
                        result: RunResult::Output(visible),
                        sinks,
                    };
                    assert_eq!(
                        judge_protocol(&records, schedule, &run),
                        Ok(()),
                        "{schedule:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_trace_shows_the_crash_and_the_recovery() {
        let text = render(&args(5, 2, Some(3), 1), None, &Style::plain());
        assert!(text.contains("✗ CRASH after record 3"), "{text}");
        assert!(
            text.contains("↻ RECOVERY: fresh sink #2, replay from offset 0"),
            "{text}"
        );
    }

    #[test]
    fn mine_marks_the_first_divergence() {
        let a = args(4, 2, Some(3), 0);
        let records = input(a.seed, 4);
        let mut sinks = reference_calls(&records, a.schedule());
        sinks[1].remove(0);
        let mine = SpiedRun {
            result: RunResult::Output(Vec::new()),
            sinks,
        };
        let text = render(&a, Some(&mine), &Style::plain());
        assert!(text.contains("first divergence at step"), "{text}");
        assert!(
            text.contains("verdict: replay from the wrong offset"),
            "{text}"
        );
    }

    #[test]
    fn bad_arguments_name_the_flag() {
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let e = TraceArgs::parse(&words("--records 3 --barrier-every 0")).unwrap_err();
        assert!(e.to_string().contains("--barrier-every"), "{e}");
        let e = TraceArgs::parse(&words("--records 3 --crash-after 4")).unwrap_err();
        assert!(e.to_string().contains("--crash-after"), "{e}");
        let ok = TraceArgs::parse(&words(
            "--records 3 --barrier-every 2 --crash-after 1 --lag 1 --mine",
        ))
        .unwrap();
        assert_eq!(ok.protocol_case().map(|_| ()), Some(()));
    }
}
