//! Writing `autograder.zip` with the `zip` crate: the scripts at the root (executable),
//! then every file of the staging folder, in sorted order and with the 1980 timestamp
//! zip uses by default, so the same inputs give the same bytes.

use std::fs::File;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Zips `scripts` (name, text) and everything under `folder` into `zip`; returns its size.
///
/// # Errors
/// When a file cannot be read or the zip cannot be written.
pub fn zip_folder(folder: &Path, scripts: &[(&str, String)], zip: &Path) -> Result<u64> {
    let file = File::create(zip).with_context(|| format!("creating {}", zip.display()))?;
    let mut writer = ZipWriter::new(file);
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, text) in scripts {
        writer.start_file(*name, options.unix_permissions(0o755))?;
        writer.write_all(text.as_bytes())?;
    }
    let mut files = Vec::new();
    walk(folder, Path::new(""), &mut files)?;
    files.sort();
    for rel in files {
        let path = folder.join(&rel);
        let mode = std::fs::symlink_metadata(&path)
            .with_context(|| format!("reading {}", path.display()))?
            .permissions()
            .mode();
        let name = rel.to_string_lossy().replace('\\', "/");
        writer.start_file(name, options.unix_permissions(mode & 0o777))?;
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        writer.write_all(&bytes)?;
    }
    writer.finish().context("finishing the zip")?;
    Ok(std::fs::metadata(zip)
        .with_context(|| format!("reading {}", zip.display()))?
        .len())
}

/// Every regular file under `root/rel`, relative to `root` (symbolic links are left out:
/// a kata has none, and a zip of one would point outside it).
fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let dir = root.join(rel);
    for entry in std::fs::read_dir(&dir).with_context(|| format!("listing {}", dir.display()))? {
        let entry = entry.with_context(|| format!("listing {}", dir.display()))?;
        let child = rel.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &child, out)?;
        } else if kind.is_file() {
            out.push(child);
        }
    }
    Ok(())
}
