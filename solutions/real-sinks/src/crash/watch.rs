//! Watching one run: its phase markers as they arrive (copied into the job's log), the
//! lengths of the places it passes through, and the kill when its moment comes.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStderr};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::aim::{Aims, Kill};
use super::landing::Tracker;

/// How a watched run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It exited by itself, successfully.
    Exited,
    /// It was killed this long after its start.
    Killed(Duration),
}

/// Watches `child` (whose stderr is `stderr`, copied line by line into `log`) until it
/// exits or `kill` says to SIGKILL it; a run that restores a checkpoint is `restores`.
/// The lengths of the places it passed through go to `aims`.
///
/// # Errors
/// When the run fails by itself (not by our kill), or it cannot be waited for.
pub fn watch(
    child: &mut Child,
    stderr: ChildStderr,
    mut log: File,
    kill: Kill,
    restores: bool,
    aims: &mut Aims,
) -> Result<Ended> {
    let (lines, arrivals) = mpsc::channel();
    let copier = thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            // The log is the record the landing is read from: written before it is seen.
            let _ = writeln!(log, "{line}");
            let _ = lines.send((Instant::now(), line));
        }
    });
    let start = Instant::now();
    let mut deadline = match kill {
        Kill::After(delay) => Some(start + delay),
        Kill::Never | Kill::Aimed { .. } => None,
    };
    let mut tracker = Tracker::new(restores);
    let mut entered = (tracker.landing(), start);
    let mut closed = false;
    loop {
        match arrivals.recv_timeout(Duration::from_millis(1)) {
            Ok((at, line)) => {
                tracker.feed(&line);
                let now = tracker.landing();
                if now != entered.0 {
                    aims.observe(entered.0, at - entered.1);
                    entered = (now, at);
                    if let Kill::Aimed { landing, extra } = kill
                        && landing == now
                        && deadline.is_none()
                    {
                        deadline = Some(at + extra);
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // Stderr closed: the run is exiting; only its status is left to see.
            Err(RecvTimeoutError::Disconnected) if !closed => closed = true,
            Err(RecvTimeoutError::Disconnected) => thread::sleep(Duration::from_millis(1)),
        }
        if deadline.is_some_and(|at| Instant::now() >= at) {
            // std's kill is SIGKILL on unix: no handler, no flush, no destructor runs.
            child.kill()?;
            child.wait()?;
            let after = start.elapsed();
            copier.join().ok().context("the log copier panicked")?;
            return Ok(Ended::Killed(after));
        }
        if let Some(status) = child.try_wait()? {
            copier.join().ok().context("the log copier panicked")?;
            if !status.success() {
                bail!("the pipeline failed by itself ({status}), not by a kill");
            }
            return Ok(Ended::Exited);
        }
    }
}
