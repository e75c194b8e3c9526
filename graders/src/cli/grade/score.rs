//! Stage weights and scores.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::stages;

/// The weight of each stage in a total; equal unless a weights file says otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights(BTreeMap<u8, f64>);

impl Default for Weights {
    fn default() -> Self {
        Self(stages::LADDER.iter().map(|s| (s.number, 1.0)).collect())
    }
}

impl Weights {
    /// Reads a JSON object of stage to weight, e.g. `{"01": 1, "08": 3}`; stages it does
    /// not name keep weight 1.
    ///
    /// # Errors
    /// When the file cannot be read, is not such an object, names a stage off the
    /// ladder, or gives a negative or non-finite weight, or weights whose sum is not finite.
    pub fn from_file(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("grade: --weights {} cannot be read", path.display()))?;
        let given: BTreeMap<String, f64> = serde_json::from_str(&text).with_context(|| {
            format!(
                "grade: --weights {} must be a JSON object of stage to weight, e.g. {{\"01\": 1, \"08\": 3}}",
                path.display()
            )
        })?;
        let mut weights = Self::default();
        for (key, weight) in given {
            let Some(stage) = key.parse::<u8>().ok().filter(|n| stages::get(*n).is_some()) else {
                bail!("grade: --weights names `{key}`, which is not a stage from 01 to 08");
            };
            if !weight.is_finite() || weight < 0.0 {
                bail!(
                    "grade: --weights gives stage {key} the weight {weight}; weights must be 0 or more"
                );
            }
            weights.0.insert(stage, weight);
        }
        // Each weight finite is not enough: their sum divides every total.
        let sum: f64 = weights.0.values().sum();
        if !sum.is_finite() {
            bail!(
                "grade: --weights {} add up to more than a number can hold; use smaller weights",
                path.display()
            );
        }
        Ok(weights)
    }

    /// The weight of `stage`.
    pub fn of(&self, stage: u8) -> f64 {
        self.0.get(&stage).copied().unwrap_or(1.0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_weights_average_the_stages() {
        let total = total(&[(1, 1.0), (2, 0.5)], &Weights::default());
        assert!((total - 75.0).abs() < 1e-9);
    }

    fn from_json(json: &str) -> Result<Weights> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("weights.json");
        std::fs::write(&path, json)?;
        Weights::from_file(&path)
    }

    #[test]
    fn weights_are_finite_and_not_negative() {
        for (json, says) in [
            (r#"{"01": -1}"#, "weights must be 0 or more"),
            (
                r#"{"01": 1e308, "02": 1e308}"#,
                "add up to more than a number can hold",
            ),
            (r#"{"09": 1}"#, "not a stage from 01 to 08"),
            (r#"{"01": 1e999}"#, "must be a JSON object"),
        ] {
            let error = format!("{:#}", from_json(json).unwrap_err());
            assert!(error.contains(says), "{json}: {error}");
        }
        let weights = from_json(r#"{"01": 1e307, "08": 3}"#).unwrap();
        let total = total(&[(1, 1.0), (8, 0.0)], &weights);
        assert!(total.is_finite() && (total - 100.0).abs() < 1e-6, "{total}");
    }
}
