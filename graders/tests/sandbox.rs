//! The grading sandbox against what a submission's code would try: reading and writing
//! what it must not, reaching the network, leaving processes behind, reading the judge's
//! environment. Skipped with a loud message where `bwrap` cannot run, unless
//! `BYO_SANDBOX_REQUIRED` is set (CI sets it).

use std::path::Path;
use std::process::{Command, Output};

use graders::harness::sandbox::Sandbox;
use graders::harness::supervisor::Confinement;

fn available() -> bool {
    match Sandbox::check_available() {
        Ok(()) => true,
        Err(e) if std::env::var_os("BYO_SANDBOX_REQUIRED").is_some() => {
            panic!("BYO_SANDBOX_REQUIRED is set, but: {e:#}")
        }
        Err(e) => {
            eprintln!("SKIPPED: no sandbox on this machine: {e:#}");
            false
        }
    }
}

fn sh(sandbox: &Sandbox, script: &str) -> Output {
    let mut command = Command::new("/bin/sh");
    command.arg("-c").arg(script).env("VISIBLE", "yes");
    sandbox.confine(command).output().expect("bwrap runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_owned()
}

#[test]
fn hidden_folders_are_empty_and_nothing_but_the_scratch_is_writable() {
    if !available() {
        return;
    }
    let hidden = tempfile::tempdir().expect("temp dir");
    let writable = tempfile::tempdir().expect("temp dir");
    std::fs::write(hidden.path().join("grades.csv"), "alice,100\n").expect("write");
    let sandbox = Sandbox::new().hide(hidden.path()).writable(writable.path());
    let script = format!(
        "ls -A {h}; echo forged > {h}/grades.csv; echo x > /etc/byo-sandbox-probe; \
         echo mine > {w}/scratch && echo wrote-scratch; echo t > /tmp/t && echo wrote-tmp",
        h = hidden.path().display(),
        w = writable.path().display()
    );
    let output = sh(&sandbox, &script);
    assert_eq!(text(&output.stdout), "wrote-scratch\nwrote-tmp");
    assert_eq!(
        std::fs::read_to_string(hidden.path().join("grades.csv")).expect("still there"),
        "alice,100\n"
    );
    assert!(!Path::new("/etc/byo-sandbox-probe").exists());
    assert_eq!(
        std::fs::read_to_string(writable.path().join("scratch")).expect("written"),
        "mine\n"
    );
}

#[test]
fn a_readable_path_inside_a_hidden_one_is_readable_only() {
    if !available() {
        return;
    }
    let hidden = tempfile::tempdir().expect("temp dir");
    let inner = hidden.path().join("bin");
    std::fs::create_dir(&inner).expect("mkdir");
    std::fs::write(inner.join("driver"), "binary").expect("write");
    std::fs::write(hidden.path().join("secret"), "token").expect("write");
    let sandbox = Sandbox::new().hide(hidden.path()).readable(&inner);
    let script = format!(
        "cat {i}/driver; echo; cat {h}/secret 2>/dev/null || echo no-secret; \
         echo x > {i}/driver 2>/dev/null || echo read-only",
        i = inner.display(),
        h = hidden.path().display()
    );
    assert_eq!(
        text(&sh(&sandbox, &script).stdout),
        "binary\nno-secret\nread-only"
    );
}

#[test]
fn there_is_no_network_and_no_inherited_environment() {
    if !available() {
        return;
    }
    let output = sh(
        &Sandbox::new(),
        "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; env | cut -d= -f1 | sort",
    );
    assert_eq!(text(&output.stdout), "lo\nPWD\nVISIBLE");
}

#[test]
fn no_process_outlives_the_sandbox() {
    if !available() {
        return;
    }
    let marker = format!("byo-sandbox-leftover-{}", std::process::id());
    let script = format!("setsid sh -c 'sleep 300; : {marker}' >/dev/null 2>&1 & echo left");
    let output = sh(&Sandbox::new(), &script);
    assert_eq!(text(&output.stdout), "left");
    let left = Command::new("pgrep")
        .args(["-f", &marker])
        .output()
        .expect("pgrep runs");
    assert!(
        left.stdout.is_empty(),
        "a detached process died with the sandbox: {}",
        text(&left.stdout)
    );
}

#[test]
fn a_build_sees_of_cargo_home_only_the_registry_and_the_vendored_crates() {
    use graders::cli::grade::confine::cargo_home::CargoHome;
    if !available() {
        return;
    }
    let home = tempfile::tempdir().expect("temp dir");
    let dir = home.path();
    for folder in [
        "registry/index/crates",
        "registry/src/crates",
        "bin",
        "vendor/anyhow",
    ] {
        std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
    }
    std::fs::write(dir.join("registry/src/crates/lib.rs"), "// a crate\n").expect("write");
    std::fs::write(dir.join("vendor/anyhow/lib.rs"), "// vendored\n").expect("write");
    std::fs::write(dir.join("credentials.toml"), "token = \"hunter2\"\n").expect("write");
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "[source.crates-io]\nreplace-with = \"v\"\n[source.v]\ndirectory = \"{}\"\n",
            dir.join("vendor").display()
        ),
    )
    .expect("write");
    // What a build script (or an include of an absolute path) would try, in the build's
    // sandbox.
    let sandbox = CargoHome::at(dir).for_build(Sandbox::new());
    let script = format!(
        "cat {d}/credentials.toml; cat {d}/config.toml; ls -A {d}; \
         cat {d}/registry/src/crates/lib.rs {d}/vendor/anyhow/lib.rs",
        d = dir.display()
    );
    let output = sh(&sandbox, &script);
    let shown = text(&output.stdout);
    assert!(!shown.contains("hunter2"), "{shown}");
    assert!(!shown.contains("replace-with"), "{shown}");
    let listing: Vec<&str> = shown.lines().take(3).collect();
    assert_eq!(listing, ["bin", "registry", "vendor"], "{shown}");
    assert!(shown.ends_with("// a crate\n// vendored"), "{shown}");
}
