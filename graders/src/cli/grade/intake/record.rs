//! The verdict on reach-outs, from what the compiler read: after a learner crate is
//! built, its dep-info record ([`crate::cli::dep_info`]) lists every file rustc read for
//! it, and a stage whose crate read any file outside its own `src/` is refused, except the
//! skeleton's public includes (its brief, its hints: whatever the pristine skeleton
//! itself includes from outside `src/`).
//!
//! The text scan ([`super::reach`]) reads the source with its own lexer, which can read it
//! otherwise than rustc does (an escape in a `#[path]` string, a path built by `concat!`,
//! an include a macro expands to): it stays as the early, friendly message, and the
//! verdict is this one. Paths are compared canonical (no `..`, no symbolic link), and a
//! refusal names the file relative to the workspace, never its contents.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use super::tokens::{Token, tokens};
use crate::cli::dep_info::Records;
use crate::stages;

/// The files outside its `src/` each stage's skeleton includes, relative to the
/// workspace (`stages/01-dataflow/README.md`, `hints/01.md`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublicIncludes(BTreeMap<u8, BTreeSet<PathBuf>>);

impl PublicIncludes {
    /// What the skeletons of the pristine tree at `pristine` include from outside their
    /// `src/`: every `include!`, `include_str!` and `include_bytes!` of a string literal in
    /// their sources (the instructor's own, plainly written).
    pub fn of_skeletons(pristine: &Path) -> Self {
        let mut all = BTreeMap::new();
        for stage in stages::LADDER.iter() {
            let stage_dir = Path::new("stages").join(stage.folder());
            let src = stage_dir.join("src");
            let mut found = BTreeSet::new();
            for file in rust_files(&pristine.join(&src)) {
                let Ok(text) = std::fs::read_to_string(&file) else {
                    continue;
                };
                let Ok(in_src) = file.strip_prefix(pristine.join(&src)) else {
                    continue;
                };
                let base = src.join(in_src.parent().unwrap_or(Path::new("")));
                for literal in included_literals(&text) {
                    if let Some(path) = normalise(&base.join(literal))
                        && !path.starts_with(&src)
                    {
                        found.insert(path);
                    }
                }
            }
            all.insert(stage.number, found);
        }
        Self(all)
    }
}

/// Why the build whose records are `records`, made in `workspace`, is refused: every
/// file a learner crate read outside its stage's `src/` and the skeleton's public
/// includes, one line each; `None` when there is none.
pub fn verdict(workspace: &Path, public: &PublicIncludes, records: &Records) -> Option<String> {
    let workspace = canonical(workspace);
    let mut lines = Vec::new();
    for output in &records.missing {
        let name = output.file_name().unwrap_or_default().to_string_lossy();
        lines.push(format!(
            "no record of what the compiler read for `{name}` belongs to this build, so \
             what it read cannot be judged: grade again"
        ));
    }
    for record in &records.found {
        let root = canonical(&record.root);
        let Some(stage) = stages::LADDER
            .iter()
            .find(|s| root.starts_with(workspace.join("stages").join(s.folder()).join("src")))
        else {
            continue;
        };
        let stage_dir = Path::new("stages").join(stage.folder());
        let src = workspace.join(stage_dir.join("src"));
        let allowed: BTreeSet<PathBuf> = public
            .0
            .get(&stage.number)
            .into_iter()
            .flatten()
            .map(|p| canonical(&workspace.join(p)))
            .collect();
        for read in &record.reads {
            let read = canonical(read);
            if read.starts_with(&src) || allowed.contains(&read) {
                continue;
            }
            let shown = match read.strip_prefix(&workspace) {
                Ok(inside) => format!("`{}`", inside.display()),
                Err(_) => format!(
                    "a file outside the grading workspace (`{}`)",
                    read.file_name().unwrap_or_default().to_string_lossy()
                ),
            };
            let line = format!(
                "refused: stage {:02}'s crate made the compiler read {shown}, outside \
                 `{}/src/` (a stage may read only its own src/ and its brief)",
                stage.number,
                stage_dir.display()
            );
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// `path` canonical: symbolic links and `..` resolved; a file that is gone, with `.` and
/// `..` resolved as written.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        let mut out = PathBuf::new();
        for component in path.components() {
            match component {
                Component::ParentDir => {
                    out.pop();
                }
                Component::CurDir => {}
                other => out.push(other),
            }
        }
        out
    })
}

/// `path` (relative) with `.` and `..` resolved; `None` when it climbs above its start
/// or is absolute.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.iter().collect())
}

/// The string literals `include!`, `include_str!` and `include_bytes!` are given in
/// `source`.
fn included_literals(source: &str) -> Vec<String> {
    let tokens = tokens(source);
    tokens
        .windows(5)
        .filter_map(|w| match w {
            [
                Token::Ident(name),
                Token::Punct('!'),
                Token::Punct('(' | '[' | '{'),
                Token::Str(path),
                Token::Punct(')' | ']' | '}'),
            ] if matches!(name.as_str(), "include" | "include_str" | "include_bytes") => {
                Some(path.clone())
            }
            _ => None,
        })
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(path),
                Ok(kind) if kind.is_file() && path.extension().is_some_and(|e| e == "rs") => {
                    files.push(path);
                }
                _ => {}
            }
        }
    }
    files
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
