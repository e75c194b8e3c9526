//! `byo trace 08 --mine` on mutants: the learner's own sink is what the trace runs
//! (a sink bug shows where it departs from a correct sink), and a commit at the crash
//! instead of an abort is not drawn as a notified one.

use graders::harness::Stage;
use graders::harness::stage::DEFAULT_SEED;
use graders::stage08::trace::{Trace, render, render_html, unpainted};
use graders::stage08::{Case, Observation, SpiedRun, TransactionalSinkStage, drive};

use super::recovery::Flush;
use super::sink::Eager;
use crate::fail;

/// The learner's run of `trace` through `drive`, as the driver hands it to `byo trace`.
fn mine(trace: &Trace, drive: fn(&Case) -> Observation) -> SpiedRun {
    let index = trace.protocol_case().expect("a graded schedule");
    let Observation::Protocol { cells } = drive(&TransactionalSinkStage::plan(trace.seed)[index])
    else {
        fail("a protocol case observes a protocol grid")
    };
    let cell = Case::cells(trace.records)
        .iter()
        .position(|c| *c == (trace.crash_after, trace.lag))
        .expect("a cell of the grid");
    cells[cell].clone()
}

fn schedule(records: usize, crash_after: Option<usize>, lag: usize) -> Trace {
    Trace {
        records,
        barrier_every: 1,
        crash_after,
        lag,
        seed: DEFAULT_SEED,
    }
}

/// A sink that publishes on `write` traces as such: the job is right with a correct
/// sink, and the trace marks the step where the learner's sink shows something else.
#[test]
fn trace_mine_runs_your_own_sink_and_marks_where_it_departs() {
    let trace = schedule(1, None, 0);
    let run = mine(&trace, drive::<Eager>);
    let text = render(&trace, Some(&run), &unpainted);
    let rows: Vec<&str> = text.lines().collect();
    let want = [
        "yours (your job, your sink)",
        "◆    1  #1      write(2)                      1  [2]            -                      [2]",
        "your sink departs at step 1 (◆): after write(2) on sink #1 it shows [2], where a correct sink shows [] (the `sink-model` check judges the sink alone)",
        "your job: the protocol holds with a correct sink (differences from the reference are allowed)",
    ];
    for line in want {
        if !rows.contains(&line) {
            fail(&format!("the trace lacks the line\n{line}\nin\n{text}"));
        }
    }
    let html = render_html(&trace, Some(&run)).unwrap_or_else(|e| fail(&e.to_string()));
    for part in [
        "<title>your sink departs</title>",
        "<h2>yours (your job, your sink)</h2>",
        "Your sink departs at step 1 (framed in orange): after write(2) on sink #1 it shows [2], where a correct sink shows [].",
    ] {
        if !html.contains(part) {
            fail(&format!("the picture lacks {part:?} in\n{html}"));
        }
    }
}

/// A correct sink traces as such: no departure, and the same lines as before.
#[test]
fn trace_mine_with_a_correct_sink_says_so() {
    let trace = schedule(1, Some(1), 1);
    let run = mine(&trace, drive::<super::Reference>);
    let text = render(&trace, Some(&run), &unpainted);
    if !text.contains(
        "your sink: it showed what a correct sink shows after the same calls, at every step",
    ) || text.contains('◆')
    {
        fail(&text);
    }
}

/// Committing at the crash instead of aborting is drawn "unnotified", not "notified".
#[test]
fn a_commit_at_the_crash_is_not_drawn_notified() {
    let trace = schedule(1, Some(1), 1);
    let run = mine(&trace, drive::<Flush>);
    let text = render(&trace, Some(&run), &unpainted);
    let yours = text
        .split("yours (your job, your sink)")
        .nth(1)
        .unwrap_or_else(|| fail(&text));
    let row = "▶    4  #1    ! unnotified: commit(1)         1  []             -                      [2]";
    if !yours.lines().any(|l| l == row) || yours.contains("✓ notified: commit(1)") {
        fail(&format!("no row\n{row}\nin\n{text}"));
    }
}
