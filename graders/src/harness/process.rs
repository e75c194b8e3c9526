//! Child processes that cannot outlive their run: each leads a process group of its own,
//! is waited for on a thread (so its exit is an event beside its output), and is killed
//! with its whole group; and [`run_bounded`], for a trusted tool (cargo) working on
//! untrusted sources, with a wall limit and bounded output.

use std::collections::BTreeSet;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::capture::{self, Event};
use super::supervisor::Confinement;

/// Makes `command`'s process the leader of a new process group, so that [`kill_group`]
/// reaches everything it starts (short of a descendant that makes its own session,
/// which the sandbox's PID namespace catches).
pub fn lead_group(command: &mut Command) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(not(unix))]
    let _ = command;
}

/// The process groups started and not yet over, so that an interrupt can end them: a
/// child leading its own group does not get the terminal's Ctrl-C.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn live() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Waits for `child` on a thread of its own and sends [`Event::Exited`], so that a
/// watcher can see the exit and the pipes at once. Until then the child's group is
/// among those an interrupt kills.
pub fn wait_for(mut child: Child, events: SyncSender<Event>) {
    let pid = child.id();
    live().insert(pid);
    thread::spawn(move || {
        let status = child.wait();
        if let Ok(status) = status {
            let _ = events.send(Event::Exited(status));
        }
    });
}

/// On SIGINT, SIGTERM or SIGHUP: kills every process group still running, runs
/// `cleanup` (which removes what must not outlive the run, such as a lock), and exits
/// with 130. Installed once, by `byo`'s `main`.
///
/// # Errors
/// When the signal handlers cannot be installed.
pub fn end_children_on_interrupt(cleanup: fn()) -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("installing the interrupt handler")?;
    thread::spawn(move || {
        if signals.forever().next().is_some() {
            let groups: Vec<u32> = live().iter().copied().collect();
            for pid in groups {
                kill(pid);
            }
            cleanup();
            // Not `eprintln!`: with stderr closed it would panic this thread, and the
            // process would not end.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "byo: interrupted; every process it started was stopped"
            );
            std::process::exit(130);
        }
    });
    Ok(())
}

/// Watches a spawned `child` whose stdout and stderr are pipes: its lines, the ends of
/// its pipes and its exit all arrive, bounded, on the returned channel. Returns its pid.
pub fn watch(mut child: Child) -> (u32, Receiver<Event>) {
    let pid = child.id();
    let (events, inbox) = mpsc::sync_channel(capture::CHANNEL_DEPTH);
    capture::forward(
        child.stdout.take(),
        events.clone(),
        Event::Stdout,
        Event::StdoutClosed,
    );
    capture::forward(
        child.stderr.take(),
        events.clone(),
        Event::Stderr,
        Event::StderrClosed,
    );
    wait_for(child, events);
    (pid, inbox)
}

/// SIGKILL to a running child and to its process group; its waiter reaps it.
pub fn kill(pid: u32) {
    kill_group(pid);
    signal(&pid.to_string());
}

/// SIGKILL to the process group `pid` leads, so that a grandchild left behind dies too;
/// the group is then over.
pub fn kill_group(pid: u32) {
    signal(&format!("-{pid}"));
    live().remove(&pid);
}

/// Through `kill(1)`: this crate has no unsafe code to call `kill(2)` with.
fn signal(target: &str) {
    if cfg!(unix) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", target])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

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
