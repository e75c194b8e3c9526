//! `cohort.html` on a small cohort: parsed strictly as XML, its sections, rows and counts
//! are those of the reports; the stage-08 matrix sums the submissions failing per cell.

use super::super::findings::Findings;
use super::super::html::page;
use super::fixture::cohort;
use super::xml::parse;

#[test]
fn the_page_shows_every_submission_check_cell_and_group() {
    let doc = parse(&page(&Findings::gather(&cohort())));

    let ids: Vec<&str> = doc
        .find("section")
        .iter()
        .filter_map(|s| s.attrs.get("id").map(String::as_str))
        .collect();
    assert_eq!(
        ids,
        [
            "gradebook",
            "heatmap",
            "matrix",
            "misconceptions",
            "anomalies",
            "copies"
        ]
    );

    // Heatmap: a row per submission, a column per check; names escaped, not markup.
    let heat = doc.section("heatmap").rows();
    assert_eq!(heat.len(), 3);
    assert_eq!(heat[1][0], "bob <b>");
    assert_eq!(heat.iter().map(Vec::len).collect::<Vec<_>>(), [6, 6, 6]);
    assert_eq!(
        heat.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["2", "1", "0"]
    );
    let classes: Vec<&str> = doc.section("heatmap").find("td")[2..]
        .iter()
        .take(4)
        .filter_map(|td| td.attrs.get("class").map(String::as_str))
        .collect();
    assert_eq!(classes, ["pass", "fail", "fail", "pass"], "alice's row");

    // Matrix: cell 4 (after 0, lag 1) fails in both; 3 and 5 in alice only.
    let matrix = doc.section("matrix").rows();
    assert_eq!(matrix.len(), 5, "no crash and after 0..=3");
    assert_eq!(matrix[1][0], "after 0");
    assert_eq!(&matrix[1][1..], ["1", "2", "1"]);
    let total: usize = matrix
        .iter()
        .flat_map(|r| r[1..].iter())
        .map(|c| c.parse::<usize>().unwrap())
        .sum();
    assert_eq!(total, 4);

    let misconceptions = doc.section("misconceptions").rows();
    assert_eq!(
        misconceptions,
        [vec![
            "commits before the notification".to_owned(),
            "2".to_owned(),
            "alice (08 exactly-once), bob <b> (08 exactly-once)".to_owned()
        ]]
    );
    let anomalies = doc.section("anomalies").rows();
    assert_eq!(
        anomalies[0][..2],
        ["wrong result".to_owned(), "3".to_owned()]
    );
    assert!(anomalies.iter().any(|r| r[0] == "does not build"));

    let copies = doc.section("copies").rows();
    let flags: Vec<&[String]> = copies.iter().map(|r| &r[..3]).collect();
    assert_eq!(
        flags,
        [
            ["like the reference", "01", "carol"],
            ["like another submission", "08", "alice, bob <b>"],
        ]
    );
    assert!(
        copies[0][3].starts_with(
            "100% in the reference (20 fingerprint(s)); \
             stages/01-dataflow/src/source.rs:1-20 ~ solutions/01-dataflow/src/source.rs:1-20"
        ),
        "{copies:?}"
    );
    assert!(
        copies[1][3].starts_with("alice: 67% in bob <b> (20 fingerprint(s))"),
        "{copies:?}"
    );
    assert!(copies[1][3].contains("bob <b>: 80% in alice (20 fingerprint(s))"));
    assert_eq!(doc.find("script").len(), 1);
    assert!(doc.find("link").is_empty(), "nothing is fetched");
}
