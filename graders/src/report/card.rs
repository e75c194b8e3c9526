//! A misconception card as a learner reads it, under the failing check it explains.

use std::fmt::Write as _;

use super::style::Style;
use crate::misconception::Card;

/// A misconception card, each line after `indent`: `likely misconception: <title>`, why
/// the belief breaks the stage's law, and the section of the brief to reread.
pub fn render_card(card: &Card, style: &Style, indent: &str) -> String {
    let mut out = format!(
        "{indent}{} {}\n",
        style.warn("likely misconception:"),
        style.bold(card.title)
    );
    for line in wrap(card.why, 84) {
        let _ = writeln!(out, "{indent}  {line}");
    }
    let _ = writeln!(
        out,
        "{indent}  {}",
        style.dim(&format!("reread: \"{}\" in {}", card.reread, card.brief()))
    );
    out
}

/// `text` cut into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_wraps_its_reason_and_names_the_section_to_reread() {
        let card = crate::misconception::card("08-prepared-is-committed").unwrap();
        let text = render_card(card, &Style::plain(), "    ");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "    likely misconception: A prepared transaction is as good as a committed one"
        );
        assert!(lines[1..].iter().all(|l| l.len() <= 90), "{text}");
        assert_eq!(
            *lines.last().unwrap(),
            "      reread: \"Task\" in stages/08-transactional-sink/README.md"
        );
        assert_eq!(wrap("a bb  ccc", 4), ["a bb", "ccc"]);
    }
}
