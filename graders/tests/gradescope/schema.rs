//! Gradescope's `results.json` schema, as its documentation gives it: a results file
//! holds no field the schema does not name, and each field it holds has its type.

use serde_json::Value;

/// Gradescope's documented fields (gradescope-autograders.readthedocs.io, "Autograder
/// Specifications"): nothing else, each of its type.
pub fn check_schema(results: &Value) {
    const TOP: [&str; 11] = [
        "score",
        "execution_time",
        "output",
        "output_format",
        "test_output_format",
        "test_name_format",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    ];
    const TEST: [&str; 11] = [
        "score",
        "max_score",
        "status",
        "name",
        "name_format",
        "number",
        "output",
        "output_format",
        "tags",
        "visibility",
        "extra_data",
    ];
    const VISIBILITY: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];
    // "Output String Formatting": how Gradescope renders a text field.
    const FORMAT: [&str; 5] = ["text", "html", "simple_format", "md", "ansi"];
    let format = |value: &Value, key: &str| {
        if let Some(v) = value.get(key) {
            assert!(FORMAT.contains(&v.as_str().unwrap()), "{key}: {v}");
        }
    };
    let top = results.as_object().expect("an object");
    for key in top.keys() {
        assert!(TOP.contains(&key.as_str()), "unknown field {key}");
    }
    assert!(top["score"].is_number());
    assert!(top["execution_time"].is_u64());
    assert!(top["output"].is_string());
    for key in ["visibility", "stdout_visibility"] {
        assert!(VISIBILITY.contains(&top[key].as_str().unwrap()), "{key}");
    }
    for key in ["output_format", "test_output_format", "test_name_format"] {
        format(results, key);
    }
    for test in top["tests"].as_array().expect("tests") {
        let test = test.as_object().expect("a test");
        for key in test.keys() {
            assert!(TEST.contains(&key.as_str()), "unknown test field {key}");
        }
        let (score, max) = (
            test["score"].as_f64().unwrap(),
            test["max_score"].as_f64().unwrap(),
        );
        assert!((0.0..=max).contains(&score), "{test:?}");
        assert!(["passed", "failed"].contains(&test["status"].as_str().unwrap()));
        assert!(VISIBILITY.contains(&test["visibility"].as_str().unwrap()));
        assert!(test["name"].is_string() && test["output"].is_string());
        format(&Value::Object(test.clone()), "output_format");
        format(&Value::Object(test.clone()), "name_format");
    }
}

/// The points as Gradescope adds them, in whole hundredths: the tests' `max_score`s make
/// exactly `total`, and the top-level `score` (which overrides the tests' sum) is that sum.
pub fn check_points(results: &Value, total: f64) {
    let cents = |v: &Value| (v.as_f64().unwrap() * 100.0).round() as i64;
    let tests = results["tests"].as_array().unwrap();
    let max: i64 = tests.iter().map(|t| cents(&t["max_score"])).sum();
    assert_eq!(
        max,
        cents(&Value::from(total)),
        "the tests' max_score: {results:#}"
    );
    let earned: i64 = tests.iter().map(|t| cents(&t["score"])).sum();
    assert_eq!(
        earned,
        cents(&results["score"]),
        "the tests' scores: {results:#}"
    );
}
