//! The trace as a picture: a self-contained HTML page holding one SVG swimlane per run
//! (the reference's and, with the learner's run, theirs), a column per sink call, and for
//! each sink a lane of what its open transaction, its prepared transactions and its
//! visible output hold after that call. Barriers, notifications, aborts, the crash and
//! the recovery are marked; so is the first divergence between the two runs.

use std::fmt::Write as _;

use super::super::binding::SpyCall;
use super::super::driver::SpiedRun;
use super::super::oracle::{Schedule, reference_calls};
use super::super::own_sink::OwnSinkRun;
use super::super::plan::input;
use super::columns::{Column, columns};
use super::events::Event;
use super::mine::yours;
use super::timeline::{describe, first_divergence};
use super::{Trace, Unfit};

const COLUMN: usize = 120;
const LABEL: usize = 150;
const ROW: usize = 22;
const TOP: usize = 46;

/// The trace of `trace` as a self-contained HTML page of SVG swimlanes (the reference's
/// run and, with `mine`, the learner's, the first divergence marked).
///
/// # Errors
/// Why the schedule cannot be drawn.
pub fn render_html(trace: &Trace, mine: Option<&SpiedRun>) -> Result<String, Unfit> {
    trace.check()?;
    let records = input(trace.seed, trace.records);
    let schedule = trace.schedule();
    let reference = reference_calls(&records, schedule);
    let crash = trace
        .crash_after
        .map_or("no crash".to_owned(), |k| format!("crash after record {k}"));
    let title = format!(
        "stage 08 · records {records:?} · barrier every {} · {crash} · commit lag {}",
        trace.barrier_every, trace.lag
    );
    Ok(page(&title, records.len(), schedule, &reference, mine))
}

/// The HTML page: a heading, then one swimlane per run.
fn page(
    title: &str,
    len: usize,
    schedule: Schedule,
    reference: &[Vec<SpyCall>],
    mine: Option<&SpiedRun>,
) -> String {
    let divergence = mine.and_then(|m| first_divergence(reference, yours(m).0));
    let mut html = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>byo trace 08</title><style>body{font-family:system-ui,sans-serif;margin:1.5em}\
         h1{font-size:1.1em}h2{font-size:1em;margin-top:1.5em}svg{display:block}\
         .legend span{margin-right:1.2em}</style></head><body>\n",
    );
    let _ = writeln!(html, "<h1>{}</h1>", escape(title));
    html.push_str(
        "<p class=\"legend\"><span>▮ pre-commit (barrier)</span><span>✓ commit (notified, or at the end)</span>\
         <span style=\"color:#c0392b\">! commit no notification called for</span>\
         <span>✗ abort</span><span style=\"color:#c0392b\">┆ crash</span>\
         <span style=\"color:#d35400\">↻ recovery</span></p>\n",
    );
    html.push_str("<h2>reference</h2>\n");
    html.push_str(&swimlane(
        &columns(len, schedule, reference, None),
        schedule,
        reference,
        divergence,
        None,
    ));
    if let Some(mine) = mine {
        let (sinks, own) = yours(mine);
        let departure = own.and_then(OwnSinkRun::departure);
        html.push_str("<h2>yours (your job, your sink)</h2>\n");
        let columns = columns(len, schedule, sinks, own.map(|o| o.visible.as_slice()));
        let departed = departure.as_ref().map(|d| d.step);
        html.push_str(&swimlane(&columns, schedule, sinks, divergence, departed));
        let _ = writeln!(
            html,
            "<p>{}</p>",
            match divergence {
                None => "Same calls as the reference.".to_owned(),
                Some(step) => format!("First divergence at step {} (marked in red).", step + 1),
            }
        );
        if let Some(d) = departure {
            let _ = writeln!(
                html,
                "<p>Your sink departs at step {} (framed in orange): after {} on sink #{} it {}, where a correct sink shows {:?}.</p>",
                d.step + 1,
                escape(&describe(d.call)),
                d.sink + 1,
                d.yours
                    .as_ref()
                    .map_or("panicked".to_owned(), |v| format!("shows {v:?}")),
                d.model
            );
        }
    }
    html.push_str("</body></html>\n");
    html
}

