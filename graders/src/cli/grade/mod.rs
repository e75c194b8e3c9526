//! `byo grade`: a folder of submissions in, a gradebook out, nothing a submission can fake.
//!
//! For each submission, a scratch workspace is made an exact copy of the instructor's
//! repository *as committed* (`git archive HEAD`), and only the submission's regular files
//! under `stages/*/src/**/*.rs` are laid over it ([`intake::overlay`]): never its
//! manifests, build scripts, tests, graders, hints or lock file, and never a symbolic link.
//! Each stage is then built on its own, offline against the locked dependencies, and
//! driven in a child process under a per-case time limit and a memory cap; the verdict
//! comes from the judge in this process, under a plan seed the submission cannot know in
//! advance: the run's seed mixed with a salt drawn afresh for each submission
//! ([`model::SeedDraw`]), so that not even a `--seed` the student knows lets a transcript
//! recorded beforehand pass. Every failure is re-run once and counted only if it happens again the same way.
//!
//! Each stage is scored over the references of the earlier stages it uses, so a broken
//! 04 costs 04 alone; where one of the learner's own earlier stages did not pass, the
//! later stage is also judged over the learner's own, and the report says what that
//! would break ([`score::chains`]).
//!
//! Submissions are graded in slots under the instructor's `target/byo-grade/`
//! ([`confine::slots`]): `--jobs N` grades N at once, each in its own slot's workspaces and
//! target folder, so no two builds ever race on a target folder, and each slot's build
//! stays warm: only the learner crates that differ are rebuilt. Each submission is graded
//! under its own lock ([`confine::lock`]), so two runs over different submissions do not
//! refuse each other.
//!
//! The code follows the steps of grading, one folder each, in the order a submission goes
//! through them: [`intake`] takes it in, [`confine`] says where and when its code runs,
//! [`score`] judges it, [`outputs`] writes what it came to. Each step uses only the steps
//! before it and the [`model`] of a grade, which scoring fills and the outputs read;
//! `grading` takes one submission through them all, and `run` takes every submission.

pub mod confine;
mod grading;
pub mod intake;
pub mod model;
pub mod options;
pub mod outputs;
pub mod score;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::workspace::Root;
use crate::harness::supervisor::Limits;
use crate::stages::{self, StageInfo};
use confine::jail::Jail;
use confine::jobs;
use confine::lock::FileLock;
use confine::preflight::{MEMORY_CAP, check_driver_caps, prepare_slot};
use confine::slots;
use grading::Grading;
use intake::names::submission_names;
use intake::roster::Roster;
use model::Provenance;
use options::GradeOptions;
use outputs::folder::{OUT_MARKER, claim_out_dir};
use outputs::gradebook;
use score::weights::Weights;

