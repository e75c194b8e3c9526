//! Which stages are looked at again over the learner's own earlier stages.

use super::*;

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
        printed: Vec::new(),
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
