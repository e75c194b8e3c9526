//! `cohort.html` on a small cohort: parsed strictly as XML, its sections, rows and counts
//! are those of the reports; the stage-08 matrix sums the submissions failing per cell.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::page;
use crate::cli::grade::Provenance;
use crate::cli::grade::model::{CheckGrade, FailureGrade, StageGrade, SubmissionReport, Verdict};
use crate::stage08::{Anomaly, CellFailure, MAX_LAG, matrix};

/// One element of the parsed page.
#[derive(Debug, Default)]
struct Node {
    name: String,
    attrs: BTreeMap<String, String>,
    children: Vec<Node>,
    text: String,
}

impl Node {
    fn all<'a>(&'a self, name: &str, out: &mut Vec<&'a Node>) {
        for child in &self.children {
            if child.name == name {
                out.push(child);
            }
            child.all(name, out);
        }
    }

    fn find(&self, name: &str) -> Vec<&Node> {
        let mut out = Vec::new();
        self.all(name, &mut out);
        out
    }

    fn section(&self, id: &str) -> &Node {
        self.find("section")
            .into_iter()
            .find(|s| s.attrs.get("id").map(String::as_str) == Some(id))
            .unwrap_or_else(|| panic!("no section {id}"))
    }

    /// The body rows' cells, as text.
    fn rows(&self) -> Vec<Vec<String>> {
        self.find("tbody")
            .iter()
            .flat_map(|b| b.find("tr"))
            .map(|tr| {
                tr.children
                    .iter()
                    .map(|c| c.full_text().trim().to_owned())
                    .collect()
            })
            .collect()
    }

    fn full_text(&self) -> String {
        let mut text = self.text.clone();
        for child in &self.children {
            text.push_str(&child.full_text());
        }
        text
    }
}

fn element(e: &BytesStart<'_>) -> Node {
    let mut node = Node {
        name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        ..Node::default()
    };
    for a in e.attributes() {
        let a = a.expect("an attribute");
        let value = a.unescape_value().expect("escaped").into_owned();
        node.attrs
            .insert(String::from_utf8_lossy(a.key.as_ref()).into_owned(), value);
    }
    node
}

fn open(stack: &mut [Node]) -> &mut Node {
    stack.last_mut().expect("an open element")
}

