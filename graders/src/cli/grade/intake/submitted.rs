//! When a submission was handed in, for `--due`: the newest modification time of the
//! files grading reads from it (its `stages/*/src/**/*.rs`), as the instructor's copy has
//! them.
//!
//! Not its git log: running git in a folder a student controls obeys that repository's own
//! configuration, which can name programs for git to run. A commit's date is the
//! student's to write anyway; so are file times, unless the copy was made by a tool that
//! sets them (a platform's download, `git clone`: the clone's time). The README says so.

use std::path::Path;
use std::time::SystemTime;

/// The newest modification time among the `files` (relative to `root`), if any has one.
pub fn newest(root: &Path, files: &[String]) -> Option<SystemTime> {
    files
        .iter()
        .filter_map(|f| {
            std::fs::symlink_metadata(root.join(f))
                .ok()?
                .modified()
                .ok()
        })
        .max()
}

/// How many whole minutes `submitted` is past `due`; 0 when on time.
pub fn minutes_late(submitted: SystemTime, due: SystemTime) -> u64 {
    submitted
        .duration_since(due)
        .map_or(0, |late| late.as_secs().div_ceil(60))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_newest_graded_file_says_when_and_lateness_rounds_up_to_the_minute() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("a.rs");
        let new = dir.path().join("b.rs");
        std::fs::write(&old, "").unwrap();
        std::fs::write(&new, "").unwrap();
        let at = |s| SystemTime::UNIX_EPOCH + Duration::from_secs(s);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(at(1_000))
            .unwrap();
        std::fs::File::options()
            .write(true)
            .open(&new)
            .unwrap()
            .set_modified(at(5_000))
            .unwrap();
        let files = ["a.rs".to_owned(), "b.rs".to_owned(), "gone.rs".to_owned()];
        assert_eq!(newest(dir.path(), &files), Some(at(5_000)));
        assert_eq!(newest(dir.path(), &[]), None);
        assert_eq!(minutes_late(at(5_000), at(6_000)), 0, "early");
        assert_eq!(minutes_late(at(5_000), at(5_000)), 0, "on the dot");
        assert_eq!(
            minutes_late(at(5_001), at(5_000)),
            1,
            "a second late is a minute"
        );
        assert_eq!(minutes_late(at(5_000 + 3_600), at(5_000)), 60);
    }
}
