//! Runs a driver in a child process and watches it from outside: the judge's side of
//! the process boundary.
//!
//! The child can do anything: panic, exit early, loop, overflow its stack, print a fake
//! "test result: ok", print the driver's own protocol lines, print a gigabyte, leave a
//! process behind. None of that decides a grade or outlives the run:
//!
//! - only lines carrying the run's nonce are protocol lines, and they must come in the
//!   order the judge asked for (`Start` of the next case, its `Ended`, ..., `Finished`,
//!   a `Refused` only before the first case); anything else is a protocol violation
//!   charged to the case that was running. The nonce is no secret from the
//!   implementation, which runs in the driver's process and can read its memory: the
//!   nonce keeps what it prints by accident apart, the order keeps what it forges from
//!   counting;
//! - what the driver says is evidence, never authority: only the supervisor's own
//!   findings (the exit status, a signal, a limit, the memory cap it could not apply)
//!   decide how a run ended, and only it says the grading environment failed;
//! - the clocks are the supervisor's: a case's clock starts at the `Start` the judge
//!   expected, and the stage has a wall limit of its own;
//! - what the child prints is kept bounded (the head and the tail, and the size said);
//! - the child starts with an environment cleared to what a driver needs, in a process
//!   group of its own that is killed when the run ends, and inside whatever
//!   [`Confinement`] the caller gives (the sandbox of `byo grade`).

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::cap::{CAP_FAILED, Caps, SIGXCPU, with_caps};
use super::capture::Event;
use super::judge::{Clock, DriverRun, Fault};
use super::lines::{Lines, Read};
use super::process::{kill, kill_group};
use super::protocol::{REQUEST_ENV, Request, fresh_nonce};

/// How long a driver may take, and how much memory it may map.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The longest one case may run. Cases are tiny, so anything near this is a hang.
    pub case: Duration,
    /// The longest a whole stage may run, unless [`budgets`](Self::budgets) sets its own.
    pub stage: Duration,
    /// Each stage's own time budget, by stage number, where one is set (`byo grade` sets
    /// them from the reference's own time on the same machine).
    pub budgets: [Option<Duration>; 9],
    /// The most virtual memory the driver may map, in bytes (applied with the shell's
    /// `ulimit -v`, on Unix only; elsewhere there is no cap).
    pub memory: Option<u64>,
    /// The most CPU time a driver may spend, its threads together (applied with the
    /// shell's `ulimit -t`, on Unix only): a stage's budget bounds its CPU time as well as
    /// its wall time, so that threads spinning beside honest answers cannot take the
    /// machine from the other slots for the whole budget.
    pub cpu: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            case: Duration::from_secs(3),
            stage: Duration::from_secs(120),
            budgets: [None; 9],
            memory: None,
            cpu: None,
        }
    }
}

impl Limits {
    /// These limits for stage `number`: its own budget, if it has one, as the stage limit,
    /// and as the CPU cap where there is one.
    pub fn for_stage(self, number: u8) -> Self {
        let budget = self.budgets.get(usize::from(number)).copied().flatten();
        Self {
            stage: budget.unwrap_or(self.stage),
            cpu: self.cpu.map(|cap| budget.map_or(cap, |b| b.min(cap))),
            ..self
        }
    }
}

/// How a child process is confined before it starts (the sandbox of `byo grade`).
pub trait Confinement {
    /// `command`, wrapped so that it runs confined. The command's explicit environment is
    /// all it may see.
    fn confine(&self, command: Command) -> Command;

    /// The signal that ended the confined process, read from the status of the command
    /// [`Confinement::confine`] made: by default that command is the process itself.
    fn death_signal(&self, status: std::process::ExitStatus) -> Option<i32> {
        signal_of(status)
    }
}

/// No confinement: the learner's own `byo test` runs the learner's own code.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unconfined;

impl Confinement for Unconfined {
    fn confine(&self, command: Command) -> Command {
        command
    }
}

/// The grading machine, not the submission, failed: the memory cap could not be applied,
/// or the sandbox could not start. Never charged to a student.
#[derive(Debug)]
pub struct EnvironmentError(pub String);

impl std::fmt::Display for EnvironmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the grading environment failed: {}", self.0)
    }
}

impl std::error::Error for EnvironmentError {}

/// The only variables a driver sees besides those its caller set on the command.
const DRIVER_PATH: &str = "/usr/bin:/bin";

/// Runs `command` (a grade binary) as a driver for `request`, unconfined.
///
/// # Errors
/// See [`supervise_confined`].
pub fn supervise(command: Command, request: Request, limits: Limits) -> Result<DriverRun> {
    supervise_confined(command, request, limits, &Unconfined)
}

/// Runs `command` (a grade binary) as a driver for `request` inside `confinement`, and
/// collects what it reported, classifying how it ended.
///
/// # Errors
/// When the program cannot be started or refuses the request, and an
/// [`EnvironmentError`] when the memory cap could not be applied.
pub fn supervise_confined(
    command: Command,
    request: Request,
    limits: Limits,
    confinement: &dyn Confinement,
) -> Result<DriverRun> {
    supervise_since(command, &request, limits, confinement, Instant::now())
}

