//! The relative links of a markdown file, and whether each resolves: its path to a file or
//! folder that exists, its `#anchor` to a heading of the markdown file it names. Shared by
//! the README link test and the template test (a test-only module, not a test target).

use std::collections::BTreeSet;
use std::path::Path;

/// A link of a markdown file: the line it is on (1-based) and its target as written.
#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub line: usize,
    pub target: String,
}

/// The lines of `markdown` outside fenced code blocks, with their 1-based numbers.
fn prose_lines(markdown: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    markdown.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// Every `[text](target)` of `markdown` whose target is relative (no scheme), outside code
/// blocks and code spans. A `](` after an odd number of backquotes on its line is inside a
/// code span, so a link whose text is code (`` [`a.rs`](a.rs) ``) is still read.
pub fn relative_links(markdown: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (line_number, line) in prose_lines(markdown) {
        let mut from = 0;
        while let Some(at) = line[from..].find("](") {
            let open = from + at;
            let start = open + 2;
            from = start;
            if line[..open].matches('`').count() % 2 == 1 {
                continue;
            }
            let Some(len) = line[start..].find(')') else {
                continue;
            };
            let target = &line[start..start + len];
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push(Link {
                    line: line_number,
                    target: target.to_owned(),
                });
            }
        }
    }
    links
}

/// GitHub's anchor of a heading's text: lower case, every character but letters, digits,
/// `-`, `_` and spaces dropped, spaces made `-`.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of the headings of `markdown` (outside code blocks).
pub fn anchors(markdown: &str) -> BTreeSet<String> {
    prose_lines(markdown)
        .filter_map(|(_, line)| {
            let text = line.trim_start_matches('#');
            (text.len() < line.len() && text.starts_with(' ')).then(|| anchor(text))
        })
        .collect()
}

/// The links of the markdown file `file` that do not resolve, each as
/// `file:line: target: why`. A path is taken from the file's own folder; `#anchor` alone
/// names a heading of the file itself.
pub fn broken_links(file: &Path) -> Vec<String> {
    let text =
        std::fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    let dir = file.parent().expect("a file has a folder");
    let mut broken = Vec::new();
    for link in relative_links(&text) {
        let (path, fragment) = match link.target.split_once('#') {
            Some((path, fragment)) => (path, Some(fragment)),
            None => (link.target.as_str(), None),
        };
        let target = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        let why = if path.starts_with('/') {
            Some("an absolute path".to_owned())
        } else if !target.exists() {
            Some("no such file or folder".to_owned())
        } else if let Some(fragment) = fragment {
            match std::fs::read_to_string(&target) {
                Ok(named) if anchors(&named).contains(fragment) => None,
                Ok(_) => Some(format!("no heading with the anchor `{fragment}`")),
                Err(_) => Some("an anchor into something that is not a text file".to_owned()),
            }
        } else {
            None
        };
        if let Some(why) = why {
            broken.push(format!(
                "{}:{}: {}: {why}",
                file.display(),
                link.line,
                link.target
            ));
        }
    }
    broken
}
