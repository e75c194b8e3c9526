//! The sandbox `byo grade` runs a submission's builds and drivers in: Linux namespaces
//! through Debian's `bubblewrap` (`bwrap`).
//!
//! Inside, the whole file system is read-only; the paths the grading must keep from the
//! submission (the instructor's checkout with its grading workspace and target folder,
//! the output folder, the other submissions, the home folder) are hidden behind empty
//! read-only mounts; only what a step needs is mounted back (a driver: its own binary,
//! read-only; a build: the workspace and target folder, writable, and the toolchain).
//! `/tmp` is a small private scratch folder. There is no network, the process tree lives
//! in a PID namespace of its own that dies with the sandbox (no process outlives a run),
//! and the environment holds only the variables the caller set.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use super::supervisor::Confinement;

/// The program that builds the sandbox.
const BWRAP: &str = "bwrap";

/// The size of the private `/tmp`: room for scratch files, not for filling memory.
const SCRATCH_BYTES: u64 = 256 << 20;

/// A sandbox policy: what is hidden, and what is mounted back, read-only or writable.
#[derive(Debug, Clone, Default)]
pub struct Sandbox {
    hidden: Vec<PathBuf>,
    readable: Vec<PathBuf>,
    writable: Vec<PathBuf>,
}

impl Sandbox {
    /// A sandbox that hides nothing yet (everything read-only, no network, own PIDs).
    pub fn new() -> Self {
        Self::default()
    }

    /// Hides `path` (and everything below it) behind an empty read-only folder.
    pub fn hide(mut self, path: impl Into<PathBuf>) -> Self {
        self.hidden.push(path.into());
        self
    }

    /// Mounts `path` back read-only (inside a hidden path).
    pub fn readable(mut self, path: impl Into<PathBuf>) -> Self {
        self.readable.push(path.into());
        self
    }

    /// Mounts `path` back writable.
    pub fn writable(mut self, path: impl Into<PathBuf>) -> Self {
        self.writable.push(path.into());
        self
    }

    /// Checks that a sandbox can be made on this machine, by running `true` in one.
    ///
    /// # Errors
    /// What is missing, and what to do about it, when it cannot.
    pub fn check_available() -> Result<()> {
        let mut probe = Sandbox::new().confine(Command::new("/bin/true"));
        let output = probe.stdin(Stdio::null()).output().with_context(|| {
            format!(
                "cannot start `{BWRAP}`, which `byo grade` sandboxes submissions with: \
                     install it (Debian: `apt-get install bubblewrap`), or grade without \
                     a sandbox with `--no-sandbox` (every report then says so)"
            )
        })?;
        if !output.status.success() {
            bail!(
                "`{BWRAP}` is installed but cannot make a sandbox here ({}): user \
                 namespaces may be disabled; grade without one with `--no-sandbox`",
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        Ok(())
    }

    fn mounts(&self, command: &mut Command) {
        command
            .args(["--ro-bind", "/", "/"])
            .args(["--dev", "/dev", "--proc", "/proc"])
            .args(["--size", &SCRATCH_BYTES.to_string(), "--tmpfs", "/tmp"]);
        // Parents first: a tmpfs mounted over a parent would cover a child's.
        let mut hidden: Vec<&PathBuf> = self.hidden.iter().filter(|p| p.exists()).collect();
        hidden.sort_by_key(|p| p.components().count());
        hidden.dedup();
        for path in &hidden {
            command.args(["--size", "1048576", "--tmpfs"]).arg(path);
        }
        for path in self.readable.iter().filter(|p| p.exists()) {
            command.arg("--ro-bind").arg(path).arg(path);
        }
        for path in self.writable.iter().filter(|p| p.exists()) {
            command.arg("--bind").arg(path).arg(path);
        }
        for path in &hidden {
            command.arg("--remount-ro").arg(path);
        }
    }

    /// Whether `path` can be seen inside the sandbox.
    fn visible(&self, path: &Path) -> bool {
        let under = |roots: &[PathBuf]| roots.iter().any(|r| path.starts_with(r));
        under(&self.readable) || under(&self.writable) || !under(&self.hidden)
    }
}

impl Confinement for Sandbox {
    fn confine(&self, command: Command) -> Command {
        let mut sandboxed = Command::new(BWRAP);
        sandboxed.args([
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
        ]);
        self.mounts(&mut sandboxed);
        for (key, value) in command.get_envs() {
            if let Some(value) = value {
                sandboxed.arg("--setenv").arg(key).arg(value);
            }
        }
        // Mount points are canonical paths: compare and change into the canonical form.
        let dir = command
            .get_current_dir()
            .and_then(|dir| std::fs::canonicalize(dir).ok())
            .filter(|dir| self.visible(dir))
            .unwrap_or_else(|| PathBuf::from("/tmp"));
        sandboxed.arg("--chdir").arg(dir);
        sandboxed
            .arg("--")
            .arg(command.get_program())
            .args(command.get_args());
        sandboxed
    }

    /// bubblewrap outlives its child and exits with `128 + n` when signal `n` killed it,
    /// as a shell does: a driver stopped at its CPU cap (SIGXCPU) ends bwrap with 152.
    /// A driver that calls `exit(152)` itself is read as killed too: a failure either way.
    fn death_signal(&self, status: std::process::ExitStatus) -> Option<i32> {
        super::supervisor::signal_of(status).or_else(|| {
            status
                .code()
                .filter(|code| (129..=128 + 64).contains(code))
                .map(|code| code - 128)
        })
    }
}
