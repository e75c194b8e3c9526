//! The trace as a picture: a self-contained HTML page with the text trace's header, then
//! each run (the reference's and, with the learner's run, theirs) as swimlanes: a column
//! per sink call, headed by the same event labels as the text, with lanes for the source
//! offset and each sink's open transaction, prepared transactions and visible output.
//! The crash, the recovery and the first divergence are marked where they fall.
//!
//! A run is cut into bands of consecutive columns that wrap down the page, so every step
//! is on screen without scrolling sideways. The page holds the bands cut three ways (9, 5
//! and 2 columns each) and CSS shows the one that fits the window: a laptop, a narrow
//! window, a phone. The page has no script.

use std::fmt::Write as _;

use super::super::driver::SpiedRun;
use super::super::oracle::{Schedule, reference_calls};
use super::super::own_sink::OwnSinkRun;
use super::super::plan::input;
use super::band::{Marks, band, escape};
use super::columns::{Column, boundaries, columns};
use super::mine::yours;
use super::timeline::{describe, first_divergence};
use super::{Trace, Unfit, header};

/// The band widths, in columns, and the smallest window each is shown in (its band's
/// width with the page's margins and a scrollbar); below the last, the narrowest bands,
/// scaled to fit.
pub(super) const TIERS: [(usize, usize); 3] = [(9, 1270), (5, 790), (2, 0)];

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
    let divergence = mine.and_then(|m| first_divergence(&reference, yours(m).0));
    let mut html = head();
    for line in header(trace, &records, schedule) {
        let _ = writeln!(html, "<p class=\"header\">{}</p>", escape(&line));
    }
    html.push_str(LEGEND);
    html.push_str("<h2>reference</h2>\n");
    let columns_of_reference = columns(records.len(), schedule, &reference, None);
    let marks = boundaries(&columns_of_reference, schedule);
    html.push_str(&run(
        &columns_of_reference,
        reference.len(),
        &Marks {
            boundaries: &marks,
            divergence,
            departed: None,
        },
    ));
    if let Some(mine) = mine {
        html.push_str(&yours_section(&records, schedule, mine, divergence));
    }
    html.push_str("</body></html>\n");
    Ok(html)
}

/// The page's head and style: one tier of bands shown at a time, by the window's width.
fn head() -> String {
    let mut css = String::from(
        "body{font-family:system-ui,sans-serif;margin:1.5em}h2{font-size:1em;margin-top:1.5em}\
         .header{font-family:ui-monospace,monospace;font-size:.85em;margin:.2em 0}\
         .header:first-of-type{font-weight:bold}.legend span{margin-right:1.2em}\
         svg{display:block;max-width:100%;height:auto;margin:.4em 0}.tier{display:none}",
    );
    for (i, (columns, from)) in TIERS.iter().enumerate() {
        let below = i.checked_sub(1).map(|up| TIERS[up].1);
        let query = match below {
            None => format!("(min-width:{from}px)"),
            Some(up) if *from == 0 => format!("(max-width:{}px)", up - 1),
            Some(up) => format!("(min-width:{from}px) and (max-width:{}px)", up - 1),
        };
        let _ = write!(css, "@media {query}{{.t{columns}{{display:block}}}}");
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>byo trace 08</title><style>{css}</style></head><body>\n"
    )
}

const LEGEND: &str = "<p class=\"legend\"><span>▮ pre-commit (barrier:, or end: at the end of the input)</span>\
     <span>✓ commit (notified:, or end:)</span>\
     <span style=\"color:#c0392b\">! commit no notification called for</span>\
     <span>✗ abort</span><span style=\"color:#c0392b\">┆ crash</span>\
     <span style=\"color:#d35400\">┆ recovery</span></p>\n";

/// One run's columns, as bands of each tier's width.
fn run(columns: &[Column], sinks: usize, marks: &Marks) -> String {
    let mut html = String::new();
    for (per_band, _) in TIERS {
        let _ = writeln!(html, "<div class=\"tier t{per_band}\">");
        let mut start = 0;
        while start < columns.len() {
            let end = (start + per_band).min(columns.len());
            html.push_str(&band(columns, start..end, sinks, marks));
            start = end;
        }
        html.push_str("</div>\n");
    }
    html
}

/// The learner's run: their calls, what their sink showed, and where either departs.
fn yours_section(
    records: &[u32],
    schedule: Schedule,
    mine: &SpiedRun,
    divergence: Option<usize>,
) -> String {
    let (sinks, own) = yours(mine);
    let departure = own.and_then(OwnSinkRun::departure);
    let mut html = String::from("<h2>yours (your job, your sink)</h2>\n");
    let columns = columns(
        records.len(),
        schedule,
        sinks,
        own.map(|o| o.visible.as_slice()),
    );
    let marks = boundaries(&columns, schedule);
    html.push_str(&run(
        &columns,
        sinks.len(),
        &Marks {
            boundaries: &marks,
            divergence,
            departed: departure.as_ref().map(|d| d.step),
        },
    ));
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
    html
}

#[cfg(test)]
#[path = "svg_tests.rs"]
mod tests;
