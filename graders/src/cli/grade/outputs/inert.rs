//! Text a submission controls (what its code printed, its panic messages, its compiler
//! errors, its folder and file names), made inert for each file it is written into: it
//! is shown, never obeyed.
//!
//! - **A Markdown block** ([`fence`]) is a fenced code block whose fence is one backtick
//!   longer than the longest run of backticks in the text (at least three). A fence
//!   closes only on a line of at least as many backticks, which the text cannot hold, and
//!   tildes never close a backtick fence. Indenting (an indented code block) was the other
//!   choice: it ends at the first unindented line, which the text can write, unless every
//!   line is indented again, and it cannot say its language. Escaping inside a code block
//!   is impossible: it shows the backslashes.
//! - **Markdown inline** ([`code`] for a file name, [`text`] for a folder name in a
//!   heading, a sentence or a table cell): a code span delimited the same way, or every
//!   character Markdown (and GitHub's tables, strikethrough and math) gives a meaning
//!   inline backslash-escaped. Line breaks and other control characters become `�`, so
//!   that nothing starts a block of its own or ends a table row.
//! - **A CSV cell** ([`csv_cell`]): quoted when it holds a comma, a quote or a line break,
//!   and prefixed with `'` when it starts with `=`, `+`, `-`, `@`, a tab or a carriage
//!   return, as OWASP recommends against formula injection.
//!
//! HTML and XML escape their text where they are written (`cohort.html`'s markup,
//! `quick-junit` for `junit.xml`); JSON (`report.json`, `results.json`) is structured.

/// `body` as a fenced Markdown code block of `language` that nothing in it can close.
pub fn fence(language: &str, body: &str) -> String {
    let ticks = "`".repeat((longest_run(body, '`') + 1).max(3));
    format!("{ticks}{language}\n{body}\n{ticks}")
}

/// `name` as a Markdown code span that nothing in it can end; inside a table, its pipes
/// are escaped (GitHub splits cells at them even in code).
pub fn code(name: &str) -> String {
    let name = without_controls(name).replace('|', "\\|");
    let ticks = "`".repeat(longest_run(&name, '`') + 1);
    // A span that starts or ends with a backtick needs a space inside its delimiters
    // (which the renderer strips).
    let pad = if name.starts_with('`') || name.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{name}{pad}{ticks}")
}

/// `name` as Markdown text that renders as itself: no emphasis, link, image, HTML,
/// entity, code, table cell or math of its own.
pub fn text(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in without_controls(name).chars() {
        if "\\`*_[]<>|~&$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `value` as one CSV cell a spreadsheet shows and never evaluates.
pub fn csv_cell(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    text.split(|other| other != c)
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// `text` with every control character (line breaks, tabs, escapes) shown as `�`.
fn without_controls(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

#[cfg(test)]
#[path = "inert_tests.rs"]
mod tests;
