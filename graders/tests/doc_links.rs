//! The three READMEs (the learner's at the root, the instructor's guide in `graders/`, the
//! reader's guide in `solutions/`) link to one another and into the repository: every
//! relative link must name a file or folder that exists, and every `#anchor` a heading of
//! the file it names. CI must also run the test command the top-level README gives.

mod links;

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The READMEs whose links are checked, from the repository's root.
const READMES: [&str; 3] = ["README.md", "graders/README.md", "solutions/README.md"];

#[test]
fn every_relative_link_of_the_readmes_resolves() {
    let root = repo();
    if !root.join("solutions").is_dir() {
        eprintln!("skipped: a student template has only the learner's README");
        return;
    }
    let broken: Vec<String> = READMES
        .iter()
        .flat_map(|readme| links::broken_links(&root.join(readme)))
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The guides are reached from the learner's README, and the design refinements the
    // developers treat as the truth are linked from it too.
    let top = std::fs::read_to_string(root.join("README.md")).unwrap();
    let targets: Vec<String> = links::relative_links(&top)
        .into_iter()
        .map(|l| l.target)
        .collect();
    for wanted in [
        "graders/README.md",
        "solutions/README.md",
        "solutions/README.md#where-the-code-refines-the-design-notes",
    ] {
        assert!(
            targets.iter().any(|t| t == wanted),
            "README.md does not link to {wanted}: {targets:?}"
        );
    }
}

/// The command lines of the fenced block after "The test command is:" in `readme`.
fn readme_test_command(readme: &str) -> Vec<String> {
    readme
        .lines()
        .skip_while(|l| l.trim() != "The test command is:")
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn ci_runs_the_test_command_the_readme_gives() {
    let root = repo();
    let Ok(ci) = std::fs::read_to_string(root.join(".ci/run")) else {
        eprintln!("skipped: a student template has no .ci/run");
        return;
    };
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let command = readme_test_command(&readme);
    assert!(
        !command.is_empty(),
        "README.md gives no test command (a fenced block after \"The test command is:\")"
    );
    for line in &command {
        assert!(
            ci.lines().any(|l| l.trim() == line),
            ".ci/run does not run the README's test command `{line}`"
        );
    }
}

#[test]
fn the_link_reader_finds_broken_links_and_missing_anchors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("other.md"),
        "# Other\n\n## A `code` heading\n",
    )
    .unwrap();
    let text = "# Top\n\n\
        [ok](other.md) and [`code`](other.md#a-code-heading) and [self](#top)\n\
        [gone](missing.md), [bad anchor](other.md#nope), [web](https://example.com)\n\
        `[not a link](in-a-span.md)` and [bad self](#nowhere)\n\n\
        ```text\n[in a block](block.md)\n```\n";
    let file = dir.path().join("top.md");
    std::fs::write(&file, text).unwrap();
    let found: Vec<String> = links::relative_links(text)
        .into_iter()
        .map(|l| l.target)
        .collect();
    assert_eq!(
        found,
        [
            "other.md",
            "other.md#a-code-heading",
            "#top",
            "missing.md",
            "other.md#nope",
            "#nowhere"
        ]
    );
    let broken = links::broken_links(&file);
    assert_eq!(broken.len(), 3, "{broken:?}");
    assert!(
        broken[0].ends_with(":4: missing.md: no such file or folder"),
        "{broken:?}"
    );
    assert!(broken[1].contains("other.md#nope: no heading with the anchor `nope`"));
    assert!(broken[2].contains(":5: #nowhere: no heading"), "{broken:?}");
    assert_eq!(
        links::anchor("Where the code refines the design notes"),
        "where-the-code-refines-the-design-notes"
    );
    assert_eq!(
        links::anchor("`byo grade` on your machine"),
        "byo-grade-on-your-machine"
    );
}
