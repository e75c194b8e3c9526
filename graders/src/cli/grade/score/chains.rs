//! The learner's **own** chain: a submission's stage is scored over the references of
//! the earlier stages it uses (the over-reference tree,
//! [`crate::cli::grade::confine::over_reference`]), so a broken 04 costs 04 alone; where
//! one of the learner's own earlier stages did not pass, the later stage is also judged
//! over the learner's own, only looked at, to say which of the learner's stages a later
//! one would break.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Result, bail};

use crate::cli::grade::model::{OverYourStages, StageGrade, Verdict};
use crate::cli::pipeline::{Batch, Pipeline, StageOutcome};
use crate::harness::supervisor::Limits;
use crate::stages::{self, StageInfo};

/// Which stages to look at again over the learner's own earlier stages: those judged
/// over the references (or not building there) that use an earlier stage judged in this
/// run which did not pass on its own; the learner's own verdicts of the stages each uses.
pub fn to_revisit(
    grades: &[StageGrade],
    uses: &BTreeMap<u8, BTreeSet<u8>>,
) -> Vec<(u8, BTreeMap<u8, Verdict>)> {
    let own: BTreeMap<u8, Verdict> = grades.iter().map(|g| (g.stage, g.verdict)).collect();
    grades
        .iter()
        .filter(|g| {
            matches!(
                g.verdict,
                Verdict::Passed | Verdict::Failed | Verdict::DoesNotBuild
            )
        })
        .filter_map(|g| {
            let used: BTreeMap<u8, Verdict> = uses
                .get(&g.stage)?
                .iter()
                .filter_map(|n| own.get(n).map(|v| (*n, *v)))
                .collect();
            let suspect = used.values().any(|v| *v != Verdict::Passed);
            // A stage that does not build over the references may use something only
            // the learner's own earlier stages have: worth telling, whatever they scored.
            let unbuilt = g.verdict == Verdict::DoesNotBuild && !used.is_empty();
            (suspect || unbuilt).then_some((g.stage, used))
        })
        .collect()
}

/// Builds and judges the stages `to_revisit` names over the learner's own earlier
/// stages (the pipeline's workspace holds the submission over the pristine tree), and
/// records how each came out in its grade. Nothing here changes a score.
///
/// # Errors
/// When cargo cannot be run at all.
pub fn revisit(
    pipeline: &Pipeline<'_>,
    grades: &mut [StageGrade],
    revisit: Vec<(u8, BTreeMap<u8, Verdict>)>,
    seed: u64,
    limits: Limits,
    progress: &dyn Fn(&str),
) -> Result<()> {
    let selected: Vec<&'static StageInfo> = revisit
        .iter()
        .filter_map(|(n, _)| stages::get(*n))
        .collect();
    let on_step = |step: crate::cli::pipeline::Step<'_>| {
        if let crate::cli::pipeline::Step::Judging(stage) = step {
            progress(&format!(
                "{}: judging over your own earlier stages",
                stages::title(stage.number)
            ));
        }
    };
    let uses: BTreeMap<u8, BTreeMap<u8, Verdict>> = revisit.into_iter().collect();
    for run in pipeline.ladder(&selected, seed, None, limits, Batch::OneByOne, &on_step) {
        let run = run?;
        let number = run.stage.number;
        let (verdict, failing) = match &run.outcome {
            StageOutcome::Judged(report) => {
                let failing: Vec<String> = report
                    .checks
                    .iter()
                    .filter(|c| c.judged != c.planned || c.first_failure.is_some())
                    .map(|c| match &c.first_failure {
                        Some(f) => format!("`{}` ({})", c.name, f.fault.kind()),
                        None => format!("`{}` (not judged)", c.name),
                    })
                    .collect();
                let verdict = if failing.is_empty() {
                    Verdict::Passed
                } else {
                    Verdict::Failed
                };
                (verdict, failing)
            }
            StageOutcome::DoesNotBuild(_) | StageOutcome::Blocked(_) => {
                (Verdict::DoesNotBuild, Vec::new())
            }
            StageOutcome::Undriven(_) | StageOutcome::Ungraded => (Verdict::NotJudged, Vec::new()),
            // The machine failed, not the submission: it is not graded by this run.
            StageOutcome::EnvironmentFailed(why) => bail!("{why}"),
        };
        if let Some(grade) = grades.iter_mut().find(|g| g.stage == number) {
            grade.over_your_stages = Some(OverYourStages {
                uses: uses.get(&number).cloned().unwrap_or_default(),
                verdict,
                failing,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "chains_tests.rs"]
mod tests;
