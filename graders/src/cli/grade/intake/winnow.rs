//! Winnowed fingerprints of Rust source, as MOSS takes them (Schleimer, Wilkerson and
//! Aiken, "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003).
//!
//! The source is read with grading's lexer ([`super::tokens`]) and each token normalised:
//! identifiers (macro, type and field names among them), lifetimes and literals become
//! one code per kind, comments and whitespace are gone, and keywords and punctuation stay
//! as they are, so renaming, reformatting and recommenting change nothing. Every run of
//! [`K`] tokens (a k-gram) is hashed, and in every window of [`W`] consecutive hashes the
//! smallest is kept (the rightmost of equals, once per position): any run of at least
//! `W + K - 1` tokens two files share gives both the same fingerprint, and a file keeps
//! about `2 / (W + 1)` of its k-grams. Each fingerprint keeps the lines it spans, so a
//! match can be shown where it is. Nothing crosses a file's end: files are compared by
//! their contents, whatever they are named or however the code is spread over them.

use super::tokens::{Token, tokens_by_line};
use crate::cli::grade::model::Print;

/// Tokens per k-gram. Shorter k-grams match by chance in any two implementations of the
/// same API; longer ones miss copies edited every few lines. Chosen with [`W`] from the
/// measurement in `super::similarity`'s documentation.
pub const K: usize = 12;

/// k-grams per window: a copy is found whenever it shares a run of `W + K - 1` tokens.
pub const W: usize = 6;

/// Every k-gram of `source`: its hash, and the lines of its first and last tokens.
pub fn kgrams(source: &str) -> Vec<(u64, u32, u32)> {
    let tokens = tokens_by_line(source);
    let codes: Vec<u64> = tokens.iter().map(|(t, _)| code(t)).collect();
    codes
        .windows(K)
        .zip(tokens.windows(K))
        .map(|(gram, at)| (hash(gram), at[0].1, at[K - 1].1))
        .collect()
}

/// The winnowed fingerprints of `source`, as file number `file`.
pub fn fingerprints(source: &str, file: u32) -> Vec<Print> {
    let grams = kgrams(source);
    winnow(&grams)
        .into_iter()
        .map(|i| {
            let (hash, first, last) = grams[i];
            Print {
                hash,
                file,
                first,
                last,
            }
        })
        .collect()
}

/// The positions winnowing keeps: in each window of [`W`] hashes, the rightmost smallest,
/// each position once, in order. A file with fewer than `W` k-grams is one window.
fn winnow(grams: &[(u64, u32, u32)]) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    let windows = grams.len().saturating_sub(W) + 1;
    for start in 0..windows.min(grams.len()) {
        let end = (start + W).min(grams.len());
        let mut smallest = start;
        for i in start..end {
            if grams[i].0 <= grams[smallest].0 {
                smallest = i;
            }
        }
        if kept.last() != Some(&smallest) {
            kept.push(smallest);
        }
    }
    kept
}

/// A token as similarity reads it: a keyword or a punctuation character as itself, every
/// other token as its kind only.
fn code(token: &Token) -> u64 {
    match token {
        Token::Ident(word) => KEYWORDS
            .iter()
            .position(|k| k == word)
            .map_or(1, |i| 0x1_0000 + i as u64),
        Token::Str(_) => 2,
        Token::Literal(_) => 3,
        Token::Lifetime(_) => 4,
        Token::Punct(c) => 0x100 + u64::from(*c),
    }
}

/// FNV-1a over the codes, then a final mix so that the low bits (which winnowing's
/// minimum leans on) depend on every token.
fn hash(codes: &[u64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for code in codes {
        for byte in code.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    // splitmix64's finaliser.
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// Rust's keywords (strict and reserved, 2021 edition), and `true` and `false`.
const KEYWORDS: [&str; 53] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "union", "gen",
];

#[cfg(test)]
#[path = "winnow_tests.rs"]
mod tests;
