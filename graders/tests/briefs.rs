//! Every stage's brief names exactly the checks its grader has: each check of the plan is
//! listed under the brief's "How it is graded", and the list names no check the grader
//! lacks. A learner reads the brief, not the grader, so a check missing there is a rule
//! they cannot know.

use std::collections::BTreeSet;
use std::path::Path;

use graders::harness::Stage;
use graders::harness::case::Case as _;
use graders::stages::LADDER;
use graders::{stage01, stage02, stage03, stage04, stage05, stage06, stage07, stage08};

/// The heading whose list names the checks.
const SECTION: &str = "## How it is graded";

/// The check names of stage `number`'s plan: the one place that knows the graders' API.
fn grader_checks(number: u8) -> BTreeSet<String> {
    fn names<S: Stage>() -> BTreeSet<String> {
        S::plan(graders::harness::driver::DEFAULT_SEED)
            .iter()
            .map(|case| case.check().name.to_owned())
            .collect()
    }
    match number {
        1 => names::<stage01::Dataflow>(),
        2 => names::<stage02::KeyedStateStage>(),
        3 => names::<stage03::Parallelism>(),
        4 => names::<stage04::EventTime>(),
        5 => names::<stage05::Windows>(),
        6 => names::<stage06::Barriers>(),
        7 => names::<stage07::ExactlyOnceState>(),
        8 => names::<stage08::TransactionalSinkStage>(),
        _ => panic!("stage {number} is not on the ladder"),
    }
}

/// The names the brief lists under [`SECTION`]: the first backquoted word of each item
/// (`` - `seek`: ... ``), up to the next heading of the same or a higher level.
fn brief_checks(brief: &str) -> Result<BTreeSet<String>, String> {
    let start = brief
        .lines()
        .position(|l| l.trim_end() == SECTION)
        .ok_or_else(|| format!("no `{SECTION}` section"))?;
    let names: BTreeSet<String> = brief
        .lines()
        .skip(start + 1)
        .take_while(|l| !(l.starts_with("## ") || l.starts_with("# ")))
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|rest| rest.split_once('`').map(|(name, _)| name.to_owned()))
        .collect();
    if names.is_empty() {
        return Err(format!("`{SECTION}` lists no check (`- `name`: ...`)"));
    }
    Ok(names)
}

#[test]
fn every_brief_lists_exactly_its_graders_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    for stage in LADDER.iter().filter(|s| s.graded()) {
        let path = root.join("stages").join(stage.folder()).join("README.md");
        let brief = std::fs::read_to_string(&path).expect("every stage has a brief");
        let graded = grader_checks(stage.number);
        match brief_checks(&brief) {
            Err(e) => problems.push(format!("{}: {e}", path.display())),
            Ok(listed) => {
                let unlisted: Vec<_> = graded.difference(&listed).collect();
                let unknown: Vec<_> = listed.difference(&graded).collect();
                if !unlisted.is_empty() || !unknown.is_empty() {
                    problems.push(format!(
                        "stage {:02}: checks the brief does not list {unlisted:?}; \
                         names the grader has no check for {unknown:?}",
                        stage.number
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_section_parser_reads_names_and_stops_at_the_next_heading() {
    let brief = "# T\n\n## How it is graded\n\n- `seek`: a.\n- `crash`: b `x`.\n  - `nested`\n\n## Run it\n\n- `after`: no.\n";
    let names = brief_checks(brief).unwrap();
    assert_eq!(
        names,
        BTreeSet::from(["seek".to_owned(), "crash".to_owned()])
    );
    assert!(brief_checks("# T\n").is_err());
}

/// The README's sample report is stage 01's grader as it is: its count of cases and checks,
/// and the case its replay command names, which is the smallest case it shows.
#[test]
fn the_readmes_sample_report_is_stage_01s_plan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let line_after = |prefix: &str| {
        readme
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(prefix))
            .unwrap_or_else(|| panic!("the README's sample report has no `{prefix}` line"))
            .trim()
            .to_owned()
    };
    let plan = stage01::Dataflow::plan(graders::harness::driver::DEFAULT_SEED);
    let checks: BTreeSet<_> = plan.iter().map(|case| case.check().name).collect();
    let verdict = line_after("stage 01 · dataflow");
    assert!(
        verdict.ends_with(&format!(
            "of {} checks fail, {n} of {n} cases judged",
            checks.len(),
            n = plan.len()
        )),
        "the README shows `{verdict}`; stage 01 plans {} checks and {} cases",
        checks.len(),
        plan.len()
    );
    let replay = line_after("replay: cargo byo test 01 --case");
    let index: usize = replay.parse().expect("a case number");
    assert_eq!(
        plan[index].describe(),
        line_after("smallest case:"),
        "the README's replay command names another case than the one it shows"
    );
}
