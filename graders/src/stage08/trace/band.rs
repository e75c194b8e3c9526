//! One band of the picture: consecutive columns drawn as one SVG, with a lane for the
//! source offset and, per sink, lanes for its open transaction, its prepared
//! transactions and its visible output. A long cell wraps onto more lines (its lane grows
//! for the whole band) rather than running into the next column; the crash, each
//! recovery, the first divergence and the learner's sink's departure are marked where
//! they fall.

use std::fmt::Write as _;
use std::ops::Range;

use super::columns::{Boundary, Column};
use super::events::Event;

/// A column's width, and the lane labels' before the first.
pub(super) const COLUMN: usize = 120;
const LABEL: usize = 118;
const PAD: usize = 8;
/// One line of text, and how many characters of 11 px monospace fit a column's line.
const LINE: usize = 14;
const CHARS: usize = 16;
/// The strip above the columns (the crash) and below the lanes (recoveries, two lines).
const TOP_STRIP: usize = 18;
const BOTTOM_STRIP: usize = 2 * LINE + 8;
/// The column heads: the event's place in the schedule, the call, the step.
const HEAD: usize = 3 * LINE + 8;

/// The width of a band of `columns` columns.
pub(super) fn width(columns: usize) -> usize {
    LABEL + COLUMN * columns + PAD
}

/// What is marked on a run's bands.
pub(super) struct Marks<'a> {
    /// The crash and the recoveries, each before the column of its index.
    pub(super) boundaries: &'a [(usize, Boundary)],
    /// The first step where the learner's calls differ from the reference's.
    pub(super) divergence: Option<usize>,
    /// The first step where the learner's sink shows something a correct sink would not.
    pub(super) departed: Option<usize>,
}

