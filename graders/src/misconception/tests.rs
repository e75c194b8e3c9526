//! The catalogue of cards is well formed: unique ids naming their stage, a signature
//! each, and a section to reread that the stage's brief has and that states the rule the
//! card's mutants break.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::harness::requirements;

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

/// The `## ` heading each requirement of `brief` is stated under.
fn sections(brief: &str) -> BTreeMap<String, String> {
    let mut heading = "";
    let mut under = BTreeMap::new();
    for line in brief.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            heading = h.trim_end();
        }
        for id in requirements::tags(line) {
            under.insert(id, heading.to_owned());
        }
    }
    under
}

/// For each card, the requirements broken by the mutants whose catalogue rows name it
/// (each `#[case::…]` row of `graders/tests/mutants/` names its requirement and its card).
fn broken_by_card() -> BTreeMap<&'static str, BTreeSet<String>> {
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutants")];
    let mut broken: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the catalogues").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a catalogue file");
            for row in source.lines().filter(|l| l.trim().starts_with("#[case::")) {
                let literals: Vec<&str> = row.split('"').skip(1).step_by(2).collect();
                let ids = literals.iter().filter(|l| requirements::is_id(l));
                for card in literals.iter().filter_map(|l| super::card(l)) {
                    broken
                        .entry(card.id)
                        .or_default()
                        .extend(ids.clone().map(|id| (*id).to_owned()));
                }
            }
        }
    }
    broken
}

/// A card sends the learner to the section whose sentence they misread: the heading it
/// names holds the rule (or one of the rules) its mutants break.
#[test]
fn every_card_rereads_the_section_that_states_the_rule_its_mutants_break() {
    if !Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mutants")
        .is_dir()
    {
        eprintln!("SKIPPED: no mutant catalogues here (the student template ships none)");
        return;
    }
    let broken = broken_by_card();
    let mut problems = Vec::new();
    for card in all() {
        let Some(ids) = broken.get(card.id) else {
            continue;
        };
        let brief = requirements::brief(card.stage).expect("the card's brief");
        let under = sections(brief);
        let headings: BTreeSet<&str> = ids
            .iter()
            .filter_map(|id| under.get(id).map(String::as_str))
            .collect();
        if !headings.contains(card.reread) {
            problems.push(format!(
                "{} rereads \"{}\", but {ids:?} are stated under {headings:?}",
                card.id, card.reread
            ));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_section_of_a_requirement_is_the_heading_above_its_tag() {
    let under = sections("# T\n\n## Task\n\nOne (01-R1).\n\n## New API\n\n- `a` (01-R2).\n");
    assert_eq!(under["01-R1"], "Task");
    assert_eq!(under["01-R2"], "New API");
}

#[test]
fn reading_helpers_find_what_they_look_for() {
    assert_eq!(between("a [1, 2] b", "[", "]"), Some("1, 2"));
    assert_eq!(between("a", "[", "]"), None);
    assert_eq!(numbers_after("x = [0, 3]", "= "), Some(vec![0, 3]));
    assert_eq!(numbers_after("Ok([])", "Ok("), Some(vec![]));
    assert_eq!(numbers_after("Ok([a])", "Ok("), None);
}

#[test]
fn a_window_s_keys_out_of_key_order_are_told_from_results_key_by_key() {
    let s = |actual: &'static str| Symptom {
        case: "",
        expected: "",
        actual,
        step: "the right results in the wrong order",
        missing: &[],
        extra: &[],
    };
    let card = card("05-keys-in-arrival-order").unwrap();
    let test = |sym: &Symptom| {
        card.signatures[0].clues.iter().all(|c| match c {
            Clue::Test(f, _) => f(sym),
            _ => true,
        })
    };
    assert!(test(&s("[b [2, 4) sum 6 count 1, a [2, 4) sum 8 count 1]")));
    assert!(!test(&s(
        "[a [2, 4) sum 8 count 1, b [2, 4) sum 6 count 1]"
    )));
    // By key, then window: windows out of order, the card of `05-results-key-by-key`.
    assert!(!test(&s(
        "[a [2, 4) sum 1 count 1, a [0, 2) sum 1 count 1]"
    )));
}
