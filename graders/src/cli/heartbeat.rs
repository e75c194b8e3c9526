//! A build that speaks: on a first build (an empty target folder), at once, that it
//! compiles every dependency; when cargo takes longer than a warm build does, how long it
//! has been and how many crates it has compiled, counted from cargo's own JSON messages
//! as they arrive (a `compiler-artifact` that is not `fresh`: a crate compiled in this
//! run, the learner's included); and once it is over, the count it ended with. All on
//! standard error, so reports on standard output stay as they are.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// How often the progress line is refreshed on a terminal.
const TICK_TERMINAL: Duration = Duration::from_secs(1);
/// How often a progress line is written when standard error is a log, not a terminal.
const TICK_LOG: Duration = Duration::from_secs(10);
/// A warm build is over before this; only a longer one says that it is still going.
const QUIET_FOR: Duration = Duration::from_secs(2);

/// Speaks while alive; the progress line ends when it is dropped.
pub struct Heartbeat {
    compiled: Arc<AtomicUsize>,
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    /// Starts the progress line of building `what` into the target folder `target`: at
    /// once when that folder is empty, else only once the build outlasts a warm one.
    pub fn start(what: &str, target: &Path) -> Self {
        let first = !target.join("debug").join("deps").is_dir();
        let terminal = std::io::stderr().is_terminal();
        if first {
            let line = format!(
                "byo: building {what} with cargo; the first build compiles every dependency \
                 and takes a minute or two"
            );
            speak(&line, terminal, true);
        }
        let compiled = Arc::new(AtomicUsize::new(0));
        let (stop, stopped) = mpsc::channel::<()>();
        let (what, count) = (what.to_owned(), Arc::clone(&compiled));
        let thread = std::thread::spawn(move || {
            let tick = if terminal { TICK_TERMINAL } else { TICK_LOG };
            let started = Instant::now();
            let mut wrote = first;
            let mut wait = if first { tick } else { QUIET_FOR };
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                wait = tick;
                let line = format!(
                    "byo: building {what} with cargo: {} compiled so far, {} s",
                    crates(count.load(Ordering::Relaxed)),
                    started.elapsed().as_secs()
                );
                speak(&line, terminal, false);
                wrote = true;
            }
            if wrote {
                let line = format!(
                    "byo: cargo is done with {what}: {} compiled, {} s",
                    crates(count.load(Ordering::Relaxed)),
                    started.elapsed().as_secs()
                );
                speak(&line, terminal, true);
            }
        });
        Self {
            compiled,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Reads one line of cargo's standard output (`--message-format=json...`).
    pub fn saw(&self, line: &str) {
        if compiled_a_crate(line) {
            self.compiled.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Writes `line` on standard error: on a terminal in place of the last one (and, when
/// it is the `last`, ending it), in a log as a line of its own.
fn speak(line: &str, terminal: bool, last: bool) {
    let mut err = std::io::stderr().lock();
    let _ = match (terminal, last) {
        (true, false) => write!(err, "\r\x1b[K{line}"),
        (true, true) => writeln!(err, "\r\x1b[K{line}"),
        (false, _) => writeln!(err, "{line}"),
    };
    let _ = err.flush();
}

/// `1 crate`, `3 crates`.
fn crates(n: usize) -> String {
    format!("{n} crate{}", if n == 1 { "" } else { "s" })
}

/// One of cargo's JSON messages, as far as counting goes.
#[derive(Deserialize)]
struct Message {
    reason: String,
    #[serde(default)]
    fresh: bool,
}

/// Whether `line` is cargo's message that it compiled a crate in this run (a crate it
/// found already built is `fresh`).
fn compiled_a_crate(line: &str) -> bool {
    serde_json::from_str::<Message>(line).is_ok_and(|m| m.reason == "compiler-artifact" && !m.fresh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_crate_compiled_in_this_run_counts() {
        let compiled = r#"{"reason":"compiler-artifact","package_id":"path+file:///k/stages/01-dataflow#stage01@0.1.0","target":{"name":"stage01"},"fresh":false}"#;
        let fresh = r#"{"reason":"compiler-artifact","target":{"name":"serde"},"fresh":true}"#;
        let others = [
            r#"{"reason":"build-script-executed","package_id":"serde"}"#,
            r#"{"reason":"build-finished","success":true}"#,
            "   Compiling stage01 v0.1.0",
            "",
        ];
        assert!(compiled_a_crate(compiled));
        assert!(!compiled_a_crate(fresh));
        for line in others {
            assert!(!compiled_a_crate(line), "{line}");
        }
    }
}
