//! Shape A on a real filesystem: a checkpoint's records in one file, staged at the
//! barrier, published at the commit by an atomic rename.
//!
//! | verb | on disk |
//! |---|---|
//! | `write` | append a line to `…-r<run>.inprogress` (created on the epoch's first record) |
//! | `prepare_commit(c)` | trailer, flush, fsync the file; rename to `…-c<c>` in staging; fsync staging; the handle ([`StagedFile`]) carries the bytes' length and checksum |
//! | `commit` | check the staged file's length and checksum against the handle; rename into the output folder; fsync output |
//! | `abort` | delete the prepared file; fsync staging |
//! | `on_open` | under every name the job has run under: delete every earlier run's in-progress file and every prepared file of a checkpoint after the restored one that this subtask succeeds |
//!
//! The fsync before the rename is the point of the barrier: a handle in a completed
//! checkpoint promises that its records survive a crash, so the bytes must be on disk
//! before the checkpoint can complete, and the prepared name before the handle is persisted.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use committer::connectors::StagedName;
use committer::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, ExactlyOnceCapable, HandleLost,
    Mechanism, OpenContext, OpenTransaction, RunToken, SubtaskId,
};

use super::format::{check_record, trailer};
use super::layout::{Layout, StagingFile};
use super::staged_file::{Digest, StagedFile};
use crate::durable::{create_dir_durably, sync_dir};

/// Who the sink is once opened: it cannot name a file before.
#[derive(Debug, Clone, Copy)]
struct Identity {
    me: SubtaskId,
    run: RunToken,
}

/// The epoch's open file.
#[derive(Debug)]
struct OpenFile {
    path: PathBuf,
    writer: BufWriter<File>,
    records: u64,
    /// Of every byte written, for the handle's checksum.
    digest: Digest,
}

/// A file sink with exactly-once output through staged files and atomic renames.
#[derive(Debug)]
pub struct FileSink {
    layout: Layout,
    identity: Option<Identity>,
    open: Option<OpenFile>,
}

impl FileSink {
    /// A sink writing the files of `layout`'s job.
    pub fn new(layout: Layout) -> Self {
        Self {
            layout,
            identity: None,
            open: None,
        }
    }

    /// The folders the sink writes to.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    fn open_file(&mut self) -> Result<&mut OpenFile> {
        let Some(Identity { me, run }) = self.identity else {
            bail!("write before on_open: the file sink's open file would have no name");
        };
        if self.open.is_none() {
            let path = self.layout.in_progress(me, run);
            // create_new: a fresh run token means nobody else may have this name.
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .with_context(|| format!("creating open file {}", path.display()))?;
            self.open = Some(OpenFile {
                path,
                writer: BufWriter::with_capacity(1 << 16, file),
                records: 0,
                digest: Digest::default(),
            });
        }
        Ok(self.open.as_mut().expect("just opened"))
    }
}

impl CommittingSink for FileSink {
    type Record = String;
    type Committable = StagedFile;
    const MECHANISM: Mechanism = Mechanism::AtomicPublish;
    /// Version 1 was the bare name, which cannot be checked before it is published.
    const COMMITTABLE_VERSION: u32 = 2;

    fn on_open(&mut self, context: &OpenContext<'_, StagedFile>) -> Result<()> {
        if context.job != self.layout.job() {
            bail!(
                "the file sink was laid out for job {:?} but opened for job {:?}",
                self.layout.job(),
                context.job
            );
        }
        create_dir_durably(self.layout.staging())?;
        create_dir_durably(self.layout.output())?;
        // Under every name the job has run under: a renamed job still owns those files.
        for job in context.names {
            let layout = self.layout.for_job(job)?;
            if layout.staging().exists() {
                sweep(&layout, context)?;
            }
        }
        self.identity = Some(Identity {
            me: context.subtask(),
            run: context.run_token,
        });
        Ok(())
    }

    fn write(&mut self, record: String) -> Result<()> {
        check_record(&record)?;
        let open = self.open_file()?;
        open.writer
            .write_all(record.as_bytes())
            .and_then(|()| open.writer.write_all(b"\n"))
            .with_context(|| format!("appending to {}", open.path.display()))?;
        open.records += 1;
        open.digest.update(record.as_bytes());
        open.digest.update(b"\n");
        Ok(())
    }

