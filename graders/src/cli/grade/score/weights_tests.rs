//! Tests of the grading scheme: weights files old and new, gates, totals.

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
        (
            r#"{"08": {"checks": {"protocol": -2}}}"#,
            "check 08 `protocol` the weight -2",
        ),
        (r#"{"08": {"checks": {"protocol": "x"}}}"#, "must be a JSON"),
    ] {
        let error = format!("{:#}", from_json(json).unwrap_err());
        assert!(error.contains(says), "{json}: {error}");
    }
    let weights = from_json(r#"{"01": 1e307, "08": 3}"#).unwrap();
    let total = total(&[(1, 1.0), (8, 0.0)], &weights);
    assert!(total.is_finite() && (total - 100.0).abs() < 1e-6, "{total}");
}

fn check(name: &str, passed: bool, weights: &Weights, stage: u8) -> CheckGrade {
    let rule = weights.rule(stage, name);
    CheckGrade {
        name: name.to_owned(),
        passed,
        failure: None,
        not_reproduced: None,
        weight: rule.weight,
        gate: rule.gate,
    }
}

fn stage08(weights: &Weights, failing: &[&str]) -> f64 {
    let checks: Vec<CheckGrade> = ["sink-model", "exactly-once", "protocol", "bad-input"]
        .iter()
        .map(|name| check(name, !failing.contains(name), weights, 8))
        .collect();
    weights.stage_score(&checks)
}

#[test]
fn the_core_law_gates_partial_credit() {
    let weights = Weights::default();
    assert_eq!(stage08(&weights, &[]), 1.0);
    assert_eq!(stage08(&weights, &["bad-input"]), 0.75);
    assert_eq!(stage08(&weights, &["protocol"]), 0.0);
    assert_eq!(stage08(&weights, &["exactly-once"]), 0.0);
}

#[test]
fn a_weights_file_sets_check_weights_and_gates() {
    let weights = from_json(
        r#"{"08": {"weight": 3, "checks": {"bad-input": 0, "protocol": {"gate": false},
            "sink-model": {"weight": 2, "gate": true}}}}"#,
    )
    .unwrap();
    assert_eq!(weights.of(8), 3.0);
    assert_eq!(weights.of(1), 1.0);
    // bad-input weighs nothing; protocol is no gate any more, sink-model is.
    assert_eq!(stage08(&weights, &["bad-input"]), 1.0);
    assert_eq!(stage08(&weights, &["protocol"]), 0.75);
    assert_eq!(stage08(&weights, &["sink-model"]), 0.0);
    assert_eq!(stage08(&weights, &["exactly-once"]), 0.0);
}
