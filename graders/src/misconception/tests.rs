//! The catalogue of cards is well formed: unique ids naming their stage, a signature
//! each, and a section to reread that the stage's brief has.

use std::collections::BTreeSet;

use super::*;

#[test]
fn ids_are_unique_and_name_their_stage() {
    let mut seen = BTreeSet::new();
    for card in all() {
        assert!(seen.insert(card.id), "{} twice", card.id);
        assert!(
            card.id.starts_with(&format!("{:02}-", card.stage)),
            "{} is a card of stage {}",
            card.id,
            card.stage
        );
        assert!(!card.signatures.is_empty(), "{} has no signature", card.id);
        assert!(
            card.title.len() <= 90,
            "{}'s title is not a one-liner",
            card.id
        );
        assert_eq!(super::card(card.id).map(|c| c.id), Some(card.id));
    }
}

#[test]
fn every_card_sends_the_learner_to_a_section_of_its_brief() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for card in all() {
        let path = root.join(card.brief());
        let brief =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let heading = format!("## {}", card.reread);
        assert!(
            brief.lines().any(|l| l.trim_end() == heading),
            "{}: {} has no heading `{heading}`",
            card.id,
            path.display()
        );
    }
}

#[test]
fn reading_helpers_find_what_they_look_for() {
    assert_eq!(between("a [1, 2] b", "[", "]"), Some("1, 2"));
    assert_eq!(between("a", "[", "]"), None);
    assert_eq!(numbers_after("x = [0, 3]", "= "), Some(vec![0, 3]));
    assert_eq!(numbers_after("Ok([])", "Ok("), Some(vec![]));
    assert_eq!(numbers_after("Ok([a])", "Ok("), None);
}
