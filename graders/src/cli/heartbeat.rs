//! A build that speaks: before cargo starts, what is built (and, on a first build, that it
//! takes a minute or two); while it runs, how long and how many crates are done, read
//! from the target folder's fingerprints (cargo's own output is captured for the report).
//! All on standard error, so reports on standard output stay as they are.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the progress line is refreshed on a terminal.
const TICK_TERMINAL: Duration = Duration::from_secs(1);
/// How often a progress line is written when standard error is a log, not a terminal.
const TICK_LOG: Duration = Duration::from_secs(10);
/// A warm build is over before this; only a longer one says that it is still going.
const QUIET_FOR: Duration = Duration::from_secs(2);

/// Speaks while alive; the progress line ends when it is dropped.
pub struct Heartbeat {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Heartbeat {
    /// Announces building `what` into `target` and starts the progress line.
    pub fn start(what: &str, target: PathBuf) -> Self {
        let first = !target.join("debug").join("deps").is_dir();
        if first {
            eprintln!(
                "byo: building {what} with cargo; the first build compiles every dependency \
                 and takes a minute or two"
            );
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let what = what.to_owned();
        let thread = std::thread::spawn(move || {
            let terminal = std::io::stderr().is_terminal();
            let tick = if terminal { TICK_TERMINAL } else { TICK_LOG };
            let started = Instant::now();
            let done_before = fingerprints(&target);
            let mut wrote = false;
            let mut wait = if first { tick } else { QUIET_FOR };
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                wait = tick;
                let done = fingerprints(&target).saturating_sub(done_before);
                let line = format!(
                    "byo: building {what}: {done} crate(s) compiled, {} s",
                    started.elapsed().as_secs()
                );
                let mut err = std::io::stderr().lock();
                if terminal {
                    let _ = write!(err, "\r\x1b[K{line}");
                } else {
                    let _ = writeln!(err, "{line}");
                }
                let _ = err.flush();
                wrote = true;
            }
            if wrote && terminal {
                eprint!("\r\x1b[K");
            }
        });
        Self {
            stop: Some(stop),
            thread: Some(thread),
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

/// Units cargo has finished in `target`'s debug profile: one fingerprint folder each.
fn fingerprints(target: &Path) -> usize {
    std::fs::read_dir(target.join("debug").join(".fingerprint"))
        .map(|entries| entries.count())
        .unwrap_or(0)
}
