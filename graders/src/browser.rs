//! A real browser for the tests of the pages `byo` writes: Debian's headless `chromium`,
//! with the network off and a fresh profile, run on a file.

use std::path::Path;
use std::process::{Command, Output};

const CHROMIUM: &str = "chromium";

/// Whether there is a `chromium` to run; where there is none the caller skips, unless
/// `BYO_BROWSER_REQUIRED` is set (CI), which makes that a failure.
pub(crate) fn available(what: &str) -> bool {
    if Command::new(CHROMIUM).arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("BYO_BROWSER_REQUIRED").is_none(),
        "BYO_BROWSER_REQUIRED is set, but there is no `chromium`"
    );
    eprintln!("SKIPPED: no chromium to draw {what}");
    false
}

/// Loads `page` in a window of `width` × `height` pixels, with `extra` arguments
/// (`--dump-dom`, `--screenshot=...`); panics unless the browser succeeds.
pub(crate) fn run(page: &Path, (width, height): (u32, u32), extra: &[&str]) -> Output {
    let profile = tempfile::tempdir().expect("a profile folder");
    let out = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "{out:?}");
    out
}

/// A scratch folder beside the build (a template built into another target folder has
/// no `target/` of its own, so it is made), and the build's `target/` for screenshots.
pub(crate) fn scratch() -> (tempfile::TempDir, std::path::PathBuf) {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    std::fs::create_dir_all(&target).expect("the target folder");
    (
        tempfile::tempdir_in(&target).expect("a scratch folder"),
        target,
    )
}

/// A page that shows `page` in a frame of exactly `width` × `height` CSS pixels, the
/// frame sharing its origin so that a script in `page` can write to this page. Headless
/// Chromium makes no window narrower than 500 px, so a phone's width is a frame's.
pub(crate) fn framed(page: &str, (width, height): (u32, u32)) -> String {
    let source = page.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">\
         <iframe style=\"width:{width}px;height:{height}px;border:0;display:block\" \
         srcdoc=\"{source}\"></iframe></body></html>"
    )
}
