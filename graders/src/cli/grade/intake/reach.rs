//! Reach-outs: source that makes the compiler read a file outside the stage's `src/`.
//!
//! `#[path = "../../../solutions/08-transactional-sink/src/runner.rs"] mod r;` or
//! `include!("/elsewhere.rs")` would build the reference (or any file of the grading
//! machine) into a submission. Grading overlays only `stages/*/src/**/*.rs`, so each such
//! file is checked here: every `include!`, `include_str!` and `include_bytes!` must name a
//! plain string literal, and every `path` attribute a plain relative path, that stay
//! inside `src/`. Anything else (a path built by `concat!`, passed in by a macro, absolute,
//! or climbing out) refuses the file, as a symbolic link is refused.
//!
//! Two climbs are the kata's own and stay: every skeleton's `lib.rs` renders its brief,
//! `include_str!("../README.md")`, and doctests its hints, `include_str!("../../../hints/NN.md")`.
//! Grading overlays only `.rs` files, so both read the pristine, public Markdown, never a
//! submission's file nor the reference; refusing them would refuse every `lib.rs` a learner
//! edited.

use std::path::{Component, Path, PathBuf};

use super::tokens::{Token, tokens};

/// Why `source` (the file at `in_src`, relative to the stage's `src/`) may not be
/// overlaid: one line per reach-out, empty when it reaches nothing outside.
pub fn reach_outs(in_src: &Path, source: &str) -> Vec<String> {
    let base = in_src.parent().unwrap_or(Path::new(""));
    let tokens = tokens(source);
    let mut found = Vec::new();
    let mut attribute_depth: Option<usize> = None;
    let mut depth = 0usize;
    let mut in_use = false;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Ident(name) if name == "use" => in_use = true,
            Token::Punct(';') => in_use = false,
            // `use core::include_str as grab;` then `grab!("../x")`: an include under
            // another name. A variable that happens to be called `include` is fine.
            Token::Ident(name)
                if is_include(name)
                    && !next_is(&tokens, i + 1, '!')
                    && (in_use || (i >= 1 && next_is(&tokens, i - 1, ':'))) =>
            {
                found.push(format!(
                    "`{name}` renamed or named by path (an include under another name)"
                ));
            }
            Token::Punct('[') => {
                depth += 1;
                if attribute_depth.is_none() && opens_attribute(&tokens, i) {
                    attribute_depth = Some(depth);
                }
            }
            Token::Punct(']') => {
                if attribute_depth == Some(depth) {
                    attribute_depth = None;
                }
                depth = depth.saturating_sub(1);
            }
            Token::Ident(name) if is_include(name) && next_is(&tokens, i + 1, '!') => {
                let argument = match (tokens.get(i + 2), tokens.get(i + 3), tokens.get(i + 4)) {
                    (
                        Some(Token::Punct('(' | '[' | '{')),
                        Some(Token::Str(path)),
                        Some(Token::Punct(')' | ']' | '}')),
                    ) => Some(path),
                    _ => None,
                };
                if let Some(why) = check(base, argument, &format!("`{name}!`")) {
                    found.push(why);
                }
            }
            Token::Ident(name)
                if name == "path" && attribute_depth.is_some() && next_is(&tokens, i + 1, '=') =>
            {
                let argument = match tokens.get(i + 2) {
                    Some(Token::Str(path)) => Some(path),
                    _ => None,
                };
                if let Some(why) = check(base, argument, "a `#[path]` attribute") {
                    found.push(why);
                }
            }
            _ => {}
        }
    }
    found
}

fn is_include(name: &str) -> bool {
    matches!(name, "include" | "include_str" | "include_bytes")
}

fn next_is(tokens: &[Token], at: usize, punct: char) -> bool {
    tokens.get(at) == Some(&Token::Punct(punct))
}

/// Whether the `[` at `at` opens an attribute: `#[` or `#![`.
fn opens_attribute(tokens: &[Token], at: usize) -> bool {
    let before = |n: usize| at.checked_sub(n).and_then(|i| tokens.get(i));
    matches!(before(1), Some(Token::Punct('#')))
        || matches!(
            (before(2), before(1)),
            (Some(Token::Punct('#')), Some(Token::Punct('!')))
        )
}

/// `None` when `argument` is a literal path that stays inside `src/` from `base`.
fn check(base: &Path, argument: Option<&String>, what: &str) -> Option<String> {
    let Some(path) = argument else {
        return Some(format!(
            "{what} with a path that is not a plain string literal (it could name any file)"
        ));
    };
    if is_public_doc(base, Path::new(path)) {
        return None;
    }
    match inside_src(base, Path::new(path)) {
        Some(_) => None,
        None => Some(format!(
            "{what} reaches outside the stage's src/: \"{path}\""
        )),
    }
}

