//! `byo-launch`: what `cargo byo ...` runs (the alias in `.cargo/config.toml`). It builds
//! the `byo` command with cargo and hands over to it with the same arguments.
//!
//! `byo` cannot speak before it is built, and a learner's first run builds every crate
//! it depends on, which takes minutes; `cargo run --quiet` would show nothing meanwhile.
//! This launcher has no dependencies, so it compiles in about a second, and then speaks
//! for the build (see [`display`]): at once on a first run, with cargo's own count of its
//! build steps; not at all on a warm run. A warm run does not even ask cargo again when
//! `byo` is certainly up to date ([`fresh`]): a second cargo run would load the whole
//! workspace a second time.

mod build;
mod cargo_says;
mod display;
mod fresh;
mod json;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let arguments: Vec<OsString> = std::env::args_os().skip(1).collect();
    // `byo` is built beside this launcher (same target folder, same profile); when it is
    // not there yet, this is the first run.
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
        .map(|dir| dir.join(format!("byo{}", std::env::consts::EXE_SUFFIX)));
    if let Some(byo) = &beside {
        let names = std::env::vars_os().map(|(name, _)| name.to_string_lossy().into_owned());
        if fresh::up_to_date(byo, &workspace_root(), names) {
            return hand_over(byo, &arguments);
        }
    }
    let first_run = beside.as_deref().is_none_or(|byo| !byo.exists());
    match build::byo(first_run) {
        build::Outcome::Built(byo) => hand_over(&byo, &arguments),
        build::Outcome::Failed(code) => ExitCode::from(code),
    }
}

/// The workspace's root: two folders above this crate's (`graders/launch`), as cargo
/// says when it runs the launcher (the folder may have moved since it was compiled).
fn workspace_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.join("../..")
}

/// Runs `byo` with `arguments` in this process's place (on Unix: `exec`, so signals, the
/// terminal and the exit code are `byo`'s own, as under `cargo run`).
fn hand_over(byo: &Path, arguments: &[OsString]) -> ExitCode {
    let mut command = Command::new(byo);
    command.args(arguments);
    #[cfg(unix)]
    {
        let error = std::os::unix::process::CommandExt::exec(&mut command);
        eprintln!("byo: cannot start {}: {error}", byo.display());
        ExitCode::from(2)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => ExitCode::from(status.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(error) => {
            eprintln!("byo: cannot start {}: {error}", byo.display());
            ExitCode::from(2)
        }
    }
}
