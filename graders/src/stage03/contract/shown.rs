//! Keys and states as a failing report writes them: a key of 256 bytes and more (the
//! long-key family) as the Rust expression that makes it, `"k".repeat(256) + "7"`, so a
//! report stays a page a learner reads rather than lines of one letter.

use std::fmt::Write;

use crate::stage03::SubtaskCounts;

/// A run of one stem shorter than this is written out.
const LONGEST_LITERAL: usize = 64;

/// The longest stem [`shown_key`] looks for (the family's longest is 16 bytes).
const LONGEST_STEM: usize = 16;

/// `key` as a string literal, or as `"stem".repeat(n)` followed by `+ "rest"` when it
/// opens with one stem repeated over [`LONGEST_LITERAL`] bytes or more.
pub fn shown_key(key: &str) -> String {
    let stems = (1..=LONGEST_STEM.min(key.len() / 2)).filter(|&n| key.is_char_boundary(n));
    for width in stems {
        let stem = &key[..width];
        let repeats = key
            .as_bytes()
            .chunks_exact(width)
            .take_while(|chunk| *chunk == stem.as_bytes())
            .count();
        if repeats >= 2 && repeats * width >= LONGEST_LITERAL {
            let rest = &key[repeats * width..];
            let mut shown = format!("{stem:?}.repeat({repeats})");
            if !rest.is_empty() {
                let _ = write!(shown, " + {rest:?}");
            }
            return shown;
        }
    }
    format!("{key:?}")
}

/// A subtask's state as `{key: count, ..}`, each key as [`shown_key`] writes it.
pub fn shown_state(state: &SubtaskCounts) -> String {
    let pairs: Vec<String> = state
        .iter()
        .map(|(key, count)| format!("{}: {count}", shown_key(key)))
        .collect();
    format!("{{{}}}", pairs.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_and_short_runs_are_literals() {
        assert_eq!(shown_key(""), r#""""#);
        assert_eq!(shown_key("a\tb"), r#""a\tb""#);
        assert_eq!(shown_key(&"k".repeat(63)), format!("{:?}", "k".repeat(63)));
    }

    #[test]
    fn long_runs_are_repeats_with_their_rest() {
        assert_eq!(shown_key(&"k".repeat(256)), r#""k".repeat(256)"#);
        assert_eq!(
            shown_key(&format!("{}17", "k".repeat(256))),
            r#""k".repeat(256) + "17""#
        );
        assert_eq!(
            shown_key(&format!("{}3", "é".repeat(128))),
            r#""é".repeat(128) + "3""#
        );
        assert_eq!(
            shown_key(&"0123456789abcdef".repeat(16)),
            r#""0123456789abcdef".repeat(16)"#
        );
    }

    #[test]
    fn a_state_writes_each_key_so() {
        let state = SubtaskCounts::from([("a".to_owned(), 1), ("k".repeat(256), 0)]);
        assert_eq!(shown_state(&state), r#"{"a": 1, "k".repeat(256): 0}"#);
    }
}
