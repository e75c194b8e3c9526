//! The over-reference manifests, which stages are looked at again, and the sentence.

use super::*;

#[test]
fn a_stage_manifest_names_the_references_of_its_predecessors() {
    let manifest = "[dependencies]\nanyhow.workspace = true\n\
                    stage01 = { path = \"../01-dataflow\" }\n\
                    stage07 = { path = \"../07-exactly-once-state\" }\n\n\
                    [features]\ngrade = []\n";
    let rewritten = over_references(manifest).unwrap();
    assert_eq!(
        rewritten,
        "[dependencies]\nanyhow.workspace = true\n\
         stage01 = { package = \"solution01\", path = \"../../solutions/01-dataflow\" }\n\
         stage07 = { package = \"solution07\", path = \"../../solutions/07-exactly-once-state\" }\n\n\
         [features]\ngrade = []\n"
    );
    let error = over_references("stage01 = { path = \"../01-dataflow\", features = [] }")
        .unwrap_err()
        .to_string();
    assert!(error.contains("is not of the form"), "{error}");
}

fn grade(stage: u8, verdict: Verdict) -> StageGrade {
    StageGrade {
        stage,
        title: format!("stage {stage:02} · x"),
        verdict,
        score: 0.0,
        weight: 1.0,
        checks: Vec::new(),
        errors: None,
        cases_judged: 0,
        seconds: 0.0,
        over_your_stages: None,
    }
}

#[test]
fn only_stages_that_use_one_that_did_not_pass_are_looked_at_again() {
    use Verdict::*;
    let uses: BTreeMap<u8, BTreeSet<u8>> = [
        (2, [1].into()),
        (3, [1, 2].into()),
        (4, BTreeSet::new()),
        (5, [4].into()),
        (6, [5].into()),
    ]
    .into();
    let grades = [
        grade(1, Failed),
        grade(2, Passed),
        grade(3, NotStarted),
        grade(4, Passed),
        grade(5, DoesNotBuild),
        grade(6, Passed),
    ];
    let revisit = to_revisit(&grades, &uses);
    let numbers: Vec<u8> = revisit.iter().map(|(n, _)| *n).collect();
    // 02 uses a failing 01; 03 was not started (nothing to compare); 05 does not
    // build over the reference 04 (maybe over the learner's own?); 06 uses a 05 that
    // does not build.
    assert_eq!(numbers, [2, 5, 6]);
    assert_eq!(revisit[2].1, [(5, DoesNotBuild)].into());
}

#[test]
fn the_sentence_names_both_chains() {
    let mut four = grade(4, Verdict::Passed);
    four.title = "stage 04 · event-time".into();
    let over = |verdict, failing: &[&str]| OverYourStages {
        uses: [(3, Verdict::DoesNotBuild)].into(),
        verdict,
        failing: failing.iter().map(|f| f.to_string()).collect(),
    };
    assert_eq!(
        over(Verdict::DoesNotBuild, &[]).sentence(&four),
        "stage 04 · event-time passes over the reference 03; over your 03 (does not \
         build) it does not build"
    );
    assert_eq!(
        over(Verdict::Failed, &["`crash` (time-out)"]).sentence(&four),
        "stage 04 · event-time passes over the reference 03; over your 03 (does not \
         build) it fails `crash` (time-out)"
    );
}
