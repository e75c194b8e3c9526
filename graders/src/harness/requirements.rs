//! The numbered requirements of the briefs, read from the briefs themselves.
//!
//! Every normative sentence of a brief ends with its id in parentheses, `(03-R7)`: the
//! stage's two digits, `-R`, and a number. The requirement's text is the sentence the id
//! closes: everything from the previous id, the start of the paragraph or the start of
//! the list item, up to the id. A failure that names an id ([`Failure::requirement`])
//! is printed with that text, so the learner reads the rule in the brief's own words,
//! and `tests/traceability.rs` reads the same ids from the same files: a requirement
//! list is never kept beside the brief.
//!
//! [`Failure::requirement`]: super::case::Failure::requirement

/// The brief of every stage, as the learner reads it.
const BRIEFS: [&str; 8] = [
    include_str!("../../../stages/01-dataflow/README.md"),
    include_str!("../../../stages/02-keyed-state/README.md"),
    include_str!("../../../stages/03-parallelism/README.md"),
    include_str!("../../../stages/04-event-time/README.md"),
    include_str!("../../../stages/05-windows/README.md"),
    include_str!("../../../stages/06-barriers/README.md"),
    include_str!("../../../stages/07-exactly-once-state/README.md"),
    include_str!("../../../stages/08-transactional-sink/README.md"),
];

/// One numbered requirement of a brief.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// `03-R7`.
    pub id: String,
    /// The sentence the id closes, in the brief's words (Markdown kept, lines joined).
    pub text: String,
}

/// The brief of stage `stage` (1..=8) as compiled into the graders; `None` past the ladder.
pub fn brief(stage: u8) -> Option<&'static str> {
    BRIEFS.get(usize::from(stage).checked_sub(1)?).copied()
}

/// The requirements of stage `stage`'s brief, in the order the brief states them.
pub fn of_stage(stage: u8) -> Vec<Requirement> {
    brief(stage)
        .map(|text| parse(text, stage))
        .unwrap_or_default()
}

/// The requirement `id` (`03-R7`), looked up in its stage's brief.
pub fn find(id: &str) -> Option<Requirement> {
    let stage: u8 = id.get(..2)?.parse().ok()?;
    of_stage(stage).into_iter().find(|r| r.id == id)
}

/// The requirements of `brief` (the text of stage `stage`'s README): every `(NN-Rk)` tag,
/// with the text it closes. Tags of another stage's number are not this brief's and
/// are skipped (`tests/traceability.rs` reports them).
pub fn parse(brief: &str, stage: u8) -> Vec<Requirement> {
    let prefix = format!("{stage:02}-R");
    let mut found = Vec::new();
    // The text since the last boundary: a tag, a blank line, a heading, a list item.
    let mut pending = String::new();
    for line in brief.lines() {
        // A quote's lines are one paragraph: its `>` markers are not text.
        let trimmed = line.trim();
        let trimmed = trimmed.strip_prefix('>').map_or(trimmed, str::trim_start);
        let starts_item = trimmed.starts_with("- ")
            || trimmed.starts_with("* ")
            || trimmed.starts_with('#')
            || trimmed.starts_with("```")
            || trimmed
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if trimmed.is_empty() || starts_item {
            pending.clear();
        }
        let mut rest = trimmed;
        while let Some((before, id, after)) = next_tag(rest) {
            append(&mut pending, before);
            if id.starts_with(&prefix) {
                found.push(Requirement {
                    id: id.to_owned(),
                    text: tidy(&pending),
                });
            }
            pending.clear();
            rest = after;
        }
        append(&mut pending, rest);
    }
    found
}

/// Every tag of the form `(NN-Rk)` in `text`, whatever the stage: what a brief names.
pub fn tags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some((_, id, after)) = next_tag(rest) {
        out.push(id.to_owned());
        rest = after;
    }
    out
}

/// The first `(NN-Rk)` of `text`: what comes before it, the id, what comes after.
fn next_tag(text: &str) -> Option<(&str, &str, &str)> {
    let mut from = 0;
    while let Some(open) = text[from..].find('(').map(|i| i + from) {
        let inner = &text[open + 1..];
        if let Some(close) = inner.find(')') {
            let id = &inner[..close];
            if is_id(id) {
                return Some((&text[..open], id, &inner[close + 1..]));
            }
        }
        from = open + 1;
    }
    None
}

/// Whether `s` is an id: two digits, `-R`, one or more digits.
pub fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 5
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && &b[2..4] == b"-R"
        && b[4..].iter().all(u8::is_ascii_digit)
}

fn append(pending: &mut String, piece: &str) {
    let piece = piece.trim();
    if piece.is_empty() {
        return;
    }
    if !pending.is_empty() {
        pending.push(' ');
    }
    pending.push_str(piece);
}

/// The sentence as shown: list markers, the punctuation left over from the previous
/// tag (`). `) and the conjunction that joined the two (`(04-R11), and ...`) trimmed.
fn tidy(text: &str) -> String {
    let text = text.trim_start_matches(['.', ',', ';', ':', ' ']);
    let text = text
        .strip_prefix("and ")
        .or_else(|| text.strip_prefix("or "))
        .unwrap_or(text);
    let text = text
        .strip_prefix("- ")
        .or_else(|| text.strip_prefix("* "))
        .unwrap_or(text);
    let text = match text.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => rest,
        _ => text,
    };
    text.trim()
        .trim_end_matches([',', ';', ':'])
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRIEF: &str = "\
# Stage 03

Intro that states nothing.

## Task

1. `partition` keeps input order (03-R1).
2. `update` refuses a key whose group it does not own (03-R2), and `restore` reports a
   key found in two snapshots as an error (03-R3).

Every function returns a `Result` (03-R4). A tag of stage 04 (04-R1) is not ours.

- a list item, then
  its continuation (03-R5)

> A law in a quote,
> over two lines (03-R6).
";

    #[test]
    fn a_tag_closes_the_sentence_since_the_last_boundary() {
        let found = parse(BRIEF, 3);
        let pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|r| (r.id.as_str(), r.text.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("03-R1", "`partition` keeps input order"),
                (
                    "03-R2",
                    "`update` refuses a key whose group it does not own"
                ),
                (
                    "03-R3",
                    "`restore` reports a key found in two snapshots as an error"
                ),
                ("03-R4", "Every function returns a `Result`"),
                ("03-R5", "a list item, then its continuation"),
                ("03-R6", "A law in a quote, over two lines"),
            ]
        );
    }

    #[test]
    fn ids_are_two_digits_r_and_a_number() {
        assert!(is_id("03-R7") && is_id("08-R12"));
        assert!(!is_id("3-R7") && !is_id("03-R") && !is_id("03-r7") && !is_id("03-R7a"));
        assert_eq!(tags(BRIEF).len(), 7);
    }
}
