//! The driver side: runs a stage's cases next to the implementation and reports what it
//! observed, either to a judge in another process or, for `cargo test`, in process.

use std::any::Any;
use std::cell::RefCell;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use super::judge::{self, StageReport, StageStatus};
use super::protocol::{Message, Outcome, REQUEST_ENV, Request, plan_fingerprint};
use super::stage::Stage;
use crate::report;

pub use super::stage::DEFAULT_SEED;

/// Runs one case of a stage, catching a panic as an [`Outcome::Panicked`], and returns
/// the observation as JSON, exactly as it crosses the process boundary (so the in-process
/// path proves that observations survive serialisation too).
pub fn run_case<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    case: &S::Case,
) -> Outcome<serde_json::Value> {
    install_panic_capture();
    match panic::catch_unwind(AssertUnwindSafe(|| drive(case))) {
        Ok(observation) => match serde_json::to_value(&observation) {
            Ok(value) => Outcome::Returned(value),
            Err(e) => Outcome::Panicked {
                message: format!("observation does not serialise: {e}"),
                location: None,
            },
        },
        Err(payload) => {
            let (message, location) = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| (payload_message(payload.as_ref()), None));
            Outcome::Panicked { message, location }
        }
    }
}

/// The `main` of a grade binary (what `bind_stageNN!` expands to).
///
/// Under `byo` (the [`REQUEST_ENV`] variable set) it serves as a driver, reading its
/// request from standard input before any implementation code runs; run directly, as
/// `cargo test` does for the reference crates, it drives and judges in process and exits
/// non-zero unless every check passes.
pub fn main<S: Stage>(drive: fn(&S::Case) -> S::Observation) {
    match std::env::var_os(REQUEST_ENV) {
        Some(_) => {
            let mut request = String::new();
            // A request that cannot be read is refused below, as an unparsable one.
            let _ = std::io::stdin().read_line(&mut request);
            serve::<S>(&request, drive);
        }
        None => {
            let report = run_in_process::<S>(DEFAULT_SEED, drive);
            let style = report::Style::detect();
            print!(
                "{}",
                report::render(&report, &style, &report::Replay::default())
            );
            if report.status() != StageStatus::Passed {
                std::process::exit(1);
            }
        }
    }
}

/// Drives and judges every case of the plan in this process (for references and mutants,
/// which are trusted not to exit or hang).
pub fn run_in_process<S: Stage>(seed: u64, drive: fn(&S::Case) -> S::Observation) -> StageReport {
    let plan = S::plan(seed);
    let mut run = judge::DriverRun::default();
    for (index, case) in plan.iter().enumerate() {
        run.outcomes.insert(index, run_case::<S>(drive, case));
    }
    run.finished = true;
    judge::judge_run::<S>(seed, None, &run)
}

fn serve<S: Stage>(request: &str, drive: fn(&S::Case) -> S::Observation) {
    let request: Request = match serde_json::from_str(request) {
        Ok(request) => request,
        Err(e) => {
            // Without a request there is no nonce; the judge reads this as a refusal
            // that never arrived, and reports the driver as unusable.
            eprintln!("byo driver: standard input did not hold a request: {e}");
            return;
        }
    };
    let nonce = request.nonce;
    let emit = |message: Message| {
        let mut out = std::io::stdout().lock();
        // If stdout is gone the judge is gone too; nobody is left to tell.
        let _ = writeln!(out, "{}", message.to_line(nonce));
        let _ = out.flush();
    };
    if request.stage != S::NUMBER {
        return emit(Message::Refused(format!(
            "this driver is bound to stage {:02}, not stage {:02}",
            S::NUMBER,
            request.stage
        )));
    }
    let plan = S::plan(request.seed);
    if plan_fingerprint(&plan) != request.plan {
        return emit(Message::Refused(
            "this grade binary was built from other grader sources than the judge's (rebuild it)"
                .to_owned(),
        ));
    }
    for (index, case) in plan.iter().enumerate() {
        if request.only.is_some_and(|only| only != index) {
            continue;
        }
        emit(Message::Start(index));
        emit(Message::Ended(index, run_case::<S>(drive, case)));
    }
    emit(Message::Finished);
}

thread_local! {
    static LAST_PANIC: RefCell<Option<(String, Option<String>)>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (which prints a dump per case) by one that remembers
/// the message and location for the report.
fn install_panic_capture() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let message = payload_message(info.payload());
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            LAST_PANIC.with(|last| *last.borrow_mut() = Some((message, location)));
        }));
    });
}

fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panicked with a non-string payload".to_owned()
    }
}
