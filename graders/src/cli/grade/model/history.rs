//! Regrades that merge: a run that judges some of a student's stages updates those in the
//! student's earlier report and keeps the others, each with where its grade came from, and
//! appends every change of a stage's score to the report's history.

use std::collections::BTreeMap;

use super::report::SubmissionReport;
use super::stage_run::{ScoreChange, StageRun};

impl SubmissionReport {
    /// Records `run` as the source of every stage this report holds, takes over from
    /// `earlier` (this student's last report, if any) every stage this run did not judge
    /// (with its similarity to the reference, the oracles and the cohort),
    /// and appends to the earlier history each stage whose score this run changed.
    /// The total is the caller's to recompute: it depends on the weights.
    pub fn merge_earlier(&mut self, earlier: Option<SubmissionReport>, run: &StageRun) {
        let (mut stages, mut runs, mut history, mut similarity) = match earlier {
            Some(e) => (e.stages, e.stage_runs, e.history, e.similarity),
            None => (Vec::new(), BTreeMap::new(), Vec::new(), Vec::new()),
        };
        // A stage this run compared replaces its earlier comparison; the rest are kept
        // beside the grades they belong to.
        similarity.retain(|old| !self.similarity.iter().any(|new| new.stage == old.stage));
        similarity.append(&mut self.similarity);
        similarity.sort_by_key(|s| s.stage);
        self.similarity = similarity;
        for grade in std::mem::take(&mut self.stages) {
            let before = stages.iter().position(|s| s.stage == grade.stage);
            let from = before.map(|i| stages[i].score);
            if from != Some(grade.score) {
                history.push(ScoreChange {
                    stage: grade.stage,
                    from,
                    to: grade.score,
                    run: run.clone(),
                });
            }
            runs.insert(grade.stage, run.clone());
            match before {
                Some(i) => stages[i] = grade,
                None => stages.push(grade),
            }
        }
        stages.sort_by_key(|s| s.stage);
        self.stages = stages;
        self.stage_runs = runs;
        self.history = history;
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
