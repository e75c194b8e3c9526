//! The two filesystem moves every durable step here is built from.
//!
//! `fsync` on a file makes its bytes durable but not its name; the name lives in the
//! folder, which needs its own `fsync`. Every rename that publishes or stages something
//! is therefore followed by a sync of the folder(s) it touched, and every replace goes
//! write-temp, fsync, rename, fsync-folder, so a crash at any instant leaves the old
//! content or the new one, never a torn mix.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Makes the entries of `dir` (creations, renames, deletions) durable.
///
/// # Errors
/// When the folder cannot be opened or synced.
pub fn sync_dir(dir: &Path) -> Result<()> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("syncing folder {}", dir.display()))
}

/// Creates `dir` (and its parents) and makes its entry durable in its parent.
///
/// # Errors
/// When the folder cannot be created or synced.
pub fn create_dir_durably(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating folder {}", dir.display()))?;
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        sync_dir(parent)?;
    }
    Ok(())
}

/// Replaces `path` by `bytes` atomically and durably (temp file, fsync, rename, fsync
/// of the folder).
///
/// # Errors
/// When any of the steps fails; `path` then still holds its old content.
pub fn replace_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let temp = path.with_extension("tmp");
    let mut file = File::create(&temp).with_context(|| format!("creating {}", temp.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", temp.display()))?;
    fs::rename(&temp, path).with_context(|| format!("renaming {} into place", temp.display()))?;
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => sync_dir(dir),
        None => sync_dir(Path::new(".")),
    }
}
