//! The briefs' numbered requirements against the graders and the mutant catalogues.
//!
//! Every normative sentence of a brief carries an id, `(03-R7)` (see
//! `graders::harness::requirements`); the ids are read **from the brief files**, never
//! from a list kept beside them. Each stage grader's module doc holds a table: each id →
//! the check that judges it → the mutants that prove the check can fail on it. This test
//! fails when:
//!
//! - a brief's id is malformed, repeated, of another stage, or judged by no row;
//! - a row names an id the brief lacks, a check the plan lacks, or a mutant that the
//!   catalogue does not reject with that check *for that id* (each `#[case::…]` row of a
//!   catalogue names the one requirement its mutant breaks, and the catalogue asserts that
//!   the failure names it too);
//! - an id has no mutant that violates it and no other requirement;
//! - a check of the plan judges no row or has no mutant;
//! - under one of the 21 seeds of `SEEDS`, some id is reached by no case of the plan.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use graders::harness::{Case, Stage, catalogue::SEEDS, requirements, stage::DEFAULT_SEED};

/// The names of the checks of stage `S`'s plan.
fn checks<S: Stage>() -> BTreeSet<String> {
    S::plan(DEFAULT_SEED)
        .iter()
        .map(|c| c.check().name.to_owned())
        .collect()
}

/// One row of a grader's table: a requirement id, the check, the mutants.
struct Row {
    id: String,
    check: String,
    mutants: Vec<String>,
}

/// The rows of the table in `stageNN/mod.rs`.
fn table(stage: u8) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/stage{stage:02}/mod.rs"));
    let doc = fs::read_to_string(&path).expect("the grader's module");
    let unquote = |cell: &str| cell.trim().trim_matches('`').to_owned();
    doc.lines()
        .skip_while(|l| !l.starts_with("//! ## Traceability"))
        .take_while(|l| l.starts_with("//!"))
        .filter_map(|l| l.strip_prefix("//! |"))
        .skip(2) // the header and the separator
        .map(|row| {
            let cells: Vec<&str> = row.trim_end_matches('|').split(" | ").collect();
            assert_eq!(
                cells.len(),
                3,
                "stage {stage:02}: a row of three cells: {row}"
            );
            Row {
                id: unquote(cells[0]),
                check: unquote(cells[1]),
                mutants: cells[2]
                    .split(',')
                    .map(unquote)
                    .filter(|m| !m.is_empty())
                    .collect(),
            }
        })
        .collect()
}

/// One `#[case::name(...)]` row of a catalogue: the mutant, the check that must reject
/// it, and the requirement ids among its string literals.
struct Entry {
    mutant: String,
    check: String,
    ids: Vec<String>,
}

/// Every row of the rstest tables of stage `stage`'s catalogue.
fn catalogue(stage: u8) -> Vec<Entry> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutants");
    let mut files = vec![root.join(format!("stage{stage:02}.rs"))];
    let mut stack = vec![root.join(format!("stage{stage:02}"))];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut entries = Vec::new();
    for file in files.iter().filter(|f| f.is_file()) {
        let source = fs::read_to_string(file).expect("a catalogue file");
        for line in source.lines() {
            let Some(rest) = line.trim().strip_prefix("#[case::") else {
                continue;
            };
            let Some((name, args)) = rest.split_once('(') else {
                continue;
            };
            // The string literals of the row: the check first, then the rest.
            let literals: Vec<&str> = args.split('"').skip(1).step_by(2).collect();
            let Some(check) = literals.first() else {
                continue;
            };
            entries.push(Entry {
                mutant: name.to_owned(),
                check: (*check).to_owned(),
                ids: literals
                    .iter()
                    .filter(|l| requirements::is_id(l))
                    .map(|l| (*l).to_owned())
                    .collect(),
            });
        }
    }
    entries
}

