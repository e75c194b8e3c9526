//! `cohort.html` in a real browser.

use super::super::findings::Findings;
use super::super::html::page;
use super::fixture::cohort;
use crate::browser;

/// A real browser (Debian's headless `chromium`) loads the page with the network off,
/// runs its script to the end, and draws it: `target/cohort.png`, to look at. Skipped
/// where there is no `chromium`, unless `BYO_BROWSER_REQUIRED` is set.
#[test]
fn a_real_browser_runs_and_draws_the_page() {
    if !browser::available("cohort.html") {
        return;
    }
    let (dir, target) = browser::scratch();
    let html = dir.path().join("cohort.html");
    let text = page(&Findings::gather(&cohort()));
    let sortable = text.matches("<table class=\"sortable").count();
    assert_eq!(
        sortable, 5,
        "submissions, heatmap, misconceptions, anomalies, copies"
    );
    std::fs::write(&html, text).expect("written");
    let window = (1400, 1000);
    let dom =
        String::from_utf8_lossy(&browser::run(&html, window, &["--dump-dom"]).stdout).into_owned();
    assert!(
        dom.contains(&format!("data-sortable-tables=\"{sortable}\"")),
        "the script did not run to its end: {dom}"
    );
    let png = target.join("cohort.png");
    let _ = std::fs::remove_file(&png);
    browser::run(&html, window, &[&format!("--screenshot={}", png.display())]);
    let bytes = std::fs::read(&png).expect("a screenshot");
    // PNG: the signature, then IHDR's width and height.
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let size = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    assert_eq!((size(16), size(20)), (1400, 1000));
}
