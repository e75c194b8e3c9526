//! Copies that survive renaming: each graded stage's learner-written code, as winnowed
//! fingerprints of normalised tokens ([`super::winnow`]), looked for in the stage's
//! reference (`solutions/NN-*/src`) and in the graders' oracles of the stage
//! (`graders/src/stageNN/oracle*.rs`, working models of what the learner writes, which
//! the student template ships) with [`super::likeness`]. The fingerprints go into
//! `report.json`, where the cohort compares them with every other submission's.
//!
//! Given code is removed from both sides first: every fingerprint whose k-gram occurs
//! anywhere in the stage's skeleton (`stages/NN-*/src` of the pristine tree) is dropped,
//! so the skeleton never counts as copied, and an untouched stage has no fingerprint.
//!
//! A flag never changes a score: the instructor decides what a copy means.
//!
//! **The threshold, measured** (`similarity_measure_tests.rs` and
//! `similarity_disguise_tests.rs` hold the measurement as tests; `--nocapture` prints
//! it), with k-grams of 12 tokens in windows of 6:
//! - *independent correct code* never reached 30%: of the 22 correct variants and
//!   scaffolds of the mutant catalogues (`graders/tests/mutants/`), the most found in the
//!   reference is 29.0% (stage 05's operator scaffold, which takes the reference's
//!   hooks), then 23.7% and 23.4% (stage 03's `own_format`, stage 06's
//!   `eager_turn_check`), and in the oracles at most 18.4%; each stage's oracles against
//!   its reference at most 16.9%. The fixtures under `graders/tests/fixtures/` are the
//!   reference with one change each, copies by design: none is a sample.
//! - *disguised copies* of every stage's real reference never fell below 67%: one field
//!   renamed and one item added 91.6% to 99.3%, one `println!` added per file 86.3% to
//!   98.3%, a statement added after every fourth line 67.4% to 86.2%; the oracles copied
//!   into their stage 100% of the oracles.
//!
//! So a stage is flagged from [`super::likeness::THRESHOLD`] = 40%, ten points above the
//! highest independent figure and 27 below the lowest disguise, with at least
//! [`super::likeness::MIN_SHARED`] fingerprints shared. Not caught: a copy rewritten
//! construct by construct (loops as iterators, `if` as `match`), or edited at nearly
//! every line; code that is neither the reference nor an oracle nor in the cohort.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;

use super::likeness::compare;
use super::winnow::{fingerprints, kgrams};
use crate::cli::grade::model::{Prints, StageSimilarity};
use crate::stages::StageInfo;

/// What [`StageSimilarity::against`] calls the reference.
pub const REFERENCE: &str = "the reference";
/// What it calls the graders' oracles.
pub const ORACLES: &str = "the graders' oracles";

/// Each of `stages` that has a reference in `pristine`, as written in `workspace`,
/// compared with the reference and the oracles. A student template has no reference:
/// nothing is compared there.
pub fn of_stages(pristine: &Path, workspace: &Path, stages: &[&StageInfo]) -> Vec<StageSimilarity> {
    stages
        .iter()
        .filter_map(|stage| {
            let folder = stage.folder();
            let reference = sources(pristine, &format!("solutions/{folder}/src"));
            if reference.is_empty() {
                return None;
            }
            let given = given_code(&sources(pristine, &format!("stages/{folder}/src")));
            let learner = side(&sources(workspace, &format!("stages/{folder}/src")), &given);
            let mut against = vec![compare(&learner, &side(&reference, &given), REFERENCE)];
            let oracles = oracles(pristine, stage.number);
            if !oracles.is_empty() {
                against.push(compare(&learner, &side(&oracles, &given), ORACLES));
            }
            Some(StageSimilarity {
                stage: stage.number,
                prints: learner,
                against,
            })
        })
        .collect()
}

/// The flagged stages, as `copies_of_reference` lists them: `08-transactional-sink: 97%
/// in the reference (412 fingerprint(s))`, one per stage, the highest share first named.
pub fn flagged(similar: &[StageSimilarity]) -> Vec<String> {
    similar
        .iter()
        .filter_map(|s| {
            let mut hits: Vec<_> = s.against.iter().filter(|l| l.flagged).collect();
            hits.sort_by(|a, b| b.share.total_cmp(&a.share));
            let first = hits.first()?;
            let folder = crate::stages::get(s.stage)
                .map_or_else(|| format!("{:02}", s.stage), |i| i.folder());
            Some(format!("{folder}: {}", first.summary()))
        })
        .collect()
}

/// The fingerprints of `files` (path to text), without those of `given` code.
pub fn side(files: &BTreeMap<String, String>, given: &HashSet<u64>) -> Prints {
    let mut prints = Prints::default();
    for (index, (path, text)) in (0u32..).zip(files) {
        prints.files.push(path.clone());
        prints.prints.extend(
            fingerprints(text, index)
                .into_iter()
                .filter(|p| !given.contains(&p.hash)),
        );
    }
    prints
}

/// Every k-gram's hash in the skeleton's `files`: code the learner was given.
pub fn given_code(files: &BTreeMap<String, String>) -> HashSet<u64> {
    files
        .values()
        .flat_map(|text| kgrams(text).into_iter().map(|(hash, _, _)| hash))
        .collect()
}

/// The graders' oracles of stage `number` in `root`: every `oracle*.rs` in
/// `graders/src/stageNN/` (or under an `oracle*` folder there), by path from `root`.
pub fn oracles(root: &Path, number: u8) -> BTreeMap<String, String> {
    let dir = format!("graders/src/stage{number:02}");
    let Ok(entries) = fs::read_dir(root.join(&dir)) else {
        return BTreeMap::new();
    };
    let mut found = BTreeMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("oracle") {
            continue;
        }
        let rel = format!("{dir}/{name}");
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(sources(root, &rel));
        } else if name.ends_with(".rs")
            && let Ok(text) = fs::read_to_string(entry.path())
        {
            found.insert(rel, text);
        }
    }
    found
}

/// Every `.rs` file under `root/dir`, by path from `root`, in path order. Folders and
/// files that cannot be read are left out: the build judges them, not this.
pub fn sources(root: &Path, dir: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = fs::read_dir(root.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let child = format!("{rel}/{}", entry.file_name().to_string_lossy());
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(child),
                Ok(kind) if kind.is_file() && child.ends_with(".rs") => {
                    if let Ok(bytes) = fs::read(entry.path()) {
                        found.insert(child, String::from_utf8_lossy(&bytes).into_owned());
                    }
                }
                _ => {}
            }
        }
    }
    found
}

#[cfg(test)]
#[path = "similarity_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "similarity_measure_tests.rs"]
mod measure;

#[cfg(test)]
#[path = "similarity_disguise_tests.rs"]
mod disguise;
