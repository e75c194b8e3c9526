//! Tests of `results.json`: points that add up to exactly 100, zeroed stages that say so,
//! the instructor's visibility on every test.

use super::*;
use crate::cli::grade::model::Provenance;
use crate::cli::grade::model::{CheckGrade, FailureGrade, Verdict};

fn check(name: &str, failure: Option<&str>, gate: bool) -> CheckGrade {
    CheckGrade {
        name: name.to_owned(),
        passed: failure.is_none(),
        failure: failure.map(|detail| FailureGrade {
            case_index: 3,
            case: "vec![1, 2]".to_owned(),
            anomaly: "wrong result".to_owned(),
            detail: detail.to_owned(),
            misconception: None,
        }),
        not_reproduced: None,
        weight: 1.0,
        gate,
    }
}

fn stage(number: u8, score: f64, checks: Vec<CheckGrade>) -> StageGrade {
    StageGrade {
        stage: number,
        title: format!("stage {number:02} · test"),
        verdict: if checks.is_empty() {
            Verdict::DoesNotBuild
        } else {
            Verdict::Failed
        },
        score,
        weight: 1.0,
        errors: checks.is_empty().then(|| "error[E0308]".to_owned()),
        checks,
        cases_judged: 2,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    }
}

fn report(stages: Vec<StageGrade>, total: f64) -> SubmissionReport {
    SubmissionReport {
        submission: "ada".to_owned(),
        path: "submissions/ada".to_owned(),
        seed: 7,
        draw: Default::default(),
        stage_runs: Default::default(),
        history: Vec::new(),
        provenance: Provenance::default(),
        stages,
        total,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        similarity: Vec::new(),
        term: Default::default(),
        error: None,
        seconds: 1.0,
    }
}

fn cents(value: &Value) -> u64 {
    (value.as_f64().unwrap() * 100.0).round() as u64
}

fn tests(results: &Value) -> &Vec<Value> {
    results["tests"].as_array().unwrap()
}

#[test]
fn apportioning_keeps_the_total_and_the_proportions() {
    assert_eq!(apportion(10_000, &[1.0, 1.0, 1.0]), [3334, 3333, 3333]);
    assert_eq!(
        apportion(1250, &[1.0; 8]),
        [157, 157, 156, 156, 156, 156, 156, 156]
    );
    assert_eq!(apportion(100, &[1.0, 0.0, 3.0]), [25, 0, 75]);
    assert_eq!(apportion(100, &[0.0, 0.0]), [0, 0]);
    assert_eq!(apportion(7, &[]), Vec::<u64>::new());
    for shares in [
        &[0.3, 0.3, 0.4][..],
        &[1e-9, 1.0],
        &[2.0, 3.0, 5.0, 7.0, 11.0],
    ] {
        assert_eq!(
            apportion(10_000, shares).iter().sum::<u64>(),
            10_000,
            "{shares:?}"
        );
    }
}

#[test]
fn the_maximum_scores_add_up_to_exactly_100() {
    // Eight stages of 3 to 7 checks: each check's exact share has many decimals (plain
    // rounding added up to 100.04 on the kata's own stages).
    let stages: Vec<StageGrade> = (1..=8)
        .map(|n| {
            let checks = (0..(3 + n % 5)).map(|i| check(&format!("c{i}"), None, i == 0));
            stage(n, 1.0, checks.collect())
        })
        .collect();
    let results = results(&report(stages, 100.0), Visibility::Visible, false);
    let max: u64 = tests(&results).iter().map(|t| cents(&t["max_score"])).sum();
    assert_eq!(max, 10_000, "{results:#}");
    assert_eq!(cents(&results["score"]), 10_000);
    // Each stage's tests make exactly its share.
    for n in 1..=8 {
        let prefix = format!("stage {n:02}");
        let stage: u64 = tests(&results)
            .iter()
            .filter(|t| t["name"].as_str().unwrap().starts_with(&prefix))
            .map(|t| cents(&t["max_score"]))
            .sum();
        assert_eq!(stage, 1250, "{prefix}");
    }
}

#[test]
fn a_zeroed_stage_reads_as_zeroed_and_a_failed_build_as_one_test() {
    let stages = vec![
        stage(
            1,
            0.0,
            vec![
                check("seek", None, false),
                check("crash", Some("expected [1] < got [2]"), true),
            ],
        ),
        stage(
            2,
            0.5,
            vec![
                check("isolation", None, true),
                check("x", Some("no"), false),
            ],
        ),
        stage(3, 0.0, Vec::new()),
    ];
    let results = results(&report(stages, 16.67), Visibility::Visible, false);
    let tests = tests(&results);
    // The passing check of the zeroed stage: failed, 0 points, and it says why.
    assert_eq!(tests[0]["status"], "failed");
    assert_eq!(tests[0]["score"], 0.0);
    let name = tests[0]["name"].as_str().unwrap();
    assert!(
        name.contains("passes, but earns nothing: the gate `crash` fails"),
        "{name}"
    );
    assert!(
        tests[0]["output"]
            .as_str()
            .unwrap()
            .contains("every case passed")
    );
    assert_eq!(tests[1]["output"], "expected [1] < got [2]");
    // A stage that earns: its passing check is passed with its points, under its own name.
    assert_eq!(tests[2]["name"], "stage 02 · test: isolation");
    assert_eq!(
        (tests[2]["status"].as_str(), cents(&tests[2]["score"])),
        (Some("passed"), 1667)
    );
    // A stage that does not build: one test worth the whole stage, with the errors.
    assert_eq!(tests.len(), 5);
    assert_eq!(
        (tests[4]["output"].as_str(), cents(&tests[4]["max_score"])),
        (Some("error[E0308]"), 3333)
    );
    assert_eq!(cents(&results["score"]), 1667);
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("byo test NN --seed 7 --case N")
    );
}

#[test]
fn every_test_has_the_instructors_visibility_and_a_text_format() {
    let stages = vec![stage(1, 1.0, vec![check("seek", None, true)])];
    for (visibility, name) in [
        (Visibility::Hidden, "hidden"),
        (Visibility::AfterDueDate, "after_due_date"),
        (Visibility::AfterPublished, "after_published"),
        (Visibility::Visible, "visible"),
    ] {
        let results = results(&report(stages.clone(), 100.0), visibility, false);
        assert_eq!(results["visibility"], name);
        assert_eq!(results["stdout_visibility"], "hidden");
        assert_eq!(results["test_output_format"], "text");
        for test in tests(&results) {
            assert_eq!(test["visibility"], name);
            assert_eq!(test["output_format"], "text");
        }
        let parsed = Visibility::from_str(name, false).unwrap();
        assert_eq!(
            parsed, visibility,
            "the command line takes Gradescope's word"
        );
    }
}

#[test]
fn what_the_code_printed_reaches_results_json_only_when_the_instructor_allows_it() {
    let mut loud = stage(1, 1.0, vec![check("chain", None, false)]);
    loud.printed = vec![crate::harness::printed::PrintedLine {
        case: Some(4),
        run: None,
        text: "debug: a secret of mine".to_owned(),
    }];
    let report = report(vec![loud], 100.0);
    let output = |allowed| results(&report, Visibility::Visible, allowed)["output"].to_string();
    assert!(
        !output(false).contains("debug: a secret of mine"),
        "{}",
        output(false)
    );
    assert!(
        output(true).contains("What your code printed in stage 01"),
        "{}",
        output(true)
    );
    assert!(
        output(true).contains("--- case 4\\ndebug: a secret of mine"),
        "{}",
        output(true)
    );
}
