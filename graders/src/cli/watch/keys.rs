//! The keys `byo watch` listens to: `q` quits. On a terminal, the line discipline is set
//! to deliver each key at once (`stty -icanon -echo`) and restored on the way out, also
//! when an interrupt ends `byo` (see [`restore_terminal`]). Ctrl-C keeps its meaning:
//! the terminal still turns it into SIGINT, which `byo`'s handler answers.

use std::io::{IsTerminal, Read};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::Sender;

use super::Wake;

/// The terminal's settings before `byo watch` changed them (`stty -g`), to put back.
static SAVED: Mutex<Option<String>> = Mutex::new(None);

/// Reads standard input on a thread of its own and sends [`Wake::Quit`] on `q`. When
/// input ends (not a terminal, nothing piped), the watch goes on until Ctrl-C.
pub fn listen(wakes: Sender<Wake>) {
    if std::io::stdin().is_terminal() {
        key_at_a_time();
    }
    std::thread::spawn(move || {
        let mut byte = [0u8; 1];
        let mut stdin = std::io::stdin().lock();
        while let Ok(1) = stdin.read(&mut byte) {
            if byte[0].eq_ignore_ascii_case(&b'q') {
                let _ = wakes.send(Wake::Quit);
                return;
            }
        }
    });
}

fn stty(args: &[&str]) -> Option<String> {
    let out = Command::new("stty")
        .args(args)
        .stdin(Stdio::inherit())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn key_at_a_time() {
    let Some(saved) = stty(&["-g"]) else {
        // No stty: `q` then Enter still quits.
        return;
    };
    if stty(&["-icanon", "-echo", "min", "1"]).is_some() {
        *SAVED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(saved);
    }
}

/// Puts the terminal back as it was before `byo watch` (nothing when it was not changed).
/// Safe to call from the interrupt handler and more than once.
pub fn restore_terminal() {
    let saved = SAVED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(saved) = saved {
        let _ = stty(&[&saved]);
    }
}
