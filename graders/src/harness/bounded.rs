//! A trusted tool (cargo) working on untrusted sources, run to its end with a wall limit
//! and bounded output: a submission's constant whose evaluation never ends, or a macro
//! that expands forever, costs the build its time limit, and a flood of output is cut
//! short, not kept.

use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::capture::Event;
use super::process::{kill, kill_group, lead_group, watch};
use super::supervisor::Confinement;

/// How a bounded run ended.
#[derive(Debug)]
pub struct BoundedRun {
    /// The exit status; `None` when the wall limit ran out and the run was killed.
    pub status: Option<ExitStatus>,
    /// Standard output, line by line (each line bounded).
    pub stdout: Vec<String>,
    /// The start of standard error, at most [`STDERR_KEPT`] bytes.
    pub stderr: String,
}

/// How much of a tool's standard error is kept: compiler errors come first.
pub const STDERR_KEPT: usize = 256 << 10;

/// The most standard-output lines kept (cargo prints one JSON line per artifact).
const STDOUT_LINES: usize = 100_000;

/// Runs `command` inside `confinement` with `limit` of wall time, keeping bounded output.
///
/// # Errors
/// When the command cannot be started.
pub fn run_bounded(
    command: Command,
    limit: Duration,
    confinement: &dyn Confinement,
) -> Result<BoundedRun> {
    run_bounded_watching(command, limit, confinement, &|_| {})
}

/// [`run_bounded`], showing `on_line` each line of standard output as it arrives (cargo's
/// JSON messages, which say what it has compiled so far).
///
/// # Errors
/// When the command cannot be started.
pub fn run_bounded_watching(
    command: Command,
    limit: Duration,
    confinement: &dyn Confinement,
    on_line: &dyn Fn(&str),
) -> Result<BoundedRun> {
    let mut command = confinement.confine(command);
    lead_group(&mut command);
    let program = command.get_program().to_string_lossy().into_owned();
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting `{program}`"))?;
    let (pid, inbox) = watch(child);
    let deadline = Instant::now() + limit;
    let mut run = BoundedRun {
        status: None,
        stdout: Vec::new(),
        stderr: String::new(),
    };
    let (mut stdout_open, mut stderr_open) = (true, true);
    while run.status.is_none() || stdout_open || stderr_open {
        let wait = deadline.saturating_duration_since(Instant::now());
        match inbox.recv_timeout(wait) {
            Ok(Event::Stdout(line)) => {
                on_line(&line);
                if run.stdout.len() < STDOUT_LINES {
                    run.stdout.push(line);
                }
            }
            Ok(Event::Stderr(line)) if run.stderr.len() < STDERR_KEPT => {
                run.stderr.push_str(&line);
                run.stderr.push('\n');
            }
            Ok(Event::Stderr(_)) => {}
            Ok(Event::StdoutClosed) => stdout_open = false,
            Ok(Event::StderrClosed) => stderr_open = false,
            Ok(Event::Exited(status)) => run.status = Some(status),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                if run.status.is_none() {
                    kill(pid);
                    run.status = None;
                }
                break;
            }
        }
    }
    kill_group(pid);
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::supervisor::Unconfined;

    #[test]
    fn a_run_past_its_wall_limit_is_killed_with_its_descendants() {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg("echo started; sleep 1000 & sleep 1000; echo never");
        let started = Instant::now();
        let run = run_bounded(command, Duration::from_millis(500), &Unconfined).expect("sh runs");
        assert!(run.status.is_none(), "timed out");
        assert_eq!(run.stdout, ["started"]);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_run_within_its_limit_reports_its_status_and_output() {
        let mut command = Command::new("sh");
        command.arg("-c").arg("echo out; echo err >&2; exit 3");
        let run = run_bounded(command, Duration::from_secs(30), &Unconfined).expect("sh runs");
        assert_eq!(run.status.and_then(|s| s.code()), Some(3));
        assert_eq!(run.stdout, ["out"]);
        assert_eq!(run.stderr, "err\n");
    }
}
