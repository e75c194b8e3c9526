//! `cohort.html`: the cohort to look at rather than read, beside `cohort.md` and rebuilt
//! from the same reports. One self-contained page (inline CSS and a few lines of inline
//! JavaScript, nothing fetched): a heatmap of submissions × checks, the stage-08 crash
//! point × commit lag matrix summed over the cohort, the most common misconceptions and
//! anomalies, the flagged copies, and tables that sort when a column's header is clicked.
//! Each row of the gradebook and the heatmap links to its submission's report.
//!
//! It is read on a phone as well as a laptop: a viewport tag, and every table in a box
//! of its own that scrolls sideways where the page is narrower, so the page never does.
//!
//! The markup is well-formed XML (every element closed, the script in a CDATA section),
//! so a test can parse it strictly.

use std::fmt::Write as _;

use super::findings::{Findings, Group};
use super::heatmap::heatmap;
use super::markup::{CLOSE_TABLE, class, columns, escape, open_table, submission_cell};
use super::matrix::CohortMatrix;
use crate::cli::grade::model::SubmissionReport;

const STYLE: &str = include_str!("cohort.css");
const SCRIPT: &str = include_str!("cohort.js");

/// How many misconceptions and anomalies the page shows (the markdown has them all).
const MOST_COMMON: usize = 10;

/// How many places a "where" cell shows before folding the rest away: in a class of 150,
/// the most common anomaly happens hundreds of times.
const PLACES_SHOWN: usize = 10;

/// The page of the `findings`.
pub fn page(findings: &Findings<'_>) -> String {
    let reports = findings.reports;
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>Cohort: {n} submission(s)</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>Cohort: {n} submission(s)</h1>\n\
         <p class=\"note\">Rebuilt by <code>byo grade</code> from every report.json in this \
         folder; <code>cohort.md</code> has the same in text. Click a column's header to sort.</p>\n",
        n = reports.len()
    );
    gradebook(&mut html, reports);
    heatmap(&mut html, reports);
    matrix(&mut html, &findings.matrix);
    groups(
        &mut html,
        "misconceptions",
        "Most common misconceptions",
        "misconception",
        &findings.misconceptions,
        "No failure was matched to a misconception card.",
    );
    groups(
        &mut html,
        "anomalies",
        "Most common anomalies",
        "anomaly",
        &findings.anomalies,
        "No anomaly: every judged stage passed.",
    );
    copies(&mut html, findings);
    let _ = write!(
        html,
        "<script>//<![CDATA[\n{SCRIPT}//]]></script>\n</body>\n</html>\n"
    );
    html
}

