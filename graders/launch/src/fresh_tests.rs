//! `byo` counts as up to date only when nothing cargo would look at is newer, and the
//! environment leaves the build alone; anything unknown sends the launcher to cargo.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{dep_info_sources, record, up_to_date};

/// A scratch workspace: `graders/src/lib.rs`, a manifest and a lock, and a `byo` that a
/// cargo run started after them all found up to date, with its dep-info; removed when
/// dropped.
struct Built {
    root: PathBuf,
    byo: PathBuf,
}

fn at(path: &Path, seconds_ago: u64) {
    let time = SystemTime::now() - Duration::from_secs(seconds_ago);
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

impl Built {
    fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("byo-launch-fresh-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("graders/src")).unwrap();
        fs::create_dir_all(root.join("target/debug")).unwrap();
        let byo = root.join("target/debug/byo");
        let lib = root.join("graders/src/lib.rs");
        let spaced = root.join("graders/src/a file.rs");
        for file in [&lib, &spaced] {
            fs::write(file, "//! x\n").unwrap();
            at(file, 100);
        }
        for file in ["Cargo.toml", "Cargo.lock", "graders/Cargo.toml"] {
            fs::write(root.join(file), "").unwrap();
            at(&root.join(file), 100);
        }
        fs::write(&byo, "").unwrap();
        at(&byo, 80);
        record(&byo, SystemTime::now() - Duration::from_secs(50));
        let escaped = spaced.display().to_string().replace(' ', "\\ ");
        let dep_info = format!("{}: {} {escaped}\n", byo.display(), lib.display());
        fs::write(byo.with_extension("d"), dep_info).unwrap();
        Self { root, byo }
    }

    fn fresh(&self) -> bool {
        up_to_date(&self.byo, &self.root, std::iter::empty())
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

#[test]
fn byo_built_after_every_source_and_setting_is_up_to_date() {
    let built = Built::new("all-older");
    assert!(built.fresh());
}

#[test]
fn a_newer_source_a_newer_setting_or_a_missing_file_sends_to_cargo() {
    let built = Built::new("source");
    at(&built.root.join("graders/src/a file.rs"), 10);
    assert!(!built.fresh(), "a source edited after the build");

    let built = Built::new("lock");
    at(&built.root.join("Cargo.lock"), 10);
    assert!(!built.fresh(), "a lock updated after the build");

    let built = Built::new("config");
    fs::create_dir_all(built.root.join(".cargo")).unwrap();
    fs::write(built.root.join(".cargo/config.toml"), "").unwrap();
    assert!(!built.fresh(), "a configuration written after the build");

    let built = Built::new("gone");
    fs::remove_file(built.root.join("graders/src/lib.rs")).unwrap();
    assert!(!built.fresh(), "a source cargo listed is gone");

    let built = Built::new("no-dep-info");
    fs::remove_file(built.byo.with_extension("d")).unwrap();
    assert!(!built.fresh(), "no dep-info");

    let built = Built::new("no-byo");
    fs::remove_file(&built.byo).unwrap();
    assert!(!built.fresh(), "no byo");

    let built = Built::new("never-checked");
    fs::remove_file(built.byo.with_file_name(".byo-launch-checked")).unwrap();
    assert!(!built.fresh(), "no cargo run ever found it up to date");
}

#[test]
fn build_settings_in_the_environment_send_to_cargo() {
    let built = Built::new("environment");
    for name in [
        "RUSTFLAGS",
        "CARGO_PROFILE_DEV_OPT_LEVEL",
        "CARGO_BUILD_JOBS",
    ] {
        let names = std::iter::once(name.to_owned());
        assert!(!up_to_date(&built.byo, &built.root, names), "{name}");
    }
    for name in ["CARGO_TARGET_DIR", "PATH", "CARGO", "NO_COLOR"] {
        let names = std::iter::once(name.to_owned());
        assert!(up_to_date(&built.byo, &built.root, names), "{name}");
    }
}

#[test]
fn dep_info_is_read_as_cargo_writes_it() {
    let sources = dep_info_sources("/k/target/debug/byo: /k/a.rs /k/b\\ c.rs\n\n/k/a.rs:\n");
    assert_eq!(
        sources,
        Some(vec![PathBuf::from("/k/a.rs"), PathBuf::from("/k/b c.rs")])
    );
    assert_eq!(dep_info_sources("not a dep-info file"), None);
    assert_eq!(dep_info_sources(""), None);
}
