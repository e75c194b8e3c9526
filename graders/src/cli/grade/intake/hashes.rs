//! The files graded, by their git blob hashes: each hash recorded in the report, so a
//! file graded can be matched to a copy later, and the files that differ from the
//! skeleton (the learner's work).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// The git blob hash of each of `paths` (relative to `dir`), as `git hash-object` gives
/// it, so a file graded can be matched to a copy later; "unknown" when git cannot say.
pub fn file_hashes(dir: &Path, paths: &[String]) -> BTreeMap<String, String> {
    let hashes = (|| {
        let mut child = Command::new("git")
            .args(["hash-object", "--no-filters", "--stdin-paths"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        // Absolute: inside a git checkout, `--stdin-paths` reads paths from the
        // checkout's top, not from the current folder.
        let list: String = paths
            .iter()
            .map(|p| format!("{}\n", dir.join(p).display()))
            .collect();
        stdin.write_all(list.as_bytes()).ok()?;
        drop(stdin);
        let output = child.wait_with_output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        (output.status.success() && lines.len() == paths.len()).then_some(lines)
    })();
    let hashes = hashes.unwrap_or_else(|| vec!["unknown".to_owned(); paths.len()]);
    paths.iter().cloned().zip(hashes).collect()
}

/// Which of the files hashed in `hashes` differ from (or are absent in) the skeleton in
/// `pristine`.
pub fn changed_from(pristine: &Path, hashes: &BTreeMap<String, String>) -> Vec<String> {
    let present: Vec<String> = hashes
        .keys()
        .filter(|p| pristine.join(p).is_file())
        .cloned()
        .collect();
    let skeleton = file_hashes(pristine, &present);
    hashes
        .iter()
        .filter(|(path, hash)| skeleton.get(*path) != Some(*hash))
        .map(|(path, _)| path.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_graded_has_its_blob_hash() {
        // Inside this checkout, where git reads relative paths from its top.
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        std::fs::write(dir.path().join("a.rs"), "hello\n").unwrap();
        let hashes = file_hashes(dir.path(), &["a.rs".to_owned()]);
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(hashes["a.rs"], "ce013625030ba8dba906f756967f9e9ca394464a");
    }
}
