//! The record's verdict: what a learner crate read, judged against its `src/` and the
//! skeleton's public includes.

use super::*;
use crate::cli::dep_info::Record;

/// A workspace with stage 01's skeleton and a reference file beside it.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let stage = dir.path().join("stages/01-dataflow");
    std::fs::create_dir_all(stage.join("src")).unwrap();
    std::fs::write(
        stage.join("src/lib.rs"),
        "#![doc = include_str!(\"../README.md\")]\n#[cfg(doctest)]\n\
         #[doc = include_str!(\"../../../hints/01.md\")]\nstruct Hints;\n",
    )
    .unwrap();
    std::fs::write(stage.join("README.md"), "# the brief\n").unwrap();
    std::fs::create_dir_all(dir.path().join("solutions/01-dataflow/src")).unwrap();
    std::fs::write(
        dir.path().join("solutions/01-dataflow/src/lib.rs"),
        "pub fn answer() -> u32 { 42 }\n",
    )
    .unwrap();
    dir
}

fn records(ws: &Path, reads: &[&str]) -> Records {
    let reads: Vec<PathBuf> = reads.iter().map(|r| ws.join(r)).collect();
    Records {
        found: vec![Record {
            file: ws.join("target/debug/deps/stage01-abc.d"),
            root: reads[0].clone(),
            reads,
        }],
        missing: Vec::new(),
    }
}

#[test]
fn the_skeletons_public_includes_are_read_from_the_skeleton() {
    let ws = workspace();
    let public = PublicIncludes::of_skeletons(ws.path());
    assert_eq!(
        public.0.get(&1).unwrap(),
        &BTreeSet::from(["stages/01-dataflow/README.md", "hints/01.md"].map(PathBuf::from))
    );
}

#[test]
fn a_crate_that_reads_its_src_and_its_brief_is_not_refused() {
    let ws = workspace();
    let public = PublicIncludes::of_skeletons(ws.path());
    let honest = records(
        ws.path(),
        &[
            "stages/01-dataflow/src/lib.rs",
            "stages/01-dataflow/src/../README.md",
        ],
    );
    assert_eq!(verdict(ws.path(), &public, &honest), None);
}

#[test]
fn a_read_outside_src_is_refused_by_name_without_its_contents() {
    let ws = workspace();
    let public = PublicIncludes::of_skeletons(ws.path());
    let climbing = records(
        ws.path(),
        &[
            "stages/01-dataflow/src/lib.rs",
            "stages/01-dataflow/src/./../../../solutions/01-dataflow/src/lib.rs",
        ],
    );
    let why = verdict(ws.path(), &public, &climbing).expect("refused");
    assert!(why.contains("`solutions/01-dataflow/src/lib.rs`"), "{why}");
    assert!(!why.contains("answer"), "{why}");
    let outside = records(
        ws.path(),
        &["stages/01-dataflow/src/lib.rs", "/etc/hostname"],
    );
    let why = verdict(ws.path(), &public, &outside).expect("refused");
    assert!(
        why.contains("outside the grading workspace (`hostname`)"),
        "{why}"
    );
}

#[test]
fn a_symbolic_link_inside_src_is_judged_by_where_it_leads() {
    let ws = workspace();
    let public = PublicIncludes::of_skeletons(ws.path());
    std::os::unix::fs::symlink(
        ws.path().join("solutions/01-dataflow/src/lib.rs"),
        ws.path().join("stages/01-dataflow/src/answer.rs"),
    )
    .unwrap();
    let linked = records(
        ws.path(),
        &[
            "stages/01-dataflow/src/lib.rs",
            "stages/01-dataflow/src/answer.rs",
        ],
    );
    let why = verdict(ws.path(), &public, &linked).expect("refused");
    assert!(why.contains("`solutions/01-dataflow/src/lib.rs`"), "{why}");
}

#[test]
fn a_crate_outside_the_stages_is_not_judged_and_a_missing_record_refuses() {
    let ws = workspace();
    let public = PublicIncludes::of_skeletons(ws.path());
    let reference = records(
        ws.path(),
        &["solutions/01-dataflow/src/lib.rs", "/etc/hostname"],
    );
    assert_eq!(verdict(ws.path(), &public, &reference), None);
    let missing = Records {
        found: Vec::new(),
        missing: vec![ws.path().join("target/debug/deps/libstage01-abc.rlib")],
    };
    let why = verdict(ws.path(), &public, &missing).expect("refused");
    assert!(why.contains("`libstage01-abc.rlib`"), "{why}");
}

/// The reach-out fixtures are what the record is for: each gets past the text scan, so
/// only what the compiler read refuses it (`tests/grade/reach_outs.rs`).
#[test]
fn the_reach_out_fixtures_get_past_the_text_scan() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    if !fixtures.is_dir() {
        eprintln!("SKIPPED: no attack fixtures here (the student template ships none)");
        return;
    }
    for name in [
        "attack-path-escape",
        "attack-include-escape",
        "attack-include-field",
        "attack-include-range",
    ] {
        let lib = fixtures.join(name).join("stages/01-dataflow/src/lib.rs");
        let source = std::fs::read_to_string(&lib).unwrap();
        let found = super::super::reach::reach_outs(Path::new("lib.rs"), &source);
        assert_eq!(found, Vec::<String>::new(), "{name}");
    }
}
