//! Tests of winnowing: what normalisation sets aside, what it keeps, and the guarantee
//! that a long enough shared run is found.

use super::*;

fn hashes(source: &str) -> Vec<u64> {
    fingerprints(source, 0)
        .into_iter()
        .map(|p| p.hash)
        .collect()
}

const ORIGINAL: &str = "pub fn total(items: &[u32]) -> u32 {
    // Sum them.
    let mut sum = 0;
    for item in items {
        if *item > 3 { sum += item; }
    }
    sum
}";

#[test]
fn renaming_reformatting_recommenting_and_new_literals_change_no_fingerprint() {
    let disguised = "/// Adds up.\npub fn add_all(xs:&[u64])->u64{let mut acc=7;\
                     for x in xs{if *x>9{acc+=x;}}acc}";
    assert!(!hashes(ORIGINAL).is_empty());
    assert_eq!(hashes(ORIGINAL), hashes(disguised));
}

#[test]
fn keywords_and_punctuation_are_kept() {
    let other_keyword = ORIGINAL.replace("for item in items", "while item in items");
    let other_operator = ORIGINAL.replace("sum += item", "sum -= item");
    assert_ne!(hashes(ORIGINAL), hashes(&other_keyword));
    assert_ne!(hashes(ORIGINAL), hashes(&other_operator));
}

#[test]
fn a_fingerprint_spans_the_lines_of_its_k_gram() {
    let prints = fingerprints(ORIGINAL, 3);
    assert!(prints.iter().all(|p| p.file == 3 && p.first <= p.last));
    assert!(prints.iter().all(|p| (1..=8).contains(&p.first)));
    // Line 1 holds 15 tokens, line 3 six: the k-gram from the eleventh token, `)`, ends
    // at `for`, across the comment on line 2.
    let grams = kgrams(ORIGINAL);
    assert_eq!((grams[10].1, grams[10].2), (1, 4));
}

#[test]
fn a_shared_run_of_w_plus_k_minus_1_tokens_shares_a_fingerprint() {
    // Two files that share nothing but one run of exactly W + K - 1 tokens, punctuation
    // whose k-grams are all different.
    let puncts = [
        '+', '-', '*', '/', '%', '^', '!', '&', '|', '=', '<', '>', '@', '.',
    ];
    let run: String = (0..W + K - 1)
        .map(|i| puncts[i % puncts.len()].to_string() + " ")
        .collect();
    let a = format!("fn a ( ) {{ {run} }}");
    let b = format!("struct b ; impl b {{ {run} }} enum c {{ }}");
    let ours = hashes(&a);
    assert!(
        hashes(&b).iter().any(|h| ours.contains(h)),
        "a run of {} tokens is found",
        W + K - 1
    );
}

#[test]
fn a_file_shorter_than_a_k_gram_has_no_fingerprint_and_a_short_one_has_one() {
    assert!(fingerprints("fn f() {}", 0).is_empty());
    let twelve = "fn f ( a : u8 ) -> u8 { }";
    assert_eq!(kgrams(twelve).len(), 1);
    assert_eq!(fingerprints(twelve, 0).len(), 1);
}

#[test]
fn winnowing_keeps_the_rightmost_minimum_of_every_window_once() {
    let grams: Vec<(u64, u32, u32)> = [5, 3, 9, 3, 7, 8, 8, 8, 1, 6, 6, 6, 6, 6, 6]
        .into_iter()
        .map(|h| (h, 1, 1))
        .collect();
    assert_eq!(W, 6, "the windows below are of 6");
    // [0..6) min 3 at 3, [1..7) 3 at 3, [2..8) 3 at 3, [3..9) 1 at 8, ...,
    // [8..14) 1 at 8, [9..15) 6 at 14.
    assert_eq!(winnow(&grams), [3, 8, 14]);
}
