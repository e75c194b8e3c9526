//! The picture against the text trace it draws, and in a real browser at a laptop's and
//! a phone's width.

use super::super::super::binding::SpyCall;
use super::super::super::run_result::RunResult;
use super::super::band::{width, wrap};
use super::super::columns::Boundary;
use super::super::events::events;
use super::super::{render, unpainted};
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

/// The text between `<div class="tier tN"` and its end.
fn tier(html: &str, per_band: usize) -> &str {
    let start = html
        .find(&format!("<div class=\"tier t{per_band}\""))
        .expect("the tier");
    let end = start + html[start..].find("</div>").expect("its end");
    &html[start..end]
}

fn calls(trace: &Trace) -> Vec<Vec<SpyCall>> {
    reference_calls(&input(trace.seed, trace.records), trace.schedule())
}

#[test]
fn every_tier_draws_every_call_under_the_text_trace_s_labels_and_header() {
    let a = args(4, 2, Some(3), 1);
    let html = render_html(&a, None).unwrap();
    let text = render(&a, None, &unpainted);
    assert!(html.starts_with("<!doctype html>") && html.ends_with("</html>\n"));
    assert!(html.contains("<meta name=\"viewport\""));
    for line in text.lines().take(2) {
        assert!(
            html.contains(&format!("<p class=\"header\">{line}</p>")),
            "{line}"
        );
    }
    let sinks = calls(&a);
    let events: Vec<_> = events(a.records, a.schedule(), &sinks)
        .concat()
        .into_iter()
        .collect();
    for (per_band, _) in TIERS {
        let tier = tier(&html, per_band);
        assert_eq!(tier.matches("class=\"step\"").count(), events.len());
        assert_eq!(
            tier.matches("<svg ").count(),
            events.len().div_ceil(per_band)
        );
        for (step, event) in events.iter().enumerate() {
            let (mark, kind, call) = event.parts();
            assert!(text.contains(&event.label()), "the text has {event:?}");
            assert!(tier.contains(&format!(">{mark} {call}</text>")), "{call}");
            if let Some(kind) = kind {
                assert!(tier.contains(&format!(">{kind}:</text>")), "{kind}");
            }
            assert!(tier.contains(&format!(">step {}</text>", step + 1)));
        }
        assert_eq!(tier.matches(">✗ crash after record 3</text>").count(), 1);
        assert_eq!(tier.matches(">↻ recovery: fresh sink #2</text>").count(), 1);
        assert_eq!(tier.matches(">replay from offset 0</text>").count(), 1);
        assert!(tier.contains(">offset</text>"));
    }
    assert!(
        html.matches("http://").count() == html.matches("<svg ").count(),
        "no network but the SVG namespace"
    );
}

#[test]
fn the_crash_falls_before_the_dead_sink_s_aborts_and_the_recovery_before_the_fresh_sink() {
    let a = args(4, 2, Some(3), 1);
    let sinks = calls(&a);
    let columns = columns(a.records, a.schedule(), &sinks, None);
    // As the text: write, write, barrier, write, CRASH, abort_open, abort, RECOVERY, ...
    assert_eq!(
        boundaries(&columns, a.schedule()),
        [
            (4, Boundary::Crash { after_record: 3 }),
            (6, Boundary::Recovery { sink: 2, offset: 0 })
        ]
    );
    assert_eq!(
        columns.iter().map(|c| c.offset).collect::<Vec<_>>(),
        [1, 2, 2, 3, 3, 3, 1, 2, 2, 3, 4, 4, 4, 4, 4, 4],
        "the text trace's offset column"
    );
    let calm = args(4, 2, None, 1);
    let columns = super::columns(calm.records, calm.schedule(), &calls(&calm), None);
    assert!(boundaries(&columns, calm.schedule()).is_empty());
}

#[test]
fn long_cells_wrap_within_their_column_and_bands_fit_their_window() {
    assert_eq!(wrap("[1, 0, 0, 3]"), ["[1, 0, 0, 3]"]);
    assert_eq!(
        wrap("[10, 11, 12, 13, 14, 15]"),
        ["[10, 11, 12, 13,", "14, 15]"]
    );
    assert_eq!(wrap("c12345678901234567"), ["c123456789012345", "67"]);
    let a = args(60, 7, Some(40), 2);
    let html = render_html(&a, None).unwrap();
    for chunk in html.split("</text>") {
        let Some(open) = chunk.rfind("<text") else {
            continue;
        };
        let text = &chunk[open + chunk[open..].find('>').unwrap() + 1..];
        let long = text.contains("crash") || text.contains("recovery") || text.contains("replay");
        assert!(long || text.chars().count() <= 16, "{text}");
    }
    for (per_band, from) in TIERS {
        let tier = tier(&html, per_band);
        for width in tier.split("<svg ").skip(1).map(|svg| {
            let at = svg.find("width=\"").unwrap() + 7;
            svg[at..at + svg[at..].find('"').unwrap()]
                .parse::<usize>()
                .unwrap()
        }) {
            assert!(width <= self::width(per_band));
            // The page's margins (2 × 24 px) and a scrollbar (15 px) beside the band.
            assert!(from == 0 || width + 48 + 15 <= from, "{width} in {from}");
        }
    }
}

#[test]
fn the_learner_s_run_is_drawn_beside_with_the_divergence_framed() {
    let a = args(4, 2, Some(3), 0);
    let mut sinks = calls(&a);
    sinks[1].remove(0);
    let mine = SpiedRun {
        result: RunResult::Output(Vec::new()),
        sinks,
        order: Vec::new(),
        own: None,
    };
    let html = render_html(&a, Some(&mine)).unwrap();
    assert_eq!(
        html.matches("<title>first divergence</title>").count(),
        2 * TIERS.len(),
        "in both runs, in every tier"
    );
    assert!(html.contains("First divergence at step"));
    assert!(html.contains("<h2>yours (your job, your sink)</h2>"));
    assert_eq!(
        render_html(&args(3, 0, None, 0), None),
        Err(Unfit::NoBarrierInterval)
    );
}