pub(super) fn run(root: &Root, options: &GradeOptions) -> Result<ExitCode> {
    let weights = match &options.weights {
        Some(path) => Weights::from_file(path)?,
        None => Weights::default(),
    };
    for warning in score::loopholes::warnings(&weights) {
        eprintln!("warning: {warning}");
    }
    let selected: Vec<&'static StageInfo> = match &options.stages {
        Some(numbers) => numbers.iter().filter_map(|n| stages::get(*n)).collect(),
        None => stages::LADDER.iter().collect(),
    };
    let names = submission_names(&options.submissions)?;
    let roster = match &options.roster {
        Some(path) => Roster::read(path)?,
        None => Roster::default(),
    };
    if options.roster.is_some() {
        for name in names.iter().filter(|n| roster.student(n).is_none()) {
            eprintln!("warning: --roster: submission {name} is on no row of the roster");
        }
        for folder in roster.missing(&names) {
            eprintln!("warning: --roster: no submission folder {folder} was given");
        }
    }
    claim_out_dir(&options.out)?;
    let jail = if options.no_sandbox {
        eprintln!("grade: --no-sandbox: submissions' code runs unconfined; every report says so");
        Jail::Unconfined
    } else {
        Jail::sandboxed(root.path(), &options.out, &options.submissions)?
    };
    let limits = Limits {
        case: options.timeout.unwrap_or(Duration::from_secs(10)),
        stage: confine::budget::CEILING,
        budgets: [None; 9],
        memory: Some(MEMORY_CAP),
        // Each stage's budget once measured (`Limits::for_stage`), the ceiling before.
        cpu: Some(confine::budget::CEILING),
    };
    check_driver_caps(&limits)?;
    // Canonical, as the sandbox's mount points are: `graders/../target` does not resolve
    // inside it, where `graders` is hidden.
    let checkout = std::fs::canonicalize(root.path())
        .with_context(|| format!("reading {}", root.path().display()))?;
    let work = checkout.join("target").join("byo-grade");
    // No more slots than submissions: an idle slot would only be built for nothing.
    let jobs = options.jobs.get().min(options.submissions.len().max(1));
    let slots = slots::take(&work, jobs)?;
    let build_limit = options.build_timeout.unwrap_or(Duration::from_secs(600));
    let seed = options.seed.unwrap_or_else(fresh_seed);

    // A slot whose target folder holds nothing yet builds everything: minutes, not seconds.
    let cold = slots.iter().any(|slot| {
        std::fs::read_dir(slot.target()).map_or(true, |mut entries| entries.next().is_none())
    });
    eprintln!(
        "building the graders once, before any submission{}",
        if cold {
            " (a new grading slot: this first build takes minutes)"
        } else {
            " (already built before: seconds, unless graders/ changed)"
        }
    );
    let started = Instant::now();
    let ready = std::thread::scope(|scope| {
        let handles: Vec<_> = slots
            .iter()
            .map(|slot| {
                scope.spawn(|| prepare_slot(root.path(), slot, &selected, &jail, build_limit))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a slot's preparation panicked"))
            .collect::<Result<Vec<_>>>()
    })?;
    // Charged to no submission: on its own line, before theirs.
    println!(
        "{:<24} {:>6.1} s",
        "(graders, built once)",
        started.elapsed().as_secs_f64()
    );
    // Each stage's time budget, from its reference's own time here: once, before any
    // submission, so that every submission of the run gets the same.
    let limits = confine::budget::from_references(&checkout, &selected, seed, limits);
    let mut provenance =
        Provenance::read(root.path(), &slots[0].pristine(), limits.case, build_limit);
    provenance.sandboxed = jail.is_sandboxed();
    eprintln!(
        "grading {} submission(s), stages {}, seed {seed} (salted afresh for each), {jobs} at once",
        options.submissions.len(),
        selected
            .iter()
            .map(|s| format!("{:02}", s.number))
            .collect::<Vec<_>>()
            .join(",")
    );

    let grading = Grading {
        options,
        selected: &selected,
        weights: &weights,
        seed,
        limits,
        roster: &roster,
        provenance: &provenance,
        jail: &jail,
        build_limit,
        work: &work,
        checkout: &checkout,
    };
    let submissions: Vec<(&PathBuf, String)> = options.submissions.iter().zip(names).collect();
    let judge_sides: Vec<_> = ready.into_iter().map(|(side, _)| side).collect();
    let all_graded = jobs::grade_all(
        &slots,
        &judge_sides,
        &submissions,
        |slot, judge_side, index, (path, name)| grading.grade(slot, judge_side, index, path, name),
    )?;
    {
        // Another run may write into the same --out: one rebuild at a time, from every
        // report there, under a lock on the folder's marker (no file of its own).
        let _gradebook = FileLock::wait(&options.out.join(OUT_MARKER))?;
        gradebook::write_gradebook(&options.out)?;
    }
    eprintln!("gradebook: {}", options.out.join("grades.csv").display());
    Ok(if all_graded {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A seed no submission can know in advance: the clock's nanoseconds mixed with the
/// process id. It is recorded in every report, so any grade can be replayed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::harness::rng::Rng::new(nanos, u64::from(std::process::id())).next_u64()
}
