//! `cohort.html` on a small cohort: parsed strictly as XML, its sections, rows and counts
//! are those of the reports; the stage-08 matrix sums the submissions failing per cell; a
//! stage that does not build counts as failing and says where; each row links to its
//! report; the page is laid out for a phone (its viewport, its tables in boxes that scroll).

use super::super::findings::Findings;
use super::super::html::page;
use super::fixture::{cohort, report, stage, wide_cohort};
use super::xml::{Node, parse};
use crate::cli::grade::model::{StageGrade, Verdict};

fn html(reports: &[crate::cli::grade::model::SubmissionReport]) -> Node {
    parse(&page(&Findings::gather(reports)))
}

#[test]
fn the_page_shows_every_submission_check_cell_and_group() {
    let doc = html(&cohort());

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
    // Carol's 08 does not build: its three checks fail, none passed.
    assert_eq!(
        heat.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["2", "1", "3"]
    );
    let carol = &doc.section("heatmap").find("tr")[3];
    assert_eq!(
        carol.find("td")[3].attrs["title"],
        "08 exactly-once: does not build: stages/08-transactional-sink/src/sink.rs:41"
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
    assert!(
        anomalies.contains(&vec![
            "does not build".to_owned(),
            "1".to_owned(),
            "carol (08 stages/08-transactional-sink/src/sink.rs:41)".to_owned()
        ]),
        "{anomalies:?}"
    );
    assert!(anomalies.iter().all(|r| !r[2].is_empty()), "{anomalies:?}");

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

#[test]
fn a_stage_no_report_has_a_check_of_is_a_column_and_counts_as_failing() {
    let unbuilt = |name| {
        report(
            name,
            vec![StageGrade {
                errors: Some("the build took longer than 600 s".to_owned()),
                ..stage(5, Verdict::DoesNotBuild, Vec::new())
            }],
        )
    };
    let doc = html(&[unbuilt("ada"), unbuilt("bob")]);
    let heat = doc.section("heatmap");
    let headers: Vec<String> = heat.find("th").iter().map(|th| th.full_text()).collect();
    assert_eq!(headers, ["submission", "failing", "05"]);
    assert_eq!(heat.rows(), [["ada", "1", ""], ["bob", "1", ""]]);
    let anomalies = doc.section("anomalies").rows();
    assert_eq!(
        anomalies,
        [[
            "does not build",
            "2",
            "ada (05 the build took longer than 600 s), bob (05 the build took longer than 600 s)"
        ]]
    );
}

#[test]
fn every_row_links_to_its_report_with_its_name_as_text() {
    let doc = html(&cohort());
    for section in ["gradebook", "heatmap"] {
        let links: Vec<&Node> = doc
            .section(section)
            .find("tbody")
            .iter()
            .flat_map(|b| b.find("tr"))
            .map(|tr| {
                let first = &tr.find("td")[0];
                let a = first.find("a");
                assert_eq!(a.len(), 1, "{section}: one link in {first:?}");
                a[0]
            })
            .collect();
        let hrefs: Vec<&str> = links.iter().map(|a| a.attrs["href"].as_str()).collect();
        assert_eq!(
            hrefs,
            [
                "./alice/report.md",
                "./bob%20%3Cb%3E/report.md",
                "./carol/report.md"
            ],
            "{section}"
        );
        // The name is text: `<b>` is no element.
        assert_eq!(links[1].text, "bob <b>", "{section}");
        assert!(links[1].children.is_empty(), "{section}");
    }
}

#[test]
fn the_page_is_laid_out_for_a_phone() {
    let doc = html(&cohort());
    let viewport: Vec<&Node> = doc
        .find("meta")
        .into_iter()
        .filter(|m| m.attrs.get("name").map(String::as_str) == Some("viewport"))
        .collect();
    assert_eq!(viewport.len(), 1);
    assert_eq!(
        viewport[0].attrs["content"],
        "width=device-width, initial-scale=1"
    );
    // Every table is alone in a box of its own, which scrolls where the page is narrower.
    let boxes: Vec<&Node> = doc
        .find("div")
        .into_iter()
        .filter(|d| d.attrs.get("class").map(String::as_str) == Some("scroll"))
        .collect();
    assert_eq!(boxes.len(), doc.find("table").len());
    assert!(
        boxes
            .iter()
            .all(|b| b.children.len() == 1 && b.children[0].name == "table")
    );
    let style = doc.find("style")[0].text.clone();
    assert!(
        style.contains(".scroll { max-width: 100%; overflow-x: auto;"),
        "{style}"
    );
}

#[test]
fn a_long_where_cell_shows_ten_places_and_folds_the_rest() {
    let doc = html(&wide_cohort());
    let row = &doc.section("misconceptions").find("tbody")[0].find("tr")[0];
    let cells = row.find("td");
    assert_eq!(cells[1].full_text(), "24");
    let shown = cells[2].text.split(", ").count();
    let more = cells[2].find("details");
    assert_eq!(more.len(), 1);
    assert_eq!(more[0].find("summary")[0].text, "and 14 more");
    assert_eq!(shown + more[0].text.split(", ").count(), 24);
    assert_eq!(shown, 10);

    // With nothing flagged, no empty table: a sentence.
    let mut none = wide_cohort();
    none[3].similarity.clear();
    let doc = html(&none);
    assert!(doc.section("copies").find("table").is_empty());
    assert_eq!(doc.section("copies").find("p")[1].text, "No copy flagged.");
}
