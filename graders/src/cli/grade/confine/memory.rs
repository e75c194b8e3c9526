//! The memory cap of a submission's build: a huge constant or `static` makes rustc itself
//! take gigabytes (a 1 GiB `static` took it to 2.4 GB resident and 82 s here), so a build
//! gets a cap as a driver does, and going over it is the submission's failure, "does not
//! build: memory limit", never a swapping machine.
//!
//! Two mechanisms, as for the process limit ([`super::pids`]):
//! - a `memory` control group per slot (cgroup v1's `memory` hierarchy, writable by
//!   root), holding the whole build (cargo, every rustc and the linker) under
//!   [`BUILD_MEMORY_CAP`] together, swap included. The kernel kills what goes over it and
//!   counts the kill in the group's `memory.oom_control`: that count, read by `byo`, is
//!   the evidence that the cap was reached. Nothing the build prints is.
//! - elsewhere, `ulimit -v` on the build's shell: each process may map at most
//!   [`BUILD_ADDRESS_CAP`]. An allocation past it fails in rustc, which stops with its
//!   own "memory allocation failed" error, shown as the build's error.
//!
//! Only submissions' builds are capped: the instructor's own build of a slot (the graders,
//! at `opt-level = 1`) is trusted and runs before any submission.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most memory one submission's build may hold at once, all its processes together.
pub const BUILD_MEMORY_CAP: u64 = 4 << 30;

/// Where no control group applies: the most address space one process of a build may
/// map. rustc reserves address space well beyond what it touches, so this is wider than
/// [`BUILD_MEMORY_CAP`].
pub const BUILD_ADDRESS_CAP: u64 = 8 << 30;

/// cgroup v1's `memory` hierarchy.
const MEMORY_HIERARCHY: &str = "/sys/fs/cgroup/memory";

/// How a grading run caps the memory of submissions' builds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildMemory {
    /// The `memory` hierarchy slots' control groups are made in, when writable here.
    cgroups: Option<PathBuf>,
}

impl BuildMemory {
    /// What this machine allows.
    pub fn detect() -> Self {
        Self::in_hierarchy(Path::new(MEMORY_HIERARCHY))
    }

    /// Control groups under `hierarchy`, if one can be made there with a limit.
    fn in_hierarchy(hierarchy: &Path) -> Self {
        let probe = hierarchy.join(format!("byo-probe-{}", std::process::id()));
        let writable = std::fs::create_dir(&probe)
            .and_then(|()| std::fs::write(probe.join("memory.limit_in_bytes"), "1073741824"))
            .is_ok();
        let _ = std::fs::remove_dir(&probe);
        Self {
            cgroups: writable.then(|| hierarchy.to_path_buf()),
        }
    }

    /// How the cap is applied, for the run's opening lines and the guide.
    pub fn describe(&self) -> String {
        match &self.cgroups {
            Some(_) => format!(
                "builds capped at {} GiB together (a memory control group per slot)",
                BUILD_MEMORY_CAP >> 30
            ),
            None => format!(
                "builds capped at {} GiB of address space per process (ulimit -v; no \
                 writable memory control group here)",
                BUILD_ADDRESS_CAP >> 30
            ),
        }
    }

    /// The control group of the slot whose target folder is `target`.
    fn group(&self, target: &Path) -> Option<PathBuf> {
        let hierarchy = self.cgroups.as_ref()?;
        Some(hierarchy.join(format!("byo-build-{:016x}", super::pids::fnv1a(target))))
    }

    /// `build` (the sandboxed cargo command of the slot whose target folder is `target`)
    /// run under the cap: in the slot's control group, made with its limits, or, where
    /// there is none, under `ulimit -v`.
    pub fn around(&self, target: &Path, build: Command) -> Command {
        if let Some(group) = self.group(target)
            && make_group(&group, BUILD_MEMORY_CAP).is_ok()
        {
            let procs = group.join("cgroup.procs");
            return super::pids::prefixed(
                &build,
                OsStr::new("/bin/sh"),
                &[
                    OsStr::new("-c"),
                    OsStr::new("echo $$ > \"$1\" || exit 125; shift; exec \"$@\""),
                    OsStr::new("byo-build-memory"),
                    procs.as_os_str(),
                ],
            );
        }
        let ulimit = format!(
            "ulimit -v {} || exit 125; exec \"$@\"",
            BUILD_ADDRESS_CAP / 1024
        );
        super::pids::prefixed(
            &build,
            OsStr::new("/bin/sh"),
            &[
                OsStr::new("-c"),
                OsStr::new(&ulimit),
                OsStr::new("byo-build-memory"),
            ],
        )
    }

    /// How many processes the kernel has killed for the cap in the slot whose target
    /// folder is `target`: a build went over it when this grew while it ran. Always 0
    /// without a control group.
    pub fn kills(&self, target: &Path) -> u64 {
        self.group(target).map_or(0, |group| oom_kills(&group))
    }
}

/// Makes (or keeps) the control group `group` with a limit of `bytes`, swap included
/// where the kernel accounts for it (else a build would go on in swap).
fn make_group(group: &Path, bytes: u64) -> std::io::Result<()> {
    std::fs::create_dir_all(group)?;
    let limit = bytes.to_string();
    // memsw must stay at least the plain limit: raise the plain one first when it is
    // lowered, the swap one first when it is raised; writing both twice covers either.
    let memsw = group.join("memory.memsw.limit_in_bytes");
    let _ = std::fs::write(&memsw, &limit);
    std::fs::write(group.join("memory.limit_in_bytes"), &limit)?;
    if memsw.exists() {
        std::fs::write(&memsw, &limit)?;
    }
    Ok(())
}

/// The `oom_kill` count of `memory.oom_control` in `group` (0 when it cannot be read).
fn oom_kills(group: &Path) -> u64 {
    std::fs::read_to_string(group.join("memory.oom_control"))
        .ok()
        .and_then(|text| {
            text.lines().find_map(|line| {
                line.strip_prefix("oom_kill ")
                    .and_then(|n| n.trim().parse().ok())
            })
        })
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
