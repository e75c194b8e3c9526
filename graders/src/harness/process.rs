//! Child processes that cannot outlive their run: each leads a process group of its own,
//! is waited for on a thread (so its exit is an event beside its output), and is killed
//! with its whole group. What runs such a child to its end is elsewhere: the
//! [`supervisor`](super::supervisor) for a driver, [`bounded`](super::bounded) for a
//! trusted tool.

use std::collections::BTreeSet;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;

use anyhow::{Context, Result};

use super::capture::{self, Event};

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