/// Columns `range` of a run's `columns` (over `sinks` sinks) as one SVG.
pub(super) fn band(columns: &[Column], range: Range<usize>, sinks: usize, marks: &Marks) -> String {
    let band = &columns[range.clone()];
    let cells = |c: &Column| -> [Vec<String>; 3] {
        let prepared = c
            .prepared
            .iter()
            .flat_map(|(id, records)| wrap(&format!("c{id}{records:?}")))
            .collect();
        [wrap(&format!("{:?}", c.open)), prepared, wrap(&c.visible)]
    };
    // Each lane: its label, its top, its height in lines.
    let mut lanes = vec![("offset".to_owned(), 0, 1)];
    let mut y = TOP_STRIP + HEAD;
    let mut tops = vec![y];
    y += LINE + 8;
    for sink in 0..sinks {
        for (lane, name) in ["open", "prepared", "visible"].iter().enumerate() {
            let lines = band
                .iter()
                .filter(|c| c.sink == sink)
                .map(|c| cells(c)[lane].len())
                .max()
                .unwrap_or(0)
                .max(1);
            lanes.push((format!("sink #{} {name}", sink + 1), sink + 1, lines));
            tops.push(y);
            y += lines * LINE + 8;
        }
    }
    let lanes_end = y;
    let (width, height) = (width(band.len()), lanes_end + BOTTOM_STRIP);
    let mut svg = format!(
        "<svg class=\"band\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-size=\"11\" \
         font-family=\"ui-monospace,monospace\">\n"
    );
    for ((label, shade, lines), top) in lanes.iter().zip(&tops) {
        // The offset lane, then the sinks' lanes in alternating shades.
        let fill = match shade {
            0 => "#eef2f7",
            s if s % 2 == 1 => "#f4f6f8",
            _ => "#fbfbfb",
        };
        let _ = writeln!(
            svg,
            "<rect x=\"0\" y=\"{top}\" width=\"{width}\" height=\"{}\" fill=\"{fill}\"/>\
             <text x=\"6\" y=\"{}\">{label}</text>",
            lines * LINE + 8,
            top + LINE
        );
    }
    for (i, column) in band.iter().enumerate() {
        let step = range.start + i;
        let x = LABEL + COLUMN * i;
        frames(&mut svg, x, step, lanes_end, marks);
        let (mark, kind, call) = column.event.parts();
        let colour = colour(column.event);
        let head = TOP_STRIP + LINE;
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{head}\" fill=\"{colour}\">{}</text>\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\">{mark} {}</text>\
             <text class=\"step\" x=\"{}\" y=\"{}\" fill=\"#888\">step {}</text>",
            x + 4,
            kind.map_or(String::new(), |k| format!("{k}:")),
            x + 4,
            head + LINE,
            escape(&call),
            x + 4,
            head + 2 * LINE,
            step + 1
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            x + 4,
            tops[0] + LINE,
            column.offset
        );
        for (lane, lines) in cells(column).iter().enumerate() {
            let top = tops[1 + column.sink * 3 + lane];
            for (n, line) in lines.iter().enumerate() {
                let _ = writeln!(
                    svg,
                    "<text x=\"{}\" y=\"{}\">{}</text>",
                    x + 4,
                    top + LINE * (n + 1),
                    escape(line)
                );
            }
        }
    }
    for (at, boundary) in marks.boundaries {
        if !(range.start..=range.end).contains(at) || (*at == range.end && *at < columns.len()) {
            continue; // drawn on the band that starts there
        }
        let x = LABEL + COLUMN * (at - range.start);
        let (colour, texts, y) = match boundary {
            Boundary::Crash { after_record } => (
                "#c0392b",
                vec![format!("✗ crash after record {after_record}")],
                LINE - 2,
            ),
            Boundary::Recovery { sink, offset } => (
                "#d35400",
                vec![
                    format!("↻ recovery: fresh sink #{sink}"),
                    format!("replay from offset {offset}"),
                ],
                lanes_end + LINE,
            ),
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{x}\" y1=\"0\" x2=\"{x}\" y2=\"{height}\" stroke=\"{colour}\" \
             stroke-dasharray=\"4 3\"/>"
        );
        for (n, text) in texts.iter().enumerate() {
            // A label that would run past the band's edge ends at the line instead.
            let (tx, anchor) = if x + 4 + 7 * text.chars().count() > width {
                (x - 4, "end")
            } else {
                (x + 4, "start")
            };
            let _ = writeln!(
                svg,
                "<text x=\"{tx}\" y=\"{}\" fill=\"{colour}\" text-anchor=\"{anchor}\">{text}</text>",
                y + LINE * n
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// The frames of the first divergence and the departure, around the column at `x`.
fn frames(svg: &mut String, x: usize, step: usize, lanes_end: usize, marks: &Marks) {
    let height = lanes_end - TOP_STRIP;
    if marks.departed == Some(step) {
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d35400\" \
             stroke-width=\"2\"><title>your sink departs</title></rect>",
            x + 3,
            TOP_STRIP + 2,
            COLUMN - 6,
            height - 4
        );
    }
    if marks.divergence == Some(step) {
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{TOP_STRIP}\" width=\"{COLUMN}\" height=\"{height}\" fill=\"none\" \
             stroke=\"#c0392b\" stroke-width=\"2\"><title>first divergence</title></rect>"
        );
    }
}

fn colour(event: Event) -> &'static str {
    match event {
        Event::Write(_) => "#555",
        Event::Barrier(_) | Event::EndPreCommit(_) | Event::PreCommit(_) => "#2c6fbb",
        Event::Notified(_) | Event::EndCommit(_) | Event::Commit(_) => "#1e8449",
        Event::Unnotified(_) | Event::Abort(_) | Event::AbortOpen => "#c0392b",
    }
}

/// `text` in lines of at most [`CHARS`] characters, broken at spaces where it can be.
pub(super) fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let word: Vec<char> = word.chars().collect();
        for piece in word.chunks(CHARS) {
            let piece: String = piece.iter().collect();
            match lines.last_mut() {
                Some(line) if line.chars().count() + 1 + piece.chars().count() <= CHARS => {
                    line.push(' ');
                    line.push_str(&piece);
                }
                _ => lines.push(piece),
            }
        }
    }
    lines
}

/// `text` safe inside SVG and HTML.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