/// The page as a tree; panics on anything that is not well-formed.
fn parse(html: &str) -> Node {
    let mut reader = Reader::from_str(html);
    let mut stack = vec![Node::default()];
    loop {
        match reader.read_event().expect("well-formed") {
            Event::Start(e) => stack.push(element(&e)),
            Event::Empty(e) => open(&mut stack).children.push(element(&e)),
            Event::End(_) => {
                let node = stack.pop().expect("opened");
                open(&mut stack).children.push(node);
            }
            Event::Text(t) => {
                let text = t.decode().expect("utf-8").into_owned();
                open(&mut stack).text.push_str(&text);
            }
            Event::GeneralRef(r) => {
                let name = r.decode().expect("utf-8").into_owned();
                let c = match name.as_str() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "#39" => "'",
                    other => panic!("an entity HTML and XML do not share: {other}"),
                };
                open(&mut stack).text.push_str(c);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "every element is closed");
    stack.pop().expect("the document")
}

fn check(name: &str, failure: Option<(&str, Option<&str>)>) -> CheckGrade {
    CheckGrade {
        name: name.to_owned(),
        passed: failure.is_none(),
        failure: failure.map(|(detail, misconception)| FailureGrade {
            case_index: 1,
            case: "records [1, 2, 3]".to_owned(),
            anomaly: "wrong result".to_owned(),
            detail: detail.to_owned(),
            misconception: misconception.map(str::to_owned),
        }),
        not_reproduced: None,
        weight: 1.0,
        gate: false,
    }
}

fn stage(number: u8, verdict: Verdict, checks: Vec<CheckGrade>) -> StageGrade {
    StageGrade {
        stage: number,
        title: format!("stage {number:02}"),
        verdict,
        score: f64::from(u8::from(verdict == Verdict::Passed)),
        weight: 1.0,
        checks,
        errors: None,
        cases_judged: 1,
        seconds: 0.0,
        over_your_stages: None,
    }
}

fn report(name: &str, stages: Vec<StageGrade>) -> SubmissionReport {
    SubmissionReport {
        submission: name.to_owned(),
        path: name.to_owned(),
        seed: 1,
        provenance: Provenance::default(),
        stages,
        total: 0.0,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        error: None,
        seconds: 0.0,
    }
}

/// A stage-08 failure detail whose matrix fails at `cells` (indices in plan order).
fn grid(cells: &[usize]) -> String {
    let mut verdicts: Vec<Result<(), CellFailure>> = vec![Ok(()); 5 * (MAX_LAG + 1)];
    for i in cells {
        verdicts[*i] = Err(CellFailure {
            anomaly: Anomaly::VisibleBeforeNotification,
            step: String::new(),
        });
    }
    format!("first wrong step\n{}", matrix(3, &verdicts))
}

/// Alice fails stage 08 two ways, Bob one way and has not started 01, Carol's 08 does
/// not build and her 01 matches the reference.
pub(super) fn cohort() -> Vec<SubmissionReport> {
    let early = Some("commits before the notification");
    let alice = report(
        "alice",
        vec![
            stage(1, Verdict::Passed, vec![check("chain", None)]),
            stage(
                8,
                Verdict::Failed,
                vec![
                    check("exactly-once", Some((&grid(&[3, 4]), early))),
                    check("protocol", Some((&grid(&[4, 5]), None))),
                    check("bad-input", None),
                ],
            ),
        ],
    );
    let bob = report(
        "bob <b>",
        vec![
            stage(
                1,
                Verdict::NotStarted,
                vec![check("chain", Some(("todo", None)))],
            ),
            stage(
                8,
                Verdict::Failed,
                vec![
                    check("exactly-once", Some((&grid(&[4]), early))),
                    check("protocol", None),
                    check("bad-input", None),
                ],
            ),
        ],
    );
    let mut carol = report(
        "carol",
        vec![
            stage(1, Verdict::Passed, vec![check("chain", None)]),
            stage(8, Verdict::DoesNotBuild, Vec::new()),
        ],
    );
    carol.files.copies_of_reference = vec!["01-dataflow: source.rs".to_owned()];
    vec![alice, bob, carol]
}

#[test]
fn cohort_md_groups_failures_by_misconception() {
    let md = crate::cli::grade::cohort::cohort(&cohort());
    assert!(
        md.contains(
            "## Misconceptions\n\nFailures grouped by the misconception recognised behind them \
             (the card a learner's report shows):\n\n\
             | misconception | occurrences | where |\n|---|---|---|\n\
             | commits before the notification | 2 | alice (08 exactly-once), bob <b> (08 exactly-once) |\n"
        ),
        "{md}"
    );
    // Without a recognised misconception, no such section.
    let mut plain = cohort();
    for report in &mut plain {
        for stage in &mut report.stages {
            for check in &mut stage.checks {
                if let Some(f) = &mut check.failure {
                    f.misconception = None;
                }
            }
        }
    }
    assert!(!crate::cli::grade::cohort::cohort(&plain).contains("Misconceptions"));
}

#[test]
fn the_page_shows_every_submission_check_cell_and_group() {
    let doc = parse(&page(&cohort()));

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
    assert_eq!(
        copies,
        [vec![
            "matches the reference".to_owned(),
            "01".to_owned(),
            "carol".to_owned()
        ]]
    );
    assert_eq!(doc.find("script").len(), 1);
    assert!(doc.find("link").is_empty(), "nothing is fetched");
}

#[path = "cohort_browser_tests.rs"]
mod browser;
