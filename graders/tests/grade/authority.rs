//! What a driver or a compiler says is evidence, never authority: a submission that
//! forges the driver's protocol lines with the nonce it stole from the driver's memory,
//! or whose compiler error reads as the grading machine's own failure, is charged to its
//! stage, and the run goes on and exits 0 (only the supervisor says the grading
//! environment failed). An honest submission graded beside them keeps full marks.

use super::grade;
use super::reading::{check, report, stage, verdict};
use super::submissions::{Base, submission};

#[test]
fn forged_protocol_lines_and_imitated_failures_are_charged_to_their_stage() {
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let mut args: Vec<String> = [
        ("attack-forged-refused", Some("attack-forged-refused")),
        ("attack-second-answer", Some("attack-second-answer")),
        ("attack-compile-error-env", Some("attack-compile-error-env")),
        ("honest", None),
    ]
    .into_iter()
    .map(|(name, fixture)| {
        let dir = submission(&subs, name, Base::ReferenceUpTo(1), fixture);
        dir.display().to_string()
    })
    .collect();
    let out = scratch.path().join("out");
    args.extend(["--out".into(), out.display().to_string()]);
    args.extend(["--seed", "7", "--stages", "01", "--timeout", "2"].map(String::from));
    // `grade` asserts that `byo grade` exits 0: no environment failed.
    grade(&args);

    for forger in ["attack-forged-refused", "attack-second-answer"] {
        let r = report(&out, forger);
        assert_eq!(verdict(&r, 1), "failed", "{forger}: {r:#}");
        // The checks that call `run` forge a line in their first case (and again when
        // it is re-run alone); a check that never calls it passes.
        for name in ["chain", "crash"] {
            assert_eq!(check(&r, 1, name), "protocol violation", "{forger}: {r:#}");
        }
        for name in ["seek", "seek-past-end"] {
            let anomaly = check(&r, 1, name);
            assert!(
                ["passed", "protocol violation"].contains(&anomaly.as_str()),
                "{forger}: {name}: {anomaly}"
            );
        }
        assert!(r["total"].as_f64().expect("a total") < 100.0, "{forger}");
        assert!(r["error"].is_null(), "{forger} was graded: {r:#}");
    }

    let r = report(&out, "attack-compile-error-env");
    assert_eq!(verdict(&r, 1), "does-not-build", "{r:#}");
    let errors = stage(&r, 1)["errors"].as_str().expect("errors");
    assert!(errors.contains("compile_error!") || errors.contains("the sandbox could not start"));
    assert!(r["error"].is_null(), "it was graded: {r:#}");

    let r = report(&out, "honest");
    assert_eq!(verdict(&r, 1), "passed", "{r:#}");
    assert_eq!(r["total"], 100.0);
}
