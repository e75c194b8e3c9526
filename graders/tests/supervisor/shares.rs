//! Through the pipeline: a stage's cases split across drivers (the report is the one a
//! single driver gives), a driver that dies started again after its case, at most as
//! often as allowed, and what the code prints placed in the run that printed it.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use graders::cli::launcher::Launcher;
use graders::cli::pipeline::Pipeline;
use graders::harness::driver::DEFAULT_SEED;
use graders::harness::judge::{DriverRun, GaveUp};
use graders::harness::supervisor::Limits;
use graders::harness::{Fault, StageReport, StageStatus};
use graders::report::{self, Replay, Style};

/// Starts this binary as the driver `driver` (with `misbehaviour`, for the misbehaving
/// stage 01).
struct As {
    driver: &'static str,
    misbehaviour: &'static str,
}

impl Launcher for As {
    fn driver(&self, mut command: Command) -> Command {
        command
            .env("DRIVER", self.driver)
            .env("MISBEHAVIOUR", self.misbehaviour);
        command
    }
}

struct Drive {
    stage: u8,
    driver: &'static str,
    misbehaviour: &'static str,
    processes: usize,
    restarts: usize,
    limits: Limits,
    only: Option<usize>,
}

impl Drive {
    fn new(stage: u8, driver: &'static str, misbehaviour: &'static str) -> Self {
        Self {
            stage,
            driver,
            misbehaviour,
            processes: 1,
            restarts: graders::cli::pipeline::MAX_RESTARTS,
            limits: Limits::default(),
            only: None,
        }
    }

    fn run(&self) -> DriverRun {
        let me = std::env::current_exe().expect("own path");
        let launcher = As {
            driver: self.driver,
            misbehaviour: self.misbehaviour,
        };
        Pipeline::new(Path::new(env!("CARGO_MANIFEST_DIR")))
            .launcher(&launcher)
            .processes(self.processes)
            .restarts(self.restarts)
            .drive(&me, self.stage, DEFAULT_SEED, self.only, self.limits)
            .expect("the drivers start")
    }

    fn judged(&self) -> StageReport {
        graders::stages::judge(self.stage, DEFAULT_SEED, self.only, &self.run())
            .expect("the stage is graded")
    }
}

fn rendered(report: &StageReport) -> String {
    report::render(report, &Style::plain(), &Replay::default())
}

pub fn one_driver_or_two_give_the_same_report() {
    let mut drives: Vec<Drive> = (1..=8)
        .map(|stage| {
            let name = ["01", "02", "03", "04", "05", "06", "07", "08"][stage - 1];
            let driver: &'static str = Box::leak(format!("reference-{name}").into_boxed_str());
            Drive::new(stage as u8, driver, "")
        })
        .collect();
    drives.push(Drive::new(8, "printing-08", ""));
    for misbehaviour in ["panic", "print", "exit"] {
        drives.push(Drive::new(1, "misbehaving-01", misbehaviour));
    }
    for mut drive in drives {
        let one = drive.judged();
        drive.processes = 2;
        let two = drive.judged();
        let what = format!(
            "stage {} as {} {}",
            drive.stage, drive.driver, drive.misbehaviour
        );
        assert_eq!(rendered(&two), rendered(&one), "{what}");
        assert_eq!(two, one, "{what}");
        if drive.driver.starts_with("reference") || drive.misbehaviour == "print" {
            assert_eq!(
                one.status(),
                StageStatus::Passed,
                "{what}: {}",
                rendered(&one)
            );
        } else {
            assert_eq!(one.status(), StageStatus::Failed, "{what}");
        }
    }
}

