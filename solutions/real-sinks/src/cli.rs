//! A small flag parser for the binaries (`--name value` pairs), so they need no
//! argument-parsing dependency. Unknown or repeated flags are errors that name them.

use std::collections::BTreeMap;
use std::str::FromStr;

use anyhow::{Context, Result, bail};

/// Parsed `--name value` flags.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
}

impl Flags {
    /// Parses `args` (without the program name), accepting only the names in `known`.
    ///
    /// # Errors
    /// On an unknown flag, a flag without a value, a repeated flag or a stray argument.
    pub fn parse(args: &[String], known: &[&str]) -> Result<Self> {
        let mut values = BTreeMap::new();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let Some(name) = arg.strip_prefix("--") else {
                bail!("unexpected argument {arg:?}: flags are --name value");
            };
            if !known.contains(&name) {
                bail!("unknown flag --{name}; known: --{}", known.join(", --"));
            }
            let value = args
                .next()
                .with_context(|| format!("--{name} needs a value"))?;
            if values.insert(name.to_owned(), value.clone()).is_some() {
                bail!("--{name} given twice");
            }
        }
        Ok(Self { values })
    }

    /// The value of `--name`, or `default`.
    ///
    /// # Errors
    /// When the value does not parse; the message names the flag.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        match self.values.get(name) {
            None => Ok(default),
            Some(raw) => raw
                .parse()
                .map_err(|e| anyhow::anyhow!("--{name} {raw:?}: {e}")),
        }
    }

    /// The value of `--name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
}
