//! Writing the outputs: what a grade is written as. It takes in each submission's
//! [`crate::cli::grade::model::SubmissionReport`] and the output folder, which it claims
//! first ([`folder`]); it hands on, per submission, `report.md` and `report.json`
//! ([`report`], with its [`similarity`] section), with Gradescope's `results.json`
//! ([`gradescope`]) and `junit.xml` ([`formats`]) when asked, the instructor's folders cut
//! out of them ([`scrub`]); and across submissions `grades.csv` and `grades.json`
//! ([`gradebook`]), `cohort.md` and `cohort.html` ([`cohort`]), rebuilt from every
//! `report.json` in the folder. Whatever a submission controls is written inert in each
//! of them ([`inert`]).

pub mod cohort;
pub mod folder;
pub mod formats;
pub mod gradebook;
pub mod gradescope;
pub mod inert;
pub mod report;
mod report_history;
mod report_printed;
pub mod scrub;
pub mod similarity;
