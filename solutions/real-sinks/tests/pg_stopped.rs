//! A stopped PostgreSQL server (SIGSTOP: it neither answers nor drops the connection)
//! fails a run within the run's client-side deadline, with an error naming it, instead
//! of hanging it. Against a throwaway server of its own (`.ci/pg start`), never the
//! shared one: the test stops every process of that server, then resumes and removes it.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use real_sinks::watchdog::EXIT_NO_PROGRESS;

/// A PostgreSQL cluster started for this test alone; resumed and removed when dropped.
struct Throwaway {
    dir: PathBuf,
    conninfo: String,
}

impl Throwaway {
    fn start(dir: &Path) -> Self {
        let output = Command::new(script())
            .arg("start")
            .arg(dir)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            ".ci/pg start failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Self {
            dir: dir.to_owned(),
            conninfo: String::from_utf8(output.stdout).unwrap().trim().to_owned(),
        }
    }

    /// The postmaster and every process it forked (the backends serving the run).
    fn processes(&self) -> Vec<String> {
        let pidfile = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).unwrap();
        let postmaster = pidfile.lines().next().unwrap().trim().to_owned();
        let children = Command::new("ps")
            .args(["-o", "pid=", "--ppid", &postmaster])
            .output()
            .unwrap();
        let children = String::from_utf8(children.stdout).unwrap();
        std::iter::once(postmaster)
            .chain(children.split_whitespace().map(str::to_owned))
            .collect()
    }

    /// Sends `signal` to each of the server's processes, by id.
    fn signal(&self, signal: &str) {
        for pid in self.processes() {
            let _ = Command::new("kill").args([signal, &pid]).status();
        }
    }
}

impl Drop for Throwaway {
    fn drop(&mut self) {
        self.signal("-CONT");
        let _ = Command::new(script()).arg("stop").arg(&self.dir).status();
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/pg")
}

#[test]
fn a_stopped_server_fails_the_run_within_its_client_side_deadline() {
    // Only where the PostgreSQL tests run: it needs the server binaries.
    if common::postgres("a_stopped_server_fails_the_run").is_none() {
        return;
    }
    let scratch = common::scratch("pg-stopped");
    let server = Throwaway::start(&scratch.join("pg"));
    let deadline = 2;
    let mut run = Command::new(env!("CARGO_BIN_EXE_demo"))
        .arg("run")
        .arg("--dir")
        .arg(scratch.join("job"))
        .args(["--job", "stopped", "--sink", "xa", "--records", "200000"])
        .args([
            "--barrier-every",
            "100",
            "--pg-deadline-secs",
            &deadline.to_string(),
        ])
        .env("BYO_PG", &server.conninfo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The run's first line comes once it opened and recovered: it is writing now.
    let mut first = String::new();
    BufReader::new(run.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("restored nothing"), "{first}");

    server.signal("-STOP");
    let stopped = Instant::now();
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        if stopped.elapsed() > Duration::from_secs(60) {
            run.kill().unwrap();
            panic!("the run hung for 60 s behind a stopped server");
        }
        sleep(Duration::from_millis(20));
    };
    let took = stopped.elapsed();
    let mut stderr = String::new();
    run.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(EXIT_NO_PROGRESS), "{stderr}");
    assert!(stderr.contains("no progress for 2 s"), "{stderr}");
    assert!(stderr.contains("--pg-deadline-secs"), "{stderr}");
    assert!(
        took >= Duration::from_secs(deadline) && took < Duration::from_secs(deadline + 10),
        "stopped after {took:?}, deadline {deadline} s"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&scratch);
}
