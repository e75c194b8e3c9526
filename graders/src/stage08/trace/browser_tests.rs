//! `byo trace 08 --html` in a real browser, at a laptop's and a phone's width: every step
//! of the schedule is on screen, none past the window's right edge, nothing to scroll
//! sideways. Screenshots are left in `target/trace-<width>.png`, to look at.

use super::schedule::Trace;
use super::svg::render_html;
use crate::browser;
use crate::harness::driver::DEFAULT_SEED;

/// Measures the drawn page from inside its frame and writes the figures on the framing
/// page: the page's width against the width it has, how many step labels are shown (in
/// the tier the width picks) and the rightmost edge of any of them.
const MEASURE: &str = "<script>\
    const shown = [...document.querySelectorAll('text.step')]\
        .filter(t => t.getBoundingClientRect().width > 0);\
    const right = Math.max(0, ...shown.map(t => t.getBoundingClientRect().right));\
    const root = document.documentElement;\
    parent.document.body.dataset.measured = [root.scrollWidth, root.clientWidth,\
        shown.length, Math.ceil(right)].join(' ');\
    </script></body>";

#[test]
fn every_step_is_on_screen_at_a_laptop_s_and_a_phone_s_width() {
    if !browser::available("the trace page") {
        return;
    }
    let (dir, target) = browser::scratch();
    let trace = Trace {
        records: 12,
        barrier_every: 3,
        crash_after: Some(7),
        lag: 1,
        seed: DEFAULT_SEED,
    };
    let html = render_html(&trace, None).expect("a schedule that can be drawn");
    let steps = html.matches("class=\"step\"").count() / super::svg::TIERS.len();
    let measured = html.replace("</body>", MEASURE);
    for width in [1400, 390] {
        let page = dir.path().join(format!("trace-{width}.html"));
        let frame = (width, 900);
        std::fs::write(&page, browser::framed(&measured, frame)).expect("written");
        let window = (width.max(500) + 20, 920);
        let dom = browser::run(&page, window, &["--dump-dom"]).stdout;
        let dom = String::from_utf8_lossy(&dom);
        let at = dom.find("data-measured=\"").expect("the script ran") + 15;
        let figures: Vec<u32> = dom[at..at + dom[at..].find('"').unwrap()]
            .split(' ')
            .map(|n| n.parse().expect("a number"))
            .collect();
        let [scroll, room, shown, right] = figures[..] else {
            panic!("four figures: {figures:?}");
        };
        assert!(scroll <= room, "at {width} px the page is {scroll} px wide");
        assert_eq!(shown as usize, steps, "at {width} px every step once");
        assert!(right <= room, "at {width} px a step ends at {right} px");
        let png = target.join(format!("trace-{width}.png"));
        browser::run(&page, window, &[&format!("--screenshot={}", png.display())]);
        assert!(std::fs::metadata(&png).is_ok_and(|m| m.len() > 0));
    }
}
