//! Whether the `byo` in the target folder is certainly what cargo would build now, so
//! that a warm `cargo byo` starts it without a second cargo run (which costs as much
//! again as the first: loading the whole workspace).
//!
//! The rule is cargo's own for path crates, applied conservatively: every source file
//! cargo listed for `byo` (its dep-info file, `byo.d`), and every manifest, lock and
//! configuration file that shapes the build, is older than the start of the last cargo
//! run that built `byo` or found it fresh (the time [`record`] wrote beside it); and
//! nothing in the environment changes how cargo builds. When any of that is unknown, the
//! answer is no, and cargo decides.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Environment variables that change what cargo builds (flags, compilers, profiles).
/// `CARGO_INCREMENTAL` is not one: it changes how cargo compiles, not what.
const BUILD_VARIABLES: [&str; 5] = [
    "RUSTFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
];

/// Prefixes of the environment variables that set cargo's configuration for a build.
const BUILD_PREFIXES: [&str; 3] = ["CARGO_PROFILE_", "CARGO_BUILD_", "CARGO_TARGET_"];

/// The file beside `byo` that holds when cargo last found it up to date.
fn stamp(byo: &Path) -> PathBuf {
    byo.with_file_name(".byo-launch-checked")
}

/// Notes that a cargo run started at `started` left `byo` up to date.
pub fn record(byo: &Path, started: SystemTime) {
    if let Ok(since) = started.duration_since(UNIX_EPOCH) {
        let _ = std::fs::write(
            stamp(byo),
            format!("{}.{:09}\n", since.as_secs(), since.subsec_nanos()),
        );
    }
}

/// When cargo last found `byo` up to date, as [`record`] wrote it.
fn checked(byo: &Path) -> Option<SystemTime> {
    let text = std::fs::read_to_string(stamp(byo)).ok()?;
    let (secs, nanos) = text.trim().split_once('.')?;
    let since = Duration::new(secs.parse().ok()?, nanos.parse().ok()?);
    UNIX_EPOCH.checked_add(since)
}

/// Whether `byo` is up to date with the sources of the workspace at `root`, and
/// `variables` (the environment's names) leave the build as it was.
pub fn up_to_date(byo: &Path, root: &Path, variables: impl Iterator<Item = String>) -> bool {
    let changes_the_build = |name: &str| {
        BUILD_VARIABLES.contains(&name)
            // CARGO_TARGET_DIR is where `byo` lies, already taken into account.
            || BUILD_PREFIXES.iter().any(|p| name.starts_with(p)) && name != "CARGO_TARGET_DIR"
    };
    if variables.into_iter().any(|name| changes_the_build(&name)) {
        return false;
    }
    let Some(built) = checked(byo).filter(|_| byo.is_file()) else {
        return false;
    };
    let Ok(dep_info) = std::fs::read_to_string(byo.with_extension("d")) else {
        return false;
    };
    let Some(sources) = dep_info_sources(&dep_info) else {
        return false;
    };
    if sources.is_empty() {
        return false;
    }
    let older = |path: &Path| modified(path).is_some_and(|m| m < built);
    // Shapes of the build that dep-info does not list; absent is fine, newer is not.
    let settings = [
        "Cargo.toml",
        "Cargo.lock",
        "graders/Cargo.toml",
        ".cargo/config.toml",
        ".cargo/config",
        "rust-toolchain",
        "rust-toolchain.toml",
    ];
    sources.iter().all(|source| older(source))
        && settings
            .iter()
            .map(|file| root.join(file))
            .all(|file| !file.exists() || older(&file))
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The prerequisites of a dep-info file (`target: a.rs b\ c.rs`, Makefile syntax,
/// spaces escaped with `\`); `None` when it is not one.
fn dep_info_sources(text: &str) -> Option<Vec<PathBuf>> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    // The target is a path too, and may hold an escaped space or a drive's colon:
    // the separator is the first `: ` not escaped.
    let mut sources = Vec::new();
    let mut current = String::new();
    let mut escaped = false;
    let mut in_sources = false;
    let mut chars = first.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !escaped => escaped = true,
            ':' if !escaped && !in_sources && chars.peek() == Some(&' ') => {
                in_sources = true;
                current.clear();
            }
            ' ' if !escaped => {
                if in_sources && !current.is_empty() {
                    sources.push(PathBuf::from(std::mem::take(&mut current)));
                }
                current.clear();
            }
            _ => {
                escaped = false;
                current.push(c);
            }
        }
    }
    if in_sources && !current.is_empty() {
        sources.push(PathBuf::from(current));
    }
    in_sources.then_some(sources)
}

#[cfg(test)]
#[path = "fresh_tests.rs"]
mod tests;
