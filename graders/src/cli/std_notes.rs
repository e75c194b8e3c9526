//! The compiler's messages without the places it points at in the standard library's
//! sources when those are not installed (rustup's default profile has no `rust-src`):
//! `::: /rustc/<hash>/library/...` (or `--> /rustc/...`) with no line of code under it is a
//! path the learner cannot open, and a note that said nothing but "defined here" goes
//! with it. With the sources installed, rustc shows their lines, and all is kept.

/// `rendered` (one or more diagnostics as the compiler rendered them) without the
/// locations in the standard library that show no code.
pub fn without_unreadable_std(rendered: &str) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let mut keep = vec![true; lines.len()];
    for (at, line) in lines.iter().enumerate() {
        if !is_std_location(line) {
            continue;
        }
        let gutter = lines.get(at + 1).is_some_and(|l| l.trim() == "|");
        let after = at + 1 + usize::from(gutter);
        if lines.get(after).is_some_and(|l| is_code(l)) {
            continue;
        }
        keep[at] = false;
        if gutter {
            keep[at + 1] = false;
        }
        // "note: method defined here" and nothing else: with its place gone, it is empty.
        let alone = lines
            .get(after)
            .is_none_or(|l| l.trim().is_empty() || is_header(l));
        if let Some(before) = at.checked_sub(1)
            && ["note:", "help:"]
                .iter()
                .any(|h| lines[before].starts_with(h))
            && lines[before].ends_with(" here")
            && alone
        {
            keep[before] = false;
        }
    }
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    out.extend(
        lines
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(l, _)| *l),
    );
    let mut text = out.join("\n");
    if rendered.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// `--> /rustc/<hash>/library/...` or `::: /rustc/...`, as rustc points into the
/// standard library.
fn is_std_location(line: &str) -> bool {
    let trimmed = line.trim_start();
    let path = trimmed
        .strip_prefix("--> ")
        .or_else(|| trimmed.strip_prefix("::: "));
    path.is_some_and(|p| p.starts_with("/rustc/") && p.contains("/library/"))
}

/// A line of code under a location: `991 |     pub fn push(...)`, or `...`.
fn is_code(line: &str) -> bool {
    let trimmed = line.trim_start();
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    trimmed == "..." || digits > 0 && trimmed[digits..].trim_start().starts_with('|')
}

/// The start of a diagnostic or of one of its sub-messages (`note: ...`, `help: ...`),
/// at the start of the line.
fn is_header(line: &str) -> bool {
    ["note:", "help:", "error", "warning"]
        .iter()
        .any(|h| line.starts_with(h))
}

#[cfg(test)]
#[path = "std_notes_tests.rs"]
mod tests;