    fn open_transaction(&self) -> OpenTransaction {
        match self.open {
            Some(_) => OpenTransaction::Holding,
            None => OpenTransaction::Empty,
        }
    }

    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<StagedFile>> {
        let Some(Identity { me, run }) = self.identity else {
            bail!("prepare_commit before on_open: the file would have no name");
        };
        let Some(mut open) = self.open.take() else {
            return Ok(None);
        };
        let trailer = trailer(open.records);
        open.writer.write_all(trailer.as_bytes())?;
        open.digest.update(trailer.as_bytes());
        let file = open
            .writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("flushing {}", open.path.display()))?;
        file.sync_all()
            .with_context(|| format!("fsyncing {}", open.path.display()))?;
        let name = StagedName {
            job: self.layout.job().to_owned(),
            author: me,
            run,
            checkpoint,
        };
        let prepared = self.layout.prepared(&name);
        fs::rename(&open.path, &prepared).with_context(|| {
            format!("staging {} as {}", open.path.display(), prepared.display())
        })?;
        sync_dir(self.layout.staging())?;
        let (len, checksum) = open.digest.finish();
        Ok(Some(StagedFile {
            name,
            len,
            checksum,
        }))
    }

    /// Checks the staged file against its handle, then publishes it.
    fn commit(&mut self, handle: &StagedFile) -> Result<CommitOutcome> {
        let name = &handle.name;
        let (prepared, published) = (self.layout.prepared(name), self.layout.published(name));
        match handle.verify(&prepared) {
            // Gone from staging: published already, or lost; the rename below says which.
            Err(e)
                if e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == ErrorKind::NotFound) => {}
            checked => checked?,
        }
        match fs::rename(&prepared, &published) {
            Ok(()) => {
                // Only the new name must be durable. Staging is not synced: should the
                // prepared name outlive a crash beside the published one (both are
                // the same file), recovery's commit renames it over itself, or the
                // sweep drops it as a stale twin; the output stays whole either way.
                sync_dir(folder(&published))?;
                Ok(CommitOutcome::Committed)
            }
            Err(e) if e.kind() == ErrorKind::NotFound && published.exists() => {
                Ok(CommitOutcome::AlreadyCommitted)
            }
            Err(e) if e.kind() == ErrorKind::NotFound => Err(HandleLost {
                handle: format!(
                    "staged file {name} (prepared {}, published {})",
                    prepared.display(),
                    published.display()
                ),
            }
            .into()),
            Err(e) => Err(e).with_context(|| format!("publishing {}", prepared.display())),
        }
    }

    fn abort(&mut self, handle: &StagedFile) -> Result<AbortOutcome> {
        let name = &handle.name;
        let prepared = self.layout.prepared(name);
        match fs::remove_file(&prepared) {
            Ok(()) => {
                sync_dir(folder(&prepared))?;
                Ok(AbortOutcome::Aborted)
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if self.layout.published(name).exists() {
                    bail!("cannot abort {name}: it is already published");
                }
                Ok(AbortOutcome::AlreadyAborted)
            }
            Err(e) => Err(e).with_context(|| format!("discarding {}", prepared.display())),
        }
    }
}

impl ExactlyOnceCapable for FileSink {}

/// The folder a file of the layout lies in.
fn folder(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("."))
}

/// Discards the orphans in `layout`'s staging folder that `context`'s subtask is
/// responsible for: an earlier run's open files and prepared files of checkpoints after
/// the restored one, never a restored handle's.
fn sweep(layout: &Layout, context: &OpenContext<'_, StagedFile>) -> Result<()> {
    let restored: Vec<&StagedName> = context.pending.iter().map(|(_, c)| &c.name).collect();
    let mut swept = false;
    for entry in fs::read_dir(layout.staging())? {
        let file = entry?.file_name();
        let Some(found) = file.to_str().and_then(|f| layout.classify(f)) else {
            continue;
        };
        // This run's own files are never orphans (another subtask may have opened and
        // staged already); an earlier run's open file never reached a barrier.
        let orphan = match &found {
            StagingFile::InProgress { run, .. } | StagingFile::Prepared(StagedName { run, .. })
                if *run == context.run_token =>
            {
                false
            }
            StagingFile::InProgress { author, .. } => context.succession.succeeds(*author)?,
            // Published already: the staged name outlived its rename in a crash.
            StagingFile::Prepared(name) if layout.published(name).exists() => true,
            StagingFile::Prepared(name) => {
                context.is_orphan(name.author, name.checkpoint)? && !restored.contains(&name)
            }
        };
        if orphan {
            let path = layout.staging().join(&file);
            fs::remove_file(&path)
                .with_context(|| format!("discarding orphan {}", path.display()))?;
            swept = true;
        }
    }
    if swept {
        sync_dir(layout.staging())?;
    }
    Ok(())
}