fn swimlane(
    columns: &[Column],
    schedule: Schedule,
    sinks: &[Vec<SpyCall>],
    divergence: Option<usize>,
    departed: Option<usize>,
) -> String {
    let lanes = sinks.len().max(1) * 3;
    let width = LABEL + COLUMN * columns.len().max(1) + 10;
    let height = TOP + ROW * lanes + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-size=\"11\" font-family=\"ui-monospace,monospace\">\n"
    );
    for (sink, _) in sinks.iter().enumerate() {
        for (i, lane) in ["open", "prepared", "visible"].iter().enumerate() {
            let y = TOP + ROW * (sink * 3 + i);
            let shade = if sink % 2 == 0 { "#f4f6f8" } else { "#fbfbfb" };
            let _ = writeln!(
                svg,
                "<rect x=\"0\" y=\"{y}\" width=\"{width}\" height=\"{ROW}\" fill=\"{shade}\"/>\
                 <text x=\"6\" y=\"{}\">sink #{} {lane}</text>",
                y + 15,
                sink + 1
            );
        }
    }
    for (step, column) in columns.iter().enumerate() {
        let x = LABEL + COLUMN * step;
        let (mark, colour) = match column.event {
            Event::Write(_) => ("", "#555"),
            Event::Barrier(_) | Event::EndPreCommit(_) | Event::PreCommit(_) => ("▮ ", "#2c6fbb"),
            Event::Notified(_) | Event::EndCommit(_) | Event::Commit(_) => ("✓ ", "#1e8449"),
            Event::Unnotified(_) => ("! ", "#c0392b"),
            Event::Abort(_) | Event::AbortOpen => ("✗ ", "#c0392b"),
        };
        if departed == Some(step) {
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"4\" width=\"{}\" height=\"{}\" fill=\"none\" \
                 stroke=\"#d35400\" stroke-width=\"2\"><title>your sink departs</title></rect>",
                x + 3,
                COLUMN - 6,
                height - 8
            );
        }
        if divergence == Some(step) {
            let _ = writeln!(
                svg,
                "<rect x=\"{x}\" y=\"2\" width=\"{COLUMN}\" height=\"{}\" fill=\"none\" \
                 stroke=\"#c0392b\" stroke-width=\"2\"><title>first divergence</title></rect>",
                height - 4
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"16\" fill=\"{colour}\">{}{}</text>\
             <text x=\"{}\" y=\"32\" fill=\"#888\">step {}</text>",
            x + 4,
            mark,
            escape(&describe(column.call)),
            x + 4,
            step + 1
        );
        let prepared = column
            .prepared
            .iter()
            .map(|(id, records)| format!("c{id}{records:?}"))
            .collect::<Vec<_>>()
            .join(" ");
        for (i, text) in [
            format!("{:?}", column.open),
            prepared,
            column.visible.clone(),
        ]
        .iter()
        .enumerate()
        {
            let y = TOP + ROW * (column.sink * 3 + i) + 15;
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{y}\">{}</text>",
                x + 4,
                escape(text)
            );
        }
        // The crash falls after the last call of the first sink, when there is a second.
        let last_of_first =
            column.sink == 0 && columns.get(step + 1).is_some_and(|next| next.sink == 1);
        if last_of_first && schedule.crash_after.is_some() {
            let cx = x + COLUMN;
            let _ = writeln!(
                svg,
                "<line x1=\"{cx}\" y1=\"0\" x2=\"{cx}\" y2=\"{height}\" stroke=\"#c0392b\" \
                 stroke-dasharray=\"4 3\"/><text x=\"{}\" y=\"{}\" fill=\"#d35400\">↻ recovery</text>",
                cx + 4,
                height - 4
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::super::super::run_result::RunResult;
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
    fn the_picture_draws_every_call_the_crash_and_the_divergence() {
        let a = args(4, 2, Some(3), 0);
        let html = render_html(&a, None).unwrap();
        let records = input(a.seed, 4);
        let calls: usize = reference_calls(&records, a.schedule())
            .iter()
            .map(Vec::len)
            .sum();
        assert!(html.starts_with("<!doctype html>") && html.ends_with("</html>\n"));
        assert_eq!(html.matches("<svg ").count(), 1);
        assert_eq!(html.matches(">step ").count(), calls, "a column per call");
        assert!(
            html.contains("sink #2 visible"),
            "a lane per sink after the crash"
        );
        assert!(html.contains("↻ recovery</text>"));
        assert!(
            !html.contains("http://") || html.matches("http://").count() == 1,
            "no network but the SVG namespace"
        );

        let mut sinks = reference_calls(&records, a.schedule());
        sinks[1].remove(0);
        let mine = SpiedRun {
            result: RunResult::Output(Vec::new()),
            sinks,
            own: None,
        };
        let html = render_html(&a, Some(&mine)).unwrap();
        assert_eq!(html.matches("<svg ").count(), 2);
        assert!(html.contains("<title>first divergence</title>"));
        assert!(html.contains("First divergence at step"));
        assert_eq!(
            render_html(&args(3, 0, None, 0), None),
            Err(Unfit::NoBarrierInterval)
        );
    }
}
