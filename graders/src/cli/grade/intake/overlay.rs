//! The pristine overlay: the instructor's repository as committed, plus only the
//! submission's stage sources. Nothing else a submission ships is ever used.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::reach;
use crate::cli::grade::model::Overlay;

/// Extracts the committed tree (`git archive HEAD`) of the repository at `root` into `into`.
///
/// # Errors
/// When `root` is not a git checkout with a commit, or the archive cannot be unpacked.
pub fn extract_pristine(root: &Path, into: &Path) -> Result<()> {
    if into.exists() {
        fs::remove_dir_all(into).with_context(|| format!("clearing {}", into.display()))?;
    }
    fs::create_dir_all(into).with_context(|| format!("creating {}", into.display()))?;
    let archive = Command::new("git")
        .current_dir(root)
        .args(["archive", "--format=tar", "HEAD"])
        .output()
        .context("running git archive (grading needs git)")?;
    if !archive.status.success() {
        bail!(
            "git archive HEAD failed in {}: grading copies the instructor's repository as committed: {}",
            root.display(),
            String::from_utf8_lossy(&archive.stderr).trim()
        );
    }
    let mut tar = Command::new("tar")
        .current_dir(into)
        .args(["-xf", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .context("running tar to unpack the pristine tree")?;
    {
        use std::io::Write;
        let mut stdin = tar.stdin.take().context("tar's stdin")?;
        stdin.write_all(&archive.stdout).context("feeding tar")?;
    }
    let status = tar.wait().context("waiting for tar")?;
    if !status.success() {
        bail!(
            "tar could not unpack the pristine tree into {}",
            into.display()
        );
    }
    Ok(())
}

/// Makes `workspace` an exact copy of `pristine`, writing only files whose bytes differ
/// so that cargo's fingerprints (which include modification times) stay warm.
///
/// # Errors
/// When a file cannot be read or written.
pub fn sync(pristine: &Path, workspace: &Path) -> Result<()> {
    let wanted = files_under(pristine)?;
    for rel in &wanted {
        write_if_different(&pristine.join(rel), &workspace.join(rel))?;
    }
    for rel in files_under(workspace)? {
        if !wanted.contains(&rel) {
            fs::remove_file(workspace.join(&rel))
                .with_context(|| format!("removing {}", rel.display()))?;
        }
    }
    Ok(())
}

/// Makes `workspace` a copy of `pristine` with the submission's stage sources laid over
/// it ([`overlay`]).
///
/// # Errors
/// When a file cannot be read or written.
pub fn prepare(pristine: &Path, workspace: &Path, submission: &Path) -> Result<Overlay> {
    sync(pristine, workspace)?;
    overlay(pristine, workspace, submission)
}

/// Overlays the submission's `stages/*/src/**/*.rs` onto `workspace` (already a copy of
/// `pristine`) and lists everything else it changed as ignored.
///
/// # Errors
/// When the submission cannot be read.
pub fn overlay(pristine: &Path, workspace: &Path, submission: &Path) -> Result<Overlay> {
    let mut result = Overlay::default();
    let stage_dirs: BTreeSet<String> = fs::read_dir(pristine.join("stages"))
        .context("the pristine tree has no stages/")?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    walk(submission, Path::new(""), &mut |rel, kind| {
        let shown = rel.display().to_string();
        match kind {
            EntryKind::Symlink => result.refused.push(format!("{shown}: a symbolic link")),
            EntryKind::NotUtf8 => result
                .refused
                .push(format!("{shown}: a name that is not UTF-8")),
            EntryKind::File if is_stage_source(rel, &stage_dirs) => {
                let source = fs::read(submission.join(rel))
                    .with_context(|| format!("reading {}", submission.join(rel).display()))?;
                let in_src: PathBuf = rel.components().skip(3).collect();
                let reaches = reach::reach_outs(&in_src, &String::from_utf8_lossy(&source));
                if reaches.is_empty() {
                    write_if_different(&submission.join(rel), &workspace.join(rel))?;
                    result.overlaid.push(shown);
                } else {
                    result
                        .refused
                        .extend(reaches.into_iter().map(|why| format!("{shown}: {why}")));
                }
            }
            EntryKind::File => {
                let theirs = fs::read(submission.join(rel)).ok();
                let ours = fs::read(pristine.join(rel)).ok();
                if theirs != ours {
                    result.ignored.push(shown);
                }
            }
        }
        Ok(())
    })?;
    Ok(result)
}

/// `stages/<a stage of the pristine tree>/src/**/*.rs`, with only normal components.
fn is_stage_source(rel: &Path, stage_dirs: &BTreeSet<String>) -> bool {
    let parts: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(p) => p.to_str().unwrap_or("\u{0}"),
            _ => "\u{0}",
        })
        .collect();
    matches!(parts.as_slice(), ["stages", stage, "src", .., file]
        if stage_dirs.contains(*stage) && file.ends_with(".rs"))
}

enum EntryKind {
    File,
    Symlink,
    NotUtf8,
}

/// Visits every entry under `dir` without following symbolic links, skipping the build
/// output, git's folder and `byo`'s progress.
fn walk(
    base: &Path,
    rel: &Path,
    visit: &mut dyn FnMut(&Path, EntryKind) -> Result<()>,
) -> Result<()> {
    let dir = base.join(rel);
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let child = rel.join(&name);
        if name.to_str().is_none() {
            visit(&child, EntryKind::NotUtf8)?;
            continue;
        }
        if rel.as_os_str().is_empty() && matches!(name.to_str(), Some(".git" | "target" | ".byo")) {
            continue;
        }
        let meta = fs::symlink_metadata(entry.path())?;
        if meta.file_type().is_symlink() {
            visit(&child, EntryKind::Symlink)?;
        } else if meta.is_dir() {
            walk(base, &child, visit)?;
        } else if meta.is_file() {
            visit(&child, EntryKind::File)?;
        }
    }
    Ok(())
}

fn files_under(dir: &Path) -> Result<BTreeSet<PathBuf>> {
    let mut files = BTreeSet::new();
    if dir.exists() {
        walk(dir, Path::new(""), &mut |rel, kind| {
            if matches!(kind, EntryKind::File) {
                files.insert(rel.to_path_buf());
            }
            Ok(())
        })?;
    }
    Ok(files)
}

/// Copies `from` to `to` unless `to` already holds the same bytes (keeping cargo's
/// fingerprints, which include modification times, warm).
pub(crate) fn write_if_different(from: &Path, to: &Path) -> Result<()> {
    let bytes = fs::read(from).with_context(|| format!("reading {}", from.display()))?;
    if fs::read(to).ok().as_deref() == Some(bytes.as_slice()) {
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    fs::write(to, bytes).with_context(|| format!("writing {}", to.display()))
}
