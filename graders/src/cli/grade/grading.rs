//! Grading one submission in a slot ([`Slot`]), through every step in turn: under the
//! submission's own lock, its stage sources taken in over both trees
//! ([intake](super::intake)), each stage scored over the references of the earlier ones
//! and looked at again over the learner's own where that tells something
//! ([score](super::score)), and its reports written ([outputs](super::outputs)).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use super::confine::jail::{GradeLauncher, Jail, OFFLINE};
use super::confine::jobs::Outcome;
use super::confine::judge_side::JudgeSide;
use super::confine::lock::{FileLock, submission_lock_path};
use super::confine::slots::Slot;
use super::intake::names::{RESERVED, not_a_submission, shown_path};
use super::intake::record::PublicIncludes;
use super::intake::roster::Roster;
use super::intake::{hashes, overlay, similarity, submitted};
use super::model::{Overlay, Provenance, SeedDraw, StageRun, SubmissionReport, Term, utc};
use super::options::GradeOptions;
use super::outputs::gradebook::read_report;
use super::outputs::report::write_submission;
use super::outputs::scrub::scrub_paths;
use super::score::weights::{self, Weights};
use super::score::{chains, ladder};
use crate::cli::pipeline::{Pipeline, stage_uses};
use crate::harness::supervisor::Limits;
use crate::stages::StageInfo;

/// What every submission of a run is graded with.
pub(super) struct Grading<'a> {
    pub options: &'a GradeOptions,
    pub selected: &'a [&'static StageInfo],
    pub weights: &'a Weights,
    /// The run's seed, which each submission's [`SeedDraw`] mixes with its salt.
    pub seed: u64,
    pub limits: Limits,
    /// Whose each submission folder is (empty without `--roster`).
    pub roster: &'a Roster,
    pub provenance: &'a Provenance,
    pub jail: &'a Jail,
    pub build_limit: std::time::Duration,
    /// `target/byo-grade/`, where slots and submissions' locks are.
    pub work: &'a Path,
    /// The instructor's checkout, canonical.
    pub checkout: &'a Path,
}