/// One row per submission: verdict, total and each stage's score.
fn gradebook(html: &mut String, reports: &[SubmissionReport]) {
    let stages = columns(reports, |s| vec![(s.stage, format!("{:02}", s.stage))]);
    html.push_str(
        "<section id=\"gradebook\">\n<h2>Submissions</h2>\n<p class=\"note\">Each name links \
         to its report.</p>\n",
    );
    html.push_str(&open_table("sortable"));
    html.push_str("<thead><tr><th>submission</th><th>verdict</th><th>total</th>");
    for (_, name) in &stages {
        let _ = write!(html, "<th>{}</th>", escape(name));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for report in reports {
        let _ = write!(
            html,
            "<tr>{}<td>{}</td><td>{:.1}</td>",
            submission_cell(&report.submission),
            report.overall(),
            report.total
        );
        for (stage, _) in &stages {
            match report.stages.iter().find(|s| s.stage == *stage) {
                Some(s) => {
                    let _ = write!(
                        html,
                        "<td class=\"{}\">{:.1}</td>",
                        class(s.verdict, s.score > 0.0),
                        100.0 * s.score
                    );
                }
                None => html.push_str("<td></td>"),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str(CLOSE_TABLE);
    html.push_str("</section>\n");
}

/// The summed stage-08 matrix: per cell, how many submissions fail there.
fn matrix(html: &mut String, sum: &CohortMatrix) {
    let _ = write!(
        html,
        "<section id=\"matrix\">\n<h2>Stage 08: crash point × commit lag</h2>\n\
         <p class=\"note\">Summed over the {} submission(s) whose stage-08 report shows a \
         matrix (the smallest failing input of each failing check): each cell counts the \
         submissions failing there; its tooltip names them and the anomaly codes.</p>\n",
        sum.submissions
    );
    if sum.submissions == 0 {
        html.push_str("<p>No stage-08 failure with a matrix.</p>\n</section>\n");
        return;
    }
    let most = sum
        .cells
        .values()
        .map(|c| c.failing.len())
        .max()
        .unwrap_or(0);
    html.push_str(&open_table("matrix"));
    html.push_str("<thead><tr><th>crash point</th>");
    for lag in &sum.lags {
        let _ = write!(html, "<th>lag {lag}</th>");
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for crash in sum.crash_points() {
        let label = crash.map_or("no crash".to_owned(), |k| format!("after {k}"));
        let _ = write!(html, "<tr><th>{label}</th>");
        for lag in &sum.lags {
            let Some(c) = sum.cells.get(&(crash, *lag)) else {
                html.push_str("<td class=\"none\"></td>");
                continue;
            };
            let n = c.failing.len();
            let codes: Vec<String> = c.codes.iter().map(|(k, v)| format!("{k} ×{v}")).collect();
            // Shade by share of the worst cell: 0 is white, the worst full red.
            let alpha = if most == 0 {
                0.0
            } else {
                n as f64 / most as f64
            };
            let _ = write!(
                html,
                "<td class=\"count\" style=\"background: rgba(200, 40, 40, {alpha:.2})\" \
                 title=\"{}\">{n}</td>",
                escape(&format!("{} | {}", c.failing.join(", "), codes.join(", ")))
            );
        }
        html.push_str("</tr>\n");
    }
    html.push_str(CLOSE_TABLE);
    html.push_str("</section>\n");
}

/// The most common kinds of failure, with where they happen.
fn groups(html: &mut String, id: &str, title: &str, kind: &str, all: &[Group], none: &str) {
    let _ = writeln!(html, "<section id=\"{id}\">\n<h2>{title}</h2>");
    if all.is_empty() {
        let _ = writeln!(html, "<p>{none}</p>\n</section>");
        return;
    }
    html.push_str(&open_table("sortable"));
    let _ = writeln!(
        html,
        "<thead><tr><th>{kind}</th><th>occurrences</th><th>where</th></tr></thead>\n<tbody>"
    );
    for (name, places) in all.iter().take(MOST_COMMON) {
        let shown = places.len().min(PLACES_SHOWN);
        let mut cell = escape(&places[..shown].join(", "));
        if shown < places.len() {
            let _ = write!(
                cell,
                "<details class=\"more\"><summary>and {} more</summary>{}</details>",
                places.len() - shown,
                escape(&places[shown..].join(", "))
            );
        }
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{cell}</td></tr>",
            escape(name),
            places.len()
        );
    }
    html.push_str(CLOSE_TABLE);
    html.push_str("</section>\n");
}

/// Stages like the reference or the oracles, submissions alike, and identical
/// submissions (scores unchanged), each with how alike and where.
fn copies(html: &mut String, findings: &Findings<'_>) {
    html.push_str(
        "<section id=\"copies\">\n<h2>Flagged copies</h2>\n<p class=\"note\">Scores are \
         unchanged: the instructor decides what a copy means.</p>\n",
    );
    if findings.like_reference.is_empty()
        && findings.peers.is_empty()
        && findings.identical.is_empty()
    {
        html.push_str("<p>No copy flagged.</p>\n</section>\n");
        return;
    }
    html.push_str(&open_table("sortable"));
    html.push_str(
        "<thead><tr><th>kind</th><th>stages</th><th>submissions</th>\
         <th>how alike, and where</th></tr></thead>\n<tbody>\n",
    );
    let mut row = |kind: &str, stages: &str, who: &str, how: &str| {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(kind),
            escape(stages),
            escape(who),
            escape(how)
        );
    };
    for (who, stage, likeness) in &findings.like_reference {
        let kind = format!("like {}", likeness.other);
        row(&kind, &format!("{stage:02}"), who, &likeness.described(2));
    }
    for pair in &findings.peers {
        let how = format!(
            "{}: {} · {}: {}",
            pair.first,
            pair.first_in_second.described(2),
            pair.second,
            pair.second_in_first.described(2)
        );
        let who = format!("{}, {}", pair.first, pair.second);
        row(
            "like another submission",
            &format!("{:02}", pair.stage),
            &who,
            &how,
        );
    }
    for (folder, who) in &findings.identical {
        row(
            "identical submissions",
            folder,
            &who.join(", "),
            "byte for byte",
        );
    }
    html.push_str(CLOSE_TABLE);
    html.push_str("</section>\n");
}
