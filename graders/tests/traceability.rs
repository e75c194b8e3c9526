//! Every stage grader's module doc holds a traceability table: each requirement of the
//! brief → the check that judges it → the mutants that prove the check can fail. This
//! test keeps the tables honest: every row names a check of the stage's plan and
//! mutants that the catalogue really rejects with that check, and every check of the
//! plan has a row.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use graders::harness::stage::DEFAULT_SEED;
use graders::harness::{Case, Stage};

/// The names of the checks of stage `S`'s plan.
fn checks<S: Stage>() -> BTreeSet<String> {
    S::plan(DEFAULT_SEED)
        .iter()
        .map(|c| c.check().name.to_owned())
        .collect()
}

/// The `(requirement, check, mutants)` rows of the table in `stageNN/mod.rs`.
fn table(stage: u8) -> Vec<(String, String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/stage{stage:02}/mod.rs"));
    let doc = fs::read_to_string(&path).expect("the grader's module");
    let unquote = |cell: &str| cell.trim().trim_matches('`').to_owned();
    doc.lines()
        .skip_while(|l| !l.starts_with("//! ## Traceability"))
        .filter_map(|l| l.strip_prefix("//! |"))
        .skip(2) // the header and the separator
        .map(|row| {
            let cells: Vec<&str> = row.trim_end_matches('|').split(" | ").collect();
            assert_eq!(
                cells.len(),
                3,
                "stage {stage:02}: a row of three cells: {row}"
            );
            let mutants = cells[2]
                .split(',')
                .map(unquote)
                .filter(|m| !m.is_empty())
                .collect();
            (cells[0].trim().to_owned(), unquote(cells[1]), mutants)
        })
        .collect()
}

/// Check name → the mutants of the catalogue of stage `stage` that it must reject, from
/// the `#[case::name(drive::<..>, "check"` rows of its rstest tables.
fn catalogue(stage: u8) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutants");
    let file = root.join(format!("stage{stage:02}.rs"));
    let dir = root.join(format!("stage{stage:02}"));
    let mut sources = Vec::new();
    if file.exists() {
        sources.push(fs::read_to_string(file).expect("a catalogue"));
    }
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            sources.push(fs::read_to_string(entry.path()).expect("a catalogue file"));
        }
    }
    let mut by_check: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in &sources {
        for line in source.lines() {
            let Some(rest) = line.trim().strip_prefix("#[case::") else {
                continue;
            };
            let Some((name, args)) = rest.split_once('(') else {
                continue;
            };
            let Some(check) = args.split('"').nth(1) else {
                continue;
            };
            by_check
                .entry(check.to_owned())
                .or_default()
                .insert(name.to_owned());
        }
    }
    by_check
}

fn traced<S: Stage>() {
    let stage = S::NUMBER;
    let checks = checks::<S>();
    let catalogue = catalogue(stage);
    let rows = table(stage);
    let mut problems = Vec::new();
    if rows.is_empty() {
        problems.push("no traceability table".to_owned());
    }
    for (requirement, check, mutants) in &rows {
        if !checks.contains(check) {
            problems.push(format!(
                "`{requirement}`: `{check}` is not a check of the plan"
            ));
        }
        if mutants.is_empty() {
            problems.push(format!("`{requirement}`: no mutant"));
        }
        for mutant in mutants {
            if !catalogue.get(check).is_some_and(|m| m.contains(mutant)) {
                problems.push(format!(
                    "`{requirement}`: `{mutant}` is not a mutant that `{check}` must reject"
                ));
            }
        }
    }
    for check in &checks {
        if !rows.iter().any(|(_, c, _)| c == check) {
            problems.push(format!(
                "check `{check}` judges no requirement of the table"
            ));
        }
        if catalogue.get(check).is_none_or(BTreeSet::is_empty) {
            problems.push(format!("check `{check}` has no mutant"));
        }
    }
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
