//! The skeletons' doc comments state no rule that the brief does not.
//!
//! A learner reads the rustdoc of the crate they fill in as much as the brief. A rule
//! written only there is a rule no requirement id names, no check is traced to and no
//! mutant proves. So every sentence of a skeleton's doc comments that states a rule (it
//! says what must, may or never happen, what is an error, what comes in what order, what
//! each or every thing does) cites the id of the brief's requirement it restates,
//! `(03-R21)`, and that id is one of the stage's brief. Everything under a `# Errors` or
//! `# Panics` heading is a rule, whatever its words.
//!
//! The doc comments are read as rustdoc reads them here: `///` and `//!` lines. The one
//! other form a skeleton may use is `#[doc = include_str!(..)]` of the brief or of the
//! hints (which are not the skeleton's own words); any other `#[doc`, `/**` or `/*!` is
//! refused, so no doc text escapes this reading.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use graders::harness::requirements;
use graders::stages::LADDER;

/// Words that make a sentence a rule (matched as whole words, any case).
const RULE_WORDS: &[&str] = &[
    "must", "never", "always", "may", "should", "cannot", "only", "exactly", "once", "error",
    "errors", "refuse", "refuses", "refused", "reject", "rejects", "panic", "panics", "ignore",
    "ignores", "ignored", "every", "each", "order", "ordered", "least", "most",
];

/// Headings under which every sentence is a rule.
const RULE_HEADINGS: &[&str] = &["# Errors", "# Panics"];

/// One sentence of a doc comment that states a rule without citing the brief.
#[derive(Debug, PartialEq)]
struct Uncited {
    line: usize,
    sentence: String,
}

/// One paragraph of doc text: its first line's number, its text, and whether it sits
/// under a rule heading.
struct Paragraph {
    line: usize,
    text: String,
    under_rule_heading: bool,
}

/// The doc paragraphs of `source`, code blocks left out (they are doctests, checked by
/// running them).
fn paragraphs(source: &str) -> Vec<Paragraph> {
    let mut out = Vec::new();
    let mut current: Option<Paragraph> = None;
    let mut under_rule_heading = false;
    let mut in_code = false;
    for (index, raw) in source.lines().enumerate() {
        let line = raw.trim_start();
        let doc = line
            .strip_prefix("///")
            .or_else(|| line.strip_prefix("//!"))
            .map(str::trim);
        let Some(doc) = doc.filter(|_| !line.starts_with("////")) else {
            // The end of a doc comment ends its paragraph and its heading.
            out.extend(current.take());
            under_rule_heading = false;
            continue;
        };
        if doc.starts_with("```") {
            in_code = !in_code;
            out.extend(current.take());
            continue;
        }
        if in_code {
            continue;
        }
        if doc.is_empty() {
            out.extend(current.take());
            continue;
        }
        if doc.starts_with('#') {
            out.extend(current.take());
            under_rule_heading = RULE_HEADINGS.contains(&doc);
            continue;
        }
        if doc.starts_with("- ") || doc.starts_with("* ") {
            out.extend(current.take());
        }
        match &mut current {
            Some(p) => {
                p.text.push(' ');
                p.text.push_str(doc);
            }
            None => {
                current = Some(Paragraph {
                    line: index + 1,
                    text: doc.to_owned(),
                    under_rule_heading,
                })
            }
        }
    }
    out.extend(current);
    out
}

