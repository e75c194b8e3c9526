//! The driver side: runs a stage's cases next to the implementation and reports what it
//! observed, either to a judge in another process or, for `cargo test`, in process.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use serde_json::value::RawValue;

use super::judge::{self, StageReport, StageStatus};
use super::protocol::{Message, Outcome, REQUEST_ENV, Request};
use super::stage::Stage;
use crate::report;

pub use super::stage::DEFAULT_SEED;

/// Runs one case of a stage, catching a panic as an [`Outcome::Panicked`], and returns
/// the observation as JSON, exactly as it crosses the process boundary (so the in-process
/// path proves that observations survive serialisation too).
pub fn run_case<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    case: &S::Case,
) -> Outcome<Box<RawValue>> {
    install_panic_capture();
    match panic::catch_unwind(AssertUnwindSafe(|| drive(case))) {
        Ok(observation) => match S::encode(&observation) {
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
    let emit = |message: Message| emit(nonce, &message);
    if request.stage != S::NUMBER {
        return emit(Message::Refused(format!(
            "this driver is bound to stage {:02}, not stage {:02}",
            S::NUMBER,
            request.stage
        )));
    }
    let plan = S::plan(request.seed);
    if S::fingerprint(&plan) != request.plan {
        return emit(Message::Refused(
            "this grade binary was built from other grader sources than the judge's (rebuild it)"
                .to_owned(),
        ));
    }
    if let Some(outside) = request.cases.iter().find(|i| **i >= plan.len()) {
        return emit(Message::Refused(format!(
            "case {outside} is not in the plan, whose cases are 0 to {}",
            plan.len().saturating_sub(1)
        )));
    }
    SERVING.with(|serving| serving.set(Some(nonce)));
    MARK_STDERR.with(|mark| mark.set(request.cases.len() == 1));
    for &index in &request.cases {
        RUN.with(|run| run.borrow_mut().take());
        emit(Message::Start(index));
        emit(Message::Ended(index, run_case::<S>(drive, &plan[index])));
    }
    SERVING.with(|serving| serving.set(None));
    emit(Message::Finished);
}

/// Writes `message` as one protocol line of the run with `nonce`. When one case is
/// replayed, a mark of where the case or a run begins goes to standard error too, to
/// place exactly what is printed there. Not in a whole plan's run: a process the
/// implementation left flooding standard error would make each mark wait for room in
/// the pipe, and a correct run must not be slowed by it.
fn emit(nonce: u64, message: &Message) {
    let line = message.to_line(nonce);
    if matches!(message, Message::Start(_) | Message::Run(_)) && MARK_STDERR.with(Cell::get) {
        // One write, so that the mark is one line even beside another thread's printing.
        let _ = std::io::stderr()
            .lock()
            .write_all(format!("{line}\n").as_bytes());
    }
    let mut out = std::io::stdout().lock();
    // If stdout is gone the judge is gone too; nobody is left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Marks where one run of the implementation begins within the running case (a crash
/// point and lag, say), so that what the implementation prints from here on is shown
/// under `label`. A stage's driver calls it before each run when a case holds several;
/// in process (references, mutants) nobody reads the marks, and `label` is not even
/// built.
pub fn begin_run(label: impl FnOnce() -> String) {
    if let Some(nonce) = SERVING.with(Cell::get) {
        let label = label();
        emit(nonce, &Message::Run(label.clone()));
        RUN.with(|run| *run.borrow_mut() = Some(label));
    }
}

/// Marks where a part of the current run begins (a new sink, say): what is printed from
/// here on is shown under the run's label followed by `part`.
pub fn begin_part(part: impl FnOnce() -> String) {
    if let Some(nonce) = SERVING.with(Cell::get) {
        let label = RUN.with(|run| match run.borrow().as_deref() {
            Some(run) => format!("{run}, {}", part()),
            None => part(),
        });
        emit(nonce, &Message::Run(label));
    }
}

thread_local! {
    /// The nonce of the request being served: a run mark is a protocol line like any
    /// other, so code running beside the driver cannot forge one.
    static SERVING: Cell<Option<u64>> = const { Cell::new(None) };
    /// Whether marks go to standard error too (a replay of one case).
    static MARK_STDERR: Cell<bool> = const { Cell::new(false) };
    /// The label of the run in progress, for [`begin_part`].
    static RUN: RefCell<Option<String>> = const { RefCell::new(None) };
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
