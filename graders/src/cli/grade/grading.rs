//! Grading one submission in a slot ([`super::slots`]): under the submission's own lock,
//! its stage sources laid over both trees, each stage scored over the references of the
//! earlier ones, looked at again over the learner's own where that tells something, and
//! its reports written.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Result;

use super::jail::{GradeLauncher, Jail, JudgeSide};
use super::lock::{FileLock, submission_lock_path};
use super::model::SubmissionReport;
use super::options::GradeOptions;
use super::preflight::{ENVIRONMENT_FAILED, RESERVED, not_a_submission};
use super::score::{self, Weights};
use super::slots::Slot;
use super::{Provenance, chains, output, overlay, provenance, submission};
use crate::cli::pipeline::{Pipeline, stage_uses};
use crate::harness::supervisor::Limits;
use crate::stages::StageInfo;

/// What every submission of a run is graded with.
pub(super) struct Grading<'a> {
    pub options: &'a GradeOptions,
    pub selected: &'a [&'static StageInfo],
    pub weights: &'a Weights,
    pub seed: u64,
    pub limits: Limits,
    pub provenance: &'a Provenance,
    pub jail: &'a Jail,
    pub build_limit: std::time::Duration,
    /// `target/byo-grade/`, where slots and submissions' locks are.
    pub work: &'a Path,
    /// The instructor's checkout, canonical.
    pub checkout: &'a Path,
}

/// How one submission came out, for the run's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Graded (or refused as no submission, with its reason in its report).
    Graded,
    /// Grading itself did not work (the environment failed, or another run holds it).
    NotGraded,
}

