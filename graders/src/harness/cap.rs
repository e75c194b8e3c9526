//! The limits of a driver (memory, CPU time, no core files): the shell that applies them
//! with `ulimit` and then becomes the driver, and how it says, in words only the
//! supervisor can read, that it could not.

use std::process::Command;

/// The status of the shell that could not apply the limits.
pub(super) const CAP_FAILED: i32 = 125;

/// The signal the kernel sends a process at its soft CPU-time limit (24 on Linux and the
/// BSDs). Its default action ends the process; safe code cannot catch it.
pub(super) const SIGXCPU: i32 = 24;

/// Seconds of CPU time between the soft limit (SIGXCPU, which names the cause) and the
/// hard one (SIGKILL, which would not): Linux sends SIGKILL at once when the two are equal.
const CPU_GRACE: u64 = 2;

/// What a driver may spend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caps {
    /// Virtual memory, in bytes (`ulimit -v`).
    pub memory: Option<u64>,
    /// CPU time, its threads together, in seconds (`ulimit -t`).
    pub cpu_seconds: Option<u64>,
}

impl Caps {
    /// No limit to apply.
    pub fn is_empty(&self) -> bool {
        self.memory.is_none() && self.cpu_seconds.is_none()
    }

    /// The shell's commands that apply these limits; a core file is never written (a
    /// driver killed at its CPU limit would otherwise dump its memory into the sandbox).
    pub fn ulimits(&self) -> String {
        let mut commands = vec!["ulimit -c 0".to_owned()];
        if let Some(bytes) = self.memory {
            commands.push(format!("ulimit -v {}", bytes / 1024));
        }
        if let Some(seconds) = self.cpu_seconds {
            // The soft limit first: a hard limit below the soft one is refused.
            commands.push(format!("ulimit -S -t {seconds}"));
            commands.push(format!("ulimit -H -t {}", seconds + CPU_GRACE));
        }
        commands.join(" && ")
    }
}

/// `command` run through `sh -c '<ulimits>; exec "$@"'`, so the limits apply to the
/// driver alone and need no unsafe `setrlimit` in this process. The shell reads a token
/// on its standard input before the request; when a `ulimit` fails it prints the token
/// and exits [`CAP_FAILED`] instead of starting the driver. The token is in no argument
/// (the sandbox's first process, which the driver can see, keeps its arguments), and the
/// driver, started only when the limits hold, never reads it.
pub(super) fn with_caps(command: &Command, caps: Caps) -> Command {
    let mut capped = Command::new("/bin/sh");
    capped
        .arg("-c")
        .arg(format!(
            "read -r token; {{ {}; }} 2>/dev/null || {{ echo \"$token\" >&2; exit {CAP_FAILED}; }}; \
             unset token; exec \"$@\"",
            caps.ulimits()
        ))
        .arg("byo-memory-cap")
        .arg(command.get_program())
        .args(command.get_args());
    if let Some(dir) = command.get_current_dir() {
        capped.current_dir(dir);
    }
    capped.env_clear();
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            capped.env(key, value);
        }
    }
    capped
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::harness::supervisor::Limits;

    /// The shell applies every limit a driver gets (a hard CPU limit set before the soft
    /// one is refused), and they are the ones asked for.
    #[cfg(unix)]
    #[test]
    fn a_shell_applies_the_limits_asked_for() {
        let caps = Caps {
            memory: Some(4 << 30),
            cpu_seconds: Some(45),
        };
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!(
                "{} && ulimit -S -t && ulimit -H -t && ulimit -c",
                caps.ulimits()
            ))
            .output()
            .expect("sh runs");
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "45\n47\n0\n");
    }

    /// A stage with a budget caps its drivers' CPU time at the budget; one without keeps
    /// the instructor's cap; `byo test`, which sets none, caps nothing.
    #[test]
    fn a_stage_s_budget_is_its_drivers_cpu_cap() {
        let mut limits = Limits {
            cpu: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        limits.budgets[8] = Some(Duration::from_secs(45));
        assert_eq!(limits.for_stage(8).cpu, Some(Duration::from_secs(45)));
        assert_eq!(limits.for_stage(7).cpu, Some(Duration::from_secs(600)));
        assert_eq!(Limits::default().for_stage(8).cpu, None);
    }
}
