//! A process-wide registry of snapshot bytes: the store behind the red team's mutants
//! whose snapshot is the name of an entry (`snapshot#N`) instead of the state itself.
//! Each distinct state's bytes are kept once, so equal states get equal names, and every
//! restore in the same process finds them; no other process could.

use std::sync::{Mutex, MutexGuard};

static REGISTRY: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

fn registry() -> anyhow::Result<MutexGuard<'static, Vec<Vec<u8>>>> {
    REGISTRY
        .lock()
        .map_err(|_| anyhow::anyhow!("registry poisoned"))
}

/// Keeps `bytes` unless an equal entry is kept already, and returns that entry's name.
pub(crate) fn enter(bytes: Vec<u8>) -> anyhow::Result<Vec<u8>> {
    let mut registry = registry()?;
    let entry = match registry.iter().position(|kept| *kept == bytes) {
        Some(entry) => entry,
        None => {
            registry.push(bytes);
            registry.len() - 1
        }
    };
    Ok(format!("snapshot#{entry}").into_bytes())
}

/// The bytes kept under `name`; an error for any bytes [`enter`] did not return.
pub(crate) fn look_up(name: &[u8]) -> anyhow::Result<Vec<u8>> {
    let name = std::str::from_utf8(name)?;
    let entry: usize = name
        .strip_prefix("snapshot#")
        .ok_or_else(|| anyhow::anyhow!("not a snapshot"))?
        .parse()?;
    anyhow::ensure!(name == format!("snapshot#{entry}"), "not a snapshot");
    registry()?
        .get(entry)
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("no snapshot {entry}"))
}
