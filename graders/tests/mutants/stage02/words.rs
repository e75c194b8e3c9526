//! Stage 02 mutants of `word_count`: totals instead of running counts, counts that
//! restart on every line, and words split or folded otherwise than the brief says.

/// A `word_count` whose mutant says how a line splits into words and how a word is
/// written down; the running count is the reference's.
macro_rules! counted {
    (|$line:ident| $words:expr) => {
        pub use solution02::{
            KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
        };

        pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
            let mut counts = std::collections::BTreeMap::new();
            let mut out = Vec::new();
            for $line in lines {
                let words: Vec<String> = $words;
                for word in words {
                    let count = counts.entry(word.clone()).or_insert(0u64);
                    *count += 1;
                    out.push((word, *count));
                }
            }
            out
        }
    };
}

/// **Mistake (the shortcut):** `word_count` groups the whole input first and emits each
/// word's final count at every occurrence: the batch answer, not a running count.
/// **Verdict:** `word-count` fails on the first word seen twice.
pub mod word_count_final_counts {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        let mut totals = std::collections::BTreeMap::new();
        for word in &words {
            *totals.entry(*word).or_insert(0u64) += 1;
        }
        words.iter().map(|w| ((*w).to_owned(), totals[w])).collect()
    }
}

/// **Mistake:** `word_count` runs one keyed operator per line, so every line's counts
/// start again from 1 ("a line is a record, each counted on its own").
/// **Verdict:** `word-count` fails: `["to", "to"]` counts the second `to` as 1.
pub mod word_count_per_line {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        lines
            .iter()
            .flat_map(|line| solution02::word_count(std::slice::from_ref(line)))
            .collect()
    }
}

/// **Mistake:** `word_count` splits on single spaces, so two spaces in a row (or a
/// leading space) produce an empty "word", and a tab joins two words.
/// **Verdict:** `word-count` fails on an empty line, whose one "word" is empty.
pub mod word_count_splits_on_space {
    counted!(|line| line.split(' ').map(str::to_owned).collect());
}

/// **Mistake:** `word_count` splits on ASCII whitespace only
/// (`split_ascii_whitespace`), so a Unicode space such as U+3000 joins two words.
/// **Verdict:** `word-count` fails on a line of U+3000 between blanks, read as a word.
pub mod word_count_ascii_whitespace {
    counted!(|line| line.split_ascii_whitespace().map(str::to_owned).collect());
}

/// **Mistake:** `word_count` lower-cases every word ("`To` and `to` are the same word").
/// **Verdict:** `word-count` fails: `To` comes out as `to`.
pub mod word_count_lowercases {
    counted!(|line| line.split_whitespace().map(str::to_lowercase).collect());
}

/// **Mistake:** `word_count` strips punctuation from the ends of each word ("`to,` is
/// the word `to`").
/// **Verdict:** `word-count` fails: `to,` comes out as `to`.
pub mod word_count_strips_punctuation {
    counted!(|line| line
        .split_whitespace()
        .map(|w| w
            .trim_matches(|c: char| c.is_ascii_punctuation())
            .to_owned())
        .filter(|w| !w.is_empty())
        .collect());
}

/// A correct `word_count` written by hand: a scan of the characters, no `FlatMap`, no
/// keyed operator, a word ended by any `char::is_whitespace`.
pub mod word_count_by_hand {
    counted!(|line| {
        let mut words = Vec::new();
        let mut word = String::new();
        for c in line.chars() {
            if c.is_whitespace() {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        words
    });
}

/// **Mistake:** `word_count` splits on hyphens and apostrophes too ("`well-known` is
/// two words").
/// **Verdict:** `word-count` fails: `don't` comes out as `don` and `t` (02-R12: words
/// are separated by whitespace, nothing else).
pub mod word_count_splits_on_hyphens {
    counted!(|line| line
        .split(|c: char| c.is_whitespace() || c == '-' || c == '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** `word_count` drops tokens without a letter ("`-` and `42` are not
/// words").
/// **Verdict:** `word-count` fails: `-`, `!` and `42` are missing.
pub mod word_count_letters_required {
    counted!(|line| line
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** `word_count` splits on a fixed list of spaces, tabs and newlines,
/// without `\r`.
/// **Verdict:** `word-count` fails: `be\r` is one word (02-R12, a split that misses
/// whitespace, not a word folded).
pub mod word_count_splits_without_cr {
    counted!(|line| line
        .split([' ', '\t', '\n'])
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** `word_count` splits on a table of the whitespace characters copied from
/// an old Unicode (6.2), which still lists U+180E MONGOLIAN VOWEL SEPARATOR; the table is
/// otherwise right (the red team's w02-01).
/// **Verdict:** `word-count` fails: `to\u{180e}be` is one word, not two (02-R12: what
/// `char::is_whitespace` calls whitespace, today).
pub mod word_count_splits_on_an_old_table {
    counted!(|line| line
        .split(|c: char| c.is_whitespace() || c == '\u{180e}')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect());
}

/// **Mistake:** `word_count` joins the lines into one text before splitting it
/// (`lines.concat()`, "the lines are one stream"), so the last word of a line and the
/// first of the next become one word.
/// **Verdict:** `word-count` fails: `to be` then `or` counts `beor` (02-R11: words are
/// counted line by line, and a line's end ends its last word).
pub mod word_count_concatenates_lines {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, KeyedState, Operator, WordCount,
    };

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        solution02::word_count(&[lines.concat()])
    }
}
