//! The threshold, measured on the real stages: every independent correct implementation
//! the repository has (the mutant catalogues' controls and correct scaffolds, the
//! graders' oracles) stays below it against the reference and the oracles; the
//! attacker's disguises of the real references and oracles, which reach it, are in
//! `similarity_disguise_tests.rs`. Run with `--nocapture` to see the figures the module
//! documentation quotes.

use std::path::PathBuf;

use super::super::likeness::{MIN_SHARED, THRESHOLD};
use super::super::winnow;
use super::*;
use crate::cli::grade::intake::tokens::{Token, tokens_by_line};
use crate::cli::grade::model::Likeness;

/// The repository, when it is the instructor's (the student template has no references
/// and no mutant catalogues).
pub(super) fn repository() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let complete = root.join("solutions").is_dir() && root.join("graders/tests/mutants").is_dir();
    if !complete {
        eprintln!(
            "SKIPPED: no references or mutant catalogues here (the student template ships none)"
        );
    }
    complete.then_some(root)
}

/// Correct implementations other than the reference, by stage: a file under
/// `graders/tests/mutants/`, and the item in it (by the text that opens it) or the whole
/// file. The scaffolds are the mutants' shared code with no mistake switched on, which
/// the catalogues' controls accept.
const CONTROLS: [(u8, &str, Option<&str>); 22] = [
    (1, "stage01/operators.rs", Some("pub mod buffered_run")),
    (1, "stage01/sources.rs", Some("mod reversed_in_memory")),
    (
        2,
        "stage02/controls.rs",
        Some("pub mod hand_rolled_snapshot"),
    ),
    (2, "stage02/controls.rs", Some("pub mod vec_backed_state")),
    (2, "stage02/words.rs", Some("pub mod word_count_by_hand")),
    (3, "stage03/controls.rs", Some("mod strict_and_wordy")),
    (3, "stage03/controls.rs", Some("mod own_format")),
    (3, "stage03/subtask.rs", Some("macro_rules! subtask_with")),
    (4, "stage04/controls.rs", Some("mod kept_apart")),
    (4, "stage04/controls.rs", Some("mod recomputed")),
    (5, "stage05/flawed.rs", None),
    (5, "stage05/window_operator.rs", None),
    (5, "stage05/edges.rs", Some("macro_rules! assigners")),
    (6, "stage06/variants.rs", Some("mod eager_turn_check")),
    (6, "stage06/variants.rs", Some("mod fail_stop")),
    (6, "stage06/variants.rs", Some("mod raw_bytes")),
    (6, "stage06/flawed.rs", None),
    (7, "stage07/controls.rs", Some("mod listed")),
    (7, "stage07/controls.rs", Some("mod arithmetic_run")),
    (7, "stage07/flawed.rs", None),
    (8, "stage08/template.rs", None),
    (8, "stage08/flawed_sink.rs", None),
];

/// The top-level item of `text` whose lines include the first line containing `opens`:
/// from the last line at or before it that starts an item, to where its brackets close.
fn item(text: &str, opens: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(opens))
        .unwrap_or_else(|| panic!("no {opens:?} here"));
    let starts = |l: &&str| l.starts_with(|c: char| c.is_alphabetic());
    let start = (0..=at).rev().find(|i| starts(&lines[*i])).unwrap_or(at);
    let from: String = lines[start..].join("\n");
    let mut depth = 0i32;
    let mut end = None;
    for (token, line) in tokens_by_line(&from) {
        match token {
            Token::Punct('{' | '(' | '[') => depth += 1,
            Token::Punct('}' | ')' | ']') => {
                depth -= 1;
                if depth == 0 && (line as usize) > at - start {
                    end = Some(line as usize);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end.unwrap_or_else(|| panic!("{opens:?} never closes"));
    lines[start..start + end].join("\n")
}

/// `files` as stage `number`'s learner-written code in `root`, compared.
fn measured(root: &Path, number: u8, files: &BTreeMap<String, String>) -> Vec<Likeness> {
    let folder = crate::stages::get(number).expect("a stage").folder();
    let given = given_code(&sources(root, &format!("stages/{folder}/src")));
    let learner = side(files, &given);
    let reference = sources(root, &format!("solutions/{folder}/src"));
    let mut against = vec![compare(&learner, &side(&reference, &given), REFERENCE)];
    let oracles = oracles(root, number);
    if !oracles.is_empty() {
        against.push(compare(&learner, &side(&oracles, &given), ORACLES));
    }
    against
}

pub(super) fn shown(label: &str, against: &[Likeness]) -> String {
    let shares: Vec<String> = against
        .iter()
        .map(|l| format!("{:>5.1}% ({:>3}) in {}", 100.0 * l.share, l.shared, l.other))
        .collect();
    format!("{label:<58} {}", shares.join(" · "))
}

#[test]
fn no_correct_implementation_but_the_reference_is_flagged() {
    let Some(root) = repository() else { return };
    let mut rows = Vec::new();
    let mut flagged = Vec::new();
    let mut highest: f64 = 0.0;
    let mut check = |label: String, against: Vec<Likeness>| {
        for l in &against {
            highest = highest.max(l.share);
            if l.flagged {
                flagged.push(format!("{label}: {}", l.summary()));
            }
        }
        rows.push(shown(&label, &against));
    };
    for (number, file, opens) in CONTROLS {
        let path = format!("graders/tests/mutants/{file}");
        let text = fs::read_to_string(root.join(&path)).expect("a catalogue");
        let text = opens.map_or(text.clone(), |o| item(&text, o));
        let label = format!(
            "{number:02} {file}{}",
            opens.map_or(String::new(), |o| format!(" `{o}`"))
        );
        check(
            label,
            measured(&root, number, &BTreeMap::from([(path, text)])),
        );
    }
    for number in 1..=8 {
        // An oracle is a correct model written apart from the reference: against it.
        let oracles = oracles(&root, number);
        if !oracles.is_empty() {
            let reference = measured(&root, number, &oracles).remove(0);
            check(format!("{number:02} the graders' oracles"), vec![reference]);
        }
    }
    eprintln!(
        "K = {}, W = {}, threshold {THRESHOLD}, at least {MIN_SHARED} shared",
        winnow::K,
        winnow::W
    );
    eprintln!("{}", rows.join("\n"));
    eprintln!("highest share: {:.1}%", 100.0 * highest);
    assert!(flagged.is_empty(), "flagged: {flagged:#?}");
}