fn traced<S: Stage>() {
    let stage = S::NUMBER;
    let mut problems = Vec::new();

    // The brief: well-formed, unique ids of this stage.
    let brief = requirements::brief(stage).expect("a brief");
    let prefix = format!("{stage:02}-R");
    let mut seen = BTreeSet::new();
    for tag in requirements::tags(brief) {
        if !tag.starts_with(&prefix) {
            problems.push(format!("the brief tags `{tag}`, an id of another stage"));
        }
        if !seen.insert(tag.clone()) {
            problems.push(format!("the brief tags `{tag}` twice"));
        }
    }
    let ids: BTreeSet<String> = requirements::of_stage(stage)
        .into_iter()
        .map(|r| r.id)
        .collect();
    if ids.is_empty() {
        problems.push("the brief numbers no requirement".to_owned());
    }

    let checks = checks::<S>();
    let catalogue = catalogue(stage);
    let rows = table(stage);
    if rows.is_empty() {
        problems.push("no traceability table".to_owned());
    }

    // The catalogue: every row names exactly one requirement of the brief.
    let mut violated: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for entry in &catalogue {
        match entry.ids.as_slice() {
            [id] if ids.contains(id) => {}
            [id] => problems.push(format!(
                "mutant `{}` names `{id}`, which the brief does not number",
                entry.mutant
            )),
            _ => problems.push(format!(
                "mutant `{}` (check `{}`) must name exactly one requirement, names {:?}",
                entry.mutant, entry.check, entry.ids
            )),
        }
        for id in &entry.ids {
            violated.entry(&entry.mutant).or_default().insert(id);
        }
    }

    // The table against the brief, the plan and the catalogue.
    for row in &rows {
        let id = &row.id;
        if !ids.contains(id) {
            problems.push(format!(
                "the table names `{id}`, which the brief does not number"
            ));
        }
        if !checks.contains(&row.check) {
            problems.push(format!(
                "`{id}`: `{}` is not a check of the plan",
                row.check
            ));
        }
        if row.mutants.is_empty() {
            problems.push(format!("`{id}`: no mutant"));
        }
        for mutant in &row.mutants {
            let rejected_for_it = catalogue
                .iter()
                .any(|e| &e.mutant == mutant && e.check == row.check && e.ids.contains(id));
            if !rejected_for_it {
                problems.push(format!(
                    "`{id}`: `{mutant}` is not a mutant that `{}` must reject for `{id}`",
                    row.check
                ));
            }
        }
    }
    for id in &ids {
        let judged: Vec<&Row> = rows.iter().filter(|r| &r.id == id).collect();
        if judged.is_empty() {
            problems.push(format!("`{id}` of the brief is judged by no check"));
            continue;
        }
        let alone = judged.iter().flat_map(|r| &r.mutants).any(|m| {
            violated
                .get(m.as_str())
                .is_some_and(|v| v.len() == 1 && v.contains(id.as_str()))
        });
        if !alone {
            problems.push(format!(
                "`{id}` has no mutant that violates it and no other requirement"
            ));
        }
    }
    for check in &checks {
        if !rows.iter().any(|r| &r.check == check) {
            problems.push(format!(
                "check `{check}` judges no requirement of the table"
            ));
        }
        if !catalogue.iter().any(|e| &e.check == check) {
            problems.push(format!("check `{check}` has no mutant"));
        }
    }

    // Every requirement reached under every seed.
    for seed in SEEDS {
        let reached: BTreeSet<&str> = S::plan(seed)
            .iter()
            .flat_map(|case| case.requirements())
            .collect();
        for id in &reached {
            if !ids.contains(*id) {
                problems.push(format!(
                    "a case of the plan names `{id}`, which the brief does not number"
                ));
            }
        }
        for id in &ids {
            if !reached.contains(id.as_str()) {
                problems.push(format!(
                    "under seed {seed:#x}, no case of the plan reaches `{id}`"
                ));
            }
        }
    }
    problems.dedup();
    if !problems.is_empty() {
        let why = format!("stage {stage:02}: {problems:#?}");
        eprintln!("{why}");
        panic!("{why}");
    }
}

#[test]
fn stage01_is_traced() {
    traced::<graders::stage01::Dataflow>();
}

#[test]
fn stage02_is_traced() {
    traced::<graders::stage02::KeyedStateStage>();
}

#[test]
fn stage03_is_traced() {
    traced::<graders::stage03::Parallelism>();
}

#[test]
fn stage04_is_traced() {
    traced::<graders::stage04::EventTime>();
}

#[test]
fn stage05_is_traced() {
    traced::<graders::stage05::Windows>();
}

#[test]
fn stage06_is_traced() {
    traced::<graders::stage06::Barriers>();
}

#[test]
fn stage07_is_traced() {
    traced::<graders::stage07::ExactlyOnceState>();
}

#[test]
fn stage08_is_traced() {
    traced::<graders::stage08::TransactionalSinkStage>();
}
