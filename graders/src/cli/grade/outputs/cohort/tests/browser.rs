//! `cohort.html` in a real browser.

use super::super::findings::Findings;
use super::super::html::page;
use super::fixture::cohort;

/// A real browser (Debian's headless `chromium`) loads the page with the network off,
/// runs its script to the end, and draws it: `target/cohort.png`, to look at. Skipped
/// where there is no `chromium`, unless `BYO_BROWSER_REQUIRED` is set.
#[test]
fn a_real_browser_runs_and_draws_the_page() {
    let chromium = "chromium";
    if std::process::Command::new(chromium)
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("BYO_BROWSER_REQUIRED").is_none(),
            "BYO_BROWSER_REQUIRED is set, but there is no `chromium`"
        );
        eprintln!("SKIPPED: no chromium to draw cohort.html");
        return;
    }
    // Beside the build, or made (a template built into another target folder has none).
    let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    std::fs::create_dir_all(&target).expect("the target folder");
    let dir = tempfile::tempdir_in(&target).expect("a scratch folder");
    let html = dir.path().join("cohort.html");
    let text = page(&Findings::gather(&cohort()));
    let sortable = text.matches("<table class=\"sortable").count();
    assert_eq!(
        sortable, 5,
        "submissions, heatmap, misconceptions, anomalies, copies"
    );
    std::fs::write(&html, text).expect("written");
    let url = format!("file://{}", html.display());
    let run = |extra: &[&str]| {
        let profile = tempfile::tempdir().expect("a profile folder");
        let out = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1400,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(&url)
            .output()
            .expect("chromium runs");
        assert!(out.status.success(), "{out:?}");
        out
    };
    let dom = String::from_utf8_lossy(&run(&["--dump-dom"]).stdout).into_owned();
    assert!(
        dom.contains(&format!("data-sortable-tables=\"{sortable}\"")),
        "the script did not run to its end: {dom}"
    );
    let png = target.join("cohort.png");
    let _ = std::fs::remove_file(&png);
    run(&[&format!("--screenshot={}", png.display())]);
    let bytes = std::fs::read(&png).expect("a screenshot");
    // PNG: the signature, then IHDR's width and height.
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let size = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    assert_eq!((size(16), size(20)), (1400, 1000));
}
