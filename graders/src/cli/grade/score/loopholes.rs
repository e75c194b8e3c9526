//! What a grading scheme lets through: the shortcuts that answer a stage without its idea,
//! and the warnings a weights file gets when it removes a gate that stopped one.
//!
//! A gate is only as good as the answers it stops. Each stage's gates are its core laws
//! ([`weights::core`]); a shortcut passes every check whose law it can satisfy without the
//! idea (stage 08's returns its input sorted: the `exactly-once` law compares multisets,
//! so it passes), so the gates must hold a check every shortcut fails. The defaults do
//! (a test here); a weights file that turns such a gate off is warned, by name, of the
//! shortcut it lets through and what that would earn.

use super::weights::{self, Weights};
use crate::cli::grade::model::CheckGrade;

/// An answer that skips its stage's idea, and the checks it passes and fails. Each is
/// graded as a fixture (`tests/fixtures/`) whose verdicts `tests/grade/ranking.rs` pins.
#[derive(Debug, Clone, Copy)]
pub struct Shortcut {
    /// The stage it answers.
    pub stage: u8,
    /// What it does, after "a stage NN that".
    pub what: &'static str,
    /// The checks it passes.
    pub passes: &'static [&'static str],
    /// The checks it fails.
    pub fails: &'static [&'static str],
}

/// The known shortcuts (fixture `returns-input-08`; mutant `shortcut` in
/// `tests/mutants/stage08/notifications.rs`).
pub const SHORTCUTS: [Shortcut; 1] = [Shortcut {
    stage: 8,
    what: "returns its input sorted, with no sink and no protocol",
    passes: &["sink-model", "exactly-once", "bad-input"],
    fails: &["protocol", "contract"],
}];

impl Shortcut {
    /// Its stage's score in `0..=1` under `weights`.
    pub fn score(&self, weights: &Weights) -> f64 {
        score_of(weights, self.stage, self.passes, self.fails)
    }
}

/// Stage `stage`'s score in `0..=1` under `weights` when the checks `passes` pass and the
/// checks `fails` fail.
pub fn score_of(weights: &Weights, stage: u8, passes: &[&str], fails: &[&str]) -> f64 {
    let grade = |name: &str, passed: bool| {
        let rule = weights.rule(stage, name);
        CheckGrade {
            name: name.to_owned(),
            passed,
            failure: None,
            not_reproduced: None,
            weight: rule.weight,
            gate: rule.gate,
        }
    };
    let checks: Vec<CheckGrade> = passes
        .iter()
        .map(|n| grade(n, true))
        .chain(fails.iter().map(|n| grade(n, false)))
        .collect();
    weights.stage_score(&checks)
}

/// One warning per gate of the defaults that `weights` removed: the shortcut it lets
/// through and its share of the stage, or, where none is catalogued, the law it no longer
/// holds the stage to. Empty for the defaults.
pub fn warnings(weights: &Weights) -> Vec<String> {
    let mut found = Vec::new();
    for stage in crate::stages::LADDER.iter().map(|s| s.number) {
        let (core, idea) = weights::core(stage);
        let removed: Vec<&str> = core
            .iter()
            .copied()
            .filter(|name| !weights.rule(stage, name).gate)
            .collect();
        if removed.is_empty() {
            continue;
        }
        let gates = format!("`{}`", removed.join("`, `"));
        let through: Vec<String> = SHORTCUTS
            .iter()
            .filter(|s| s.stage == stage && s.score(weights) > 0.0)
            .map(|s| {
                format!(
                    "a stage {stage:02} that {} would earn {:.0}% of the stage (it passes {})",
                    s.what,
                    100.0 * s.score(weights),
                    s.passes.join(", ")
                )
            })
            .collect();
        found.push(if through.is_empty() {
            format!(
                "--weights: stage {stage:02}'s {gates} no longer gates it: a submission that \
                 breaks its idea ({idea}) earns the share of the checks it passes anyway"
            )
        } else {
            format!(
                "--weights: stage {stage:02}'s {gates} no longer gates it, which lets a \
                 shortcut through: {}; keep it a gate ({{\"gate\": true}}) unless you mean that",
                through.join("; ")
            )
        });
    }
    found
}

#[cfg(test)]
#[path = "loopholes_tests.rs"]
mod tests;
