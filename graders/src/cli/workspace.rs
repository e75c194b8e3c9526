//! Where the kata lives on disk: the repository root and each stage's folders.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::stages::StageInfo;

/// The root of a kata repository (the folder with `stages/`, `graders/`, `hints/`).
#[derive(Debug, Clone)]
pub struct Root(PathBuf);

impl Root {
    /// `BYO_ROOT` if set; else the nearest folder above the current one that looks like
    /// the kata; else the repository this `byo` was built from.
    ///
    /// # Errors
    /// When none of those is a kata repository.
    pub fn locate() -> Result<Self> {
        if let Some(root) = std::env::var_os("BYO_ROOT") {
            return Self::at(PathBuf::from(root));
        }
        if let Ok(cwd) = std::env::current_dir()
            && let Some(found) = cwd.ancestors().find(|p| looks_like_kata(p))
        {
            return Ok(Self(found.to_path_buf()));
        }
        Self::at(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
    }

    /// The kata at `path`.
    ///
    /// # Errors
    /// When `path` is not a kata repository.
    pub fn at(path: PathBuf) -> Result<Self> {
        if looks_like_kata(&path) {
            Ok(Self(path))
        } else {
            bail!(
                "{} is not a kata repository (no Cargo.toml with stages/ and graders/ beside it)",
                path.display()
            )
        }
    }

    /// The root folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// `stages/NN-slug`.
    pub fn stage_dir(&self, stage: &StageInfo) -> PathBuf {
        self.0.join("stages").join(stage.folder())
    }

    /// `hints/NN.md`.
    pub fn hints_file(&self, stage: &StageInfo) -> PathBuf {
        self.0.join("hints").join(format!("{:02}.md", stage.number))
    }

    /// `.byo/`, where a learner's progress is kept (ignored by git).
    pub fn progress_dir(&self) -> PathBuf {
        self.0.join(".byo")
    }

    /// The files of a stage that still hold a `todo!()`, relative to the root, sorted.
    pub fn files_to_edit(&self, stage: &StageInfo) -> Vec<PathBuf> {
        let mut files = Vec::new();
        collect_rs(&self.stage_dir(stage).join("src"), &mut files);
        files.sort();
        files
            .into_iter()
            .filter(|f| std::fs::read_to_string(f).is_ok_and(|text| text.contains("todo!(")))
            .map(|f| f.strip_prefix(&self.0).map(Path::to_path_buf).unwrap_or(f))
            .collect()
    }
}

fn looks_like_kata(path: &Path) -> bool {
    path.join("Cargo.toml").is_file()
        && path.join("stages").is_dir()
        && path.join("graders").is_dir()
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
