//! The `word-count` check: the inputs and the judge, which names the rule of the brief
//! a wrong update stream breaks.
//!
//! The words mix case, punctuation (inside words, around them and on its own), digits and
//! a non-ASCII letter; the gaps are single spaces,
//! runs, tabs, three Unicode spaces (U+3000, U+00A0, U+2003) and, on lines of their own,
//! every other `char::is_whitespace` character and invisible or control characters that
//! are not whitespace, so a split on `' '`, on ASCII whitespace, on a list of spaces or on
//! more than whitespace, or a word folded to lower case or stripped of punctuation shows.

use std::collections::BTreeMap;

use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// The words: the same letters in other cases and with punctuation, and a non-ASCII one.
const WORDS: [&str; 4] = ["to", "To", "to,", "ü"];
/// The gaps between two words.
const GAPS: [&str; 6] = [" ", "  ", "\t", "\u{3000}", "\u{a0}", "\u{2003}"];

/// Every input, smallest first: no word, one, two on a line over every gap, then lines.
pub fn inputs() -> Vec<Vec<String>> {
    let lines = |ls: &[&str]| ls.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    let mut all = vec![
        lines(&[]),
        lines(&[""]),
        lines(&[" "]),
        lines(&["\t \u{3000}", ""]),
        lines(&["to"]),
        lines(&[" to\t"]),
        lines(&["to", "to"]),
        lines(&["", "to", ""]),
    ];
    for gap in GAPS {
        for first in WORDS {
            for second in WORDS {
                all.push(vec![format!("{first}{gap}{second}")]);
            }
        }
    }
    all.extend([
        lines(&["to be\r", "be"]),
        lines(&["To to, to", "TO"]),
        lines(&[" to  to\t", "to\u{3000}"]),
        lines(&["ü\u{2003}ü", "", " ü"]),
        // Whitespace beyond the brief's examples: vertical tab (not ASCII whitespace to
        // `char::is_ascii_whitespace`), form feed, U+0085 and U+2028.
        lines(&["to\u{b}be\u{c}to\u{85}be\u{2028}to"]),
        // Every other whitespace of `char::is_whitespace` between two words, so no list
        // of the spaces above passes for the rule.
        lines(&[
            "to\u{1680}be\u{2000}to\u{2001}be\u{2002}to\u{2004}be\u{2005}to\u{2006}be\u{2007}to",
            "to\u{2008}be\u{2009}to\u{200a}be\u{2029}to\u{202f}be\u{205f}to\nbe",
        ]),
        // Characters that are not whitespace, though invisible or control: each is part
        // of its word, a byte-order mark at the start of a line too; and U+180E, which
        // Unicode called a space until 6.3, and the zero-width (non-)joiners.
        lines(&["\u{feff}to to\u{200b}be be\u{1f}to to\u{2060}"]),
        lines(&["to\u{180e}be be\u{200c}to to\u{200d}be"]),
        // Punctuation beyond the comma, inside, before and after words, on its own, and
        // digits: each token between whitespace is one word, however unlike a word.
        lines(&[
            "don't well-known Stop. Stop",
            "- ! 42 42 Stop. don't",
            "'quoted' (x) a;b a:b ¿sí? 9:30 \u{ff0c}",
        ]),
    ]);
    all
}

/// The running word count of `lines`, as the brief defines words.
pub fn oracle(lines: &[String]) -> Vec<(String, u64)> {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    lines
        .iter()
        .flat_map(|line| line.split_whitespace())
        .map(|word| {
            let count = counts.entry(word).or_default();
            *count += 1;
            (word.to_owned(), *count)
        })
        .collect()
}

/// The word folded the ways the brief forbids: lower case, letters and digits only.
/// Whitespace is kept: a word that holds some was split wrongly (02-R12), not folded.
fn folded(word: &str) -> String {
    word.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect()
}

/// The running count of `lines` with each word counted under its folded form but
/// emitted as written: the count of a word whose case or punctuation was ignored.
fn counted_folded(lines: &[String]) -> Vec<(String, u64)> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    lines
        .iter()
        .flat_map(|line| line.split_whitespace())
        .map(|word| {
            let count = counts.entry(folded(word)).or_default();
            *count += 1;
            (word.to_owned(), *count)
        })
        .collect()
}

/// Judges `updates` against the brief's running count of `lines`.
pub fn judge(lines: &[String], updates: &[(String, u64)]) -> Result<(), Failure> {
    let want = oracle(lines);
    let words = |u: &[(String, u64)]| u.iter().map(|(w, _)| w.clone()).collect::<Vec<_>>();
    let (want_words, got_words) = (words(&want), words(updates));
    let mut sorted = (want_words.clone(), got_words.clone());
    sorted.0.sort();
    sorted.1.sort();
    let fold = |ws: &[String]| ws.iter().map(|w| folded(w)).collect::<Vec<_>>();
    let rule = if sorted.0 == sorted.1 && *updates == counted_folded(lines) {
        // The words as written, but counted as if `To` were `to`.
        "02-R13"
    } else if sorted.0 == sorted.1 || is_subsequence(updates, &want) {
        // The right words, in the wrong order or with updates lost (an `out` overwritten
        // keeps only the last ones): the split is not at fault.
        "02-R11"
    } else if got_words == words(&oracle(&[lines.concat()])) {
        // The lines run together: a line's last word glued to the next line's first is
        // the text not counted line by line, not a line split wrongly.
        "02-R11"
    } else if fold(&want_words) == fold(&got_words) {
        "02-R13"
    } else {
        "02-R12"
    };
    expect_sequence("updates", &want, updates).map_err(|f| f.requirement(rule))
}

/// Whether every item of `part` is in `whole`, in the same order (gaps allowed).
fn is_subsequence<T: PartialEq>(part: &[T], whole: &[T]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|item| rest.any(|w| w == item))
}

/// The ids a word-count case can find broken.
pub fn requirements(lines: &[String]) -> Vec<&'static str> {
    let text: String = lines.concat();
    let mut ids = vec!["02-R11", "02-R12"];
    if text
        .chars()
        .any(|c| c.is_uppercase() || c.is_ascii_punctuation() || !c.is_ascii())
    {
        ids.push("02-R13");
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(ls: &[&str]) -> Vec<String> {
        ls.iter().map(|l| (*l).to_owned()).collect()
    }

    #[test]
    fn updates_lost_are_blamed_on_the_count_not_the_split() {
        let input = lines(&["to be", "to"]);
        // An `out` replaced at every record keeps the last update only.
        let last = vec![("to".to_owned(), 2)];
        let failure = judge(&input, &last).unwrap_err();
        assert_eq!(failure.requirement, Some("02-R11"));
    }

    #[test]
    fn whitespace_kept_in_a_word_is_a_split_not_a_fold() {
        let input = lines(&["to be\r", "be"]);
        let split_without_cr = vec![
            ("to".to_owned(), 1),
            ("be\r".to_owned(), 1),
            ("be".to_owned(), 1),
        ];
        let failure = judge(&input, &split_without_cr).unwrap_err();
        assert_eq!(failure.requirement, Some("02-R12"));
    }
}
