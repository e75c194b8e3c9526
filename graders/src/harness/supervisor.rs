//! Runs a driver in a child process and watches it from outside: the judge's side of
//! the process boundary.
//!
//! The child can do anything: panic, exit early, loop, overflow its stack, print a fake
//! "test result: ok". None of that decides a grade. Only protocol lines carry
//! observations, a case that does not end within the time limit gets the child killed,
//! and an exit before `Finished` is reported against the case that was running.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::judge::{DriverRun, Fault};
use super::protocol::{Message, REQUEST_ENV, Request};

/// How long a driver may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The longest one case may run. Cases are tiny, so anything near this is a hang.
    pub case: Duration,
    /// The longest a whole stage may run.
    pub stage: Duration,
    /// The most virtual memory the driver may map, in bytes (applied with the shell's
    /// `ulimit -v`, on Unix only; elsewhere there is no cap).
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            case: Duration::from_secs(3),
            stage: Duration::from_secs(120),
            memory: None,
        }
    }
}

/// How many of the implementation's own output lines a report keeps.
const PRINTED_TAIL: usize = 12;

enum Event {
    Stdout(String),
    Stderr(String),
    StdoutClosed,
}

/// Runs `program` (a grade binary) as a driver for `request` and collects what it
/// reported, classifying how it ended.
///
/// # Errors
/// When the program cannot be started, or it refuses the request.
pub fn supervise(command: Command, request: Request, limits: Limits) -> Result<DriverRun> {
    let request_json = serde_json::to_string(&request).context("encoding the driver request")?;
    let mut command = match limits.memory {
        Some(bytes) => with_memory_cap(&command, bytes),
        None => command,
    };
    let mut child = command
        .env(REQUEST_ENV, request_json)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting the grade binary")?;
    let (events, inbox) = mpsc::channel();
    forward_lines(child.stdout.take(), events.clone(), Event::Stdout, true);
    forward_lines(child.stderr.take(), events, Event::Stderr, false);

    let mut run = DriverRun::default();
    let mut printed = VecDeque::new();
    let mut stderr = String::new();
    let mut running: Option<usize> = None;
    let mut last_ended: Option<usize> = None;
    let started = Instant::now();
    let mut case_started = Instant::now();
    loop {
        let stage_left = limits.stage.saturating_sub(started.elapsed());
        let case_left = limits.case.saturating_sub(case_started.elapsed());
        let wait = stage_left.min(case_left);
        match inbox.recv_timeout(wait) {
            Ok(Event::Stdout(line)) => match Message::from_line(&line) {
                Some(Ok(Message::Start(index))) => {
                    running = Some(index);
                    case_started = Instant::now();
                }
                Some(Ok(Message::Ended(index, outcome))) => {
                    run.outcomes.insert(index, outcome);
                    running = None;
                    last_ended = Some(index);
                }
                Some(Ok(Message::Finished)) => run.finished = true,
                Some(Ok(Message::Refused(why))) => {
                    kill(&mut child);
                    bail!("the grade binary refused to drive: {why}");
                }
                Some(Err(garbled)) => {
                    keep_tail(
                        &mut printed,
                        format!("(unreadable protocol line: {garbled})"),
                    );
                }
                None => keep_tail(&mut printed, line),
            },
            Ok(Event::Stderr(line)) => {
                stderr.push_str(&line);
                stderr.push('\n');
                keep_tail(&mut printed, line);
            }
            Ok(Event::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut child);
                let limit = if case_left <= stage_left {
                    limits.case
                } else {
                    limits.stage
                };
                let at = running.unwrap_or_else(|| last_ended.map_or(0, |i| i + 1));
                run.death = Some((
                    at,
                    Fault::TimedOut {
                        seconds: limit.as_secs().max(1),
                    },
                ));
                run.printed = printed.into();
                return Ok(run);
            }
        }
    }
    let status = child.wait().context("waiting for the grade binary")?;
    // Drain what stderr still holds: a stack overflow's message may arrive after stdout closed.
    while let Ok(event) = inbox.recv_timeout(Duration::from_millis(200)) {
        if let Event::Stderr(line) = event {
            stderr.push_str(&line);
            stderr.push('\n');
            keep_tail(&mut printed, line);
        }
    }
    if !(run.finished && status.success()) {
        let at = running.unwrap_or_else(|| last_ended.map_or(0, |i| i + 1));
        run.finished = false;
        run.death = Some((at, classify_death(status, &stderr)));
    }
    run.printed = printed.into();
    Ok(run)
}

/// `command` run through `sh -c 'ulimit -v ..; exec "$0" "$@"'`, so the cap applies to
/// the driver alone and needs no unsafe `setrlimit` in this process.
fn with_memory_cap(command: &Command, bytes: u64) -> Command {
    if !cfg!(unix) {
        let mut copy = Command::new(command.get_program());
        copy.args(command.get_args());
        copy_context(command, &mut copy);
        return copy;
    }
    let mut capped = Command::new("sh");
    capped
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", bytes / 1024))
        .arg(command.get_program())
        .args(command.get_args());
    copy_context(command, &mut capped);
    capped
}

fn copy_context(from: &Command, to: &mut Command) {
    if let Some(dir) = from.get_current_dir() {
        to.current_dir(dir);
    }
    for (key, value) in from.get_envs() {
        match value {
            Some(value) => to.env(key, value),
            None => to.env_remove(key),
        };
    }
}

fn classify_death(status: std::process::ExitStatus, stderr: &str) -> Fault {
    if stderr.contains("has overflowed its stack") {
        return Fault::StackOverflow;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Fault::Killed { signal };
        }
    }
    Fault::ExitedEarly {
        code: status.code(),
    }
}

fn kill(child: &mut Child) {
    // Already-exited children make `kill` fail; either way it is gone after `wait`.
    let _ = child.kill();
    let _ = child.wait();
}

fn keep_tail(printed: &mut VecDeque<String>, line: String) {
    if printed.len() == PRINTED_TAIL {
        printed.pop_front();
    }
    printed.push_back(line);
}

fn forward_lines<R: Read + Send + 'static>(
    pipe: Option<R>,
    events: mpsc::Sender<Event>,
    wrap: fn(String) -> Event,
    announce_close: bool,
) {
    let Some(pipe) = pipe else { return };
    thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut buffer = Vec::new();
        // Lines, not `String`s: the implementation may print bytes that are not UTF-8.
        while matches!(reader.read_until(b'\n', &mut buffer), Ok(n) if n > 0) {
            let line = String::from_utf8_lossy(&buffer)
                .trim_end_matches(['\n', '\r'])
                .to_owned();
            buffer.clear();
            if events.send(wrap(line)).is_err() {
                return;
            }
        }
        if announce_close {
            let _ = events.send(Event::StdoutClosed);
        }
    });
}
