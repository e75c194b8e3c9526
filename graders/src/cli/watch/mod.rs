//! `byo watch [NN]`: judge the current stage again each time its sources are saved, on a
//! cleared screen, until the learner presses `q` (or Ctrl-C).
//!
//! The loop ([`watch`]) knows nothing of cargo or judging: it waits for a save, lets
//! the burst of events an editor makes settle ([`DEBOUNCE`]), and calls back. The
//! verdict shown is the stage's summary and its first failing check only: the whole
//! report is one `just test` away.

mod keys;

use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use anyhow::{Context, Result};
use notify::{EventKind, RecursiveMode, Watcher};

use super::outcome::render_outcome;
use super::pipeline::{Batch, Pipeline, StageOutcome};
use super::progress::Progress;
use super::workspace::Root;
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::supervisor::Limits;
use crate::report::{self, Replay, Style};
use crate::stages::{self, StageInfo};

pub use keys::restore_terminal;

/// How long the sources must stay quiet after a save before judging: an editor's save
/// is several events (write, rename, chmod), and a formatter on save adds more.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// What wakes the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// A file under the watched folder changed.
    Saved,
    /// The learner asked to stop (`q`).
    Quit,
}

pub(super) fn run(root: &Root, named: Option<u8>) -> Result<ExitCode> {
    let number = named.unwrap_or_else(|| {
        Progress::load(root)
            .map(|p| p.current_or_first())
            .unwrap_or(1)
    });
    let stage = stages::get(number).context("the parser only accepts stages on the ladder")?;
    let src = root.stage_dir(stage).join("src");
    let (wakes, inbox) = mpsc::channel();
    let _watcher = watch_sources(&src, wakes.clone())?;
    keys::listen(wakes);
    let style = Style::detect();
    let clear = std::io::IsTerminal::is_terminal(&std::io::stdout());
    watch(&inbox, || {
        let shown = judge_once(root, stage, &style);
        let header = format!(
            "byo watch: {} ({}); save a file to judge again, q to quit",
            stages::title(number),
            src.strip_prefix(root.path()).unwrap_or(&src).display()
        );
        if clear {
            // Clear the screen and move home, as `clear` does.
            print!("\x1b[2J\x1b[H");
        } else {
            println!("────");
        }
        println!("{}\n{shown}", style.dim(&header));
    });
    keys::restore_terminal();
    Ok(ExitCode::SUCCESS)
}

/// Calls `judge` once, then again after each settled burst of saves, until [`Wake::Quit`]
/// (or every sender is gone).
pub fn watch(inbox: &Receiver<Wake>, mut judge: impl FnMut()) {
    judge();
    while let Ok(Wake::Saved) = inbox.recv() {
        // Wait for quiet: every further save restarts the wait.
        loop {
            match inbox.recv_timeout(DEBOUNCE) {
                Ok(Wake::Saved) => {}
                Ok(Wake::Quit) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        judge();
    }
}

/// Sends [`Wake::Saved`] for each change under `src` (reads and opens are not changes).
///
/// # Errors
/// When the folder cannot be watched (missing, or the system's watch limit reached).
pub fn watch_sources(src: &Path, wakes: Sender<Wake>) -> Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && !matches!(event.kind, EventKind::Access(_))
        {
            let _ = wakes.send(Wake::Saved);
        }
    })
    .context("starting the file watcher")?;
    watcher
        .watch(src, RecursiveMode::Recursive)
        .with_context(|| format!("watching {}", src.display()))?;
    Ok(watcher)
}

/// Builds and judges `stage`, and renders its verdict with the first failing check only.
fn judge_once(root: &Root, stage: &'static StageInfo, style: &Style) -> String {
    let pipeline = Pipeline::new(root.path()).speaking();
    let selected = [stage];
    let run = pipeline
        .ladder(
            &selected,
            DEFAULT_SEED,
            None,
            Limits::default(),
            Batch::Together,
            &|_| {},
        )
        .next();
    match run {
        Some(Ok(run)) => {
            let mut text = match &run.outcome {
                StageOutcome::Judged(report) => first_failure(report, style),
                other => render_outcome(stage, other, style),
            };
            text.push_str(&super::next_step::after(stage, &run, style));
            text
        }
        Some(Err(e)) => format!("error: {e:#}\n"),
        None => String::new(),
    }
}

/// The summary line of `report` and its first failing check (smallest case first).
fn first_failure(report: &crate::harness::StageReport, style: &Style) -> String {
    let failures = report.failures();
    let mut text = report::summary_line(report, style);
    text.push('\n');
    let Some((first, _)) = failures.first() else {
        return text;
    };
    let mut only = report.clone();
    for check in &mut only.checks {
        if check.name != first.name {
            check.first_failure = None;
        }
    }
    let rendered = report::render(&only, style, &Replay::default());
    text.extend(rendered.lines().skip(1).map(|l| format!("{l}\n")));
    if failures.len() > 1 {
        text.push_str(&format!(
            "  {}\n",
            style.dim(&format!(
                "and {} more failing check(s): `just test` shows them all",
                failures.len() - 1
            ))
        ));
    }
    text
}

#[cfg(test)]
mod tests;
