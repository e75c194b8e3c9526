//! The cohort pass of similarity on small cohorts: who is paired, both ways, and who is
//! not; and the same pairs whatever order the reports come in.

use super::super::peers::alike;
use super::fixture::{cohort, prints, report, similar};
use crate::cli::grade::model::SubmissionReport;

fn with_08(name: &str, hashes: impl IntoIterator<Item = u64>) -> SubmissionReport {
    let mut r = report(name, Vec::new());
    let nothing = prints("solutions/08-transactional-sink/src/sink.rs", []);
    r.similarity = vec![similar(
        8,
        prints("stages/08-transactional-sink/src/sink.rs", hashes),
        &nothing,
    )];
    r
}

#[test]
fn a_pair_is_shown_both_ways_and_independent_work_is_not_paired() {
    let pairs = alike(&cohort());
    assert_eq!(pairs.len(), 1, "{pairs:#?}");
    let pair = &pairs[0];
    assert_eq!(
        (pair.stage, pair.first.as_str(), pair.second.as_str()),
        (8, "alice", "bob <b>")
    );
    assert_eq!(pair.first_in_second.other, "bob <b>");
    assert_eq!(pair.first_in_second.shared, 20);
    assert_eq!(pair.second_in_first.other, "alice");
    assert!((pair.second_in_first.share - 0.8).abs() < 1e-9);
    assert_eq!(
        pair.first_in_second.regions[0].shown(),
        "stages/08-transactional-sink/src/sink.rs:1-20 ~ stages/08-transactional-sink/src/sink.rs:1-20"
    );
}

#[test]
fn a_small_copy_inside_a_larger_work_is_paired_by_the_copy_side() {
    // Dan wrote 10 fingerprints, all found in Eve's 100: 100% one way, 10% the other.
    let reports = [
        with_08("dan", 0..10),
        with_08("eve", 0..100),
        with_08("fay", 500..600),
    ];
    let pairs = alike(&reports);
    assert_eq!(pairs.len(), 1, "{pairs:#?}");
    assert_eq!(
        (pairs[0].first.as_str(), pairs[0].second.as_str()),
        ("dan", "eve")
    );
    assert!(pairs[0].first_in_second.flagged && !pairs[0].second_in_first.flagged);
}

#[test]
fn too_few_shared_fingerprints_pair_nobody_and_untouched_stages_are_left_out() {
    // 7 of 7 shared: the whole of it, but below MIN_SHARED.
    let reports = [
        with_08("gus", 0..7),
        with_08("hal", 0..7),
        with_08("ivy", []),
    ];
    assert!(alike(&reports).is_empty());
}

#[test]
fn pairs_come_by_stage_most_alike_first_whatever_the_order_of_the_reports() {
    let reports = vec![
        with_08("a", 0..100),
        with_08("b", 0..60),
        with_08("c", (0..50).chain(1000..1050)),
    ];
    let shown = |pairs: Vec<super::super::peers::PeerPair>| -> Vec<(String, String, u32)> {
        pairs
            .into_iter()
            .map(|p| {
                let share = (100.0 * p.share()).round() as u32;
                let mut names = [p.first, p.second];
                names.sort();
                let [x, y] = names;
                (x, y, share)
            })
            .collect()
    };
    let forward = shown(alike(&reports));
    assert_eq!(
        forward,
        [
            ("a".to_owned(), "b".to_owned(), 100),
            ("b".to_owned(), "c".to_owned(), 83),
            ("a".to_owned(), "c".to_owned(), 50),
        ]
    );
    let mut backward = reports;
    backward.reverse();
    assert_eq!(shown(alike(&backward)), forward);
}
