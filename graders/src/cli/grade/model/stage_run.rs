//! Where each stage's grade came from, run by run: the run that judged it (plan seed,
//! draw, grader commit, date) and every change of its score.

use serde::{Deserialize, Serialize};

use super::draw::SeedDraw;

/// Where one stage's grade came from: which run judged it, under which plans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageRun {
    /// The plan seed its cases were drawn from (`byo test NN --seed` replays one).
    pub seed: u64,
    /// How that seed was drawn.
    pub draw: SeedDraw,
    /// The instructor repository's commit that judged it.
    pub grader_revision: String,
    /// When that run started, in UTC.
    pub graded_at: String,
}

/// One change of one stage's score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreChange {
    /// The stage.
    pub stage: u8,
    /// Its score before, in `0..=1`; `None` when it had never been judged.
    pub from: Option<f64>,
    /// Its score after.
    pub to: f64,
    /// The run that changed it.
    pub run: StageRun,
}
