//! The over-reference tree of a slot: the pristine tree with each stage's manifest naming
//! the references of its predecessors, as the references' own manifests do (`stage04 = {
//! package = "solution04", ... }`), so the learner's sources compile unchanged over them
//! and each stage is scored over the references of the earlier stages it uses (a broken
//! 04 costs 04 alone).
//!
//! Its `Cargo.lock` is brought in line once per run, by cargo, offline and with no
//! registry package changed; every build then stays `--locked`.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::jail::cargo_environment;
use crate::cli::grade::intake::overlay;
use crate::stages;

/// Makes `into` the over-reference tree of the pristine tree at `pristine`.
///
/// # Errors
/// When a stage manifest names an earlier stage in a form this does not know (the
/// instructor's tree changed shape), or cargo cannot update the lock file offline.
pub fn make_over_reference(pristine: &Path, into: &Path) -> Result<()> {
    overlay::sync(pristine, into)?;
    for stage in stages::LADDER.iter() {
        let manifest = into.join("stages").join(stage.folder()).join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let rewritten =
            over_references(&text).with_context(|| format!("rewriting {}", manifest.display()))?;
        std::fs::write(&manifest, rewritten)
            .with_context(|| format!("writing {}", manifest.display()))?;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(into)
        .args(["update", "--workspace", "--offline", "--quiet"]);
    cargo_environment(&mut command);
    let output = command.output().context("running cargo update")?;
    if !output.status.success() {
        bail!(
            "grade: cargo could not lock the stages over the references offline in {}: {}",
            into.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// A stage manifest with each `stageNN = { path = "../NN-slug" }` dependency replaced by
/// the reference of that stage under the same crate name.
fn over_references(manifest: &str) -> Result<String> {
    let mut out = String::with_capacity(manifest.len() + 200);
    for line in manifest.lines() {
        match line.strip_prefix("stage").and_then(|rest| rest.get(..2)) {
            Some(number) if number.bytes().all(|b| b.is_ascii_digit()) => {
                let folder = line
                    .strip_prefix(&format!("stage{number} = {{ path = \"../"))
                    .and_then(|rest| rest.strip_suffix("\" }"))
                    .with_context(|| {
                        format!(
                            "`{line}` is not of the form `stage{number} = {{ path = \"../{number}-slug\" }}`"
                        )
                    })?;
                out.push_str(&format!(
                    "stage{number} = {{ package = \"solution{number}\", path = \"../../solutions/{folder}\" }}"
                ));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_manifest_names_the_references_of_its_predecessors() {
        let manifest = "[dependencies]\nanyhow.workspace = true\n\
                        stage01 = { path = \"../01-dataflow\" }\n\
                        stage07 = { path = \"../07-exactly-once-state\" }\n\n\
                        [features]\ngrade = []\n";
        let rewritten = over_references(manifest).unwrap();
        assert_eq!(
            rewritten,
            "[dependencies]\nanyhow.workspace = true\n\
             stage01 = { package = \"solution01\", path = \"../../solutions/01-dataflow\" }\n\
             stage07 = { package = \"solution07\", path = \"../../solutions/07-exactly-once-state\" }\n\n\
             [features]\ngrade = []\n"
        );
        let error = over_references("stage01 = { path = \"../01-dataflow\", features = [] }")
            .unwrap_err()
            .to_string();
        assert!(error.contains("is not of the form"), "{error}");
    }
}
