//! The job's history, and the destination it belongs to.
//!
//! A job folder is one history of a job: its checkpoints' offsets mean something only
//! to the output that same history wrote. Two folders running one job name against one
//! PostgreSQL used to write beside each other, each sweeping and committing the other's
//! transactions by name, and each restore judged by checkpoint ids that meant
//! different offsets: 150 silent duplicates. So the first run of a folder mints a
//! [`Lineage`], records its id in the folder and claims the destination with it (a row
//! in PostgreSQL, a file beside the file sink's output); every later run, before it
//! sweeps or writes anything, checks that the destination's claim is its folder's, and
//! a run of another history is refused, leaving the destination as it found it.
//!
//! The claim also holds a key, never written into the folder, that seals every
//! checkpoint ([`super::checkpoints`]): a checkpoint of another history, or one whose
//! offset was edited and its published checksum recomputed, does not match the seal.

use std::collections::hash_map::RandomState;
use std::fs;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result, bail};
use postgres::Client;

use crate::durable::replace_file;

/// One history of a job: its id, and the key sealing its checkpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineage {
    /// Recorded in the job folder and at the destination.
    pub id: String,
    /// Kept at the destination only.
    pub key: u64,
}

impl Lineage {
    /// A new history, unlike any other (random id and key).
    pub fn mint() -> Self {
        Self {
            id: format!("{:016x}", random()),
            key: random(),
        }
    }
}

/// 64 random bits from the standard library's randomly keyed hasher.
fn random() -> u64 {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one((now, std::process::id()))
}

/// Where a destination keeps the claim of the history it belongs to.
pub enum Claim<'a> {
    /// The file sink's: a file beside its output.
    File(PathBuf),
    /// A PostgreSQL sink's: the job's row in `xo_lineage`.
    Postgres(&'a mut Client, &'a str),
}

impl Claim<'_> {
    /// The history the destination belongs to, if any.
    ///
    /// # Errors
    /// When the claim cannot be read.
    pub fn read(&mut self) -> Result<Option<Lineage>> {
        match self {
            Claim::File(path) => match fs::read_to_string(&*path) {
                Ok(text) => {
                    let (id, key) = text
                        .trim()
                        .split_once(' ')
                        .with_context(|| format!("{} is not `<id> <key>`", path.display()))?;
                    let key = u64::from_str_radix(key, 16)
                        .with_context(|| format!("reading the key in {}", path.display()))?;
                    Ok(Some(Lineage {
                        id: id.to_owned(),
                        key,
                    }))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
            },
            Claim::Postgres(client, job) => {
                let row = client
                    .query_opt("SELECT lineage, key FROM xo_lineage WHERE job = $1", &[job])
                    .context("reading the job's lineage")?;
                Ok(row.map(|row| Lineage {
                    id: row.get(0),
                    key: row.get::<_, i64>(1) as u64,
                }))
            }
        }
    }

    /// Claims the destination for `lineage` unless it is claimed; returns the claim
    /// that holds afterwards.
    ///
    /// # Errors
    /// When the claim cannot be written.
    pub fn claim(&mut self, lineage: &Lineage) -> Result<Lineage> {
        match self {
            Claim::File(path) => {
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent)?;
                }
                let text = format!("{} {:016x}\n", lineage.id, lineage.key);
                replace_file(path, text.as_bytes())?;
            }
            Claim::Postgres(client, job) => {
                client
                    .execute(
                        "INSERT INTO xo_lineage (job, lineage, key) VALUES ($1, $2, $3) \
                         ON CONFLICT (job) DO NOTHING",
                        &[job, &lineage.id, &(lineage.key as i64)],
                    )
                    .context("claiming the job's name for this folder's history")?;
            }
        }
        self.read()?.context("the claim just written is gone")
    }
}

/// The history of the job in `dir` against the destination behind `claim`: the
/// folder's own, checked; or, on a first run, a new one, claimed.
///
/// # Errors
/// When the destination belongs to another history (another folder's, or this folder's
/// record of it was lost): the message says whose, and how to resolve it. Nothing has
/// been swept, committed or written when this refuses.
pub fn settle(
    dir: &Path,
    job: &str,
    has_checkpoint: bool,
    mut claim: Claim<'_>,
) -> Result<Lineage> {
    let path = dir.join("lineage");
    let folder = match fs::read_to_string(&path) {
        Ok(text) => Some(text.trim().to_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let foreign = |held: &str, ours: Option<&str>| {
        let ours = ours.map_or("has none".to_owned(), |id| format!("is {id}"));
        anyhow::anyhow!(
            "job {job:?} at this destination belongs to the history {held}, begun in another \
             folder; this folder's ({}) {ours}. Running here would mint names beside that \
             history's and restore offsets that mean nothing to its output, so nothing was \
             touched. Resume the job from the folder that began it, or end that history \
             first: `demo doctor --dir <that folder> ... --sweep --release` (see `demo doctor \
             --help`)",
            dir.display()
        )
    };
    match (folder, claim.read()?) {
        (Some(ours), Some(held)) if ours == held.id => Ok(held),
        (ours, Some(held)) => Err(foreign(&held.id, ours.as_deref())),
        (Some(ours), None) if has_checkpoint => bail!(
            "this folder's history {ours} of job {job:?} has checkpoints, but the destination \
             no longer records it (its claim was released or cleared): its checkpoints can no \
             longer be checked against the output, so nothing was touched. To start over, \
             remove {} and the folder's checkpoints",
            path.display()
        ),
        (_, None) => {
            // The folder first: a crash before the claim leaves a folder with a history
            // and no checkpoint, which the next run claims again.
            let minted = Lineage::mint();
            replace_file(&path, format!("{}\n", minted.id).as_bytes())?;
            let held = claim.claim(&minted)?;
            if held.id != minted.id {
                return Err(foreign(&held.id, Some(&minted.id)));
            }
            Ok(held)
        }
    }
}