pub fn a_time_out_costs_only_its_check() {
    let mut drive = Drive::new(1, "misbehaving-01", "loop");
    drive.limits.case = Duration::from_secs(1);
    let started = Instant::now();
    let run = drive.run();
    let report = graders::stages::judge(1, DEFAULT_SEED, None, &run).expect("graded");
    let failing: Vec<&str> = report
        .checks
        .iter()
        .filter(|c| c.first_failure.is_some())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        run.deaths.len(),
        failing.len(),
        "one death per check that loops: {failing:?}"
    );
    for (_, failure) in report.failures() {
        assert_eq!(failure.fault, Fault::TimedOut { seconds: 1 });
    }
    let first_failing = report
        .checks
        .iter()
        .position(|c| c.first_failure.is_some())
        .expect("a check loops");
    let later_passing = report.checks[first_failing..]
        .iter()
        .find(|c| c.first_failure.is_none() && c.judged == c.planned);
    assert!(
        later_passing.is_some(),
        "a check after the first time-out is judged in full: {report:#?}"
    );
    assert!(report.gave_up.is_none());
    assert!(
        started.elapsed() < Duration::from_secs(run.deaths.len() as u64 + 10),
        "each death costs about one case's limit"
    );
}

pub fn a_driver_dying_in_every_check_is_restarted_at_most_as_allowed() {
    let mut drive = Drive::new(1, "misbehaving-01", "exit");
    let all = drive.judged();
    assert!(all.gave_up.is_none(), "{all:#?}");
    let deaths = all.failures().len();
    assert!(deaths >= 3, "the driver exits in {deaths} checks");
    drive.restarts = 1;
    let report = drive.judged();
    assert_eq!(
        report.gave_up,
        Some(GaveUp {
            deaths: 2,
            restarts: 1
        })
    );
    assert!(
        report.judged < all.judged,
        "the cases still due are not judged"
    );
    assert!(
        rendered(&report).contains(
            "judging stopped: the driver died 2 times, and a stage's driver is started again \
             at most 1 times; the cases still due were not judged"
        ),
        "{}",
        rendered(&report)
    );
}

/// The run mark the printing job forges (without the run's nonce).
const FORGED: &str = "\u{1e}byo:0000000000000000:{\"Run\":\"forged\"}";

/// What the printing job's line for a run of `label` says.
fn printed_for(label: &str) -> Option<String> {
    let (crash, lag) = label.split_once(", lag ")?;
    let crash = match crash.strip_prefix("crash after ") {
        Some(k) => format!("Some({k})"),
        None if crash == "no crash" => "None".to_owned(),
        None => return None,
    };
    Some(format!("run: crash_after={crash} lag={lag}"))
}

pub fn prints_are_placed_in_the_run_that_printed_them() {
    let mut drive = Drive::new(8, "printing-08", "stderr");
    drive.processes = 2;
    let report = drive.judged();
    assert_eq!(report.status(), StageStatus::Failed);
    assert!(!report.printed.is_empty());
    let (_, failure) = report.failures()[0];
    drive.only = Some(failure.index);
    drive.processes = 1;
    let replay_both = drive.judged();
    drive.misbehaviour = "";
    let replay = drive.judged();
    // Standard output is placed exactly always; standard error in a replay.
    let mut placed = 0;
    let whole = report.printed.iter().map(|l| (l, "run: "));
    let replayed = replay_both
        .printed
        .iter()
        .flat_map(|l| [(l, "run: "), (l, "err: ")]);
    for (line, stream) in whole.chain(replayed) {
        assert_ne!(
            line.run.as_deref(),
            Some("forged"),
            "a forged mark decides nothing"
        );
        if let Some(said) = line.text.strip_prefix(stream)
            && let Some(expected) = line.run.as_deref().and_then(printed_for)
        {
            assert_eq!(format!("run: {said}"), expected, "{line:?}");
            placed += 1;
        }
    }
    assert!(placed > 0, "{:#?}", replay_both.printed);
    let wrong_run = replay
        .printed
        .iter()
        .find(|l| l.text == "run: crash_after=Some(2) lag=1")
        .unwrap_or_else(|| panic!("the failing run printed: {:#?}", replay.printed));
    assert_eq!(wrong_run.case, Some(failure.index));
    assert_eq!(wrong_run.run.as_deref(), Some("crash after 2, lag 1"));
    let text = rendered(&replay);
    assert!(
        text.contains(&format!(
            "    in case {} · crash after 2, lag 1:\n      {FORGED}\n      run: crash_after=Some(2) lag=1\n",
            failure.index
        )),
        "{text}"
    );
    assert!(
        replay.printed.iter().any(|l| l.text == FORGED),
        "the forged mark is shown as what the code printed"
    );
}
