//! The grade launcher reads how a driver ended through every wrapper it puts around it:
//! the control group's shell, `prlimit` and bubblewrap, which outlives its child.

use std::process::Command;
use std::time::Duration;

use super::{GradeLauncher, Jail};
use crate::cli::grade::intake::record::PublicIncludes;
use crate::cli::launcher::{DriverLaunch, Launcher};
use crate::harness::sandbox::Sandbox;
use crate::harness::supervisor::Confinement;

/// SIGXCPU, the signal of a driver stopped at its CPU cap.
const SIGXCPU: i32 = 24;

/// A driver that a signal ends inside the jail is read as ended by that signal, not as an
/// exit code of the sandbox (which would make a CPU cap look like an early exit), and a
/// driver that exits with a code is read as exiting.
#[test]
fn a_signal_inside_the_jail_is_read_as_that_signal() {
    match Sandbox::check_available() {
        Ok(()) => {}
        Err(e) if std::env::var_os("BYO_SANDBOX_REQUIRED").is_some() => {
            panic!("BYO_SANDBOX_REQUIRED is set, but: {e:#}")
        }
        Err(e) => {
            eprintln!("SKIPPED: the jail needs bwrap: {e:#}");
            return;
        }
    }
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("slot").join("target");
    std::fs::create_dir_all(&target).expect("target");
    let out = root.path().join("out");
    std::fs::create_dir_all(&out).expect("out");
    let jail = Jail::sandboxed(root.path(), &out, &[]).expect("the jail");
    let public = PublicIncludes::default();
    let launcher = GradeLauncher {
        jail: &jail,
        workspace: root.path(),
        target: &target,
        build_limit: Duration::from_secs(60),
        public: &public,
        submission: true,
    };
    let ended = |script: &str| {
        let mut driver = Command::new("/bin/sh");
        driver.arg("-c").arg(script);
        let status = launcher.driver(driver).status().expect("the jail starts");
        (status, DriverLaunch(&launcher).death_signal(status))
    };
    let (status, signal) = ended("kill -XCPU $$");
    assert_eq!(signal, Some(SIGXCPU), "status {status:?}");
    let (status, signal) = ended("exit 3");
    assert_eq!((status.code(), signal), (Some(3), None));
}