impl Grading<'_> {
    /// Grades `submissions` (each a path and its name in `--out`), one job per slot of
    /// `slots` (whose graders' builds are `judge_sides`), each job taking the next
    /// submission not yet taken: the reports do not depend on which job grades which
    /// (every slot is built from the same tree, and the seed is one). Whether every
    /// submission was graded.
    ///
    /// # Errors
    /// When a job fails as a whole (a graders' build changed, a report cannot be written):
    /// the other jobs stop after their current submission.
    pub fn grade_all(
        &self,
        slots: &[Slot],
        judge_sides: &[JudgeSide],
        submissions: &[(&PathBuf, String)],
    ) -> Result<bool> {
        let next = AtomicUsize::new(0);
        let all_graded = AtomicBool::new(true);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let handles: Vec<_> = slots
                .iter()
                .zip(judge_sides)
                .map(|(slot, judge_side)| {
                    let (next, all_graded, stop) = (&next, &all_graded, &stop);
                    scope.spawn(move || -> Result<()> {
                        while !stop.load(Ordering::SeqCst) {
                            let index = next.fetch_add(1, Ordering::SeqCst);
                            let Some((path, name)) = submissions.get(index) else {
                                break;
                            };
                            match self.grade(slot, judge_side, index, path, name) {
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

    /// The launcher of builds in `workspace` of `slot`.
    pub fn launcher<'l>(&'l self, workspace: &'l Path, target: &'l Path) -> GradeLauncher<'l> {
        GradeLauncher {
            jail: self.jail,
            workspace,
            target,
            build_limit: self.build_limit,
        }
    }

    /// Grades submission `index` (at `path`, named `name`) in `slot`, whose graders'
    /// build is `judge_side`, and writes its reports.
    ///
    /// # Errors
    /// When the graders' build changed, or a report cannot be written: the run stops.
    fn grade(
        &self,
        slot: &Slot,
        judge_side: &JudgeSide,
        index: usize,
        path: &Path,
        name: &str,
    ) -> Result<Outcome> {
        let count = self.options.submissions.len();
        let progress = |what: &str| eprintln!("[{}/{count}] {name}: {what}", index + 1);
        let Some(_held) = FileLock::try_take(&submission_lock_path(self.work, path))? else {
            progress(
                "another byo grade is grading this submission right now: not graded by this run",
            );
            return Ok(Outcome::NotGraded);
        };
        let started = Instant::now();
        let target = slot.target();
        judge_side.verify(&target, "the submissions before this one")?;
        let mut report = SubmissionReport {
            submission: name.to_owned(),
            path: shown_path(path),
            seed: self.seed,
            provenance: self.provenance.clone(),
            stages: Vec::new(),
            total: 0.0,
            files: overlay::Overlay::default(),
            file_hashes: Default::default(),
            changed_from_skeleton: Vec::new(),
            error: None,
            seconds: 0.0,
        };
        let refused = not_a_submission(path, name);
        let graded = match &refused {
            Some(why) => Err(anyhow::anyhow!("not a submission: {why}")),
            None => self.grade_stages(slot, path, &mut report, &progress),
        };
        let mut outcome = Outcome::Graded;
        match graded {
            Ok(()) => {}
            Err(e) => {
                // A folder that is no submission is the input's fault, graded 0 with its
                // reason; anything else means grading itself did not work.
                if refused.is_none() {
                    outcome = Outcome::NotGraded;
                }
                progress(&format!("could not be graded: {e:#}"));
                report.error = Some(format!("{e:#}"));
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        if report.stages.iter().any(|s| {
            s.errors
                .as_deref()
                .is_some_and(|e| e.contains(ENVIRONMENT_FAILED))
        }) {
            outcome = Outcome::NotGraded;
        }
        if !RESERVED.contains(&name) {
            output::write_submission(
                &self.options.out.join(name),
                &report,
                self.options.gradescope.then_some(self.options.visibility),
                self.options.junit,
            )?;
        }
        println!(
            "{name:<24} {:>6.1}  {}",
            report.total,
            super::stage_summary(&report)
        );
        Ok(outcome)
    }

    /// Lays the submission over both trees of `slot`, scores each stage over the
    /// references, and looks at the stages worth it again over the learner's own.
    fn grade_stages(
        &self,
        slot: &Slot,
        path: &Path,
        report: &mut SubmissionReport,
        progress: &dyn Fn(&str),
    ) -> Result<()> {
        let (pristine, own) = (slot.pristine(), slot.workspace());
        let (pristine_ref, over_ref) = (
            slot.pristine_over_reference(),
            slot.workspace_over_reference(),
        );
        let target = slot.target();
        let files = submission::prepare(&pristine, &own, path)?;
        overlay::sync(&pristine_ref, &over_ref)?;
        for file in &files.overlaid {
            overlay::write_if_different(&own.join(file), &over_ref.join(file))?;
        }
        report.file_hashes = provenance::file_hashes(&own, &files.overlaid);
        report.changed_from_skeleton = submission::changed_from(&pristine, &report.file_hashes);
        report.files = files;

        let launcher = self.launcher(&over_ref, &target);
        let pipeline = Pipeline::new(&over_ref)
            .target_dir(&target)
            .cargo_args(submission::OFFLINE)
            .launcher(&launcher);
        let mut grades = submission::grade_stages(
            &pipeline,
            self.selected,
            self.seed,
            self.limits,
            self.weights,
            progress,
        )?;
        let revisit = chains::to_revisit(&grades, &stage_uses(&pristine));
        if !revisit.is_empty() {
            let launcher = self.launcher(&own, &target);
            let pipeline = Pipeline::new(&own)
                .target_dir(&target)
                .cargo_args(submission::OFFLINE)
                .launcher(&launcher);
            chains::revisit(
                &pipeline,
                &mut grades,
                revisit,
                self.seed,
                self.limits,
                progress,
            )?;
        }
        let scores: Vec<(u8, f64)> = grades
            .iter()
            .filter(|s| s.weight > 0.0)
            .map(|s| (s.stage, s.score))
            .collect();
        report.total = score::total(&scores, self.weights);
        // Longest first: the workspaces and the target lie inside the slot, inside the
        // grading folder, inside the checkout.
        let folders: [PathBuf; 6] = [
            over_ref,
            own,
            target,
            slot.dir.clone(),
            self.work.to_owned(),
            self.checkout.to_owned(),
        ];
        let folders = folders.each_ref().map(|p| p.as_path());
        submission::scrub_paths(&mut grades, &folders);
        report.stages = grades;
        Ok(())
    }
}

/// `path` as a report shows it: relative to the current folder when it lies inside it,
/// so that the instructor's home folder is not in what a student reads.
fn shown_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative.as_deref().unwrap_or(path).display().to_string()
}
