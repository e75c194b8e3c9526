//! The supervisor against code that misbehaves for real, in a child process: exits,
//! endless loops, stack overflows, panics, fake success lines and plain printing.
//!
//! This binary is both sides. Run by `cargo test`, it is the judge: it starts itself
//! again with a driver request and `MISBEHAVIOUR` set, and checks the verdict. Started
//! that way, it is the driver, bound to a stage-01 implementation that misbehaves when
//! its source reaches position 2.

use std::process::Command;
use std::time::{Duration, Instant};

use graders::harness::Fault;
use graders::harness::driver::DEFAULT_SEED;
use graders::harness::protocol::{REQUEST_ENV, Request};
use graders::harness::supervisor::{Limits, supervise};
use graders::harness::{StageReport, StageStatus};
use graders::stage01::{Dataflow, drive};

/// The reference's stage 01, except that `poll` at position 2 does what `MISBEHAVIOUR` says.
mod misbehaving {
    pub use solution01::*;

    pub struct VecSource<T>(solution01::VecSource<T>);
    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            Self(solution01::VecSource::new(records))
        }
    }
    impl<T: Clone> Source for VecSource<T> {
        type Item = T;
        fn poll(&mut self) -> Option<T> {
            if self.0.position() == 2 {
                misbehave();
            }
            self.0.poll()
        }
        fn position(&self) -> Offset {
            self.0.position()
        }
        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            self.0.seek(offset)
        }
    }

    fn misbehave() {
        match std::env::var("MISBEHAVIOUR").as_deref() {
            Ok("exit") => std::process::exit(0),
            Ok("loop") => loop {
                std::hint::black_box(());
            },
            Ok("overflow") => {
                #[allow(unconditional_recursion)]
                fn deeper(n: u64) -> u64 {
                    1 + deeper(std::hint::black_box(n + 1))
                }
                std::hint::black_box(deeper(0));
            }
            Ok("panic") => panic!("misbehaving at position 2"),
            Ok("fake-success") => {
                println!("test result: ok. 259 passed; 0 failed");
                std::process::exit(0);
            }
            Ok("print") => println!("debugging: at position 2"),
            Ok("hog") => {
                // A gigabyte at once, touched so that it is really needed.
                let hog = vec![1u8; 1 << 30];
                std::hint::black_box(hog.iter().map(|b| u64::from(*b)).sum::<u64>());
            }
            _ => {}
        }
    }
}
graders::impl_stage01!(Misbehaving, misbehaving);

fn main() {
    if std::env::var_os(REQUEST_ENV).is_some() {
        return graders::harness::driver::main::<Dataflow>(drive::<Misbehaving>);
    }
    let tests: [(&str, fn()); 7] = [
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
    ];
    for (name, test) in tests {
        test();
        println!("test {name} ... ok");
    }
    println!("supervisor: {} tests passed", tests.len());
}

fn judged(misbehaviour: &str, limits: Limits) -> StageReport {
    let mut command = Command::new(std::env::current_exe().expect("own path"));
    command.env("MISBEHAVIOUR", misbehaviour);
    let request = Request {
        stage: 1,
        seed: DEFAULT_SEED,
        only: None,
        plan: graders::stages::plan_fingerprint(1, DEFAULT_SEED).expect("stage 01 is graded"),
    };
    let run = supervise(command, request, limits).expect("the driver starts");
    graders::stages::judge(1, DEFAULT_SEED, None, &run).expect("stage 01 is graded")
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
    assert!(report.printed.iter().any(|l| l.contains("test result: ok")));
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
