//! Tests of similarity on small synthetic stages: what is flagged (a copy however
//! disguised by the attacker's three disguises, the reference and an oracle alike), what
//! is not (own work, an untouched skeleton, the given code). The same measured on the
//! real stages is in `similarity_measure_tests.rs`.

use std::path::Path;

use super::super::likeness::THRESHOLD;
use super::*;
use crate::cli::grade::model::Likeness;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

const SKELETON: &str = "\
/// Given.
pub fn given(x: u32) -> u32 { x + 1 }

pub struct Counter { seen: Vec<u32>, total: u64 }

impl Counter {
    pub fn new() -> Self { todo!() }
    pub fn add(&mut self, x: u32) -> anyhow::Result<()> { let _ = x; todo!() }
    pub fn report(&self) -> String { todo!() }
}
";

const SOLUTION: &str = "\
/// Given.
pub fn given(x: u32) -> u32 { x + 1 }

pub struct Counter { seen: Vec<u32>, total: u64 }

impl Counter {
    pub fn new() -> Self {
        Self { seen: Vec::new(), total: 0 }
    }
    pub fn add(&mut self, x: u32) -> anyhow::Result<()> {
        anyhow::ensure!(x < 1000, \"{x} is too large\");
        if self.seen.contains(&x) {
            return Ok(());
        }
        self.seen.push(x);
        self.total += u64::from(given(x));
        Ok(())
    }
    pub fn report(&self) -> String {
        let mut parts: Vec<String> = self.seen.iter().map(|x| x.to_string()).collect();
        parts.sort();
        format!(\"{} seen, total {}: {}\", self.seen.len(), self.total, parts.join(\",\"))
    }
}
";

/// Own work: the same API, written otherwise.
const OWN: &str = "\
/// Given.
pub fn given(x: u32) -> u32 { x + 1 }

pub struct Counter { seen: Vec<u32>, total: u64 }

impl Counter {
    pub fn new() -> Self { Counter { total: 0, seen: vec![] } }
    pub fn add(&mut self, x: u32) -> anyhow::Result<()> {
        match x {
            1000.. => Err(anyhow::anyhow!(\"too big: {}\", x)),
            _ if !self.seen.iter().any(|s| *s == x) => {
                self.total = self.total + given(x) as u64;
                self.seen.push(x);
                Ok(())
            }
            _ => Ok(()),
        }
    }
    pub fn report(&self) -> String {
        let mut sorted = self.seen.clone();
        sorted.sort_unstable();
        let listed = sorted.iter().fold(String::new(), |acc, x| acc + &x.to_string() + \" \");
        format!(\"{} / {} -> {}\", self.seen.len(), self.total, listed.trim())
    }
}
";

/// A pristine tree with `reference` as stage 01's reference, and `oracle` as its oracle.
fn pristine(reference: &str, oracle: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "stages/01-dataflow/src/lib.rs", SKELETON);
    write(dir.path(), "solutions/01-dataflow/src/lib.rs", reference);
    write(dir.path(), "graders/src/stage01/oracle.rs", oracle);
    write(dir.path(), "graders/src/stage01/judge.rs", SOLUTION);
    dir
}

/// Stage 01 of a submission whose `stages/01-dataflow/src` holds `files`, compared.
fn graded(pristine: &Path, files: &[(&str, &str)]) -> StageSimilarity {
    let work = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        write(work.path(), &format!("stages/01-dataflow/src/{name}"), text);
    }
    let stage = crate::stages::get(1).expect("stage 01");
    let mut all = of_stages(pristine, work.path(), &[stage]);
    assert_eq!(all.len(), 1);
    all.remove(0)
}

fn against<'a>(s: &'a StageSimilarity, name: &str) -> &'a Likeness {
    s.against
        .iter()
        .find(|l| l.other == name)
        .expect("compared")
}

#[test]
fn a_reformatted_copy_is_flagged_whole_and_own_work_and_the_skeleton_are_not() {
    let p = pristine(SOLUTION, "pub fn unrelated() {}");
    let reformatted = SOLUTION.replace("    ", "\t").replace('\n', "\n// mine\n");
    let copy = graded(p.path(), &[("lib.rs", &reformatted)]);
    let found = against(&copy, REFERENCE);
    assert!(found.flagged, "{found:?}");
    assert!((found.share - 1.0).abs() < f64::EPSILON, "{found:?}");
    assert_eq!(flagged(&[copy])[0].split(':').next(), Some("01-dataflow"));

    let own = graded(p.path(), &[("lib.rs", OWN)]);
    let found = against(&own, REFERENCE);
    assert!(!found.flagged && found.share < THRESHOLD, "{found:?}");
    assert!(flagged(&[own]).is_empty());

    let untouched = graded(p.path(), &[("lib.rs", SKELETON)]);
    assert!(
        untouched.prints.prints.is_empty(),
        "the skeleton is given code"
    );
    assert!(!against(&untouched, REFERENCE).flagged);
}

#[test]
fn the_given_code_never_counts_even_where_the_reference_keeps_it() {
    // A learner who kept every given line and wrote own bodies: only the bodies count.
    let p = pristine(SOLUTION, "pub fn unrelated() {}");
    let own = graded(p.path(), &[("lib.rs", OWN)]);
    let given = given_code(&sources(p.path(), "stages/01-dataflow/src"));
    assert!(
        own.prints
            .prints
            .iter()
            .all(|print| !given.contains(&print.hash))
    );
    let with_given = side(
        &BTreeMap::from([("lib.rs".to_owned(), OWN.to_owned())]),
        &HashSet::new(),
    );
    assert!(with_given.prints.len() > own.prints.prints.len());
}

#[test]
fn a_field_renamed_and_an_item_added_is_flagged() {
    let p = pristine(SOLUTION, "pub fn unrelated() {}");
    let disguised = SOLUTION.replace("total", "sum_so_far")
        + "\npub fn helper(values: &[u32]) -> u32 {\n    values.iter().sum()\n}\n";
    let found = graded(p.path(), &[("lib.rs", &disguised)]);
    let found = against(&found, REFERENCE);
    assert!(found.flagged, "{found:?}");
}

#[test]
fn a_println_added_to_every_file_is_flagged_with_its_regions_on_both_sides() {
    let p = pristine(SOLUTION, "pub fn unrelated() {}");
    let disguised = SOLUTION.replace(
        "        self.seen.push(x);\n",
        "        println!(\"adding {x}\");\n        self.seen.push(x);\n",
    );
    let found = graded(p.path(), &[("lib.rs", &disguised)]);
    let found = against(&found, REFERENCE);
    assert!(found.flagged, "{found:?}");
    let region = &found.regions[0];
    assert_eq!(region.file, "stages/01-dataflow/src/lib.rs");
    assert_eq!(region.other_file, "solutions/01-dataflow/src/lib.rs");
    assert!(region.lines[0] >= 6 && region.lines[1] <= 25, "{region:?}");
    assert!(
        region.other_lines[0] >= 6 && region.other_lines[1] <= 24,
        "{region:?}"
    );
}

#[test]
fn an_oracle_copied_into_the_stage_is_flagged_against_the_oracles_alone() {
    let oracle = "//! The model.\n".to_owned() + &SOLUTION.replace("Counter", "Model");
    let p = pristine(OWN, &oracle);
    let copied = graded(p.path(), &[("lib.rs", SOLUTION), ("model.rs", &oracle)]);
    let found = against(&copied, ORACLES);
    assert!(found.flagged, "{found:?}");
    assert!(found.regions[0].other_file.ends_with("stage01/oracle.rs"));
    assert!(
        !against(&copied, REFERENCE).flagged,
        "the reference is OWN here"
    );
    assert!(flagged(&[copied])[0].contains(ORACLES));
}

#[test]
fn only_files_named_oracle_are_oracles() {
    let p = pristine(SOLUTION, "pub fn model() {}");
    write(
        p.path(),
        "graders/src/stage01/oracle/deep.rs",
        "pub fn deeper() {}",
    );
    let found: Vec<String> = oracles(p.path(), 1).into_keys().collect();
    assert_eq!(
        found,
        [
            "graders/src/stage01/oracle.rs",
            "graders/src/stage01/oracle/deep.rs"
        ]
    );
    assert!(oracles(p.path(), 2).is_empty());
}

#[test]
fn a_tree_without_references_compares_nothing() {
    let template = tempfile::tempdir().expect("temp dir");
    write(template.path(), "stages/01-dataflow/src/lib.rs", SKELETON);
    let stage = crate::stages::get(1).expect("stage 01");
    assert!(of_stages(template.path(), template.path(), &[stage]).is_empty());
}
