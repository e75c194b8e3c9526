//! The record file format: one record per line, closed by a trailer that counts them.
//!
//! The trailer is what lets a reader (and the crash harness) tell a complete file from
//! a torn one without trusting anything else: a file is complete exactly when its last
//! line is `#end <n>` and `n` lines precede it. A published file must always be
//! complete; a file without its trailer may only ever exist in the staging folder.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

const TRAILER: &str = "#end ";

/// The trailer line (with its newline) closing a file of `records` lines.
pub fn trailer(records: u64) -> String {
    format!("{TRAILER}{records}\n")
}

/// Checks that `line` can be a record: a line of its own that cannot pass for a trailer.
///
/// # Errors
/// When it contains a newline or starts like a trailer.
pub fn check_record(line: &str) -> Result<()> {
    if line.contains('\n') {
        bail!("a record of the file sink must be one line, got {line:?}");
    }
    if line.starts_with('#') {
        bail!(
            "a record of the file sink must not start with '#' (reserved for the trailer), got {line:?}"
        );
    }
    Ok(())
}

/// The records of a complete file.
///
/// # Errors
/// When the file cannot be read, or is torn: no trailer, or a trailer whose count
/// disagrees with the lines before it.
pub fn read_complete(path: &Path) -> Result<Vec<String>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let torn = || {
        format!(
            "{} is torn: a file of the sink must end with its trailer",
            path.display()
        )
    };
    let body = text.strip_suffix('\n').with_context(torn)?;
    let (records, last) = match body.rsplit_once('\n') {
        Some((records, last)) => (records.split('\n').map(str::to_owned).collect(), last),
        None => (Vec::new(), body),
    };
    let count: usize = last
        .strip_prefix(TRAILER)
        .with_context(torn)?
        .parse()
        .with_context(torn)?;
    if count != records.len() {
        bail!(
            "{} is torn: its trailer counts {count} records but {} precede it",
            path.display(),
            records.len()
        );
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_files_read_back_and_torn_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("format-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        fs::write(&path, format!("a\nb\n{}", trailer(2))).unwrap();
        assert_eq!(read_complete(&path).unwrap(), ["a", "b"]);
        fs::write(&path, format!("a\n{}", trailer(2))).unwrap();
        assert!(read_complete(&path).is_err());
        fs::write(&path, "a\nb\n").unwrap();
        assert!(read_complete(&path).is_err());
        fs::write(&path, trailer(0)).unwrap();
        assert!(read_complete(&path).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
