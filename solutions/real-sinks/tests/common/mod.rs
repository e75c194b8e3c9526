//! Shared by the integration tests: scratch folders and the PostgreSQL switch.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

/// A fresh scratch folder for `name`, unique to this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("real-sinks-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The connection string of the test server, or `None` after a loud skip notice: a
/// laptop without PostgreSQL must still pass `cargo test --workspace`.
pub fn postgres(test: &str) -> Option<String> {
    match std::env::var("BYO_PG") {
        Ok(conninfo) if !conninfo.is_empty() => Some(conninfo),
        _ if std::env::var_os("BYO_PG_REQUIRED").is_some() => {
            panic!(
                "{test}: BYO_PG is unset but BYO_PG_REQUIRED is set (CI must not skip the real sinks)"
            )
        }
        _ => {
            eprintln!(
                "\n*** SKIPPED {test}: BYO_PG is unset, so there is no PostgreSQL to test against.\n\
                 *** Run `just pg` and export the line it prints (CI does this in .ci/run).\n"
            );
            None
        }
    }
}
