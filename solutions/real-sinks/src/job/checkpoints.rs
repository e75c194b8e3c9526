//! The coordinator's durable records: completed checkpoints, run generations, and the
//! end of the input.
//!
//! Writing a checkpoint file *is* the completion: once it is on disk, a restart
//! restores it, so its handles must be committed (by a notification or by recovery).
//! Each checkpoint gets a file of its own, `checkpoints/e<epoch>-c<id>`, written under a
//! unique temporary name and renamed into place, and never overwritten; the latest is
//! the file with the greatest epoch (the folder fence's, bumped at every start), then
//! the greatest id. So the fence holds to the last write without a check-then-write
//! race: a run overtaken between its fence check and its write still writes, but under
//! its older epoch, and its file can never be taken over the newer run's (it used to
//! write `checkpoint.json` over a newer run's checkpoint 60 with its checkpoint 20).
//!
//! The two latest files are kept: when the latest is damaged (torn, edited, of another
//! history), the restore falls back to the one before, loudly, and the sinks' committed
//! marks then judge whether that older checkpoint may still be replayed.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use committer::{CheckpointId, Fenced};

pub use super::checkpoint::Checkpoint;
use super::lineage::Lineage;
use super::seal::{decode, encode};
use crate::durable::{create_dir_durably, replace_file, sync_dir};

/// The checkpoint a restore takes, and the damaged later files it passed over.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The latest readable checkpoint.
    pub checkpoint: Checkpoint,
    /// Later files refused, newest first, with why: each is a loud warning.
    pub passed_over: Vec<(PathBuf, String)>,
}

/// The checkpoint files of the job in one folder, sealed for one history.
#[derive(Debug, Clone)]
pub struct CheckpointStore {
    dir: PathBuf,
    lineage: Lineage,
}

/// How many checkpoint files are kept: the latest and one to fall back to.
const KEPT: usize = 2;

impl CheckpointStore {
    /// The store of the job in `dir`, of history `lineage`.
    pub fn new(dir: &Path, lineage: &Lineage) -> Self {
        Self {
            dir: dir.join("checkpoints"),
            lineage: lineage.clone(),
        }
    }

    /// The latest completed checkpoint that reads back whole, if any.
    ///
    /// # Errors
    /// When checkpoint files exist but none can be restored (each reason is named), or
    /// the folder holds a checkpoint of an older build.
    pub fn latest(&self) -> Result<Option<Restored>> {
        let old = self.dir.with_file_name("checkpoint.json");
        if old.exists() {
            bail!(
                "{} was written by an older build (one file, format v2); this build keeps \
                 sealed checkpoints in {}: finish the job with the build that began it",
                old.display(),
                self.dir.display()
            );
        }
        let mut passed_over = Vec::new();
        for (_, id, path) in checkpoint_files(&self.dir)? {
            let read = fs::read(&path)
                .with_context(|| format!("reading {}", path.display()))
                .and_then(|bytes| decode(&bytes, &self.lineage));
            match read {
                Ok(checkpoint) if checkpoint.id == id => {
                    return Ok(Some(Restored {
                        checkpoint,
                        passed_over,
                    }));
                }
                Ok(checkpoint) => passed_over.push((
                    path,
                    format!(
                        "it holds checkpoint {}, not the {id} its name says",
                        checkpoint.id
                    ),
                )),
                Err(e) => passed_over.push((path, format!("{e:#}"))),
            }
        }
        if passed_over.is_empty() {
            return Ok(None);
        }
        let reasons: Vec<String> = (passed_over.iter())
            .map(|(path, why)| format!("{}: {why}", path.display()))
            .collect();
        bail!(
            "refusing to restore: no checkpoint file reads back whole ({})",
            reasons.join("; ")
        )
    }

