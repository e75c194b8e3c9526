//! `byo template --out DIR`: the kata as a student starts it. The repository as committed
//! (`git archive HEAD`), without the references (`solutions/`), the graders' own test
//! suite (it grades the references, the mutants and the attack fixtures), the instructor's
//! CI, guide (`graders/README.md`) and recipes; with a learner's README, a learner's CI
//! workflow and a `Cargo.lock` pruned to what is left (the versions unchanged). The
//! graders and `byo` work as in the instructor's repository: `byo test` judges the
//! skeletons.
//!
//! `byo grade` needs the references and stays the instructor's: the template is what a
//! student clones, not what grades.

mod rewrite;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, Result, bail};
use clap::Args;

use super::workspace::Root;

/// The options of `byo template`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct TemplateOptions {
    /// The folder to write the student repository into (new, or empty).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Paths of the committed tree a student never gets. The instructor's guide,
/// `graders/README.md`, describes the references and the test suite left out here, and
/// its links into them would dangle.
const LEFT_OUT: [&str; 5] = [
    "solutions",
    "graders/tests",
    "graders/README.md",
    ".ci",
    ".vscode",
];

/// The README's part that is the student's own (after the top-level README's learner sections).
const README_TAIL: &str = include_str!("README.tail.md");
/// The student's CI workflow.
const WORKFLOW: &str = include_str!("byo.yml");
/// Where the workflow goes in the template.
pub const WORKFLOW_PATH: &str = ".github/workflows/byo.yml";
/// The editor settings: `target/` out of the file watcher (there is no reference to hide).
const VSCODE: &str =
    "{\n    \"files.watcherExclude\": {\n        \"**/target/**\": true\n    }\n}\n";

pub(super) fn run(root: &Root, options: &TemplateOptions) -> Result<ExitCode> {
    let out = &options.out;
    claim_empty(out)?;
    write_template(root.path(), out)?;
    println!(
        "wrote the student template to {} (this repository's HEAD, without solutions/)",
        out.display()
    );
    println!(
        "next: cd {} && git init && git add -A && git commit -m \"byo kata\"; \
         `byo autograder classroom --out {}` adds GitHub Classroom's autograding",
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Accepts a folder that does not exist (and makes it) or is empty; refuses anything
/// else, so nothing there is overwritten.
fn claim_empty(out: &Path) -> Result<()> {
    if out.exists() {
        if !out.is_dir() {
            bail!(
                "template: --out {} is a file; name a new or empty folder",
                out.display()
            );
        }
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("template: listing --out {}", out.display()))?
            .next()
            .is_none();
        if !empty {
            bail!(
                "template: --out {} is not empty; name a new or empty folder (nothing is overwritten)",
                out.display()
            );
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))
}

/// Writes the student template of the repository at `root` into the empty folder `out`.
///
/// # Errors
/// When `root` is not a git checkout, one of its files does not have the shape the
/// edits expect, or cargo cannot prune the lock file.
pub fn write_template(root: &Path, out: &Path) -> Result<()> {
    extract(root, out)?;
    let edit = |rel: &str, f: &dyn Fn(&str) -> Result<String>| -> Result<()> {
        let path = out.join(rel);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        std::fs::write(&path, f(&text)?).with_context(|| format!("writing {}", path.display()))
    };
    edit("Cargo.toml", &rewrite::workspace_manifest)?;
    edit("graders/Cargo.toml", &rewrite::graders_manifest)?;
    edit("justfile", &rewrite::justfile)?;
    edit("README.md", &|text| rewrite::readme(text, README_TAIL))?;
    for (rel, text) in [(WORKFLOW_PATH, WORKFLOW), (".vscode/settings.json", VSCODE)] {
        let path = out.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    prune_lock(out)
}

/// `git archive HEAD` of `root`, without [`LEFT_OUT`], unpacked into `out`.
fn extract(root: &Path, out: &Path) -> Result<()> {
    let mut git = Command::new("git");
    git.current_dir(root)
        .args(["archive", "--format=tar", "HEAD", "--", "."]);
    for path in LEFT_OUT {
        git.arg(format!(":(exclude){path}"));
    }
    let archive = git
        .output()
        .context("running git archive (byo template copies the repository as committed)")?;
    if !archive.status.success() {
        bail!(
            "template: git archive HEAD failed in {}: {}",
            root.display(),
            String::from_utf8_lossy(&archive.stderr).trim()
        );
    }
    let mut tar = Command::new("tar")
        .current_dir(out)
        .args(["-xf", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .context("running tar to unpack the template")?;
    {
        use std::io::Write;
        let mut stdin = tar.stdin.take().context("tar's stdin")?;
        stdin.write_all(&archive.stdout).context("feeding tar")?;
    }
    if !tar.wait().context("waiting for tar")?.success() {
        bail!("template: tar could not unpack into {}", out.display());
    }
    Ok(())
}

/// Lets cargo drop from `Cargo.lock` the packages only the references used
/// (`cargo update --workspace --offline` re-resolves the workspace members only, so every
/// other version stays as locked), then checks that the lock is complete (`--locked`).
fn prune_lock(out: &Path) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let steps: [&[&str]; 2] = [
        &["update", "--workspace", "--offline", "--quiet"],
        &[
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--locked",
            "--no-deps",
        ],
    ];
    for args in steps {
        let ran = Command::new(&cargo)
            .current_dir(out)
            .args(args)
            .stdout(Stdio::null())
            .output()
            .with_context(|| format!("running cargo {}", args[0]))?;
        if !ran.status.success() {
            bail!(
                "template: `cargo {}` failed in {}: {}",
                args.join(" "),
                out.display(),
                String::from_utf8_lossy(&ran.stderr).trim()
            );
        }
    }
    Ok(())
}
