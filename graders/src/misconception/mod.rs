//! Misconception cards: the belief behind a common mistake, recognised from the way a
//! stage's checks fail, never from the code that failed them.
//!
//! Every mutant of the catalogues (`graders/tests/mutants/`) names a [`Card`]: the belief
//! in a learner's words ("a prepared transaction is as good as a committed one"), why it
//! breaks the stage's law, and the section of the brief to reread. A card carries a
//! [`Signature`]: the check that fails, the kind of fault, and [`Clue`]s about that one
//! failure (its smallest case, what was expected and what came out, the first wrong
//! step; stage 08's anomaly is the start of `actual`). A signature describes the
//! *symptom* of the mistake, so an implementation the catalogues never saw that makes
//! the same mistake fails the same way and gets the same card.
//!
//! [`likely`] walks a report's failures smallest case first and returns the card of the
//! first one a signature matches, trying the stage's cards in catalogue order (the more
//! specific first). A failure no signature matches gets no card: a wrong card is worse
//! than none. A stage that passed or is not started never gets one.
//!
//! A few signatures also ask that another check failed ([`Clue::Fails`]) or passed
//! ([`Clue::Passes`]), where the failure alone could come from another mistake upstream.
//! `byo grade` shows each failing check alone, so there such a card is not shown.
//!
//! Signatures read the graders' wording of a failure. That wording is pinned by the
//! mutant catalogues, which also assert each mutant's card, so a rewording that breaks a
//! signature fails a test rather than silently losing the card.

mod stage01;
mod stage01_contract;
mod stage02;
mod stage02_contract;
mod stage03;
mod stage03_state;
mod stage04;
mod stage04_edges;
mod stage05;
mod stage05_edges;
mod stage05_partial;
mod stage06;
mod stage06_edges;
mod stage07;
mod stage07_edges;
mod stage07_recovery;
mod stage08;
mod stage08_edges;
mod stage08_sink;

use crate::harness::judge::{CaseFailure, CheckReport, Fault, StageReport, StageStatus};

/// The belief behind a mistake, and where to unlearn it.
#[derive(Debug)]
pub struct Card {
    /// A stable name, `NN-words`, which progress files and mutant tables refer to.
    pub id: &'static str,
    /// The stage whose law the belief breaks.
    pub stage: u8,
    /// The belief, in a learner's words.
    pub title: &'static str,
    /// Why the belief breaks the stage's law.
    pub why: &'static str,
    /// The heading (without `## `) of the stage brief's section to reread.
    pub reread: &'static str,
    /// How a failure caused by the belief looks (in one check or another).
    pub signatures: &'static [Signature],
}

/// How a failure caused by a card's belief looks: the card of one of a report's
/// failures when any of its signatures matches it.
#[derive(Debug)]
pub struct Signature {
    /// The check that fails.
    pub check: &'static str,
    /// The kind of fault (as [`Fault::kind`] names it: "wrong result", "panic", ...).
    pub fault: &'static str,
    /// What else holds of the failure; all must.
    pub clues: &'static [Clue],
}

