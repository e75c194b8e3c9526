//! Bounded capture of what a driver prints: lines of bounded length, read by threads
//! that apply back-pressure, and a record of the head and the tail with the size said.
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

/// The longest printed line a report shows.
const SHOWN_LINE: usize = 400;

/// How many of the first and of the last printed lines a report keeps.
const HEAD_LINES: usize = 4;
const TAIL_LINES: usize = 12;

/// How much of standard error is kept to recognise how the driver died.
const STDERR_KEPT: usize = 16 << 10;

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

/// What the implementation printed, bounded: the first and the last lines, the count of
/// those in between, and enough of standard error to tell how the driver died.
#[derive(Debug, Default)]
pub struct Printed {
    head: Vec<String>,
    tail: VecDeque<String>,
    skipped_lines: u64,
    skipped_bytes: u64,
    stderr_head: String,
    stderr_tail: VecDeque<String>,
    stderr_tail_bytes: usize,
}

impl Printed {
    /// One line the implementation printed (either stream).
    pub fn push(&mut self, line: String) {
        let line = shorten(line);
        if self.head.len() < HEAD_LINES {
            self.head.push(line);
            return;
        }
        if self.tail.len() == TAIL_LINES
            && let Some(old) = self.tail.pop_front()
        {
            self.skipped_lines += 1;
            self.skipped_bytes += old.len() as u64;
        }
        self.tail.push_back(line);
    }

    /// One line on standard error: shown like any printing, and kept (bounded) to tell
    /// how the driver died.
    pub fn push_stderr(&mut self, line: String) {
        if self.stderr_head.len() < STDERR_KEPT {
            let room = STDERR_KEPT - self.stderr_head.len();
            self.stderr_head
                .push_str(&line[..floor_char_boundary(&line, room)]);
            self.stderr_head.push('\n');
        } else {
            self.stderr_tail_bytes += line.len();
            self.stderr_tail.push_back(line.clone());
            while self.stderr_tail_bytes > STDERR_KEPT
                && let Some(old) = self.stderr_tail.pop_front()
            {
                self.stderr_tail_bytes -= old.len();
            }
        }
        self.push(line);
    }

    /// Whether the kept part of standard error contains `needle`.
    pub fn stderr_contains(&self, needle: &str) -> bool {
        self.stderr_head.contains(needle) || self.stderr_tail.iter().any(|l| l.contains(needle))
    }

    /// The lines a report shows: the head, a line saying what was left out, the tail.
    pub fn lines(self) -> Vec<String> {
        let mut lines = self.head;
        if self.skipped_lines > 0 {
            lines.push(format!(
                "[... {} more lines ({} bytes) not shown ...]",
                self.skipped_lines, self.skipped_bytes
            ));
        }
        lines.extend(self.tail);
        lines
    }
}

fn shorten(line: String) -> String {
    if line.len() <= SHOWN_LINE {
        return line;
    }
    let cut = floor_char_boundary(&line, SHOWN_LINE);
    format!("{} [... {} more bytes]", &line[..cut], line.len() - cut)
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
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
    fn printing_keeps_head_and_tail_and_says_what_it_left_out() {
        let mut printed = Printed::default();
        for i in 0..100 {
            printed.push(format!("line {i}"));
        }
        let lines = printed.lines();
        assert_eq!(lines.len(), HEAD_LINES + 1 + TAIL_LINES);
        assert_eq!(lines[0], "line 0");
        let left_out = HEAD_LINES..100 - TAIL_LINES;
        let bytes: usize = left_out.clone().map(|i| format!("line {i}").len()).sum();
        assert_eq!(
            lines[HEAD_LINES],
            format!(
                "[... {} more lines ({bytes} bytes) not shown ...]",
                left_out.len()
            )
        );
        assert_eq!(lines.last().map(String::as_str), Some("line 99"));
    }

    #[test]
    fn standard_error_is_kept_bounded_at_both_ends() {
        let mut printed = Printed::default();
        printed.push_stderr("first".to_owned());
        for _ in 0..10_000 {
            printed.push_stderr("y".repeat(100));
        }
        printed.push_stderr("thread 'main' has overflowed its stack".to_owned());
        assert!(printed.stderr_contains("first"));
        assert!(printed.stderr_contains("has overflowed its stack"));
        assert!(printed.stderr_head.len() <= STDERR_KEPT + 200);
        assert!(printed.stderr_tail_bytes <= STDERR_KEPT);
    }
}
