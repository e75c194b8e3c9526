//! The default scheme ranks understanding: on a cohort of stage 07 and 08 submissions
//! (`tests/fixtures/*-07`, `*-08`, see the fixtures' README), a submission that skips the
//! stage's idea (returns its input, ignores the crash) ranks below every submission with
//! one subtle mistake.

use std::ffi::OsString;

use super::reading::{check, report, stage};
use super::submissions::{Base, submission};
use super::{GRADING, grade};

#[test]
fn skipping_the_idea_ranks_below_one_subtle_mistake() {
    let _one_at_a_time = GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::Builder::new()
        .prefix("byo-grade-ranking-")
        .tempdir()
        .unwrap();
    let subs = scratch.path().join("submissions");
    let names = [
        "returns-input-08",
        "ignores-crash-07",
        "forgets-zero-08",
        "crash-after-unchecked-07",
    ];
    let mut args: Vec<OsString> = names
        .iter()
        .map(|name| submission(&subs, name, Base::ReferenceUpTo(8), Some(name)).into_os_string())
        .collect();
    let out = scratch.path().join("out");
    args.extend(["--out".into(), out.clone().into_os_string()]);
    args.extend(["--seed", "44", "--stages", "07,08"].map(OsString::from));
    grade(&args);

    let total = |name: &str| report(&out, name)["total"].as_f64().unwrap();
    // Skipping the idea: the core law fails, and the stage earns nothing.
    let r = report(&out, "returns-input-08");
    assert_ne!(check(&r, 8, "protocol"), "passed", "{r:#}");
    assert_eq!(stage(&r, 8)["score"], 0.0, "{r:#}");
    // It is the shortcut the weights warnings know: it passes and fails what they say.
    let shortcut = graders::cli::grade::score::loopholes::SHORTCUTS[0];
    for name in shortcut.passes {
        assert_eq!(check(&r, 8, name), "passed", "{name}: {r:#}");
    }
    for name in shortcut.fails {
        assert_ne!(check(&r, 8, name), "passed", "{name}: {r:#}");
    }
    let r = report(&out, "ignores-crash-07");
    assert_ne!(check(&r, 7, "exactly-once-state"), "passed", "{r:#}");
    assert_eq!(stage(&r, 7)["score"], 0.0, "{r:#}");
    // One subtle mistake: one check off the core fails, the rest earns its share.
    for (name, number, failing) in [
        ("forgets-zero-08", 8, "bad-input"),
        ("crash-after-unchecked-07", 7, "arguments"),
    ] {
        let r = report(&out, name);
        let failed: Vec<&str> = stage(&r, number)["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["passed"] != true)
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(failed, [failing], "{name}: {r:#}");
        assert!(stage(&r, number)["score"].as_f64().unwrap() > 0.5, "{r:#}");
    }
    // Implementations no mutant is, graded under another seed, still get their mistake's
    // misconception card.
    for (name, number, failing, card) in [
        ("returns-input-08", 8, "protocol", "08-output-needs-no-sink"),
        (
            "forgets-zero-08",
            8,
            "bad-input",
            "08-barrier-every-is-trusted",
        ),
        (
            "crash-after-unchecked-07",
            7,
            "arguments",
            "07-crash-past-the-end-is-no-crash",
        ),
    ] {
        let r = report(&out, name);
        let failure = &stage(&r, number)["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == failing)
            .unwrap()["failure"];
        let title = graders::misconception::card(card).unwrap().title;
        assert_eq!(failure["misconception"], title, "{name}: {r:#}");
        assert!(failure["detail"].as_str().unwrap().contains(title), "{r:#}");
    }
    for skipped in ["returns-input-08", "ignores-crash-07"] {
        for subtle in ["forgets-zero-08", "crash-after-unchecked-07"] {
            assert!(
                total(skipped) < total(subtle),
                "{skipped} ({}) must rank below {subtle} ({})",
                total(skipped),
                total(subtle)
            );
        }
    }
}
