//! What `byo test NN --case I` prints: the one case it replayed, passed or failed, and
//! never the stage's verdict. One case passing says nothing of the others, so a replay
//! shows no PASS, no "next", no count of stages passing, and leaves the stage's standing
//! (its last full `just test`) as it was.

use super::outcome::render_outcome;
use super::pipeline::StageOutcome;
use crate::harness::StageStatus;
use crate::report::{self, Replay, Style};
use crate::stages::{self, StageInfo};

/// The report of case `index` of `stage` (plan of `seed`), replayed alone.
pub fn render(
    stage: &StageInfo,
    seed: u64,
    index: usize,
    outcome: &StageOutcome,
    style: &Style,
) -> String {
    let StageOutcome::Judged(report) = outcome else {
        return render_outcome(stage, outcome, style);
    };
    let title = style.bold(&format!("{:<34}", stages::title(stage.number)));
    let check = report.checks.first().map_or("", |c| c.name.as_str());
    let case = format!("case {index}");
    match report.status() {
        StageStatus::Passed => {
            let what = stages::describe_case(stage.number, seed, index).unwrap_or_default();
            format!(
                "{title} {}  {}\n    the case: {what}\n",
                style.good(&format!("{case} passes")),
                style.dim(&format!("check `{check}`"))
            )
        }
        status => {
            let verdict = match status {
                StageStatus::NotStarted => style.warn(&format!("{case} not started")),
                _ => style.bad(&format!("{case} FAILS")),
            };
            let mut text = format!(
                "{title} {verdict}  {}\n",
                style.dim(&format!("check `{check}`"))
            );
            // The failure as a full report shows it, under this line instead of the
            // stage's summary.
            let rendered = report::render(report, style, &Replay::default());
            text.extend(rendered.lines().skip(1).map(|l| format!("{l}\n")));
            text
        }
    }
}

/// The line under a replay, in place of the count of stages passing.
pub fn footer(stage: &StageInfo, index: usize, seconds: f64, style: &Style) -> String {
    style.dim(&format!(
        "case {index} of stage {:02} replayed alone ({seconds:.1} s); its standing is still \
         that of its last full run: `just test {:02}` judges every case",
        stage.number, stage.number
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{CaseFailure, CheckReport, Fault, StageReport};

    fn replayed(failure: Option<Fault>) -> StageOutcome {
        StageOutcome::Judged(StageReport {
            stage: 7,
            seed: crate::harness::driver::DEFAULT_SEED,
            judged: 1,
            planned: 1,
            checks: vec![CheckReport {
                name: "checkpoints".to_owned(),
                law: "the store sees the protocol's calls".to_owned(),
                judged: 1,
                planned: 1,
                first_failure: failure.map(|fault| CaseFailure {
                    index: 370,
                    case: "words [a], barrier_every 1, crash_after Some(0), commit_lag 0"
                        .to_owned(),
                    fault,
                }),
            }],
            printed: Vec::new(),
            gave_up: None,
        })
    }

    #[test]
    fn a_replayed_case_is_reported_as_the_case_never_as_the_stage() {
        let style = Style::plain();
        let stage = stages::get(7).unwrap();
        let seed = crate::harness::driver::DEFAULT_SEED;
        let passed = render(stage, seed, 370, &replayed(None), &style);
        assert!(
            passed.starts_with("stage 07 · exactly-once-state")
                && passed.contains("case 370 passes"),
            "{passed}"
        );
        let wrong = Fault::Wrong {
            expected: "save(1)".to_owned(),
            actual: "nothing".to_owned(),
            first_wrong_step: None,
            missing: Vec::new(),
            extra: Vec::new(),
            requirement: None,
        };
        let failed = render(stage, seed, 370, &replayed(Some(wrong)), &style);
        assert!(
            failed.contains("case 370 FAILS  check `checkpoints`"),
            "{failed}"
        );
        assert!(failed.contains("    smallest case: words [a]"), "{failed}");
        for text in [&passed, &failed] {
            for verdict in ["PASS ", "FAIL ", "next:", "stage(s) pass"] {
                assert!(!text.contains(verdict), "`{verdict}` in:\n{text}");
            }
        }
        let footer = footer(stage, 370, 0.8, &style);
        assert!(footer.starts_with("case 370 of stage 07 replayed alone (0.8 s)"));
        assert!(!footer.contains("pass"), "{footer}");
    }
}
