//! The supervisor against code that misbehaves for real, in a child process: exits,
//! endless loops, stack overflows, panics, fake success lines and plain printing.
//!
//! This binary is both sides. Run by `cargo test`, it is the judge: it starts itself
//! again with a driver request and `MISBEHAVIOUR` set, and checks the verdict. Started
//! that way, it is the driver, bound to a stage-01 implementation that misbehaves when
//! its source reaches position 2, or (with `DRIVER` set) one of the [`drivers`].

use std::process::Command;
use std::time::{Duration, Instant};

use graders::harness::driver::DEFAULT_SEED;
use graders::harness::protocol::{REQUEST_ENV, Request};
use graders::harness::supervisor::{Limits, supervise, supervise_confined};
use graders::harness::{Clock, Fault};
use graders::harness::{StageReport, StageStatus};
use graders::stage01::{Dataflow, drive};

mod drivers;
mod misbehaving;
mod shares;
graders::impl_stage01!(Misbehaving, misbehaving);

fn main() {
    if std::env::var_os(REQUEST_ENV).is_some() {
        let name = std::env::var("DRIVER").unwrap_or_default();
        if !drivers::serve(&name) {
            graders::harness::driver::main::<Dataflow>(drive::<Misbehaving>);
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("judge-under-a-low-hard-limit") {
        return judge_under_a_low_hard_limit();
    }
    let tests: [(&str, fn()); 18] = [
        (
            "one_driver_or_two_give_the_same_report",
            shares::one_driver_or_two_give_the_same_report,
        ),
        (
            "a_time_out_costs_only_its_check",
            shares::a_time_out_costs_only_its_check,
        ),
        (
            "a_driver_dying_in_every_check_is_restarted_at_most_as_allowed",
            shares::a_driver_dying_in_every_check_is_restarted_at_most_as_allowed,
        ),
        (
            "prints_are_placed_in_the_run_that_printed_them",
            shares::prints_are_placed_in_the_run_that_printed_them,
        ),
        (
            "an_early_exit_is_reported_against_the_running_case",
            an_early_exit_is_reported,
        ),
        (
            "a_fake_success_line_decides_nothing",
            a_fake_success_line_decides_nothing,
        ),
        (
            "an_endless_loop_is_killed_at_the_case_limit",
            an_endless_loop_is_killed,
        ),
        (
            "spinning_threads_are_stopped_at_the_cpu_cap",
            spinning_threads_are_stopped_at_the_cpu_cap,
        ),
        (
            "spinning_threads_in_the_sandbox_are_stopped_at_the_cpu_cap",
            spinning_threads_in_the_sandbox_are_stopped_at_the_cpu_cap,
        ),
        ("a_stack_overflow_is_named", a_stack_overflow_is_named),
        ("a_panic_costs_only_its_cases", a_panic_costs_only_its_cases),
        (
            "printing_does_not_disturb_the_protocol",
            printing_does_not_disturb_the_protocol,
        ),
        (
            "a_memory_cap_still_lets_honest_code_pass",
            a_memory_cap_still_lets_honest_code_pass,
        ),
        (
            "forged_protocol_lines_decide_nothing",
            forged_protocol_lines_decide_nothing,
        ),
        (
            "a_grandchild_writing_forever_neither_hangs_the_judge_nor_survives",
            a_grandchild_neither_hangs_nor_survives,
        ),
        (
            "a_flood_of_output_is_kept_bounded",
            a_flood_of_output_is_kept_bounded,
        ),
        (
            "the_driver_sees_none_of_the_judges_environment",
            the_driver_sees_none_of_the_judges_environment,
        ),
        (
            "a_memory_cap_that_cannot_be_applied_is_the_environments_fault",
            a_memory_cap_that_cannot_be_applied_is_the_environments_fault,
        ),
    ];
    for (name, test) in tests {
        test();
        println!("test {name} ... ok");
    }
    println!("supervisor: {} tests passed", tests.len());
}

fn judged(misbehaviour: &str, limits: Limits) -> StageReport {
    let run = supervised(misbehaviour, limits).expect("the driver starts");
    graders::stages::judge(1, DEFAULT_SEED, None, &run).expect("stage 01 is graded")
}

fn supervised(
    misbehaviour: &str,
    limits: Limits,
) -> anyhow::Result<graders::harness::judge::DriverRun> {
    let mut command = Command::new(std::env::current_exe().expect("own path"));
    command.env("MISBEHAVIOUR", misbehaviour);
    supervise(command, request(), limits)
}

/// A request for every case of stage 01's plan under the default seed.
fn request() -> Request {
    let plan = graders::stages::plan_fingerprint(1, DEFAULT_SEED).expect("stage 01 is graded");
    let cases = (0..graders::stages::plan_len(1, DEFAULT_SEED).expect("graded")).collect();
    Request::new(1, DEFAULT_SEED, cases, plan)
}

fn only_fault(report: &StageReport) -> &Fault {
    let failures = report.failures();
    assert_eq!(report.status(), StageStatus::Failed, "{report:#?}");
    &failures[0].1.fault
}

fn an_early_exit_is_reported() {
    let report = judged("exit", Limits::default());
    assert_eq!(only_fault(&report), &Fault::ExitedEarly { code: Some(0) });
    assert!(
        report.judged < report.planned,
        "cases after the exit are not judged"
    );
}

fn a_fake_success_line_decides_nothing() {
    let report = judged("fake-success", Limits::default());
    assert_eq!(only_fault(&report), &Fault::ExitedEarly { code: Some(0) });
    assert!(
        report
            .printed
            .iter()
            .any(|l| l.text.contains("test result: ok"))
    );
}

fn an_endless_loop_is_killed() {
    let limits = Limits {
        case: Duration::from_secs(1),
        ..Limits::default()
    };
    let started = Instant::now();
    let report = judged("loop", limits);
    assert_eq!(only_fault(&report), &Fault::TimedOut { seconds: 1 });
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "byo returns promptly"
    );
}

/// Threads that keep computing are stopped at the CPU cap, before the case's own limit,
/// and named "too slow" by the CPU clock, not as an anonymous signal.
fn spinning_threads_are_stopped_at_the_cpu_cap() {
    if !cfg!(unix) {
        return;
    }
    let limits = Limits {
        case: Duration::from_secs(30),
        cpu: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let started = Instant::now();
    let report = judged("spin", limits);
    assert_eq!(
        only_fault(&report),
        &Fault::TooSlow {
            seconds: 1,
            clock: Clock::Cpu
        }
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "stopped by its CPU time, not by the case's limit: {:?}",
        started.elapsed()
    );
}

/// The same in `byo grade`'s sandbox, where the driver's death reaches the judge as
/// bubblewrap's exit code (`128 + SIGXCPU`), not as a signal: still "too slow" by the CPU
/// clock, never an early exit of the submission's own (which its re-run alone, stopped
/// before the cap, would then call nondeterministic).
fn spinning_threads_in_the_sandbox_are_stopped_at_the_cpu_cap() {
    use graders::harness::sandbox::Sandbox;
    if let Err(e) = Sandbox::check_available() {
        assert!(
            std::env::var_os("BYO_SANDBOX_REQUIRED").is_none(),
            "BYO_SANDBOX_REQUIRED is set, but: {e:#}"
        );
        eprintln!("SKIPPED: the sandbox's CPU cap needs bubblewrap: {e:#}");
        return;
    }
    let limits = Limits {
        case: Duration::from_secs(30),
        cpu: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let driver = std::env::current_exe().expect("own path");
    let mut command = Command::new(&driver);
    command.env("MISBEHAVIOUR", "spin");
    // The sandbox's /tmp is a fresh tmpfs: a checkout under /tmp (a CI clone) would hide
    // this very binary without the explicit grant `byo grade` gives its drivers too.
    let sandbox = Sandbox::new().readable(&driver);
    let run = supervise_confined(command, request(), limits, &sandbox).expect("the driver starts");
    let report = graders::stages::judge(1, DEFAULT_SEED, None, &run).expect("stage 01 is graded");
    assert_eq!(
        only_fault(&report),
        &Fault::TooSlow {
            seconds: 1,
            clock: Clock::Cpu
        }
    );
}

fn a_stack_overflow_is_named() {
    let report = judged("overflow", Limits::default());
    assert_eq!(only_fault(&report), &Fault::StackOverflow);
}

fn a_panic_costs_only_its_cases() {
    let report = judged("panic", Limits::default());
    assert!(matches!(
        only_fault(&report),
        Fault::Panicked { message, location: Some(_) } if message == "misbehaving at position 2"
    ));
    assert_eq!(
        report.judged, report.planned,
        "the driver went on after the panic"
    );
    let seek = report
        .checks
        .iter()
        .find(|c| c.name == "seek-past-end")
        .expect("check exists");
    assert!(
        seek.first_failure.is_none(),
        "checks that never reach position 2 still pass"
    );
}

fn printing_does_not_disturb_the_protocol() {
    let report = judged("print", Limits::default());
    assert_eq!(report.status(), StageStatus::Passed, "{report:#?}");
}

fn a_memory_cap_still_lets_honest_code_pass() {
    let capped = Limits {
        memory: Some(512 << 20),
        ..Limits::default()
    };
    assert_eq!(judged("print", capped).status(), StageStatus::Passed);
    if cfg!(unix) {
        let report = judged("hog", capped);
        assert!(
            matches!(
                only_fault(&report),
                Fault::Panicked { .. } | Fault::Killed { .. }
            ),
            "allocating past the cap fails the case: {report:#?}"
        );
    }
}

fn forged_protocol_lines_decide_nothing() {
    let report = judged("forge", Limits::default());
    assert_eq!(report.status(), StageStatus::Passed, "{report:#?}");
    assert!(report.printed.iter().all(|l| !l.text.is_empty()));
}

fn a_grandchild_neither_hangs_nor_survives() {
    let started = Instant::now();
    let report = judged("grandchild", Limits::default());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "a grandchild holding stderr open does not hold the judge"
    );
    // Every case started a writer; the run is judged all the same.
    assert_eq!(report.status(), StageStatus::Passed, "{report:#?}");
    // SIGKILL is delivered, not executed, by kill(2): a writer that has not been on a
    // core since then still shows its command line. On a loaded machine that takes a
    // while (CI saw one), so "outlives" means "still there some seconds later".
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = Command::new("pgrep")
            .args(["-f", "byo-noise-marker"])
            .output()
            .expect("pgrep runs");
        if left.stdout.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no process of the run outlives it: {}",
            String::from_utf8_lossy(&left.stdout)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn a_flood_of_output_is_kept_bounded() {
    let report = judged("flood", Limits::default());
    assert_eq!(
        report.status(),
        StageStatus::Passed,
        "{:?}",
        report.failures().first().map(|f| &f.1.fault)
    );
}

fn the_driver_sees_none_of_the_judges_environment() {
    let run = supervised("env", Limits::default()).expect("the driver starts");
    let lines = run.printed.lines();
    let line = lines
        .iter()
        .find(|l| l.text.starts_with("environment: "))
        .expect("the driver printed its environment");
    assert_eq!(
        line.text, "environment: BYO_DRIVE,MISBEHAVIOUR,PATH,RUST_BACKTRACE",
        "only the driver's own variables and those its caller set"
    );
}

/// This binary again, as the judge, under a hard memory limit below the cap it asks for.
fn a_memory_cap_that_cannot_be_applied_is_the_environments_fault() {
    if !cfg!(unix) {
        return;
    }
    let me = std::env::current_exe().expect("own path");
    let status = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000 && exec \"$0\" judge-under-a-low-hard-limit")
        .arg(me)
        .status()
        .expect("sh runs");
    assert!(
        status.success(),
        "the judge under a low hard limit: {status}"
    );
}

fn judge_under_a_low_hard_limit() {
    let capped = Limits {
        memory: Some(4 << 30),
        ..Limits::default()
    };
    let error =
        supervised("print", capped).expect_err("a cap above the hard limit cannot be applied");
    assert!(
        error
            .downcast_ref::<graders::harness::supervisor::EnvironmentError>()
            .is_some(),
        "it is the grading environment's error, not the submission's: {error:#}"
    );
}
