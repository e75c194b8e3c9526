//! Regrades that merge: grading one stage of one student again updates that stage in the
//! student's report and keeps the others with the run that judged them, appends the change
//! to the report's history, and rebuilds every file across submissions to agree.

use std::fs;
use std::path::Path;

use super::grade;
use super::reading::{report, stage, verdict};
use super::submissions::{Base, submission};

#[test]
fn regrading_one_stage_of_one_student_keeps_the_rest_and_every_output_agrees() {
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let alice = submission(&subs, "alice", Base::ReferenceUpTo(2), None);
    let bob = submission(&subs, "bob", Base::ReferenceUpTo(2), None);
    let out = scratch.path().join("out");
    let roster = scratch.path().join("roster.csv");
    fs::write(
        &roster,
        "student_id,name,folder\ns1,Alice,alice\ns2,\"B, Bob\",bob\n",
    )
    .unwrap();
    let run = |who: &[&Path], stages: &str| {
        let mut args: Vec<String> = who.iter().map(|p| p.display().to_string()).collect();
        args.extend(["--out".into(), out.display().to_string()]);
        args.extend(["--roster".into(), roster.display().to_string()]);
        args.extend(["--due", "2000-01-01T00:00:00Z"].map(String::from));
        args.extend(["--seed", "50", "--stages", stages, "--timeout", "2"].map(String::from));
        args.push("--gradescope".into());
        grade(&args);
    };
    run(&[&alice, &bob], "01,02");
    let alice_before = report(&out, "alice");
    let bob_before = report(&out, "bob");
    let read = |name: &str| fs::read_to_string(out.join(name)).expect("written");
    let csv_before = read("grades.csv");
    assert_eq!(bob_before["total"], 100.0, "{bob_before:#}");

    // Bob's 02 is back to the skeleton; only his 02 is graded again.
    fs::remove_dir_all(bob.join("stages/02-keyed-state")).expect("bob's 02 removed");
    run(&[&bob], "02");

    let bob_after = report(&out, "bob");
    assert_eq!(verdict(&bob_after, 1), "passed", "kept: {bob_after:#}");
    assert_eq!(
        stage(&bob_after, 1),
        stage(&bob_before, 1),
        "kept as it was"
    );
    assert_eq!(
        bob_after["stage_runs"]["1"], bob_before["stage_runs"]["1"],
        "stage 01 keeps the run that judged it"
    );
    assert_eq!(bob_after["stage_runs"]["2"]["seed"], bob_after["seed"]);
    assert_ne!(bob_after["stage_runs"]["2"], bob_before["stage_runs"]["2"]);
    assert_eq!(verdict(&bob_after, 2), "not-started", "{bob_after:#}");
    assert_eq!(bob_after["total"], 50.0, "over both stages: {bob_after:#}");
    let history = bob_after["history"].as_array().expect("a history");
    assert_eq!(
        history.len(),
        3,
        "two first grades and one change: {history:#?}"
    );
    let change = history.last().expect("the regrade");
    assert_eq!(
        (&change["stage"], &change["from"], &change["to"]),
        (&2.into(), &1.0.into(), &0.0.into()),
        "{change:#}"
    );
    let md = read("bob/report.md");
    assert!(md.contains("Kept from an earlier run"), "{md}");
    assert!(md.contains("| 02 | 100% | 0% |"), "{md}");

    // Alice was not graded again: her report and row are as they were.
    assert_eq!(report(&out, "alice"), alice_before);
    let csv = read("grades.csv");
    let row = |csv: &str, name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .map(str::to_owned)
            .expect("a row")
    };
    // All but who she is alike with: bob's 02 is no longer like hers.
    let head = |line: String| line.split(',').take(7).collect::<Vec<_>>().join(",");
    assert_eq!(head(row(&csv, "alice")), head(row(&csv_before, "alice")));
    // Its copy flags (bob's 01 is the reference) are not the point here.
    assert!(
        row(&csv, "bob").starts_with(&format!(
            "bob,partial,{},100.0,0.0,50.0,",
            bob_after["seed"]
        )),
        "{csv}"
    );
    let json: serde_json::Value = serde_json::from_str(&read("grades.json")).expect("json");
    let bob_row = json
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["submission"] == "bob")
        .expect("bob's row");
    assert_eq!(
        (&bob_row["01"], &bob_row["02"]),
        (&100.0.into(), &0.0.into())
    );
    assert_eq!(bob_row["total"], 50.0);
    let cohort = read("cohort.md");
    assert!(cohort.contains("| mastered | 1 | alice |"), "{cohort}");
    assert!(cohort.contains("| partial | 1 | bob |"), "{cohort}");
    let results: serde_json::Value =
        serde_json::from_str(&read("bob/results.json")).expect("results.json");
    assert_eq!(results["score"], 50.0, "{results:#}");
    assert!(read("cohort.html").contains("bob"));

    // The roster's id and the lateness reach the report and the gradebook; no folder of
    // the instructor's machine does.
    assert_eq!(bob_after["term"]["student"]["id"], "s2");
    assert!(
        bob_after["term"]["late_minutes"].as_u64().unwrap() > 0,
        "{bob_after:#}"
    );
    assert_eq!(bob_after["path"], "…/bob");
    assert!(row(&csv, "bob").contains(",s2,\"B, Bob\",2"), "{csv}");
    for file in [
        "bob/report.json",
        "bob/report.md",
        "grades.json",
        "cohort.md",
    ] {
        assert!(
            !read(file).contains(&*scratch.path().to_string_lossy()),
            "{file}"
        );
    }
}
