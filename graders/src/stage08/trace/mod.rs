//! `byo trace 08`: one schedule as swimlanes (source offset, open transaction, prepared
//! transactions, visible output) with barrier, notification, crash and recovery marks;
//! with the learner's run, that run beside the reference's, the first divergence marked.
//!
//! The learner's run is their job with their own sink behind the spy (an
//! [`OwnSinkRun`](super::OwnSinkRun), where it differs from the run with the grader's
//! correct sink): its visible lane is what their sink showed, and the first step where
//! that departs from a correct sink after the same calls is marked `◆`. The job itself
//! is judged as the grader judges it, on the run with the correct sink. Each commit is
//! named by its place in the schedule: notified, at the end, or unnotified (before its
//! notification, or at the crash instead of an abort).
//!
//! The timeline is rebuilt from the calls on the sinks alone, so the reference's run
//! ([`reference_calls`]) and a learner's run (a [`SpiedRun`] from the driver) are drawn
//! by the same code. The renderer parses no flags and knows no terminal: it takes a
//! [`Trace`] and a [`Paint`] and returns text; the `byo` command does the rest.

mod band;
mod columns;
mod events;
mod mine;
mod schedule;
mod svg;
mod timeline;

#[cfg(test)]
mod browser_tests;

pub use svg::render_html;

pub use schedule::{Trace, Unfit};

use std::fmt::Write as _;

use super::driver::SpiedRun;
use super::oracle::{Schedule, reference_calls};
use super::plan::input;
use mine::yours;
use timeline::{first_divergence, timeline};

/// What a part of the trace is, for whoever colours it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A heading: the schedule, a run's name.
    Heading,
    /// Secondary detail.
    Detail,
    /// The learner's run agrees with the protocol.
    Good,
    /// A crash, an abort marker, a divergence, a broken law.
    Bad,
    /// A recovery.
    Warn,
}

/// Marks a part of the text: `paint(mark, text)` returns the text to print.
pub type Paint<'a> = dyn Fn(Mark, &str) -> String + 'a;

/// Leaves every part as it is (files, tests).
pub fn unpainted(_: Mark, text: &str) -> String {
    text.to_owned()
}

/// The trace of `trace`: the reference's timeline, and with `mine` the learner's beside
/// it, the first divergence marked, and the judge's verdict on the learner's run. A
/// schedule that fails [`Trace::check`] is drawn as that reason alone.
pub fn render(trace: &Trace, mine: Option<&SpiedRun>, paint: &Paint<'_>) -> String {
    if let Err(unfit) = trace.check() {
        return format!(
            "{}\n",
            paint(Mark::Bad, &format!("cannot draw this schedule: {unfit}"))
        );
    }
    let records = input(trace.seed, trace.records);
    let schedule = trace.schedule();
    let reference = reference_calls(&records, schedule);
    let mut out = String::new();
    let [schedule_line, detail] = header(trace, &records, schedule);
    let _ = writeln!(out, "{}", paint(Mark::Heading, &schedule_line));
    let _ = writeln!(out, "{}", paint(Mark::Detail, &detail));
    let divergence = mine.and_then(|m| first_divergence(&reference, yours(m).0));
    let _ = writeln!(out, "\n{}", paint(Mark::Heading, "reference"));
    out.push_str(&timeline(
        &records, schedule, &reference, divergence, None, paint,
    ));
    let Some(mine) = mine else {
        return out;
    };
    out.push_str(&mine::render_mine(
        &records, schedule, &reference, mine, divergence, paint,
    ));
    out
}

/// The trace's two header lines, the same in the text and the picture: the schedule, then
/// where its barriers fall, how late notifications come and where the replay starts.
fn header(trace: &Trace, records: &[u32], schedule: Schedule) -> [String; 2] {
    let crash = trace
        .crash_after
        .map_or("no crash".to_owned(), |k| format!("crash after record {k}"));
    let barriers: Vec<usize> = (1..=trace.records)
        .filter(|p| schedule.is_barrier(*p))
        .collect();
    let replay = if trace.crash_after.is_some() {
        schedule.restart_offset().to_string()
    } else {
        "-".to_owned()
    };
    [
        format!(
            "stage 08 · records {records:?} · barrier every {} · {crash} · commit_lag {}",
            trace.barrier_every, trace.lag
        ),
        format!(
            "barriers after records {barriers:?}; notifications {} barrier(s) late; replay from offset {replay} (the last notified checkpoint)",
            trace.lag
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::judge::judge_protocol;
    use super::super::oracle::{ModelSink, Schedule};
    use super::super::plan::{Case, MAX_LEN};
    use super::super::run_result::RunResult;
    use super::*;
    use crate::harness::driver::DEFAULT_SEED;

    fn args(records: usize, barrier_every: usize, crash_after: Option<usize>, lag: usize) -> Trace {
        Trace {
            records,
            barrier_every,
            crash_after,
            lag,
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
                        order: Vec::new(),
                        own: None,
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
        let text = render(&args(5, 2, Some(3), 1), None, &unpainted);
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
            order: Vec::new(),
            own: None,
        };
        let text = render(&a, Some(&mine), &unpainted);
        assert!(text.contains("first divergence at step"), "{text}");
        assert!(
            text.contains("your job: replay from the wrong offset"),
            "{text}"
        );
    }

    #[test]
    fn unfit_schedules_say_why() {
        assert_eq!(args(3, 0, None, 0).check(), Err(Unfit::NoBarrierInterval));
        assert_eq!(
            args(3, 1, Some(4), 0).check(),
            Err(Unfit::CrashPastEnd {
                crash_after: 4,
                records: 3
            })
        );
        assert_eq!(
            args(MAX_LEN + 1, 1, None, 0).check_graded(),
            Err(Unfit::LongerThanGraded {
                records: MAX_LEN + 1
            })
        );
        assert_eq!(
            args(3, 1, None, 3).check_graded(),
            Err(Unfit::LagPastGraded { lag: 3 })
        );
        let text = render(&args(3, 0, None, 0), None, &unpainted);
        assert!(text.starts_with("cannot draw this schedule: "), "{text}");
        let graded = args(3, 2, Some(1), 1);
        assert_eq!(graded.check_graded(), Ok(()));
        assert!(graded.protocol_case().is_some());
    }
}
