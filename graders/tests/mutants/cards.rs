//! Every mutant's report names the misconception card its table gives, and prints it;
//! every card is some mutant's; correct solutions never get one.

use std::collections::BTreeSet;
use std::path::Path;

use graders::harness::catalogue::SEEDS;
use graders::harness::driver::run_in_process;
use graders::harness::{Stage, StageReport};
use graders::misconception;
use graders::report::{Replay, Style, render};

use crate::fail;

/// Fails unless `report`'s likely misconception is the card `id`, its rendering prints
/// `likely misconception: <title>` right after the check the card explains, and no other
/// failure of the report shows another card.
pub(crate) fn shows(report: &StageReport, id: &str) {
    let Some((check, card)) = misconception::diagnose(report) else {
        fail(&format!(
            "expected the card `{id}`, got none for\n{}",
            render(report, &Style::plain(), &Replay::default())
        ));
    };
    if card.id != id {
        fail(&format!(
            "expected the card `{id}`, got `{}` (on `{}`) for\n{}",
            card.id,
            check.name,
            render(report, &Style::plain(), &Replay::default())
        ));
    }
    let text = render(report, &Style::plain(), &Replay::default());
    let line = format!("    likely misconception: {}", card.title);
    let at = text
        .find(&line)
        .unwrap_or_else(|| fail(&format!("`{line}` is not in\n{text}")));
    let heading = format!("  ✗ {}: ", check.name);
    let before = &text[..at];
    if before.rfind("  ✗ ").map(|i| &before[i..i + heading.len()]) != Some(heading.as_str()) {
        fail(&format!("the card is not under `{}`:\n{text}", check.name));
    }
    no_other_card(report, id);
}

/// Cards one mistake's other failures may show besides its own, when the belief of one
/// implies the other's: `(the mutant's card, the card another of its failures shows)`.
const IMPLIED: [(&str, &str); 3] = [
    // A seek that does nothing also accepts offsets past the end.
    ("01-seek-is-a-formality", "01-clamp-past-the-end"),
    // A fired window left in place to fire again is fired state kept.
    ("05-firing-keeps-the-window", "05-fired-state-is-kept"),
    // State kept as an object, not bytes, is memory that survives the crash.
    (
        "07-state-objects-need-no-bytes",
        "07-memory-survives-the-crash",
    ),
];

/// Fails if a failure of `report`, shown alone as `byo grade` shows each failing check,
/// gets a card other than `id` (or one [`IMPLIED`] by it).
fn no_other_card(report: &StageReport, id: &str) {
    for (check, failure) in report.failures() {
        let alone = StageReport {
            checks: vec![check.clone()],
            ..report.clone()
        };
        if let Some(card) = misconception::likely(&alone)
            && card.id != id
            && !IMPLIED.contains(&(id, card.id))
        {
            fail(&format!(
                "`{}`, shown alone, gets the card `{}`, not `{id}`: {failure:#?}",
                check.name, card.id
            ));
        }
    }
}

/// Fails if `report`, or any of its failures shown alone as `byo grade` shows each
/// failing check, gets a card: for a mutant whose smallest cases only coincide with the
/// symptom of another mistake's card.
pub(crate) fn none_shown(report: &StageReport) {
    if let Some((check, card)) = misconception::diagnose(report) {
        fail(&format!(
            "expected no card, got `{}` (on `{}`) for\n{}",
            card.id,
            check.name,
            render(report, &Style::plain(), &Replay::default())
        ));
    }
    no_other_card(report, "");
}

/// Fails unless the grader of `S` rejects `drive` at `check`, naming `requirement`, with
/// no card shown ([`none_shown`]): the row of a table of coincidences.
pub(crate) fn rejected_without_card<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    check: &str,
    requirement: &str,
) {
    let report = graders::harness::expect_rejected_for::<S>(drive, check, requirement)
        .unwrap_or_else(|why| fail(&why));
    none_shown(&report);
}

/// Fails if the grader of `S` finds a misconception in `drive`'s report under a few
/// seeds (the learner's among them): a correct solution never gets a card.
pub(crate) fn none_for<S: Stage>(drive: fn(&S::Case) -> S::Observation) {
    for seed in SEEDS.iter().take(3) {
        let report = run_in_process::<S>(*seed, drive);
        if let Some(card) = misconception::likely(&report) {
            fail(&format!(
                "a correct solution got the card `{}` under seed {seed:#x}",
                card.id
            ));
        }
    }
}

/// The card ids the catalogues' tables name (the last string of each `#[case::..]`).
fn ids_in_tables(dir: &Path, ids: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ids_in_tables(&path, ids);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().filter(|l| l.starts_with("#[case::")) {
                // A row without a card ends with its requirement's id (`05-R3`).
                if let Some(id) = line
                    .rsplit('"')
                    .nth(1)
                    .filter(|id| !graders::harness::requirements::is_id(id))
                {
                    ids.insert(id.to_owned());
                }
            }
        }
    }
}

#[test]
fn every_card_is_named_by_some_mutant() {
    let mut named = BTreeSet::new();
    ids_in_tables(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutants"),
        &mut named,
    );
    let cards: BTreeSet<String> = misconception::all().map(|c| c.id.to_owned()).collect();
    let unused: Vec<_> = cards.difference(&named).collect();
    let unknown: Vec<_> = named.difference(&cards).collect();
    assert!(unused.is_empty(), "cards no mutant names: {unused:?}");
    assert!(unknown.is_empty(), "tables name unknown cards: {unknown:?}");
}
