//! The grading scheme: each stage's weight in a total, each check's weight in its stage,
//! and the gates, the checks of a stage's core law without which it earns nothing.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::cli::grade::model::{CheckGrade, StageGrade};
use crate::stages;

/// The checks that carry each stage's idea (see "How it is graded" in each brief), with
/// that idea in words: a stage whose core law fails has not done the stage, whatever else
/// passes. [`super::loopholes`] checks that every known shortcut past a stage's idea
/// fails one of them.
const CORE: [(u8, &[&str], &str); 8] = [
    (
        1,
        &["seek", "crash"],
        "a source's snapshot is its position: seeking there and resuming after a crash",
    ),
    (
        2,
        &["isolation", "crash"],
        "each key sees only its own state, and the state survives a crash",
    ),
    (
        3,
        &["partition", "rescale"],
        "records reach their key group's owner, and state follows its keys on a rescale",
    ),
    (
        4,
        &["generator", "combiner"],
        "the watermark is the formula's, and a combiner takes the minimum of its inputs",
    ),
    (
        5,
        &["firing", "crash"],
        "windows fire exactly when the watermark passes their end, and survive a crash",
    ),
    (
        6,
        &["alignment", "aligned-snapshots"],
        "barriers are aligned, and the snapshots are the ones the alignment completes",
    ),
    (
        7,
        &["exactly-once-state", "checkpoints"],
        "state is restored from the last completed checkpoint: counted exactly once",
    ),
    (
        8,
        &["exactly-once", "protocol"],
        "output is committed exactly once, through the two-phase commit protocol",
    ),
];

/// Stage `stage`'s core checks (its default gates) and its idea in words.
pub fn core(stage: u8) -> (&'static [&'static str], &'static str) {
    CORE.iter()
        .find(|(number, _, _)| *number == stage)
        .map_or((&[], ""), |(_, names, idea)| (*names, *idea))
}

/// How one check counts in its stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckRule {
    /// Its share of the stage, relative to the stage's other checks.
    pub weight: f64,
    /// Whether the stage earns nothing unless it passes.
    pub gate: bool,
}

/// The whole scheme: stage weights and per-check rules; the defaults unless a weights
/// file says otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    stages: BTreeMap<u8, f64>,
    checks: BTreeMap<(u8, String), CheckRule>,
}

impl Default for Weights {
    fn default() -> Self {
        let checks = CORE
            .iter()
            .flat_map(|(stage, names, _)| {
                names.iter().map(|name| {
                    let rule = CheckRule {
                        weight: 1.0,
                        gate: true,
                    };
                    ((*stage, (*name).to_owned()), rule)
                })
            })
            .collect();
        Self {
            stages: stages::LADDER.iter().map(|s| (s.number, 1.0)).collect(),
            checks,
        }
    }
}

/// A stage's entry in a weights file: a number (the stage's weight) or an object.
#[derive(Deserialize)]
#[serde(untagged)]
enum StageEntry {
    Weight(f64),
    Detailed {
        #[serde(default)]
        weight: Option<f64>,
        #[serde(default)]
        checks: BTreeMap<String, CheckEntry>,
    },
}

/// A check's entry: a number (its weight) or `{"weight": w, "gate": bool}`.
#[derive(Deserialize)]
#[serde(untagged)]
enum CheckEntry {
    Weight(f64),
    Detailed {
        #[serde(default)]
        weight: Option<f64>,
        #[serde(default)]
        gate: Option<bool>,
    },
}

/// What a weights file must look like, for its errors.
const SHAPE: &str = "a JSON object of stage to weight, e.g. {\"01\": 1, \"08\": 3}, or of stage \
     to {\"weight\": 3, \"checks\": {\"protocol\": {\"weight\": 2, \"gate\": true}}}";

fn weight_of(what: &str, weight: f64) -> Result<f64> {
    if !weight.is_finite() || weight < 0.0 {
        bail!("grade: --weights gives {what} the weight {weight}; weights must be 0 or more");
    }
    Ok(weight)
}