/// The sentences of `text`: split after `.`, `!` or `?` followed by a space, outside
/// code spans and parentheses (so `1..=3`, `e.g.` inside `(…)` and a tag stay put).
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let (mut in_code, mut depth) = (false, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        match c {
            '`' => in_code = !in_code,
            '(' if !in_code => depth += 1,
            ')' if !in_code => depth = depth.saturating_sub(1),
            '.' | '!' | '?' if !in_code && depth == 0 && chars.peek() == Some(&' ') => {
                out.push(std::mem::take(&mut current).trim().to_owned());
            }
            _ => {}
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// Whether `sentence` states a rule by its words; code spans and link targets do not
/// count (a `` `max_parallelism` `` or a `(crate::run_exactly_once)` is a name, not a
/// rule).
fn has_rule_word(sentence: &str) -> bool {
    let prose: String = sentence.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut words = String::new();
    let mut rest = prose.as_str();
    while let Some((before, after)) = rest.split_once("](") {
        words.push_str(before);
        words.push(' ');
        rest = after.split_once(')').map_or("", |(_, tail)| tail);
    }
    words.push_str(rest);
    words
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| RULE_WORDS.iter().any(|r| r.eq_ignore_ascii_case(word)))
}

/// The rule sentences of `source` that cite no requirement, and the ids it cites.
fn read(source: &str) -> (Vec<Uncited>, BTreeSet<String>) {
    let mut uncited = Vec::new();
    let mut cited = BTreeSet::new();
    for paragraph in paragraphs(source) {
        for sentence in sentences(&paragraph.text) {
            let tags = requirements::tags(&sentence);
            if tags.is_empty() && (paragraph.under_rule_heading || has_rule_word(&sentence)) {
                uncited.push(Uncited {
                    line: paragraph.line,
                    sentence,
                });
            }
            cited.extend(tags);
        }
    }
    (uncited, cited)
}

/// The doc forms this reading does not see, other than the brief's and the hints'
/// `include_str!`.
fn unread_doc_forms(source: &str) -> Vec<(usize, String)> {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            let included = l.contains("include_str!(\"../README.md\")")
                || l.contains("include_str!(\"../../../hints/");
            (l.starts_with("#[doc") || l.starts_with("#![doc")) && !included
                || l.starts_with("/**")
                || l.starts_with("/*!")
        })
        .map(|(i, l)| (i + 1, l.trim().to_owned()))
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("a skeleton folder")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rule_in_a_skeletons_doc_comments_cites_its_brief() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    for stage in LADDER.iter().filter(|s| s.graded()) {
        let ids: BTreeSet<String> = requirements::of_stage(stage.number)
            .into_iter()
            .map(|r| r.id)
            .collect();
        let mut files = Vec::new();
        rust_files(
            &root.join("stages").join(stage.folder()).join("src"),
            &mut files,
        );
        assert!(!files.is_empty(), "stage {:02} has sources", stage.number);
        for file in files {
            let source = fs::read_to_string(&file).expect("a skeleton source");
            let shown = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            for (line, form) in unread_doc_forms(&source) {
                problems.push(format!(
                    "{shown}:{line}: a doc form this test cannot read: {form}"
                ));
            }
            let (uncited, cited) = read(&source);
            for u in uncited {
                problems.push(format!(
                    "{shown}:{}: states a rule without the brief's id: {}",
                    u.line, u.sentence
                ));
            }
            for id in cited.difference(&ids) {
                problems.push(format!(
                    "{shown}: cites ({id}), which the stage {:02} brief does not state",
                    stage.number
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn a_rule_needs_a_tag_and_a_description_does_not() {
    let source = "\
//! The parallel count.

/// Splits `records` into streams. Each output stream keeps input order.
///
/// # Errors
/// When `parallelism` is 0 (03-R21). When the bytes are bad.
///
/// ```
/// assert!(it_must_never_panic());
/// ```
pub fn partition() {}

/// The subtask that owns a key group; refuses one out of range (03-R22).
pub fn index() {}
";
    let (uncited, cited) = read(source);
    let found: Vec<(usize, &str)> = uncited
        .iter()
        .map(|u| (u.line, u.sentence.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (3, "Each output stream keeps input order."),
            (6, "When the bytes are bad."),
        ]
    );
    assert_eq!(
        cited,
        BTreeSet::from(["03-R21".to_owned(), "03-R22".to_owned()])
    );
}

#[test]
fn code_spans_and_parentheses_do_not_end_or_make_a_sentence() {
    assert_eq!(
        sentences("Keys `1..=3` (e.g. `a`. Not. Here) stay. Then this."),
        ["Keys `1..=3` (e.g. `a`. Not. Here) stay.", "Then this."]
    );
    assert!(!has_rule_word("Takes `max_parallelism` and `only_once`."));
    assert!(!has_rule_word(
        "As [the job](crate::run_exactly_once) says."
    ));
    assert!(has_rule_word("As [the job](crate::run) says, every time."));
    assert!(has_rule_word("Only the watermark fires."));
}

#[test]
fn doc_forms_other_than_the_briefs_and_hints_include_are_refused() {
    let source = "#![doc = include_str!(\"../README.md\")]\n#[doc = include_str!(\"../../../hints/03.md\")]\n#[doc = \"a rule\"]\n/** another */\n";
    let refused: Vec<usize> = unread_doc_forms(source).iter().map(|(l, _)| *l).collect();
    assert_eq!(refused, [3, 4]);
}
