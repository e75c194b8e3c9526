//! Grading several submissions at once: one job per held slot ([`super::slots`]), each
//! job taking the next submission not yet taken, until none is left or one job fails.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::Result;

use super::judge_side::JudgeSide;
use super::slots::Slot;

/// How one submission came out, for the run's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Graded (or refused as no submission, with its reason in its report).
    Graded,
    /// Grading itself did not work (the environment failed, or another run holds it).
    NotGraded,
}

/// Grades `submissions` with `grade` (given a slot, its graders' build, and a
/// submission's index and the submission), one job per slot of `slots` (whose graders'
/// builds are `judge_sides`), each job taking the next submission not yet taken: the
/// reports do not depend on which job grades which (every slot is built from the same
/// tree, and the seed is one). Whether every submission was graded.
///
/// # Errors
/// When a job fails as a whole (a graders' build changed, a report cannot be written):
/// the other jobs stop after their current submission.
pub fn grade_all<S: Sync>(
    slots: &[Slot],
    judge_sides: &[JudgeSide],
    submissions: &[S],
    grade: impl Fn(&Slot, &JudgeSide, usize, &S) -> Result<Outcome> + Sync,
) -> Result<bool> {
    let next = AtomicUsize::new(0);
    let all_graded = AtomicBool::new(true);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = slots
            .iter()
            .zip(judge_sides)
            .map(|(slot, judge_side)| {
                let (next, all_graded, stop, grade) = (&next, &all_graded, &stop, &grade);
                scope.spawn(move || -> Result<()> {
                    while !stop.load(Ordering::SeqCst) {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(submission) = submissions.get(index) else {
                            break;
                        };
                        match grade(slot, judge_side, index, submission) {
                            Ok(Outcome::Graded) => {}
                            Ok(Outcome::NotGraded) => all_graded.store(false, Ordering::SeqCst),
                            Err(e) => {
                                stop.store(true, Ordering::SeqCst);
                                return Err(e);
                            }
                        }
                    }
                    judge_side.verify(&slot.target(), "the last submission")
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a grading job panicked"))
            .collect::<Result<Vec<()>>>()
    })?;
    Ok(all_graded.load(Ordering::SeqCst))
}
