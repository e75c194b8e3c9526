//! One `cargo build --package graders --bin byo`, watched: its JSON messages on
//! standard output (which crates were compiled, where `byo` is), its standard error read
//! line by line (its progress bar, its status lines, the compiler's diagnostics), and
//! its exit, all arriving on one channel so that the display can also count seconds.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::cargo_says;
use crate::display::Display;
use crate::json::Value;

/// How often a terminal's progress line shows the seconds go by.
const TICK: Duration = Duration::from_secs(1);

/// What the watched cargo did.
enum Event {
    /// A JSON message on standard output.
    Message(String),
    /// A piece of standard error, split at `\r` as well as at `\n`; `true` when it
    /// ended with `\r` (cargo redrawing its bar, never a diagnostic).
    Line(String, bool),
    /// Standard output or standard error reached its end.
    Closed,
    /// Cargo exited.
    Exited(std::io::Result<ExitStatus>),
}

/// How the build of `byo` ended.
pub enum Outcome {
    /// Built: the executable to hand over to.
    Built(PathBuf),
    /// Cargo failed, or could not be started: the exit code to leave with.
    Failed(u8),
}

/// Builds `byo` with the cargo that started the launcher, speaking on standard error
/// as [`Display`] says; `first_run` when there is no `byo` in the target folder yet.
pub fn byo(first_run: bool) -> Outcome {
    let terminal = std::io::stderr().is_terminal();
    let mut display = Display::new(terminal, first_run);
    let started = Instant::now();
    let started_at = std::time::SystemTime::now();
    write(&display.start());

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command.args([
        "build",
        "--package",
        "graders",
        "--bin",
        "byo",
        "--message-format=json-render-diagnostics",
    ]);
    // Cargo's own count of its units, in a pipe too (it is read here, never shown raw).
    command
        .env("CARGO_TERM_PROGRESS_WHEN", "always")
        .env("CARGO_TERM_PROGRESS_WIDTH", "120");
    if terminal && std::env::var_os("CARGO_TERM_COLOR").is_none() {
        command.arg("--color=always");
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            eprintln!("byo: cannot start `{}`: {e}", cargo.to_string_lossy());
            return Outcome::Failed(2);
        }
    };
    let (events, inbox) = mpsc::channel();
    forward(child.stdout.take(), events.clone(), b'\n', |line, _| {
        Event::Message(line)
    });
    forward(child.stderr.take(), events.clone(), b'\r', Event::Line);
    thread::spawn(move || {
        let _ = events.send(Event::Exited(child.wait()));
    });

    let mut executable = None;
    let (mut open, mut status) = (2, None);
    while open > 0 || status.is_none() {
        let event = inbox.recv_timeout(TICK);
        let elapsed = started.elapsed();
        match event {
            Ok(Event::Message(line)) => {
                if let Some(message) = Value::parse(&line) {
                    executable = executable.or_else(|| byo_executable(&message));
                    if let Some(fresh) = artifact(&message) {
                        display.artifact(fresh);
                    }
                }
            }
            Ok(Event::Line(line, redrawn)) => {
                let said = cargo_says::read(&line);
                // What cargo draws and then rubs out with `\r`: its bar, or blanks.
                if !(redrawn && said == cargo_says::Said::Text) {
                    write(&display.said(said, &line, elapsed));
                }
            }
            Ok(Event::Closed) => open -= 1,
            Ok(Event::Exited(exit)) => status = Some(exit),
            Err(RecvTimeoutError::Timeout) => write(&display.tick(elapsed)),
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let built = matches!(&status, Some(Ok(s)) if s.success());
    write(&display.finish(built, started.elapsed()));
    match (status, executable) {
        (Some(Ok(s)), Some(path)) if s.success() => {
            crate::fresh::record(&path, started_at);
            Outcome::Built(path)
        }
        (Some(Ok(s)), None) if s.success() => {
            eprintln!("byo: cargo built no `byo` executable");
            Outcome::Failed(2)
        }
        (Some(Ok(s)), _) => Outcome::Failed(s.code().map_or(101, |c| c.clamp(1, 255) as u8)),
        (Some(Err(e)), _) => {
            eprintln!("byo: waiting for cargo failed: {e}");
            Outcome::Failed(2)
        }
        (None, _) => Outcome::Failed(2),
    }
}

/// `Some(fresh)` for a `compiler-artifact` message: a crate built, or found built.
fn artifact(message: &Value) -> Option<bool> {
    let reason = message.get("reason").and_then(Value::text)?;
    (reason == "compiler-artifact").then(|| {
        message
            .get("fresh")
            .and_then(Value::boolean)
            .unwrap_or(false)
    })
}

/// The path of the `byo` executable, from the artifact message that built it.
fn byo_executable(message: &Value) -> Option<PathBuf> {
    let target = message.get("target")?;
    let is_bin = target
        .get("kind")?
        .elements()
        .iter()
        .any(|k| k.text() == Some("bin"));
    let named = target.get("name").and_then(Value::text) == Some("byo");
    let path = message.get("executable").and_then(Value::text)?;
    (is_bin && named).then(|| PathBuf::from(path))
}

/// Sends each piece of `pipe` between `\n`s (and, with `split` = `\r`, between `\r`s
/// too) as `wrap(piece, ended_by_split)`, then [`Event::Closed`].
fn forward<R: Read + Send + 'static>(
    pipe: Option<R>,
    events: Sender<Event>,
    split: u8,
    wrap: fn(String, bool) -> Event,
) {
    let Some(mut pipe) = pipe else {
        let _ = events.send(Event::Closed);
        return;
    };
    thread::spawn(move || {
        let mut pending = Vec::new();
        let mut buffer = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buffer) {
            if n == 0 {
                break;
            }
            for &byte in &buffer[..n] {
                if byte == b'\n' || byte == split {
                    let piece = String::from_utf8_lossy(&pending).into_owned();
                    pending.clear();
                    if events.send(wrap(piece, byte != b'\n')).is_err() {
                        return;
                    }
                } else {
                    pending.push(byte);
                }
            }
        }
        if !pending.is_empty() {
            let _ = events.send(wrap(String::from_utf8_lossy(&pending).into_owned(), false));
        }
        let _ = events.send(Event::Closed);
    });
}

fn write(text: &str) {
    use std::io::Write;
    if text.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_are_counted_and_byo_found_in_cargo_s_messages() {
        let byo = r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"byo"},"executable":"/k/target/debug/byo","fresh":false}"#;
        let lib = r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"graders"},"executable":null,"fresh":true}"#;
        let ran = r#"{"reason":"build-script-executed","package_id":"serde"}"#;
        let [byo, lib, ran] = [byo, lib, ran].map(|l| Value::parse(l).unwrap());
        assert_eq!(artifact(&byo), Some(false));
        assert_eq!(artifact(&lib), Some(true));
        assert_eq!(artifact(&ran), None);
        assert_eq!(
            byo_executable(&byo),
            Some(PathBuf::from("/k/target/debug/byo"))
        );
        assert_eq!(byo_executable(&lib), None);
    }
}
