//! Failure reports as a learner reads them in a terminal.

use std::fmt::Write as _;

use crate::harness::judge::{CaseFailure, CheckReport, Clock, Fault, StageReport, StageStatus};
use crate::harness::printed::grouped;
use crate::harness::stage::DEFAULT_SEED;
use crate::ladder;
use crate::misconception;

mod card;
mod style;

pub use card::render_card;
pub use style::Style;

/// How a report tells the reader to replay a failing case.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The command that runs `byo` (`cargo byo` for a learner).
    pub program: String,
}

impl Default for Replay {
    fn default() -> Self {
        Self {
            program: "cargo byo".to_owned(),
        }
    }
}

impl Replay {
    /// The command that replays exactly case `index` of stage `stage` under `seed`.
    pub fn command(&self, stage: u8, seed: u64, index: usize) -> String {
        let seed = if seed == DEFAULT_SEED {
            String::new()
        } else {
            format!(" --seed {seed}")
        };
        format!("{} test {stage:02}{seed} --case {index}", self.program)
    }
}

/// `n` and `noun`, in the plural unless `n` is 1: "1 check", "4 checks".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The one-line summary of a stage.
pub fn summary_line(report: &StageReport, style: &Style) -> String {
    let title = ladder::title(report.stage);
    let failing = report.failures().len();
    let (verdict, detail) = match report.status() {
        StageStatus::Passed => (
            style.good("PASS"),
            format!(
                "{}, {} judged",
                count(report.checks.len(), "check"),
                count(report.judged, "case")
            ),
        ),
        StageStatus::NotStarted => (
            style.warn("NOT STARTED"),
            "todo!() reached; see below".to_owned(),
        ),
        StageStatus::Failed => (
            style.bad("FAIL"),
            format!(
                "{failing} of {} fail, {} of {} judged",
                count(report.checks.len(), "check"),
                report.judged,
                count(report.planned, "case")
            ),
        ),
    };
    format!(
        "{} {verdict}  {}",
        style.bold(&format!("{title:<34}")),
        style.dim(&detail)
    )
}

/// The whole report of a stage: the summary line, then every failing check's smallest case.
pub fn render(report: &StageReport, style: &Style, replay: &Replay) -> String {
    let mut out = summary_line(report, style);
    out.push('\n');
    let failures = report.failures();
    let diagnosis = misconception::diagnose(report);
    for (check, failure) in &failures {
        out.push_str(&render_failure(report, check, failure, style, replay));
        if let Some((explained, card)) = diagnosis
            && std::ptr::eq(explained, *check)
        {
            out.push_str(&render_card(card, style, "    "));
        }
    }
    if let Some(gave_up) = &report.gave_up {
        let _ = writeln!(
            out,
            "  {}",
            style.warn(&format!(
                "judging stopped: the driver died {} times, and a stage's driver is started \
                 again at most {} times; the cases still due were not judged",
                gave_up.deaths, gave_up.restarts
            ))
        );
    }
    if !failures.is_empty() && !report.printed.is_empty() {
        let _ = writeln!(out, "  {}", style.dim("your code printed (last lines):"));
        for (place, lines) in grouped(&report.printed) {
            let indent = match place {
                Some(place) => {
                    let _ = writeln!(out, "    {}", style.dim(&format!("in {place}:")));
                    "      "
                }
                None => "    ",
            };
            for line in lines {
                let _ = writeln!(out, "{indent}{}", style.dim(line));
            }
        }
    }
    out
}