    /// Completes `checkpoint` of a run holding folder epoch `epoch`, durably, then drops
    /// the files older than the two latest.
    ///
    /// A run that finds a file of a newer epoch once its own is written was overtaken
    /// after its fence check: it takes its file back (it could only ever serve as a
    /// fallback, and its handles may be swept already) and drops nothing, so the newer
    /// run keeps the checkpoint it would fall back to.
    ///
    /// # Errors
    /// When it cannot be written (the previous checkpoints then stay), or with
    /// [`Fenced`] when a newer run overtook this one.
    pub fn complete(&self, epoch: u64, checkpoint: &Checkpoint) -> Result<()> {
        create_dir_durably(&self.dir)?;
        let name = format!("e{epoch:010}-c{:012}", checkpoint.id);
        let (path, temp) = (self.dir.join(&name), self.dir.join(format!("{name}.tmp")));
        let mut file = File::options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| format!("creating {}", temp.display()))?;
        file.write_all(&encode(checkpoint, &self.lineage)?)
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing {}", temp.display()))?;
        if path.exists() {
            bail!(
                "{} exists already: a checkpoint file is never overwritten",
                path.display()
            );
        }
        fs::rename(&temp, &path).with_context(|| format!("completing {}", path.display()))?;
        sync_dir(&self.dir)?;
        let files = checkpoint_files(&self.dir)?;
        if let Some(&(newest, ..)) = files.first().filter(|(newest, ..)| *newest > epoch) {
            fs::remove_file(&path).with_context(|| format!("taking back {}", path.display()))?;
            sync_dir(&self.dir)?;
            return Err(Fenced {
                held: epoch,
                current: newest,
            }
            .into());
        }
        for (_, _, stale) in files.iter().skip(KEPT) {
            fs::remove_file(stale).with_context(|| format!("dropping {}", stale.display()))?;
        }
        Ok(())
    }
}

/// The checkpoint files of the job in `dir`, latest first, with their epoch and id.
///
/// # Errors
/// When the folder cannot be read.
pub fn files(dir: &Path) -> Result<Vec<(u64, CheckpointId, PathBuf)>> {
    checkpoint_files(&dir.join("checkpoints"))
}

/// The checkpoint files in the folder `checkpoints`, latest first.
fn checkpoint_files(checkpoints: &Path) -> Result<Vec<(u64, CheckpointId, PathBuf)>> {
    let mut files = Vec::new();
    match fs::read_dir(checkpoints) {
        Ok(entries) => {
            for entry in entries {
                let path = entry?.path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if let Some((epoch, id)) = parse(name) {
                    files.push((epoch, id, path));
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("listing {}", checkpoints.display())),
    }
    files.sort_by_key(|&(epoch, id, _)| std::cmp::Reverse((epoch, id)));
    Ok(files)
}

/// The epoch and id a checkpoint file's name says (never a temporary's).
fn parse(name: &str) -> Option<(u64, CheckpointId)> {
    let (epoch, id) = name.strip_prefix('e')?.split_once("-c")?;
    if id.contains('.') {
        return None;
    }
    Some((epoch.parse().ok()?, id.parse().ok()?))
}

/// The next run's generation in `dir` (1 for the first run), recorded before it is used.
///
/// # Errors
/// When the generation file cannot be read or written.
pub fn bump_generation(dir: &Path) -> Result<u64> {
    let path = generation_file(dir);
    let last = match fs::read_to_string(&path) {
        Ok(text) => text
            .trim()
            .parse()
            .with_context(|| format!("reading {}", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let next: u64 = last + 1;
    replace_file(&path, next.to_string().as_bytes())?;
    Ok(next)
}

/// The file holding the latest run's generation in `dir` (the folder's fencing epoch).
pub fn generation_file(dir: &Path) -> PathBuf {
    dir.join("generation")
}

/// Whether a run of the job in `dir` has finished the input.
pub fn is_done(dir: &Path) -> bool {
    dir.join("done").exists()
}

/// Records that the input of the job in `dir` is finished and every handle committed.
///
/// # Errors
/// When the marker cannot be written.
pub fn mark_done(dir: &Path) -> Result<()> {
    replace_file(&dir.join("done"), b"done\n")
}
