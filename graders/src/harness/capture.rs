//! Bounded capture of what a driver prints: lines of bounded length, read by threads
//! that apply back-pressure, and both ends of the output kept to tell how it died (what
//! a report shows is [`super::printed`]).
//!
//! A submission may print a gigabyte, or one line without a newline that never ends.
//! The judge must neither run out of memory nor wait for it, so nothing here grows with
//! what the child writes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::ExitStatus;
use std::sync::mpsc::SyncSender;
use std::thread;

/// How many events may wait in the channel before the readers (and so the child) block.
pub const CHANNEL_DEPTH: usize = 1024;

/// The longest protocol line kept: an observation of the largest case fits many times.
const MAX_LINE: usize = 8 << 20;

/// How much of a driver's output is kept at each end to recognise how it died.
const KEPT: usize = 16 << 10;

/// Something the child did.
pub enum Event {
    /// A line on standard output (a protocol line or the implementation's printing).
    Stdout(String),
    /// A line on standard error.
    Stderr(String),
    /// Standard output reached its end.
    StdoutClosed,
    /// Standard error reached its end.
    StderrClosed,
    /// The child exited.
    Exited(ExitStatus),
}

/// Forwards `pipe` line by line as `wrap(line)`, each line cut at `MAX_LINE` bytes; at
/// the end of the pipe sends `closed`.
pub fn forward<R: Read + Send + 'static>(
    pipe: Option<R>,
    events: SyncSender<Event>,
    wrap: fn(String) -> Event,
    closed: Event,
) {
    let Some(pipe) = pipe else { return };
    thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut line = Vec::new();
        while let Some(dropped) = read_line_bounded(&mut reader, MAX_LINE, &mut line) {
            // Bytes, not `String`s: the implementation may print bytes that are not UTF-8.
            let mut text = String::from_utf8_lossy(&line).into_owned();
            if dropped > 0 {
                text.push_str(&format!(" [... {dropped} more bytes]"));
            }
            line.clear();
            if events.send(wrap(text)).is_err() {
                return;
            }
        }
        let _ = events.send(closed);
    });
}

/// Reads one line into `line` (without its newline), keeping at most `cap` bytes and
/// discarding the rest of the line; returns how many bytes were discarded, or `None` at
/// the end of the input (or on a read error, which ends the pipe all the same).
fn read_line_bounded<R: BufRead>(reader: &mut R, cap: usize, line: &mut Vec<u8>) -> Option<u64> {
    let mut dropped = 0u64;
    let mut seen_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => &[],
        };
        if buffer.is_empty() {
            return seen_any.then_some(dropped);
        }
        seen_any = true;
        let (chunk, used, ends) = match buffer.iter().position(|b| *b == b'\n') {
            Some(at) => (&buffer[..at], at + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = cap.saturating_sub(line.len());
        let kept = chunk.len().min(room);
        line.extend_from_slice(&chunk[..kept]);
        dropped += (chunk.len() - kept) as u64;
        reader.consume(used);
        if ends {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Some(dropped);
        }
    }
}

/// Enough of what a driver wrote, at both ends and bounded, to tell how it died (a
/// stack overflow's message, the memory cap's failure token).
#[derive(Debug, Default)]
pub struct Output {
    head: String,
    tail: VecDeque<String>,
    tail_bytes: usize,
}

impl Output {
    /// One line the driver wrote.
    pub fn record(&mut self, line: &str) {
        if self.head.len() < KEPT {
            let room = KEPT - self.head.len();
            self.head.push_str(&line[..floor_char_boundary(line, room)]);
            self.head.push('\n');
        } else {
            self.tail_bytes += line.len();
            self.tail.push_back(line.to_owned());
            while self.tail_bytes > KEPT
                && let Some(old) = self.tail.pop_front()
            {
                self.tail_bytes -= old.len();
            }
        }
    }

    /// Whether the kept part contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.head.contains(needle) || self.tail.iter().any(|l| l.contains(needle))
    }
}

/// The largest char boundary of `text` at or before `at`.
pub(super) fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_longer_than_the_cap_is_cut_and_the_rest_counted() {
        let input = format!("{}\nnext\n", "x".repeat(100));
        let mut reader = std::io::Cursor::new(input.into_bytes());
        let mut line = Vec::new();
        assert_eq!(read_line_bounded(&mut reader, 10, &mut line), Some(90));
        assert_eq!(line, b"xxxxxxxxxx");
        line.clear();
        assert_eq!(read_line_bounded(&mut reader, 10, &mut line), Some(0));
        assert_eq!(line, b"next");
        line.clear();
        assert_eq!(read_line_bounded(&mut reader, 10, &mut line), None);
    }

    #[test]
    fn the_output_is_kept_bounded_at_both_ends() {
        let mut output = Output::default();
        output.record("first");
        for _ in 0..10_000 {
            output.record(&"y".repeat(100));
        }
        output.record("thread 'main' has overflowed its stack");
        assert!(output.contains("first"));
        assert!(output.contains("has overflowed its stack"));
        assert!(output.head.len() <= KEPT + 200);
        assert!(output.tail_bytes <= KEPT);
    }
}
