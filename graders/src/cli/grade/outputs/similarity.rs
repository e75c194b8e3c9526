//! The similarity section of `report.md`: per graded stage, the share of the learner's
//! fingerprints found in the reference and in the graders' oracles, flagged or not, the
//! regions that match, and where the comparison with the other submissions is (the
//! cohort's files: it needs every submission, so it runs when the gradebook is
//! assembled, and one submission's report is never rewritten by another's grading).

use std::fmt::Write as _;

use super::inert::code;
use crate::cli::grade::intake::likeness::THRESHOLD;
use crate::cli::grade::intake::similarity::{ORACLES, REFERENCE};
use crate::cli::grade::model::{Likeness, SubmissionReport};

/// How many regions a comparison shows (`report.json` has them all).
const REGIONS: usize = 3;

/// The section, or nothing when no stage was compared (a tree without references).
pub fn section(report: &SubmissionReport) -> String {
    if report.similarity.is_empty() {
        return String::new();
    }
    let mut md = format!(
        "\n## Similarity\n\n\
         Each graded stage's own code (the skeleton's given code set aside), as winnowed \
         fingerprints of its tokens with names, literals and comments abstracted, looked for \
         in the stage's reference and in the graders' oracles; flagged from {:.0}% \
         (the score is unchanged; the instructor decides). The other submissions are \
         compared with this one when the gradebook is assembled: see `cohort.md` (\"Like \
         another submission\") and `cohort.html` in the folder above this one.\n\n\
         | stage | fingerprints | in {REFERENCE} | in {ORACLES} |\n|---|---|---|---|\n",
        100.0 * THRESHOLD
    );
    for stage in &report.similarity {
        let cell = |name: &str| {
            stage
                .against
                .iter()
                .find(|l| l.other == name)
                .map_or_else(|| "none".to_owned(), share)
        };
        let _ = writeln!(
            md,
            "| {:02} | {} | {} | {} |",
            stage.stage,
            stage.prints.prints.len(),
            cell(REFERENCE),
            cell(ORACLES)
        );
    }
    let mut regions = String::new();
    for stage in &report.similarity {
        for likeness in stage.against.iter().filter(|l| l.share > 0.0) {
            let shown: Vec<String> = likeness
                .regions
                .iter()
                .take(REGIONS)
                .map(|r| {
                    format!(
                        "{} lines {}-{} ~ {} lines {}-{} ({})",
                        code(&r.file),
                        r.lines[0],
                        r.lines[1],
                        code(&r.other_file),
                        r.other_lines[0],
                        r.other_lines[1],
                        r.prints
                    )
                })
                .collect();
            let more = likeness.regions.len().saturating_sub(REGIONS);
            let _ = writeln!(
                regions,
                "- stage {:02}, in {}: {}{}",
                stage.stage,
                likeness.other,
                shown.join("; "),
                if more > 0 {
                    format!("; and {more} more in `report.json`")
                } else {
                    String::new()
                }
            );
        }
    }
    if !regions.is_empty() {
        md.push_str("\nWhere they match (fingerprints per region, most first):\n\n");
        md.push_str(&regions);
    }
    md
}

/// `97% (412)`, in bold and said to be flagged when it is.
fn share(likeness: &Likeness) -> String {
    let figure = format!("{:.0}% ({})", 100.0 * likeness.share, likeness.shared);
    if likeness.flagged {
        format!("**{figure}, flagged**")
    } else {
        figure
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::grade::intake::likeness::compare;
    use crate::cli::grade::model::{Print, Prints, StageSimilarity};

    fn side(file: &str, hashes: std::ops::Range<u64>) -> Prints {
        Prints {
            files: vec![file.to_owned()],
            prints: (1..)
                .zip(hashes)
                .map(|(line, hash)| Print {
                    hash,
                    file: 0,
                    first: line,
                    last: line,
                })
                .collect(),
        }
    }

    fn report(similarity: Vec<StageSimilarity>) -> SubmissionReport {
        SubmissionReport {
            submission: "s".to_owned(),
            path: "s".to_owned(),
            seed: 1,
            draw: Default::default(),
            stage_runs: Default::default(),
            history: Vec::new(),
            provenance: Default::default(),
            stages: Vec::new(),
            total: 0.0,
            files: Default::default(),
            file_hashes: Default::default(),
            changed_from_skeleton: Vec::new(),
            similarity,
            term: Default::default(),
            error: None,
            seconds: 0.0,
        }
    }

    #[test]
    fn the_section_shows_each_share_flags_what_reaches_the_threshold_and_says_where_peers_are() {
        // A learner's file whose name a Markdown span would end: shown inert.
        let learner = side("stages/01-dataflow/src/a`b.rs", 0..30);
        let stage = StageSimilarity {
            stage: 1,
            against: vec![
                compare(
                    &learner,
                    &side("solutions/01-dataflow/src/lib.rs", 0..27),
                    REFERENCE,
                ),
                compare(
                    &learner,
                    &side("graders/src/stage01/oracle.rs", 25..28),
                    ORACLES,
                ),
            ],
            prints: learner,
        };
        let md = section(&report(vec![stage]));
        assert!(
            md.contains("| 01 | 30 | **90% (27), flagged** | 10% (3) |\n"),
            "{md}"
        );
        assert!(
            md.contains("see `cohort.md` (\"Like another submission\")"),
            "{md}"
        );
        assert!(
            md.contains(
                "- stage 01, in the reference: ``stages/01-dataflow/src/a`b.rs`` lines 1-27 ~ \
                 `solutions/01-dataflow/src/lib.rs` lines 1-27 (27)\n"
            ),
            "{md}"
        );
        assert!(
            section(&report(Vec::new())).is_empty(),
            "nothing compared, nothing said"
        );
    }
}
