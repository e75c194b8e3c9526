//! Scoring: judging a submission and weighing its checks. It takes in a pipeline over a
//! workspace where the submission's sources lie over the references of the earlier
//! stages, and the seed and limits of the run; it hands on a grade per stage
//! ([`crate::cli::grade::model::StageGrade`]: each stage built and judged up the
//! [`ladder`], its checks weighed by the [`weights`]), how the stages that use a failed
//! one of the learner's fare over the learner's own ([`chains`]), and the total; and the
//! warnings a weights file earns when it lets a known shortcut through ([`loopholes`]).

pub mod chains;
pub mod ladder;
pub mod loopholes;
pub mod weights;
