//! What a grade is made of, the words every step of grading shares: intake fills in what
//! happened to a submission's files ([`Overlay`]) and how like others its stages are
//! ([`StageSimilarity`]), scoring fills in each stage's grade
//! ([`StageGrade`]), and the outputs read the whole [`SubmissionReport`] back, from
//! memory or from `report.json`. Nothing here reaches into a step.

mod draw;
mod history;
mod provenance;
mod report;
mod similarity;
mod stage;
mod stage_run;
mod term;

pub use draw::SeedDraw;
pub use provenance::{Provenance, utc};
pub use report::{Overlay, SubmissionReport};
pub use similarity::{Likeness, Print, Prints, Region, StageSimilarity};
pub use stage::{CheckGrade, FailureGrade, OverYourStages, StageGrade, Verdict};
pub use stage_run::{ScoreChange, StageRun};
pub use term::{Student, Term};
