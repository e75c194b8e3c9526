//! What a line of cargo's standard error says: its progress bar (units finished of all
//! units), a status line that means there is work to do, a status line that means
//! nothing to a learner, or text for the learner (a compiler diagnostic, an error).
//!
//! Cargo prints its bar in a pipe only when told (`CARGO_TERM_PROGRESS_WHEN=always`) and
//! rewrites it with `\r`, so the reader splits on `\r` as well as `\n`.

/// What one line of cargo's standard error says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// `Building [===>  ] 12/89: ...`: units finished, of all the units of the build.
    Progress {
        /// Units finished (fresh ones count, cargo finishes them at once).
        done: usize,
        /// Every unit of the build: each crate compiled, each build script run.
        total: usize,
    },
    /// A status line that means cargo is working, not just checking what is fresh.
    Working(Work),
    /// Any other status line (`Finished`, `Locking`, `Fresh`, ...): not for the learner.
    Status,
    /// Text for the learner: a compiler diagnostic, cargo's own error or warning.
    Text,
}

/// The work a status line announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A crate is compiled (`Compiling`).
    Compiling,
    /// Crates are downloaded (`Downloading`, `Downloaded`).
    Downloading,
    /// Another cargo holds the lock on the build folder or the package cache (`Blocking`).
    Waiting,
}

/// Reads one line (a piece between `\r`s and `\n`s) of cargo's standard error.
pub fn read(line: &str) -> Said {
    let plain = strip_ansi(line);
    let trimmed = plain.trim_start();
    if let Some((done, total)) = progress(trimmed) {
        return Said::Progress { done, total };
    }
    let word = trimmed.split(' ').next().unwrap_or("");
    // Cargo right-aligns its status word in 12 columns: `   Compiling serde v1.0`.
    let aligned = plain.len() - trimmed.len() + word.len() == 12 || word.len() >= 12;
    let capitalised = word.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && word.chars().all(|c| c.is_ascii_alphabetic());
    if !(aligned && capitalised && trimmed.len() > word.len()) {
        return Said::Text;
    }
    match word {
        "Compiling" => Said::Working(Work::Compiling),
        "Downloading" | "Downloaded" => Said::Working(Work::Downloading),
        "Blocking" => Said::Working(Work::Waiting),
        _ => Said::Status,
    }
}

/// `(done, total)` of a progress bar: `Building [=====>    ] 12/89: serde, syn`.
fn progress(trimmed: &str) -> Option<(usize, usize)> {
    let rest = trimmed.strip_prefix("Building [")?;
    let (_, counts) = rest.split_once("] ")?;
    let counts = counts.split(':').next()?;
    let (done, total) = counts.trim().split_once('/')?;
    Some((done.parse().ok()?, total.parse().ok()?))
}

/// The units a progress bar names as compiling (`serde(build), syn`), as cargo cut them
/// to its width; `None` for any other line.
pub fn compiling(line: &str) -> Option<String> {
    let plain = strip_ansi(line);
    let rest = plain.trim_start().strip_prefix("Building [")?;
    let (_, counts) = rest.split_once("] ")?;
    let (_, names) = counts.split_once(": ")?;
    let names = names
        .trim()
        .trim_end_matches('…')
        .trim_end_matches([',', ' ']);
    (!names.is_empty()).then(|| names.to_owned())
}

/// `line` without its terminal escapes (`ESC [ ... letter`), as cargo colours and
/// clears its lines when its output goes to a terminal.
pub fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.next() == Some('[') {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_gives_units_done_of_all() {
        assert_eq!(
            read("    Building [=====>        ] 12/89: serde(build), syn"),
            Said::Progress {
                done: 12,
                total: 89
            }
        );
        // As cargo colours it on a terminal.
        assert_eq!(
            read("\x1b[1m\x1b[36m    Building\x1b[0m [>   ] 0/19: unicode-ident\x1b[K"),
            Said::Progress { done: 0, total: 19 }
        );
    }

    #[test]
    fn the_progress_bar_names_what_compiles() {
        let bar = "    Building [=======>  ] 87/89: graders                       ";
        assert_eq!(compiling(bar).as_deref(), Some("graders"));
        let cut = "    Building [>   ] 3/89: proc-macro2(build), quote(build.rs), serde…";
        assert_eq!(
            compiling(cut).as_deref(),
            Some("proc-macro2(build), quote(build.rs), serde")
        );
        assert_eq!(compiling("    Building [>   ] 3/89"), None);
        assert_eq!(compiling("   Compiling serde v1.0.229"), None);
    }

    #[test]
    fn status_lines_say_whether_there_is_work() {
        let working = [
            ("   Compiling serde v1.0.229", Work::Compiling),
            (
                "\x1b[1m\x1b[32m   Compiling\x1b[0m graders v0.1.0 (/k/graders)",
                Work::Compiling,
            ),
            (" Downloading crates ...", Work::Downloading),
            ("  Downloaded anyhow v1.0.105", Work::Downloading),
            (
                "    Blocking waiting for file lock on build directory",
                Work::Waiting,
            ),
        ];
        for (line, work) in working {
            assert_eq!(read(line), Said::Working(work), "{line}");
        }
        for line in [
            "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.21s",
            "     Locking 8 packages to latest Rust 1.95.0 compatible versions",
            "       Fresh serde v1.0.229",
        ] {
            assert_eq!(read(line), Said::Status, "{line}");
        }
    }

    #[test]
    fn diagnostics_are_text_for_the_learner() {
        for line in [
            "warning: unused variable: `x`",
            "error[E0308]: mismatched types",
            " --> graders/src/lib.rs:3:9",
            "  |",
            "3 |     let x = 1;",
            "  = note: `#[warn(unused_variables)]` on by default",
            "            `String` implements `FromIterator<&str>`",
            "error: could not compile `graders` (lib) due to 1 previous error",
            "",
        ] {
            assert_eq!(read(line), Said::Text, "{line}");
        }
    }
}