/// As [`supervise_confined`], for a stage whose clock started at `stage_started` (a
/// driver started again after another died keeps the stage's wall limit).
///
/// # Errors
/// As [`supervise_confined`].
pub fn supervise_since(
    command: Command,
    request: &Request,
    limits: Limits,
    confinement: &dyn Confinement,
    stage_started: Instant,
) -> Result<DriverRun> {
    let request_line = serde_json::to_string(request).context("encoding the driver request")?;
    let cap_token = format!("byo-memory-cap-failed-{:016x}", fresh_nonce());
    let command = with_cleared_environment(command);
    // A driver started again after another died gets what is left of the stage's budget.
    let caps = Caps {
        memory: limits.memory,
        cpu_seconds: limits
            .cpu
            .map(|cpu| cpu.saturating_sub(stage_started.elapsed()).as_secs().max(1)),
    };
    let capped = Some(caps).filter(|c| cfg!(unix) && !c.is_empty());
    let command = match capped {
        Some(caps) => with_caps(&command, caps),
        None => command,
    };
    let mut command = confinement.confine(command);
    super::process::lead_group(&mut command);
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting the grade binary")?;
    if let Some(mut stdin) = child.stdin.take() {
        // The shell that applies the cap reads its token first, so that the token is in
        // no process's arguments or memory once the driver runs. A driver that died at
        // once leaves a closed pipe; its death is reported below.
        if capped.is_some() {
            let _ = writeln!(stdin, "{cap_token}");
        }
        let _ = writeln!(stdin, "{request_line}");
    }
    let (pid, inbox) = super::process::watch(child);

    let mut lines = Lines::new(request);
    let mut case_started = Instant::now();
    let mut exited: Option<(std::process::ExitStatus, Instant)> = None;
    let (mut stdout_open, mut stderr_open) = (true, true);
    while exited.is_none() || stdout_open || stderr_open {
        let left = limits
            .stage
            .saturating_sub(stage_started.elapsed())
            .min(limits.case.saturating_sub(case_started.elapsed()));
        let wait = match exited {
            // After the exit, what the pipes still hold is read for a bounded time: a
            // grandchild that keeps them open cannot hold the judge.
            Some((_, at)) => (at + DRAIN).saturating_duration_since(Instant::now()),
            None => left,
        };
        let event = match inbox.recv_timeout(wait) {
            // A flood of lines must not keep the clocks from running out.
            Ok(_) if exited.is_none() && left.is_zero() => Err(RecvTimeoutError::Timeout),
            other => other,
        };
        match event {
            Ok(Event::Stdout(line)) => match lines.stdout(line) {
                Read::Nothing => {}
                Read::CaseStarted => case_started = Instant::now(),
                Read::Refused(why) => {
                    kill(pid);
                    bail!("the grade binary refused to drive: {why}");
                }
                Read::Violation(violation) => {
                    kill(pid);
                    return Ok(lines.died(Fault::ProtocolViolation(violation)));
                }
            },
            Ok(Event::Stderr(line)) => {
                if let Some(violation) = lines.stderr(line) {
                    kill(pid);
                    return Ok(lines.died(Fault::ProtocolViolation(violation)));
                }
            }
            Ok(Event::StdoutClosed) => stdout_open = false,
            Ok(Event::StderrClosed) => stderr_open = false,
            Ok(Event::Exited(status)) => exited = Some((status, Instant::now())),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) if exited.is_some() => break,
            Err(RecvTimeoutError::Timeout) => {
                kill(pid);
                // The stage's budget, not this case's limit, ran out: the stage as a
                // whole is too slow (a sleep under the case limit in every case), which
                // no re-run of this case alone would show.
                let fault = if stage_started.elapsed() >= limits.stage {
                    Fault::TooSlow {
                        seconds: limits.stage.as_secs().max(1),
                        clock: Clock::Wall,
                    }
                } else {
                    Fault::TimedOut {
                        seconds: limits.case.as_secs().max(1),
                    }
                };
                return Ok(lines.died(fault));
            }
        }
    }
    // Whatever the driver left behind in its process group goes with it.
    kill_group(pid);
    let Some((status, _)) = exited else {
        bail!("lost track of the grade binary (its waiter stopped)");
    };
    // The shell's own word, in a token the driver never held, and its own exit status.
    if let Some(caps) = capped
        && status.code() == Some(CAP_FAILED)
        && lines.stderr.contains(&cap_token)
    {
        return Err(EnvironmentError(format!(
            "`{}` failed, so the driver could not be given its limits (is the shell's hard \
             limit lower? raise it with `ulimit -v unlimited` or `ulimit -t unlimited`)",
            caps.ulimits()
        ))
        .into());
    }
    if lines.watch.run.finished && status.success() {
        lines.watch.run.printed = lines.printed;
        return Ok(lines.watch.run);
    }
    let fault = match (caps.cpu_seconds, confinement.death_signal(status)) {
        // SIGXCPU is the kernel's at the limit the shell set; safe code cannot catch it.
        // A submission may still send it to its own driver (`kill -XCPU`), which only
        // names its own failure "too slow" instead of "killed by a signal".
        (Some(seconds), Some(SIGXCPU)) if capped.is_some() => Fault::TooSlow {
            seconds,
            clock: Clock::Cpu,
        },
        _ if lines.stderr.contains("has overflowed its stack") => Fault::StackOverflow,
        (_, Some(signal)) => Fault::Killed { signal },
        _ => Fault::ExitedEarly {
            code: status.code(),
        },
    };
    Ok(lines.died(fault))
}

/// How long the pipes are still read after the driver exited.
const DRAIN: Duration = Duration::from_millis(300);

/// `command` with an environment cleared to what a driver needs, plus the variables its
/// caller set explicitly: nothing of the instructor's environment reaches the child.
fn with_cleared_environment(command: Command) -> Command {
    let mut cleared = Command::new(command.get_program());
    cleared.args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        cleared.current_dir(dir);
    }
    cleared
        .env_clear()
        .env("PATH", DRIVER_PATH)
        .env("RUST_BACKTRACE", "0")
        .env(REQUEST_ENV, "1");
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            cleared.env(key, value);
        }
    }
    cleared
}

/// The signal that ended the process, if one did.
pub(crate) fn signal_of(status: std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal()
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}
