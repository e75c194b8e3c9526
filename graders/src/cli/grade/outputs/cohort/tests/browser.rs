//! `cohort.html` in a real browser (Debian's headless `chromium`, the network off), at a
//! phone's width and a laptop's: the page runs its script to the end and never scrolls
//! sideways; at the phone's width the wide tables scroll inside their own boxes, at the
//! laptop's they fit whole. Screenshots are left in `target/cohort-<width>.png`, to look
//! at. Skipped where there is no `chromium`, unless `BYO_BROWSER_REQUIRED` is set.

use super::super::findings::Findings;
use super::super::html::page;
use super::fixture::wide_cohort;
use crate::browser;

/// Measures the page from inside its frame, after the page's own script, and writes the
/// figures on the framing page: the page's width against the width it has, how many
/// table boxes there are and how many of them scroll, how many sortable tables the
/// page's script set up, and how many links to a report there are.
const MEASURE: &str = "<script>\
    const root = document.documentElement;\
    const boxes = [...document.querySelectorAll('div.scroll')];\
    const scrolling = boxes.filter(b => b.scrollWidth > b.clientWidth).length;\
    const links = document.querySelectorAll('td a[href$=\"/report.md\"]').length;\
    parent.document.body.dataset.measured = [root.scrollWidth, root.clientWidth,\
        boxes.length, scrolling, document.body.dataset.sortableTables || -1, links].join(' ');\
    </script></body>";

#[test]
fn the_page_fits_a_phone_and_a_laptop_without_scrolling_sideways() {
    if !browser::available("cohort.html") {
        return;
    }
    let (dir, target) = browser::scratch();
    let reports = wide_cohort();
    let text = page(&Findings::gather(&reports));
    let sortable = text.matches("<table class=\"sortable").count();
    assert_eq!(
        sortable, 5,
        "submissions, heatmap, misconceptions, anomalies, copies"
    );
    let tables = text.matches("<table").count();
    let measured = text.replace("</body>", MEASURE);
    for width in [390, 1400] {
        let page = dir.path().join(format!("cohort-{width}.html"));
        let frame = (width, 3000);
        std::fs::write(&page, browser::framed(&measured, frame)).expect("written");
        let window = (width.max(500) + 20, 3020);
        let dom = browser::run(&page, window, &["--dump-dom"]).stdout;
        let dom = String::from_utf8_lossy(&dom);
        let at = dom.find("data-measured=\"").expect("the script ran") + 15;
        let figures: Vec<i64> = dom[at..at + dom[at..].find('"').unwrap()]
            .split(' ')
            .map(|n| n.parse().expect("a number"))
            .collect();
        let [scroll, room, boxes, scrolling, set_up, links] = figures[..] else {
            panic!("six figures: {figures:?}");
        };
        // The frame's width, less its vertical scrollbar's.
        let width = i64::from(width);
        assert!(
            (width - 20..=width).contains(&room),
            "{room} px in a {width} px frame"
        );
        assert!(
            scroll <= room,
            "at {width} px the page is {scroll} px wide: it scrolls sideways"
        );
        assert_eq!(boxes as usize, tables, "every table in a box of its own");
        assert_eq!(
            set_up as usize, sortable,
            "the page's script ran to its end"
        );
        // Two tables (the gradebook and the heatmap) have a row per submission.
        assert_eq!(links as usize, 2 * reports.len(), "a link per row");
        if width < 500 {
            // The heatmap and the gradebook are wider than a phone: they scroll in their
            // boxes, which is what keeps the page from scrolling.
            assert!(scrolling >= 2, "at {width} px {scrolling} box(es) scroll");
        } else {
            assert_eq!(scrolling, 0, "at {width} px every table fits whole");
        }
        let png = target.join(format!("cohort-{width}.png"));
        let _ = std::fs::remove_file(&png);
        browser::run(&page, window, &[&format!("--screenshot={}", png.display())]);
        assert!(std::fs::metadata(&png).is_ok_and(|m| m.len() > 0));
    }
}
