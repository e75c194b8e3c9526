//! A learner's progress, kept in `.byo/progress.json` beside the code (ignored by git).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::workspace::Root;

/// The last verdict on a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastResult {
    /// Every check passed.
    Passed,
    /// A `todo!()` was reached.
    NotStarted,
    /// Some check failed.
    Failed,
    /// The stage did not build.
    DoesNotBuild,
}

/// Everything `byo` remembers for a learner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The stage `byo start` last selected.
    pub current: Option<u8>,
    /// Hints revealed, by stage (`"01"`).
    #[serde(default)]
    pub hints: BTreeMap<String, usize>,
    /// The last full run's verdict, by stage (`"01"`).
    #[serde(default)]
    pub results: BTreeMap<String, LastResult>,
}

impl Progress {
    fn file(root: &Root) -> PathBuf {
        root.progress_dir().join("progress.json")
    }

    /// The saved progress, or a fresh one when there is none yet.
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not a progress file: it is the
    /// learner's, so it is reported rather than silently replaced.
    pub fn load(root: &Root) -> Result<Self> {
        let file = Self::file(root);
        match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
                format!(
                    "{} is not a byo progress file; move it away to start afresh",
                    file.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", file.display())),
        }
    }

    /// Saves atomically (write a temporary file, then rename), so an interrupted save
    /// never leaves a half-written file behind.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, root: &Root) -> Result<()> {
        let dir = root.progress_dir();
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let file = Self::file(root);
        let temporary = dir.join("progress.json.tmp");
        let json = serde_json::to_vec_pretty(self).context("encoding progress")?;
        std::fs::write(&temporary, json)
            .with_context(|| format!("writing {}", temporary.display()))?;
        std::fs::rename(&temporary, &file).with_context(|| format!("replacing {}", file.display()))
    }

    /// The key of `stage` in the maps.
    pub fn key(stage: u8) -> String {
        format!("{stage:02}")
    }

    /// The current stage, 1 when none was started.
    pub fn current_or_first(&self) -> u8 {
        self.current.unwrap_or(1)
    }
}
