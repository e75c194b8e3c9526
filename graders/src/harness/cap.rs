//! The memory cap of a driver: the shell that applies `ulimit -v` and then becomes the
//! driver, and how it says, in words only the supervisor can read, that it could not.

use std::process::Command;

/// The status of the shell that could not apply the memory cap.
pub(super) const CAP_FAILED: i32 = 125;

/// `command` run through `sh -c 'ulimit -v ..; exec "$@"'`, so the cap applies to the
/// driver alone and needs no unsafe `setrlimit` in this process. The shell reads a
/// token on its standard input before the request; when `ulimit` fails it prints the
/// token and exits [`CAP_FAILED`] instead of starting the driver. The token is in no
/// argument (the sandbox's first process, which the driver can see, keeps its
/// arguments), and the driver, started only when the cap holds, never reads it.
pub(super) fn with_memory_cap(command: &Command, bytes: u64) -> Command {
    let mut capped = Command::new("/bin/sh");
    capped
        .arg("-c")
        .arg(format!(
            "read -r token; ulimit -v {} 2>/dev/null || {{ echo \"$token\" >&2; exit {CAP_FAILED}; }}; \
             unset token; exec \"$@\"",
            bytes / 1024
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
