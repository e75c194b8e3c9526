//! Where a learner crate's own rustc runs: in a sandbox of its own, inside the build's,
//! that holds the crate's folder, the hints, the toolchain and the target folder's
//! artifacts, and nothing else. A `#[path]`, an `include_str!` or an `include_bytes!`
//! aimed at a reference, at the graders, at `$CARGO_HOME` or at another submission
//! finds no file there, however rustc reads the path: the compiler cannot read what is
//! not mounted, whatever our own scan of the source made of it.
//!
//! cargo calls the wrapper (`RUSTC_WORKSPACE_WRAPPER`, so only for the workspace's own
//! crates) with rustc and its arguments; a crate whose root lies in `stages/*/src/` (the
//! library, or a binary a submission added there) is a learner crate and is compiled in
//! the inner sandbox; every other crate (the graders,
//! the references, each stage's one-line `tests/grade.rs`) is the instructor's and is
//! compiled as it is. The wrapper is a shell script in the slot, where every build
//! (the instructor's own first, so that cargo's fingerprints agree) reads it.
//!
//! The verdict on what a build read still comes from rustc's own record
//! ([`crate::cli::dep_info`]); this makes the read impossible besides.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The wrapper, run by `/bin/sh` as `wrapper RUSTC ARGS...`, with `BYO_RUSTC_JAIL_TARGET`
/// (the target folder) and `BYO_RUSTC_JAIL_TOOLCHAIN` (rustup's home) set.
const WRAPPER: &str = r#"#!/bin/sh
# byo grade's rustc wrapper: a learner crate (its root in stages/*/src/) is compiled
# where only its own stage folder, the hints, the toolchain and the target folder can be
# read (see graders/src/cli/grade/confine/rustc_jail.rs). Other crates are compiled as
# they are.
rustc=$1
shift
stage=
for arg in "$@"; do
    case "$arg" in
        stages/*/src/*.rs) stage=${arg%%/src/*} ;;
    esac
done
if [ -z "$stage" ]; then
    exec "$rustc" "$@"
fi
case "$stage" in
    */*/*|*..*) echo "byo: unexpected learner crate root: $stage" >&2; exit 1 ;;
esac
# rustc's own folder, when cargo named it by its path (never the workspace: a relative
# name would make it `.`).
tools=/usr
case "$rustc" in
    /*) tools=$(dirname "$rustc") ;;
esac
exec bwrap --unshare-user --unshare-ipc --unshare-net --unshare-uts --die-with-parent \
    --ro-bind /usr /usr --ro-bind-try /bin /bin --ro-bind-try /lib /lib \
    --ro-bind-try /lib64 /lib64 --ro-bind-try /etc /etc \
    --dev /dev --ro-bind /proc /proc --tmpfs /tmp \
    --ro-bind-try "$BYO_RUSTC_JAIL_TOOLCHAIN" "$BYO_RUSTC_JAIL_TOOLCHAIN" \
    --ro-bind-try "$tools" "$tools" \
    --ro-bind "$PWD/$stage" "$PWD/$stage" \
    --ro-bind-try "$PWD/hints" "$PWD/hints" \
    --bind "$BYO_RUSTC_JAIL_TARGET" "$BYO_RUSTC_JAIL_TARGET" \
    --chdir "$PWD" -- "$rustc" "$@"
"#;

/// The wrapper of the slot whose target folder is `target`, written there if it is not
/// yet, and the variables a build's cargo needs to use it.
///
/// # Errors
/// When the wrapper cannot be written into the slot.
pub fn environment(target: &Path, toolchain: &Path) -> Result<Vec<(OsString, OsString)>> {
    let wrapper = wrapper_path(target);
    if std::fs::read_to_string(&wrapper).ok().as_deref() != Some(WRAPPER) {
        std::fs::write(&wrapper, WRAPPER)
            .with_context(|| format!("writing the rustc wrapper {}", wrapper.display()))?;
    }
    // cargo runs the wrapper as a program, with no arguments of its own.
    let mode = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(&wrapper, mode)
        .with_context(|| format!("making {} executable", wrapper.display()))?;
    Ok(vec![
        ("RUSTC_WORKSPACE_WRAPPER".into(), wrapper.into_os_string()),
        (
            "BYO_RUSTC_JAIL_TARGET".into(),
            target.as_os_str().to_owned(),
        ),
        (
            "BYO_RUSTC_JAIL_TOOLCHAIN".into(),
            toolchain.as_os_str().to_owned(),
        ),
    ])
}

/// `slot/rustc-jail.sh`, beside the slot's target folder.
fn wrapper_path(target: &Path) -> PathBuf {
    target.parent().unwrap_or(target).join("rustc-jail.sh")
}

#[cfg(test)]
#[path = "rustc_jail_tests.rs"]
mod tests;