/// One thing that holds of a failure.
#[derive(Debug)]
pub enum Clue {
    /// The smallest case's description contains this.
    Case(&'static str),
    /// What was expected contains this.
    Expected(&'static str),
    /// What came out contains this.
    Actual(&'static str),
    /// What came out starts with this (stage 08's anomaly).
    Anomaly(&'static str),
    /// The first wrong step (or, for a panic, its message) contains this.
    Step(&'static str),
    /// Some records are missing (`true`) or none is (`false`).
    Missing(bool),
    /// Some records are extra (`true`) or none is (`false`).
    Extra(bool),
    /// The clue does not hold.
    Not(&'static Clue),
    /// Either clue holds.
    Either(&'static Clue, &'static Clue),
    /// A symptom that needs a little reading of the failure, described for the catalogue.
    Test(fn(&Symptom) -> bool, &'static str),
    /// Another check of the same report fails too, with these clues: for a mistake whose
    /// first failure alone could have other causes. (Judged on one check alone, as `byo
    /// grade` shows each failure, such a signature never matches: no card rather than a
    /// doubtful one.)
    Fails(&'static str, &'static [Clue]),
    /// Another check of the same report was judged and passed: for a mistake whose
    /// failure another mistake upstream causes too (judged on one check alone, never).
    Passes(&'static str),
}

/// One failure, as the clues read it.
#[derive(Debug, Clone, Copy)]
pub struct Symptom<'a> {
    /// The smallest case's description.
    pub case: &'a str,
    /// What was expected ("" unless a wrong result).
    pub expected: &'a str,
    /// What came out ("" unless a wrong result).
    pub actual: &'a str,
    /// The first wrong step, or a panic's message.
    pub step: &'a str,
    /// Records missing.
    pub missing: &'a [String],
    /// Records extra.
    pub extra: &'a [String],
}

impl<'a> Symptom<'a> {
    fn of(failure: &'a CaseFailure) -> Self {
        let mut symptom = Symptom {
            case: &failure.case,
            expected: "",
            actual: "",
            step: "",
            missing: &[],
            extra: &[],
        };
        match &failure.fault {
            Fault::Wrong {
                expected,
                actual,
                first_wrong_step,
                missing,
                extra,
                ..
            } => {
                symptom.expected = expected;
                symptom.actual = actual;
                symptom.step = first_wrong_step.as_deref().unwrap_or("");
                symptom.missing = missing;
                symptom.extra = extra;
            }
            Fault::Panicked { message, .. } => symptom.step = message,
            _ => {}
        }
        symptom
    }
}

impl Clue {
    fn holds(&self, s: &Symptom, report: &StageReport) -> bool {
        match self {
            Clue::Case(text) => s.case.contains(text),
            Clue::Expected(text) => s.expected.contains(text),
            Clue::Actual(text) => s.actual.contains(text),
            Clue::Anomaly(text) => s.actual.starts_with(text),
            Clue::Step(text) => s.step.contains(text),
            Clue::Missing(some) => s.missing.is_empty() != *some,
            Clue::Extra(some) => s.extra.is_empty() != *some,
            Clue::Not(clue) => !clue.holds(s, report),
            Clue::Either(a, b) => a.holds(s, report) || b.holds(s, report),
            Clue::Test(test, _) => test(s),
            Clue::Fails(check, clues) => report.failures().iter().any(|(c, f)| {
                let other = Symptom::of(f);
                c.name == *check && clues.iter().all(|clue| clue.holds(&other, report))
            }),
            Clue::Passes(check) => report
                .checks
                .iter()
                .any(|c| c.name == *check && c.first_failure.is_none() && c.judged > 0),
        }
    }
}

impl Signature {
    /// Whether `failure` of `check`, in `report`, looks like this signature.
    pub fn matches(
        &self,
        report: &StageReport,
        check: &CheckReport,
        failure: &CaseFailure,
    ) -> bool {
        let symptom = Symptom::of(failure);
        check.name == self.check
            && failure.fault.kind() == self.fault
            && self.clues.iter().all(|clue| clue.holds(&symptom, report))
    }
}

impl Card {
    /// The brief the card sends the learner back to, relative to the kata's root.
    pub fn brief(&self) -> String {
        let slug = crate::ladder::LADDER
            .iter()
            .find(|s| s.number == self.stage)
            .map_or("", |s| s.slug);
        format!("stages/{:02}-{slug}/README.md", self.stage)
    }
}

/// Every card of every stage, stage by stage, each stage's in matching order.
pub fn all() -> impl Iterator<Item = &'static Card> {
    [
        stage01::CARDS,
        stage01_contract::CARDS,
        stage02::CARDS,
        stage02_contract::CARDS,
        stage03::CARDS,
        stage03_state::CARDS,
        stage04::CARDS,
        stage04_edges::CARDS,
        stage05::CARDS,
        stage05_edges::CARDS,
        stage05_partial::CARDS,
        stage06::CARDS,
        stage06_edges::CARDS,
        stage07::CARDS,
        stage07_edges::CARDS,
        stage07_recovery::CARDS,
        stage08::CARDS,
        stage08_edges::CARDS,
        stage08_sink::CARDS,
    ]
    .into_iter()
    .flatten()
}

/// The card with this id.
pub fn card(id: &str) -> Option<&'static Card> {
    all().find(|c| c.id == id)
}

/// The misconception a failed report most likely shows, and the check whose failure
/// shows it: the first failure (smallest case first) that a card of the stage matches.
pub fn diagnose(report: &StageReport) -> Option<(&CheckReport, &'static Card)> {
    if report.status() != StageStatus::Failed {
        return None;
    }
    report.failures().into_iter().find_map(|(check, failure)| {
        all()
            .filter(|card| card.stage == report.stage)
            .find(|card| {
                card.signatures
                    .iter()
                    .any(|s| s.matches(report, check, failure))
            })
            .map(|card| (check, card))
    })
}

/// The misconception a failed report most likely shows, if any.
pub fn likely(report: &StageReport) -> Option<&'static Card> {
    diagnose(report).map(|(_, card)| card)
}

/// The text of `s` between `start` and the next `end` after it.
pub(crate) fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let to = s[from..].find(end)? + from;
    Some(&s[from..to])
}

/// The numbers of a list written `[1, 2, 3]` right after `marker` in `s`.
pub(crate) fn numbers_after(s: &str, marker: &str) -> Option<Vec<u64>> {
    let inner = between(s, &format!("{marker}["), "]")?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests;
