//! What of `$CARGO_HOME` a build may see: the registry (its index, the downloaded crates
//! and their unpacked sources), git checkouts, cargo's own programs, and the folders a
//! source replacement names (Gradescope's vendored crates), all read-only. Nothing else:
//! not `credentials.toml`, not `config.toml`, whatever else lies there. A submission's
//! `include_str!` or a build script runs in the same sandbox as cargo, so what cargo can
//! read, they could; cargo gets the source replacement it needs from `config.toml` as
//! `--config` arguments instead, read here, outside the sandbox.

use std::path::{Path, PathBuf};

use crate::harness::sandbox::Sandbox;

/// The folders of `$CARGO_HOME` a build reads.
const NEEDED: [&str; 3] = ["bin", "registry", "git"];

/// The source-replacement keys whose value is a folder cargo reads crates from.
const FOLDER_KEYS: [&str; 2] = ["directory", "local-registry"];

/// A `$CARGO_HOME`, and what of it a build may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CargoHome {
    dir: PathBuf,
}

impl CargoHome {
    /// The `$CARGO_HOME` at `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The folder itself, hidden from every build and driver.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `sandbox`, with this `$CARGO_HOME` hidden but for what a build needs, read-only.
    pub fn for_build(&self, sandbox: Sandbox) -> Sandbox {
        let needed = NEEDED.iter().map(|d| self.dir.join(d));
        let folders = self.sources().into_iter().filter_map(|(_, key, value)| {
            FOLDER_KEYS
                .contains(&key.as_str())
                .then(|| PathBuf::from(unquote(&value)))
        });
        needed
            .chain(folders)
            .fold(sandbox.hide(&self.dir), |s, dir| s.readable(dir))
    }

    /// The source replacement of `config.toml`, as cargo's `--config` arguments
    /// (`source.crates-io.replace-with="byo-vendored"`), for a cargo that cannot read it.
    pub fn config_arguments(&self) -> Vec<String> {
        self.sources()
            .into_iter()
            .flat_map(|(name, key, value)| {
                [
                    "--config".to_owned(),
                    format!("source.{name}.{key}={value}"),
                ]
            })
            .collect()
    }

    /// Every `key = value` of a `[source.NAME]` table in `config.toml` (or the older
    /// `config`), as written, with its table's name.
    fn sources(&self) -> Vec<(String, String, String)> {
        let text = ["config.toml", "config"]
            .iter()
            .find_map(|name| std::fs::read_to_string(self.dir.join(name)).ok())
            .unwrap_or_default();
        source_entries(&text)
    }
}

/// The `key = value` lines of every `[source.NAME]` table of a cargo configuration, as
/// written (the form `setup.sh` writes; inline tables are not read).
pub fn source_entries(config: &str) -> Vec<(String, String, String)> {
    let mut entries = Vec::new();
    let mut table: Option<String> = None;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line
                .strip_prefix("[source.")
                .and_then(|rest| rest.strip_suffix(']'))
                .map(|name| name.trim().to_owned());
            continue;
        }
        let (Some(name), Some((key, value))) = (&table, line.split_once('=')) else {
            continue;
        };
        if !line.starts_with('#') {
            entries.push((name.clone(), key.trim().to_owned(), value.trim().to_owned()));
        }
    }
    entries
}

fn unquote(value: &str) -> &str {
    value.trim_matches(|c| c == '"' || c == '\'')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_replacement_reaches_cargo_as_arguments_and_its_folder_is_readable() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            "[net]\nretry = 2\n[source.crates-io]\nreplace-with = \"byo-vendored\"\n\
             [source.byo-vendored]\ndirectory = \"/opt/vendor\"\n[registries.x]\nindex = \"y\"\n",
        )
        .unwrap();
        let cargo_home = CargoHome::at(home.path());
        assert_eq!(
            cargo_home.config_arguments(),
            [
                "--config",
                "source.crates-io.replace-with=\"byo-vendored\"",
                "--config",
                "source.byo-vendored.directory=\"/opt/vendor\"",
            ]
        );
    }
}
