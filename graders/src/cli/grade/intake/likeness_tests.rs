//! Tests of one side looked for in another: the share, the flag's two conditions, and
//! how matches gather into regions.

use super::*;

fn print(hash: u64, file: u32, line: u32) -> Print {
    Print {
        hash,
        file,
        first: line,
        last: line + 1,
    }
}

fn side(files: &[&str], prints: Vec<Print>) -> Prints {
    Prints {
        files: files.iter().map(|f| (*f).to_owned()).collect(),
        prints,
    }
}

#[test]
fn the_share_is_of_the_learners_fingerprints_and_a_flag_needs_enough_of_them() {
    let learner = side(
        &["a.rs"],
        (0..10).map(|h| print(h, 0, 1 + h as u32)).collect(),
    );
    let half = side(
        &["r.rs"],
        (0..5).map(|h| print(h, 0, 1 + h as u32)).collect(),
    );
    let found = compare(&learner, &half, "the reference");
    assert_eq!((found.shared, found.share), (5, 0.5));
    assert!(
        !found.flagged,
        "5 shared is below MIN_SHARED = {MIN_SHARED}"
    );
    let most = side(
        &["r.rs"],
        (0..9).map(|h| print(h, 0, 1 + h as u32)).collect(),
    );
    let found = compare(&learner, &most, "the reference");
    assert!(found.flagged && found.share >= THRESHOLD, "{found:?}");
    assert_eq!(found.other, "the reference");

    let nothing = compare(&side(&["a.rs"], Vec::new()), &most, "x");
    assert_eq!((nothing.share, nothing.flagged), (0.0, false));
}

#[test]
fn a_region_goes_on_across_a_short_gap_and_stops_at_a_long_one_or_another_file() {
    let learner = side(
        &["a.rs", "b.rs"],
        vec![
            print(1, 0, 10),
            print(2, 0, 12),
            print(99, 0, 13), // not in the other side: skipped over
            print(3, 0, 15),
            print(4, 0, 40), // too far on: a region of its own
            print(5, 1, 41), // another file
        ],
    );
    let other = side(
        &["r.rs", "s.rs"],
        vec![
            print(1, 0, 100),
            print(2, 0, 101),
            print(3, 0, 104),
            print(4, 0, 105),
            print(5, 1, 7),
        ],
    );
    let found = compare(&learner, &other, "r");
    let shown: Vec<String> = found.regions.iter().map(Region::shown).collect();
    assert_eq!(
        shown,
        [
            "a.rs:10-16 ~ r.rs:100-105",
            "a.rs:40-41 ~ r.rs:105-106",
            "b.rs:41-42 ~ s.rs:7-8"
        ]
    );
    assert_eq!(found.regions[0].prints, 3);
}

#[test]
fn a_fingerprint_found_twice_continues_the_region_it_belongs_to() {
    let learner = side(&["a.rs"], vec![print(1, 0, 5), print(2, 0, 6)]);
    // Hash 2 occurs first far away in another file, then next to hash 1.
    let other = side(
        &["x.rs", "r.rs"],
        vec![print(2, 0, 300), print(1, 1, 20), print(2, 1, 21)],
    );
    let found = compare(&learner, &other, "r");
    assert_eq!(found.regions.len(), 1, "{:?}", found.regions);
    assert_eq!(found.regions[0].shown(), "a.rs:5-7 ~ r.rs:20-22");
}
