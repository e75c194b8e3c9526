//! The rustc wrapper against a real rustc: a learner crate reads its own folder and the
//! hints, and finds nothing else however it names the path; the instructor's crates are
//! compiled as they are.

use std::path::Path;
use std::process::{Command, Output};

use super::environment;
use crate::harness::sandbox::Sandbox;

/// A workspace with a reference's source, the hints, and one stage whose library is
/// `lib`.
fn workspace(root: &Path, lib: &str) {
    let files = [
        (
            "solutions/01-x/src/lib.rs",
            "pub fn answer() -> u32 { 42 }\n",
        ),
        ("hints/01.md", "# Hints\n"),
        ("stages/01-x/README.md", "# The brief\n"),
        ("stages/01-x/src/lib.rs", lib),
    ];
    for (file, text) in files {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        std::fs::write(path, text).expect("file");
    }
}

/// rustc, through the wrapper, on `source` (relative to `root`), as cargo calls it.
fn compile(root: &Path, source: &str) -> Output {
    let target = root.join("slot").join("target");
    std::fs::create_dir_all(&target).expect("target");
    let toolchain = std::env::var_os("RUSTUP_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".rustup")))
        .unwrap_or_default();
    let variables = environment(&target, &toolchain).expect("the wrapper is written");
    let wrapper = variables
        .iter()
        .find(|(k, _)| k == "RUSTC_WORKSPACE_WRAPPER")
        .map(|(_, v)| v.clone())
        .expect("the wrapper");
    let rustc = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v rustc"])
            .output()
            .expect("sh")
            .stdout,
    )
    .expect("a path");
    Command::new(wrapper)
        .arg(rustc.trim())
        .args([
            "--crate-type",
            "lib",
            "--edition",
            "2021",
            "--emit",
            "metadata",
        ])
        .arg("--out-dir")
        .arg(&target)
        .arg(source)
        .envs(variables)
        .current_dir(root)
        .output()
        .expect("the wrapper runs")
}

fn sandbox_here() -> bool {
    match Sandbox::check_available() {
        Ok(()) => true,
        Err(e) if std::env::var_os("BYO_SANDBOX_REQUIRED").is_some() => {
            panic!("BYO_SANDBOX_REQUIRED is set, but: {e:#}")
        }
        Err(e) => {
            eprintln!("SKIPPED: the rustc wrapper needs bwrap: {e:#}");
            false
        }
    }
}

#[test]
fn a_learner_crate_reads_its_brief_and_the_hints() {
    if !sandbox_here() {
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    workspace(
        root.path(),
        "pub const BRIEF: &str = include_str!(\"../README.md\");\n\
         pub const HINTS: &str = include_str!(\"../../../hints/01.md\");\n",
    );
    let out = compile(root.path(), "stages/01-x/src/lib.rs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_learner_crate_finds_no_reference_however_it_names_it() {
    if !sandbox_here() {
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    let absolute = root.path().join("solutions/01-x/src/lib.rs");
    for lib in [
        "pub const S: &str = include_str!(\"../../../solutions/01-x/src/lib.rs\");\n".to_owned(),
        "pub const S: &str = include_str!(\"..\\u{2f}..\\u{2f}..\\u{2f}solutions/01-x/src/lib.rs\");\n"
            .to_owned(),
        format!("#[path = {:?}] mod stolen;\n", absolute.display().to_string()),
    ] {
        workspace(root.path(), &lib);
        let out = compile(root.path(), "stages/01-x/src/lib.rs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "read a reference with {lib}");
        assert!(
            !stderr.contains("answer"),
            "the reference's text reached the errors: {stderr}"
        );
    }
}

#[test]
fn the_instructors_crates_are_compiled_as_they_are() {
    if !sandbox_here() {
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    workspace(root.path(), "");
    let out = compile(root.path(), "solutions/01-x/src/lib.rs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
