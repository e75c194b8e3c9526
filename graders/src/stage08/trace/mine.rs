//! The learner's run in a trace: their job with their own sink behind the spy, what
//! that sink showed and where it first departs from a correct sink, the first
//! divergence from the reference's calls, and the verdicts on the job and on the sink.

use std::fmt::Write as _;

use super::super::binding::SpyCall;
use super::super::driver::SpiedRun;
use super::super::judge::judge_protocol;
use super::super::oracle::Schedule;
use super::super::own_sink::OwnSinkRun;
use super::super::run_result::RunResult;
use super::timeline::{Seen, describe, flatten, timeline};
use super::{Mark, Paint};

/// The learner's calls as drawn (their own sink's run where the driver kept one: it
/// keeps it only where it differs from the run with the grader's sink), and that run.
pub(super) fn yours(mine: &SpiedRun) -> (&[Vec<SpyCall>], Option<&OwnSinkRun>) {
    match mine.own.as_deref() {
        Some(own) => (&own.sinks, Some(own)),
        None => (&mine.sinks, None),
    }
}

pub(super) fn render_mine(
    records: &[u32],
    schedule: Schedule,
    reference: &[Vec<SpyCall>],
    mine: &SpiedRun,
    divergence: Option<usize>,
    paint: &Paint<'_>,
) -> String {
    let mut out = String::new();
    let (sinks, own) = yours(mine);
    let departure = own.and_then(OwnSinkRun::departure);
    let _ = writeln!(
        out,
        "\n{}",
        paint(Mark::Heading, "yours (your job, your sink)")
    );
    let seen = own.map(|own| Seen {
        visible: &own.visible,
        departed: departure.as_ref().map(|d| d.step),
    });
    out.push_str(&timeline(
        records,
        schedule,
        sinks,
        divergence,
        seen.as_ref(),
        paint,
    ));
    match own.map_or(&mine.result, |own| &own.result) {
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
    let _ = writeln!(out);
    match divergence {
        None => {
            let _ = writeln!(out, "{}", paint(Mark::Good, "same calls as the reference"));
        }
        Some(step) => {
            let show = |calls: &[(usize, SpyCall)]| {
                calls
                    .get(step)
                    .map_or("nothing (the run ended)".to_owned(), |(sink, call)| {
                        format!("{} on sink #{}", describe(*call), sink + 1)
                    })
            };
            let _ = writeln!(
                out,
                "{} at step {}: the reference does {}, yours does {}",
                paint(Mark::Bad, "first divergence"),
                step + 1,
                show(&flatten(reference)),
                show(&flatten(sinks))
            );
        }
    }
    let sink_line = match &departure {
        None => paint(
            Mark::Good,
            "your sink: it showed what a correct sink shows after the same calls, at every step",
        ),
        Some(d) => paint(
            Mark::Bad,
            &format!(
                "your sink departs at step {} (◆): after {} on sink #{} it {}, where a correct sink shows {:?} (the `sink-model` check judges the sink alone)",
                d.step + 1,
                describe(d.call),
                d.sink + 1,
                d.yours
                    .as_ref()
                    .map_or("panicked".to_owned(), |v| format!("shows {v:?}")),
                d.model
            ),
        ),
    };
    let _ = writeln!(out, "{sink_line}");
    // The job is judged as the grader judges it: on the run with the grader's sink.
    let verdict = match judge_protocol(records, schedule, mine) {
        Ok(()) => paint(
            Mark::Good,
            "your job: the protocol holds with a correct sink (differences from the reference are allowed)",
        ),
        Err(f) => paint(
            Mark::Bad,
            &format!("your job: {}: {}", f.anomaly.name(), f.step),
        ),
    };
    let _ = writeln!(out, "{verdict}");
    out
}
