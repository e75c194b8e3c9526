//! The launcher's voice, rule by rule: silent when warm, at once on a first run, a
//! rewritten line on a terminal, a line every few steps in a pipe, the truth at the end.

use std::time::Duration;

use super::Display;
use crate::cargo_says::{self, Said};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Feeds `line` as cargo wrote it.
fn feed(display: &mut Display, line: &str, at: u64) -> String {
    display.said(cargo_says::read(line), line, secs(at))
}

fn bar(done: usize, total: usize) -> String {
    format!("    Building [====>     ] {done}/{total}: serde, syn")
}

#[test]
fn a_warm_run_prints_nothing_at_all() {
    let mut display = Display::new(true, false);
    assert_eq!(display.start(), "");
    for artifact in 0..75 {
        display.artifact(true);
        assert_eq!(display.tick(secs(artifact)), "");
    }
    // A slow fresh check may show cargo's bar: still nothing to say.
    assert_eq!(feed(&mut display, &bar(74, 89), 1), "");
    assert_eq!(
        feed(
            &mut display,
            "    Finished `dev` profile [unoptimized] target(s) in 0.2s",
            1
        ),
        ""
    );
    assert_eq!(display.finish(true, secs(1)), "");
}

#[test]
fn a_first_run_in_a_pipe_speaks_at_once_then_every_few_steps() {
    let mut display = Display::new(false, true);
    assert_eq!(
        display.start(),
        "byo: building the kata's tools with cargo (first run only, a few minutes)\n"
    );
    assert_eq!(
        feed(&mut display, "   Compiling proc-macro2 v1.0.107", 0),
        ""
    );
    assert_eq!(
        feed(&mut display, &bar(0, 89), 1),
        "byo: 0 of 89 build steps, 1 s (compiling serde, syn)\n"
    );
    let mut lines = Vec::new();
    for done in 1..=25 {
        display.artifact(false);
        let out = feed(&mut display, &bar(done, 89), 2 + done as u64);
        if !out.is_empty() {
            lines.push(out);
        }
    }
    assert_eq!(
        lines,
        [
            "byo: 10 of 89 build steps, 12 s (compiling serde, syn)\n",
            "byo: 20 of 89 build steps, 22 s (compiling serde, syn)\n"
        ]
    );
    // One long compile: a line now and then, naming it, so the log does not look hung.
    let long = "    Building [=======>  ] 25/89: graders";
    assert_eq!(feed(&mut display, long, 29), "");
    assert_eq!(display.tick(secs(30)), "");
    assert_eq!(
        display.tick(secs(42)),
        "byo: 25 of 89 build steps, 42 s (compiling graders)\n"
    );
    assert_eq!(display.tick(secs(43)), "");
    // What the compiler says goes through as it is.
    assert_eq!(
        feed(&mut display, "warning: unused variable: `x`", 44),
        "warning: unused variable: `x`\n"
    );
    assert_eq!(
        display.finish(true, secs(200)),
        "byo: the kata's tools are built (25 crates compiled, 89 build steps, 200 s); \
         later runs skip this\n"
    );
}

#[test]
fn a_first_run_on_a_terminal_says_what_it_does_then_rewrites_one_line() {
    let mut display = Display::new(true, true);
    assert_eq!(
        display.start(),
        "byo: building the kata's tools with cargo (first run only, a few minutes)\n\
         \r\x1b[Kbyo: starting cargo, 0 s"
    );
    assert_eq!(
        feed(&mut display, &bar(3, 89), 2),
        "\r\x1b[Kbyo: 3 of 89 build steps, 2 s (compiling serde, syn)"
    );
    assert_eq!(
        display.tick(secs(3)),
        "\r\x1b[Kbyo: 3 of 89 build steps, 3 s (compiling serde, syn)"
    );
    // A diagnostic goes above the line, which is drawn again under it.
    assert_eq!(
        feed(&mut display, "warning: unused import", 4),
        "\r\x1b[Kwarning: unused import\n\r\x1b[Kbyo: 3 of 89 build steps, 4 s (compiling serde, syn)"
    );
    // The line never wraps: what compiles is cut to fit one row.
    let many = "    Building [=>   ] 4/89: proc-macro2(build), quote(build.rs), serde_core(build.rs), libc";
    let line = feed(&mut display, many, 5);
    assert_eq!(line.chars().count(), "\r\x1b[K".len() + 79, "{line}");
    assert!(
        line.starts_with("\r\x1b[Kbyo: 4 of 89 build steps, 5 s (compiling proc-macro2(build)")
    );
    assert!(line.ends_with('…'), "{line}");
    display.artifact(false);
    assert_eq!(
        display.finish(true, secs(90)),
        "\r\x1b[Kbyo: the kata's tools are built (1 crate compiled, 89 build steps, 90 s); \
         later runs skip this\n"
    );
}

#[test]
fn a_rebuild_speaks_once_cargo_compiles_and_says_it_rebuilt() {
    let mut display = Display::new(false, false);
    assert_eq!(display.start(), "");
    assert_eq!(feed(&mut display, &bar(0, 89), 0), "");
    assert_eq!(
        feed(&mut display, "   Compiling graders v0.1.0 (/k/graders)", 1),
        "byo: rebuilding the kata's tools with cargo\n"
    );
    display.artifact(false);
    assert_eq!(
        feed(&mut display, &bar(88, 89), 30),
        "byo: 88 of 89 build steps, 30 s (compiling serde, syn)\n"
    );
    assert_eq!(
        display.finish(true, secs(31)),
        "byo: the kata's tools are rebuilt (1 crate compiled, 89 build steps, 31 s)\n"
    );
}

#[test]
fn downloads_and_a_held_lock_are_named_while_they_last() {
    let mut display = Display::new(false, true);
    display.start();
    assert_eq!(
        feed(&mut display, " Downloading crates ...", 0),
        "byo: downloading crates (0 so far), 0 s\n"
    );
    assert_eq!(feed(&mut display, "  Downloaded anyhow v1.0.105", 1), "");
    assert_eq!(
        display.tick(secs(25)),
        "byo: downloading crates (1 so far), 25 s\n"
    );
    assert_eq!(
        feed(
            &mut display,
            "    Blocking waiting for file lock on build directory",
            26
        ),
        "byo: waiting for another cargo to finish with the build folder, 26 s\n"
    );
}

#[test]
fn a_failed_build_says_so_under_cargo_s_errors() {
    let mut display = Display::new(false, true);
    display.start();
    let error = "error: could not compile `graders` (lib) due to 1 previous error";
    assert_eq!(
        display.said(Said::Text, error, secs(5)),
        format!("{error}\n")
    );
    assert_eq!(
        display.finish(false, secs(5)),
        "byo: cargo could not build the kata's tools (its messages are above)\n"
    );
    // A run that never compiled (a broken manifest) leaves cargo's error alone.
    let mut warm = Display::new(false, false);
    assert_eq!(warm.said(Said::Text, error, secs(0)), format!("{error}\n"));
    assert_eq!(warm.finish(false, secs(0)), "");
}