fn render_failure(
    report: &StageReport,
    check: &CheckReport,
    failure: &CaseFailure,
    style: &Style,
    replay: &Replay,
) -> String {
    let mut out = String::new();
    let mark = if matches!(failure.fault, Fault::NotStarted { .. }) {
        style.warn("…")
    } else {
        style.bad("✗")
    };
    let _ = writeln!(out, "  {mark} {}: {}", style.bold(&check.name), check.law);
    let _ = writeln!(out, "    smallest case: {}", failure.case);
    match &failure.fault {
        Fault::Wrong {
            expected,
            actual,
            first_wrong_step,
            missing,
            extra,
            requirement,
        } => {
            if let Some(id) = requirement {
                let _ = writeln!(out, "    breaks:   {}", requirement_line(id));
            }
            let _ = writeln!(out, "    expected: {expected}");
            let _ = writeln!(out, "    actual:   {actual}");
            if !missing.is_empty() || !extra.is_empty() {
                let _ = writeln!(out, "    missing:  {}", list(missing));
                let _ = writeln!(out, "    extra:    {}", list(extra));
            }
            if let Some(step) = first_wrong_step {
                let _ = writeln!(out, "    first wrong step: {}", style.bad(step));
            }
        }
        Fault::NotStarted { location } => {
            let _ = writeln!(
                out,
                "    not started: todo!() at {}",
                location.as_deref().unwrap_or("an unknown place")
            );
        }
        Fault::Panicked { message, location } => {
            let at = location
                .as_deref()
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
            let _ = writeln!(out, "    panicked{at}: {}", style.bad(message));
        }
        Fault::TimedOut { seconds } => {
            let _ = writeln!(
                out,
                "    {} (no result within {seconds} s): an endless loop, a wait that never ends, or work that grows faster than the input (a copy of everything so far for each record)",
                style.bad("timed out")
            );
        }
        Fault::TooSlow {
            seconds,
            clock: Clock::Wall,
        } => {
            let _ = writeln!(
                out,
                "    {} (the stage's cases together ran past its time budget of {seconds} s, \
                 and the cases not reached were not judged): a sleep or a wait in every call, \
                 or work that grows with every call",
                style.bad("too slow")
            );
        }
        Fault::TooSlow {
            seconds,
            clock: Clock::Cpu,
        } => {
            let _ = writeln!(
                out,
                "    {} (the driver's threads together spent more than the stage's budget of \
                 {seconds} s of CPU time, and the cases not reached were not judged): threads \
                 that keep computing beside the answers, or work that grows with every call",
                style.bad("too slow")
            );
        }
        Fault::StackOverflow => {
            let _ = writeln!(
                out,
                "    {}: unbounded recursion, most likely",
                style.bad("stack overflow")
            );
        }
        Fault::ExitedEarly { code } => {
            let code = code.map_or("no code".to_owned(), |c| c.to_string());
            let _ = writeln!(
                out,
                "    {} (exit code {code}) before the grader was done: does your code call std::process::exit?",
                style.bad("the process exited")
            );
        }
        Fault::Killed { signal } => {
            let _ = writeln!(
                out,
                "    {} by signal {signal}",
                style.bad("the process was killed")
            );
        }
        Fault::Unreadable(why) => {
            let _ = writeln!(out, "    the driver's observation could not be read: {why}");
        }
        Fault::ProtocolViolation(why) => {
            let _ = writeln!(out, "    {}: {why}", style.bad("protocol violation"));
        }
    }
    let _ = writeln!(
        out,
        "    replay: {}",
        replay.command(report.stage, report.seed, failure.index)
    );
    out
}

fn list(records: &[String]) -> String {
    if records.is_empty() {
        "none".to_owned()
    } else {
        records.join(", ")
    }
}

/// `03-R7 · <the brief's sentence>`, or the id alone when the brief has no such id.
fn requirement_line(id: &str) -> String {
    match crate::harness::requirements::find(id) {
        Some(requirement) => format!("{id} · {}", requirement.text),
        None => id.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_check_and_one_case_are_singular() {
        assert_eq!(count(1, "check"), "1 check");
        assert_eq!(count(0, "case"), "0 cases");
        assert_eq!(count(4, "check"), "4 checks");
        let replay = StageReport {
            stage: 1,
            seed: 0,
            judged: 1,
            planned: 1,
            checks: vec![crate::harness::CheckReport {
                name: "seek".to_owned(),
                law: String::new(),
                judged: 1,
                planned: 1,
                first_failure: None,
            }],
            printed: Vec::new(),
            gave_up: None,
        };
        let line = summary_line(&replay, &Style::plain());
        assert!(line.ends_with("PASS  1 check, 1 case judged"), "{line}");
    }
}