impl Grading<'_> {
    /// The launcher of builds in `workspace` of `slot`.
    pub fn launcher<'l>(
        &'l self,
        workspace: &'l Path,
        target: &'l Path,
        public: &'l PublicIncludes,
    ) -> GradeLauncher<'l> {
        GradeLauncher {
            jail: self.jail,
            workspace,
            target,
            build_limit: self.build_limit,
            public,
            submission: true,
        }
    }

    /// Grades submission `index` (at `path`, named `name`) in `slot`, whose graders'
    /// build is `judge_side`, and writes its reports.
    ///
    /// # Errors
    /// When the graders' build changed, or a report cannot be written: the run stops.
    pub fn grade(
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
        // A regrade merges into the student's earlier report: one this run cannot read
        // is not overwritten.
        let dir = self.options.out.join(name);
        let earlier = match read_report(&dir) {
            Ok(earlier) => earlier,
            Err(e) => {
                progress(&format!("not graded: {e:#}"));
                return Ok(Outcome::NotGraded);
            }
        };
        let started = Instant::now();
        let target = slot.target();
        judge_side.verify(&target, "the submissions before this one")?;
        // Drawn when the submission's turn comes, in this process: nothing run before
        // (another submission's driver among them) can know it.
        let run_seed = if self.options.seed_per_student {
            SeedDraw::student_seed(self.seed, name)
        } else {
            self.seed
        };
        let draw = SeedDraw::new(run_seed, self.options.salt);
        let mut report = SubmissionReport {
            submission: name.to_owned(),
            path: shown_path(path),
            seed: draw.plan_seed(),
            draw,
            provenance: self.provenance.clone(),
            stages: Vec::new(),
            total: 0.0,
            files: Overlay::default(),
            file_hashes: Default::default(),
            changed_from_skeleton: Vec::new(),
            stage_runs: Default::default(),
            history: Vec::new(),
            similarity: Vec::new(),
            term: Default::default(),
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
                // reason; anything else means grading itself did not work (a failure of
                // the grading environment among them, which only the supervisor finds:
                // no text a build or a driver prints makes it).
                if refused.is_none() {
                    outcome = Outcome::NotGraded;
                }
                progress(&format!("could not be graded: {e:#}"));
                report.error = Some(format!("{e:#}"));
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        let judged: Vec<u8> = report.stages.iter().map(|s| s.stage).collect();
        let run = StageRun {
            seed: report.seed,
            draw: report.draw,
            grader_revision: self.provenance.grader_revision.clone(),
            graded_at: self.provenance.graded_at.clone(),
        };
        report.term = self.term(path, name, &report.files.overlaid);
        report.merge_earlier(earlier, &run);
        // Kept stages keep their copy flags.
        report.files.copies_of_reference = similarity::flagged(&report.similarity);
        report.total = weights::total_of(&report.stages, self.weights);
        let kept: Vec<String> = report
            .stages
            .iter()
            .filter(|s| !judged.contains(&s.stage))
            .map(|s| format!("{:02}", s.stage))
            .collect();
        if !kept.is_empty() {
            progress(&format!(
                "kept stage(s) {} from its earlier report (not judged by this run)",
                kept.join(", ")
            ));
        }
        if !RESERVED.contains(&name) {
            write_submission(
                &dir,
                &report,
                self.options.gradescope.then_some(self.options.visibility),
                self.options.junit,
                self.options.printed_in_results,
            )?;
        }
        println!(
            "{name:<24} {:>6.1}  {}",
            report.total,
            stage_summary(&report)
        );
        Ok(outcome)
    }

    /// Whose the submission at `path` (named `name`) is, and when it came in, from its
    /// `overlaid` files' times.
    fn term(&self, path: &Path, name: &str, overlaid: &[String]) -> Term {
        // Only against a due date: a hand-in time alone would vary from copy to copy.
        let due = self.options.due;
        let submitted = due.and_then(|_| submitted::newest(path, overlaid));
        Term {
            student: self.roster.student(name).cloned(),
            submitted_at: submitted.map(utc),
            due: due.map(utc),
            late_minutes: due
                .zip(submitted)
                .map(|(due, at)| submitted::minutes_late(at, due)),
        }
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
        let files = overlay::prepare(&pristine, &own, path)?;
        overlay::sync(&pristine_ref, &over_ref)?;
        for file in &files.overlaid {
            overlay::write_if_different(&own.join(file), &over_ref.join(file))?;
        }
        report.file_hashes = hashes::file_hashes(&own, &files.overlaid);
        report.changed_from_skeleton = hashes::changed_from(&pristine, &report.file_hashes);
        report.files = files;
        report.similarity = similarity::of_stages(&pristine, &own, self.selected);
        report.files.copies_of_reference = similarity::flagged(&report.similarity);

        let public = PublicIncludes::of_skeletons(&pristine);
        let launcher = self.launcher(&over_ref, &target, &public);
        let pipeline = Pipeline::new(&over_ref)
            .target_dir(&target)
            .cargo_args(OFFLINE)
            .launcher(&launcher);
        let mut grades = ladder::grade_stages(
            &pipeline,
            self.selected,
            report.seed,
            self.limits,
            self.weights,
            progress,
        )?;
        let revisit = chains::to_revisit(&grades, &stage_uses(&pristine));
        if !revisit.is_empty() {
            let launcher = self.launcher(&own, &target, &public);
            let pipeline = Pipeline::new(&own)
                .target_dir(&target)
                .cargo_args(OFFLINE)
                .launcher(&launcher);
            chains::revisit(
                &pipeline,
                &mut grades,
                revisit,
                report.seed,
                self.limits,
                progress,
            )?;
        }
        // Longest first: the workspaces and the target lie inside the slot, inside the
        // grading folder, inside the checkout; then `$CARGO_HOME` and the home folder it
        // usually lies in, which a compiler error naming a file there would show.
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let cargo_home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".cargo")));
        let folders: Vec<PathBuf> = [
            over_ref,
            own,
            target,
            slot.dir.clone(),
            self.work.to_owned(),
            self.checkout.to_owned(),
        ]
        .into_iter()
        .chain(cargo_home)
        .chain(home)
        .collect();
        let folders: Vec<&Path> = folders.iter().map(PathBuf::as_path).collect();
        scrub_paths(&mut grades, &folders);
        report.stages = grades;
        Ok(())
    }
}

/// The line a submission's grade prints: each stage's score, or why it was not graded.
fn stage_summary(report: &SubmissionReport) -> String {
    if let Some(error) = &report.error {
        return format!("not graded: {error}");
    }
    report
        .stages
        .iter()
        .map(|s| format!("{:02}:{:.0}%", s.stage, s.score * 100.0))
        .collect::<Vec<_>>()
        .join(" ")
}
