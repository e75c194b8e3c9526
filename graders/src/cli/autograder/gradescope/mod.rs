//! Gradescope's autograder: `byo autograder gradescope --out DIR` writes
//! `DIR/autograder.zip`, ready to upload.
//!
//! The zip holds, at its root (as Gradescope's specification asks):
//! - `setup.sh`: installs the toolchain pinned to the kata's `rust-version` and
//!   bubblewrap, points cargo at the vendored crates, commits the pristine kata, builds
//!   `byo` and grades the untouched skeleton once (the grading target folder is then
//!   warm for every submission);
//! - `run_autograder`: keeps only the submission's `stages/*/src/**/*.rs`, grades it with
//!   `byo grade --gradescope` over the pristine kata, in the sandbox, and copies the
//!   `results.json` it writes to `results/results.json`;
//! - `kata/`: this repository as committed (`git archive HEAD`), references included:
//!   the zip is the instructor's, never shown to students;
//! - `vendor/`: every crate of `Cargo.lock` (`cargo vendor`), so grading needs no
//!   registry. `--no-vendor` leaves it out (the image then fetches crates at setup): the
//!   tests use it to spare the disk and the time, and say so.
//!
//! Both scripts honour `AUTOGRADER_ROOT` (default `/autograder`), so a test runs them in
//! a temporary root.

mod archive;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum as _};

use crate::cli::grade::outputs::gradescope::Visibility;
use crate::cli::values::stage_number;

/// The options of `byo autograder gradescope`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct GradescopeOptions {
    /// The folder to write `autograder.zip` into.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Grade only these stages, e.g. 01,02 (default: every stage).
    #[arg(long, value_name = "NN,...", value_delimiter = ',', value_parser = stage_number)]
    pub stages: Option<Vec<u8>>,
    /// Leave the crates out of the zip: setup then needs crates.io (smaller and faster
    /// to build; for testing the scripts).
    #[arg(long)]
    pub no_vendor: bool,
    /// Where Gradescope's container cannot make a sandbox, grade unconfined (the
    /// container is then the only boundary) instead of failing every submission.
    #[arg(long)]
    pub allow_unconfined: bool,
    /// Who sees the results' tests: hidden, after_due_date, after_published or visible
    /// (Gradescope's settings).
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t,
        hide_possible_values = true
    )]
    pub visibility: Visibility,
}

/// The file written in `--out`.
pub const ZIP: &str = "autograder.zip";

const SETUP: &str = include_str!("setup.sh");
const RUN: &str = include_str!("run_autograder");

/// Writes `autograder.zip` for the kata at `root`; returns its path and size in bytes.
///
/// # Errors
/// When the zip exists already, the repository cannot be archived or vendored, or the
/// zip cannot be written.
pub fn write(root: &Path, options: &GradescopeOptions) -> Result<(PathBuf, u64)> {
    let zip = options.out.join(ZIP);
    if zip.exists() {
        bail!(
            "autograder: {} exists already; move it away first (nothing is overwritten)",
            zip.display()
        );
    }
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("creating {}", options.out.display()))?;
    let staging = Staging::new(&options.out)?;
    let kata = staging.0.join("kata");
    std::fs::create_dir_all(&kata).with_context(|| format!("creating {}", kata.display()))?;
    crate::cli::grade::intake::overlay::extract_pristine(root, &kata)?;
    let toolchain = rust_version(&kata)?;
    let stages = match &options.stages {
        Some(numbers) => format!(
            "--stages {}",
            numbers
                .iter()
                .map(|n| format!("{n:02}"))
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => String::new(),
    };
    let scripts = [
        ("setup.sh", SETUP.replace("@TOOLCHAIN@", &toolchain)),
        (
            "run_autograder",
            RUN.replace(
                "@ALLOW_UNCONFINED@",
                if options.allow_unconfined {
                    "yes"
                } else {
                    "no"
                },
            ),
        ),
    ]
    .map(|(name, text)| {
        let visibility = options
            .visibility
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned());
        let text = text.replace("@VISIBILITY@", &visibility);
        (name, text.replace("@STAGES@", &stages))
    });
    if !options.no_vendor {
        vendor(&kata, &staging.0.join("vendor"))?;
    }
    let size = archive::zip_folder(&staging.0, &scripts, &zip)?;
    Ok((zip, size))
}

/// `rust-version` of the kata's workspace manifest: the toolchain setup installs.
fn rust_version(kata: &Path) -> Result<String> {
    let manifest =
        std::fs::read_to_string(kata.join("Cargo.toml")).context("reading Cargo.toml")?;
    manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .map(str::to_owned)
        .context("Cargo.toml has no `rust-version = \"...\"` line to pin the toolchain to")
}

/// `cargo vendor` of the kata's locked dependencies into `into`.
fn vendor(kata: &Path, into: &Path) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("vendoring every crate of Cargo.lock (cargo vendor) ...");
    let ran = Command::new(cargo)
        .current_dir(kata)
        .args(["vendor", "--locked", "--quiet"])
        .arg(into)
        .stdout(Stdio::null())
        .output()
        .context("running cargo vendor")?;
    if !ran.status.success() {
        bail!(
            "autograder: cargo vendor failed (it needs the crates, from the registry or its \
             cache; --no-vendor leaves them out): {}",
            String::from_utf8_lossy(&ran.stderr).trim()
        );
    }
    Ok(())
}

/// A scratch folder beside the zip, removed when done.
struct Staging(PathBuf);

impl Staging {
    fn new(out: &Path) -> Result<Self> {
        let dir = out.join(format!(".autograder-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("clearing {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self(dir))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
