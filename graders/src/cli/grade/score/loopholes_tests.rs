//! Tests of the shortcuts and the warnings: the defaults and every weighting the
//! instructor's guide shows stop the shortcut; removing a gate is warned by name.

use std::path::Path;

use super::*;

fn from_json(json: &str) -> Weights {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weights.json");
    std::fs::write(&path, json).unwrap();
    Weights::from_file(&path).unwrap_or_else(|e| panic!("{json}: {e:#}"))
}

/// Every weights file `graders/README.md` shows: its inline code that is a JSON object
/// of stages.
fn documented() -> Vec<String> {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .unwrap()
        .replace('\n', " ");
    let found: Vec<String> = guide
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.starts_with("{\"0"))
        .map(str::to_owned)
        .collect();
    assert!(
        found.len() >= 2,
        "the guide shows its weights files: {found:?}"
    );
    found
}

/// Stage 08's score when the checks in `failing` fail and the others pass.
fn stage08(weights: &Weights, failing: &[&str]) -> f64 {
    let names = [
        "sink-model",
        "exactly-once",
        "protocol",
        "bad-input",
        "contract",
    ];
    let (fails, passes): (Vec<&str>, Vec<&str>) =
        names.iter().copied().partition(|n| failing.contains(n));
    score_of(weights, 8, &passes, &fails)
}

#[test]
fn the_defaults_stop_every_shortcut_and_warn_of_nothing() {
    let weights = Weights::default();
    assert!(warnings(&weights).is_empty());
    for shortcut in SHORTCUTS {
        assert_eq!(shortcut.score(&weights), 0.0, "{shortcut:?}");
        let (core, _) = weights::core(shortcut.stage);
        assert!(
            shortcut.fails.iter().any(|f| core.contains(f)),
            "{shortcut:?} must fail a core check"
        );
    }
}

#[test]
fn every_documented_weighting_ranks_the_shortcut_below_every_honest_partial_08() {
    if !Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).exists() {
        eprintln!("SKIPPED: no instructor's guide here (the student template ships none)");
        return;
    }
    // Honest partial 08s: the protocol and exactly-once right, one or both of the other
    // checks wrong (`forgets-zero-08` fails only `bad-input`).
    let partials: [&[&str]; 3] = [
        &["bad-input"],
        &["sink-model"],
        &["sink-model", "bad-input"],
    ];
    let mut weightings = vec![Weights::default()];
    for json in documented() {
        let weights = from_json(&json);
        assert!(
            warnings(&weights).is_empty(),
            "{json}: {:?}",
            warnings(&weights)
        );
        weightings.push(weights);
    }
    for weights in &weightings {
        let shortcut = SHORTCUTS[0].score(weights);
        assert_eq!(shortcut, stage08(weights, &["protocol", "contract"]));
        for failing in partials {
            let honest = stage08(weights, failing);
            assert!(
                shortcut < honest,
                "{failing:?}: {honest} vs the shortcut's {shortcut}"
            );
        }
    }
}

#[test]
fn removing_a_gate_names_what_it_lets_through() {
    let weights = from_json(
        r#"{"08": {"weight": 3, "checks": {"bad-input": 0.5, "protocol": {"gate": false}}}}"#,
    );
    let warned = warnings(&weights);
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("stage 08's `protocol` no longer gates it")
            && warned[0].contains("returns its input sorted")
            && warned[0].contains("would earn 56% of the stage"),
        "{}",
        warned[0]
    );
    // Where no shortcut is catalogued, the warning names the idea the stage loses.
    let warned = warnings(&from_json(
        r#"{"01": {"checks": {"seek": {"gate": false}, "crash": {"gate": false}}}}"#,
    ));
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("stage 01's `seek`, `crash` no longer gates it")
            && warned[0].contains("a source's snapshot is its position"),
        "{}",
        warned[0]
    );
}