impl Weights {
    /// Reads a weights file: stage to weight, e.g. `{"01": 1, "08": 3}`, or stage to
    /// `{"weight": 3, "checks": {"bad-input": 0.5, "sink-model": {"gate": true}}}`.
    /// What it does not name keeps its default: weight 1, the core checks gates.
    ///
    /// # Errors
    /// When the file cannot be read or is not of that shape, names a stage off the
    /// ladder, or gives a negative or non-finite weight, or weights whose sum is not finite.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("grade: --weights {} cannot be read", path.display()))?;
        let given: BTreeMap<String, StageEntry> = serde_json::from_str(&text)
            .with_context(|| format!("grade: --weights {} must be {SHAPE}", path.display()))?;
        let mut weights = Self::default();
        for (key, entry) in given {
            let Some(stage) = key.parse::<u8>().ok().filter(|n| stages::get(*n).is_some()) else {
                bail!("grade: --weights names `{key}`, which is not a stage from 01 to 08");
            };
            let (weight, checks) = match entry {
                StageEntry::Weight(w) => (Some(w), BTreeMap::new()),
                StageEntry::Detailed { weight, checks } => (weight, checks),
            };
            if let Some(w) = weight {
                weights
                    .stages
                    .insert(stage, weight_of(&format!("stage {key}"), w)?);
            }
            for (name, entry) in checks {
                let rule = weights.rule(stage, &name);
                let (weight, gate) = match entry {
                    CheckEntry::Weight(w) => (Some(w), None),
                    CheckEntry::Detailed { weight, gate } => (weight, gate),
                };
                let weight = match weight {
                    Some(w) => weight_of(&format!("check {key} `{name}`"), w)?,
                    None => rule.weight,
                };
                let gate = gate.unwrap_or(rule.gate);
                weights
                    .checks
                    .insert((stage, name), CheckRule { weight, gate });
            }
        }
        // Each weight finite is not enough: their sum divides every total.
        let sum: f64 = weights.stages.values().sum();
        let check_sum: f64 = weights.checks.values().map(|r| r.weight).sum();
        if !sum.is_finite() || !check_sum.is_finite() {
            bail!(
                "grade: --weights {} add up to more than a number can hold; use smaller weights",
                path.display()
            );
        }
        Ok(weights)
    }

    /// The weight of `stage`.
    pub fn of(&self, stage: u8) -> f64 {
        self.stages.get(&stage).copied().unwrap_or(1.0)
    }

    /// How check `name` of `stage` counts.
    pub fn rule(&self, stage: u8, name: &str) -> CheckRule {
        self.checks
            .get(&(stage, name.to_owned()))
            .copied()
            .unwrap_or(CheckRule {
                weight: 1.0,
                gate: false,
            })
    }

    /// A judged stage's score in `0..=1`: nothing when a gate fails, else the weighted
    /// share of the checks that passed.
    pub fn stage_score(&self, checks: &[CheckGrade]) -> f64 {
        if checks.iter().any(|c| !c.passed && c.gate) {
            return 0.0;
        }
        let all: f64 = checks.iter().map(|c| c.weight).sum();
        if all == 0.0 {
            // Every check weighs nothing: the stage is all or nothing.
            return if checks.iter().all(|c| c.passed) && !checks.is_empty() {
                1.0
            } else {
                0.0
            };
        }
        let earned: f64 = checks.iter().filter(|c| c.passed).map(|c| c.weight).sum();
        earned / all
    }
}

/// The total in percent of `(stage, score in 0..=1)` pairs under `weights`.
pub fn total(scores: &[(u8, f64)], weights: &Weights) -> f64 {
    let weight_sum: f64 = scores.iter().map(|(s, _)| weights.of(*s)).sum();
    if weight_sum == 0.0 {
        return 0.0;
    }
    let earned: f64 = scores.iter().map(|(s, score)| weights.of(*s) * score).sum();
    // Divided first: with weights near f64::MAX, `100 * earned` alone would overflow.
    100.0 * (earned / weight_sum)
}

/// The weighted total of `stages` (a report's, those kept from earlier runs among them),
/// under these stage weights; a stage that weighs nothing (no grader) is left out.
pub fn total_of(stages: &[StageGrade], weights: &Weights) -> f64 {
    let scores: Vec<(u8, f64)> = stages
        .iter()
        .filter(|s| s.weight > 0.0)
        .map(|s| (s.stage, s.score))
        .collect();
    total(&scores, weights)
}

#[cfg(test)]
#[path = "weights_tests.rs"]
mod tests;