/// Whether `base/path`, seen from `src/`, is the stage's brief (`../README.md`) or a hints
/// file (`../../../hints/NN.md`): Markdown the kata ships to every learner.
fn is_public_doc(base: &Path, path: &Path) -> bool {
    let mut climbs = 0usize;
    let mut resolved: Vec<&str> = Vec::new();
    for component in base.components().chain(path.components()) {
        match component {
            Component::Normal(part) => match part.to_str() {
                Some(part) => resolved.push(part),
                None => return false,
            },
            Component::CurDir => {}
            Component::ParentDir => {
                if resolved.pop().is_none() {
                    climbs += 1;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    let hints = |name: &str| {
        name.strip_suffix(".md")
            .is_some_and(|n| n.len() == 2 && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match (climbs, resolved.as_slice()) {
        (1, ["README.md"]) => true,
        (3, ["hints", name]) => hints(name),
        _ => false,
    }
}

/// `base/path` with `.` and `..` resolved, if it stays inside `src/` (the empty path).
fn inside_src(base: &Path, path: &Path) -> Option<PathBuf> {
    let mut resolved: Vec<&std::ffi::OsStr> = Vec::new();
    for component in base.components().chain(path.components()) {
        match component {
            Component::Normal(part) => resolved.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(resolved.iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(file: &str, source: &str) -> usize {
        reach_outs(Path::new(file), source).len()
    }

    #[test]
    fn paths_inside_src_are_fine() {
        assert_eq!(refused("lib.rs", "#[path = \"sink/imp.rs\"] mod sink;"), 0);
        assert_eq!(
            refused("a/b.rs", "const X: &str = include_str!(\"../data.txt\");"),
            0
        );
        assert_eq!(
            refused(
                "lib.rs",
                "#[doc = \"path = ../x\"] fn f() {} // include!(\"/etc\")"
            ),
            0
        );
        assert_eq!(
            refused("lib.rs", "let path = \"../../x\"; let include = 1;"),
            0
        );
    }

    #[test]
    fn the_skeletons_brief_and_hints_are_fine() {
        let skeleton = include_str!("../../../../../stages/08-transactional-sink/src/lib.rs");
        assert!(skeleton.contains("include_str!(\"../README.md\")"));
        assert_eq!(refused("lib.rs", skeleton), 0);
        assert_eq!(
            refused(
                "lib.rs",
                "#[doc = include_str!(\"../../../hints/01.md\")] struct H;"
            ),
            0
        );
        // Only those: not from deeper in src/, not another file, not through them.
        assert_eq!(refused("a/b.rs", "include_str!(\"../README.md\");"), 0);
        assert_eq!(refused("a/b.rs", "include_str!(\"../../README.md\");"), 0);
        assert_eq!(refused("lib.rs", "include_str!(\"../Cargo.toml\");"), 1);
        assert_eq!(
            refused("lib.rs", "include_str!(\"../../../hints/x.rs\");"),
            1
        );
        assert_eq!(
            refused(
                "lib.rs",
                "include!(\"../../../hints/../solutions/01-dataflow/src/lib.rs\");"
            ),
            1
        );
        assert_eq!(
            refused(
                "lib.rs",
                "include_str!(\"../../08-transactional-sink/README.md\");"
            ),
            1
        );
    }

    #[test]
    fn the_reference_by_path_or_include_is_refused() {
        let by_path = "#[path = \"../../../solutions/08-transactional-sink/src/lib.rs\"] mod r; pub use r::*;";
        assert_eq!(refused("lib.rs", by_path), 1);
        assert_eq!(
            refused("lib.rs", "include!(\"/work/solutions/lib.rs\");"),
            1
        );
        assert_eq!(
            refused(
                "lib.rs",
                "const S: &[u8] = std::include_bytes!(\"../../x\");"
            ),
            1
        );
        assert_eq!(
            refused("lib.rs", "#![cfg_attr(all(), path = \"../x.rs\")]"),
            1
        );
    }

    #[test]
    fn paths_the_scan_cannot_read_are_refused() {
        assert_eq!(
            refused("lib.rs", "include!(concat!(\"../\", \"x.rs\"));"),
            1
        );
        assert_eq!(
            refused(
                "lib.rs",
                "macro_rules! m { ($p:literal) => { #[path = $p] mod r; }; }"
            ),
            1
        );
        assert_eq!(
            refused(
                "lib.rs",
                "macro_rules! i { ($p:expr) => { include_str!($p) }; }"
            ),
            1
        );
        assert_eq!(refused("lib.rs", "use core::include_str as grab;"), 1);
        assert_eq!(refused("lib.rs", "use std::{include as inc};"), 1);
        assert_eq!(refused("lib.rs", "let f = core::include_bytes;"), 1);
        assert_eq!(refused("lib.rs", "let include = true; if include { }"), 0);
    }
}
