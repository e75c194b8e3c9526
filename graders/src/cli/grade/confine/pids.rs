//! A process limit in every sandbox: a fork bomb in a driver (or in a build) stops at
//! [`MAX_PROCESSES`] processes and threads, and is the submission's failure (its case
//! panics or times out), never a hung grader or machine.
//!
//! Two mechanisms, because neither works everywhere:
//! - `RLIMIT_NPROC`, set by `prlimit` *inside* the sandbox: bubblewrap makes a user
//!   namespace, and the kernel counts the limit per user namespace, so it bounds that
//!   sandbox alone. The kernel does not apply it to root (user 0 outside), which is how
//!   CI and containers run.
//! - a `pids` control group per slot (cgroup v1's `pids` hierarchy, writable by root):
//!   every build and driver of the slot joins it before the sandbox starts, and it holds
//!   at most [`MAX_PROCESSES`] tasks at once. A slot grades one submission at a time, so
//!   a bomb only starves its own submission.
//!
//! Where neither applies (root without a writable `pids` hierarchy), `byo grade` says so
//! at start; the sandbox's PID namespace and the time limits still end whatever started.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most processes and threads one sandbox (or one slot) may hold at once.
pub const MAX_PROCESSES: u64 = 512;

/// cgroup v1's `pids` hierarchy.
const PIDS_HIERARCHY: &str = "/sys/fs/cgroup/pids";

/// How a grading run limits the processes of its sandboxes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessLimit {
    /// `prlimit`, to set `RLIMIT_NPROC` inside each sandbox.
    prlimit: Option<PathBuf>,
    /// The `pids` hierarchy slots' control groups are made in.
    cgroups: Option<PathBuf>,
}

impl ProcessLimit {
    /// What this machine allows.
    pub fn detect() -> Self {
        let prlimit = ["/usr/bin/prlimit", "/bin/prlimit"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file());
        let probe = Path::new(PIDS_HIERARCHY).join(format!("byo-probe-{}", std::process::id()));
        let writable = std::fs::create_dir(&probe)
            .and_then(|()| std::fs::write(probe.join("pids.max"), MAX_PROCESSES.to_string()))
            .is_ok();
        let _ = std::fs::remove_dir(&probe);
        Self {
            prlimit,
            cgroups: writable.then(|| PathBuf::from(PIDS_HIERARCHY)),
        }
    }

    /// Why no limit applies here, if none does: root ignores `RLIMIT_NPROC`.
    pub fn missing(&self) -> Option<String> {
        let root = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines().find_map(|l| {
                    l.strip_prefix("Uid:")
                        .map(|u| u.split_whitespace().next() == Some("0"))
                })
            })
            .unwrap_or(false);
        let applies = self.cgroups.is_some() || (self.prlimit.is_some() && !root);
        (!applies).then(|| {
            format!(
                "no process limit can be applied to the sandboxes here ({}); a fork bomb is \
                 stopped only by the sandbox's time limits",
                if root {
                    "running as root, which RLIMIT_NPROC does not bind, and no writable pids \
                     control group"
                } else {
                    "no prlimit"
                }
            )
        })
    }

    /// `command`, about to be sandboxed, with `RLIMIT_NPROC` set inside the sandbox.
    pub fn inside(&self, command: Command) -> Command {
        let Some(prlimit) = &self.prlimit else {
            return command;
        };
        let limit = format!("--nproc={MAX_PROCESSES}:{MAX_PROCESSES}");
        prefixed(
            &command,
            prlimit.as_os_str(),
            &[OsStr::new(&limit), OsStr::new("--")],
        )
    }

    /// `sandboxed`, the sandbox's own command, joining the control group of the slot
    /// whose target folder is `target` before it starts.
    pub fn around(&self, target: &Path, sandboxed: Command) -> Command {
        let Some(hierarchy) = &self.cgroups else {
            return sandboxed;
        };
        let group = hierarchy.join(format!("byo-grade-{:016x}", fnv1a(target)));
        let made = std::fs::create_dir_all(&group)
            .and_then(|()| std::fs::write(group.join("pids.max"), MAX_PROCESSES.to_string()));
        if made.is_err() {
            return sandboxed;
        }
        let procs = group.join("cgroup.procs");
        let join = OsStr::new("echo $$ > \"$1\" || exit 125; shift; exec \"$@\"");
        prefixed(
            &sandboxed,
            OsStr::new("/bin/sh"),
            &[
                OsStr::new("-c"),
                join,
                OsStr::new("byo-pids"),
                procs.as_os_str(),
            ],
        )
    }
}

/// `command` run by `program` with `prefix` before it: the same environment and folder.
pub(super) fn prefixed(command: &Command, program: &OsStr, prefix: &[&OsStr]) -> Command {
    let mut wrapped = Command::new(program);
    wrapped
        .args(prefix)
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    wrapped
}

/// A stable name for a slot's control group, from its target folder.
pub(super) fn fnv1a(path: &Path) -> u64 {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        })
}
