//! The build memory cap against a real process that goes over it: the kernel stops it and
//! the group's kill count, not anything it printed, says so.

use std::path::Path;
use std::process::Command;

use super::{BuildMemory, make_group, oom_kills};

/// A process that takes `mib` MiB and touches every byte (perl is in every Debian base).
fn hog(mib: u64) -> Command {
    let mut perl = Command::new("perl");
    perl.arg("-e").arg(format!(
        "my $x = 'a' x ({mib} * 1024 * 1024); print length($x);"
    ));
    perl
}

#[test]
fn a_process_over_the_cap_is_stopped_and_counted() {
    let memory = BuildMemory::detect();
    let Some(hierarchy) = memory.cgroups.clone() else {
        eprintln!("SKIPPED: no writable cgroup v1 memory hierarchy here (not root?)");
        return;
    };
    let group = hierarchy.join(format!("byo-test-{}", std::process::id()));
    make_group(&group, 64 << 20).expect("a memory group");
    let run = |mib: u64| {
        let joined = super::super::pids::prefixed(
            &hog(mib),
            "/bin/sh".as_ref(),
            &[
                "-c".as_ref(),
                "echo $$ > \"$1\" || exit 125; shift; exec \"$@\"".as_ref(),
                "join".as_ref(),
                group.join("cgroup.procs").as_os_str(),
            ],
        );
        let mut joined = joined;
        joined.output().expect("perl runs")
    };
    let before = oom_kills(&group);
    let small = run(8);
    assert!(small.status.success(), "8 MiB fits under 64 MiB: {small:?}");
    assert_eq!(oom_kills(&group), before, "nothing was stopped");
    let big = run(256);
    assert!(!big.status.success(), "256 MiB does not fit under 64 MiB");
    assert!(
        oom_kills(&group) > before,
        "the kill is counted in memory.oom_control"
    );
    let _ = std::fs::remove_dir(&group);
}

#[test]
fn without_a_hierarchy_a_build_gets_an_address_space_cap() {
    let memory = BuildMemory::in_hierarchy(Path::new("/nonexistent/memory"));
    assert_eq!(memory, BuildMemory::default());
    let capped = memory.around(Path::new("/tmp/slot/target"), Command::new("cargo"));
    let words: Vec<String> = std::iter::once(capped.get_program())
        .chain(capped.get_args())
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    assert_eq!(words[0], "/bin/sh");
    assert!(
        words[2].contains(&format!("ulimit -v {}", super::BUILD_ADDRESS_CAP / 1024)),
        "{words:?}"
    );
    assert_eq!(words.last().map(String::as_str), Some("cargo"));
    assert_eq!(memory.kills(Path::new("/tmp/slot/target")), 0);
    assert!(memory.describe().contains("ulimit -v"));
}
