//! What the implementation printed, bounded and placed: each line kept with the case and
//! the run it was printed in, the first and the last lines of a driver run kept and the
//! count of those in between said, and the records of several drivers (a plan split
//! across processes, a driver restarted after a death) merged into the record one
//! driver running the whole plan would have kept.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// The longest printed line a report shows.
const SHOWN_LINE: usize = 400;

/// How many of the first and of the last printed lines a report keeps.
const HEAD_LINES: usize = 4;
const TAIL_LINES: usize = 12;

/// As many, when one case is replayed (`--case N`, `trace --mine`): the learner asked to
/// see that case, and its runs may print a few lines each.
const REPLAY_HEAD_LINES: usize = 40;
const REPLAY_TAIL_LINES: usize = 200;

/// One line the implementation printed, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintedLine {
    /// The case that was running (`None`: between cases, or a note of the grader's).
    pub case: Option<usize>,
    /// The run of that case, as the stage's driver named it ("crash after 3, lag 1"),
    /// when a case holds several.
    pub run: Option<String>,
    /// The line.
    pub text: String,
}

impl PrintedLine {
    /// Where the line was printed, as a report heads it: "case 12 · crash after 3, lag 1";
    /// `None` for a note of the grader's.
    pub fn place(&self) -> Option<String> {
        let case = self.case?;
        Some(match &self.run {
            Some(run) => format!("case {case} · {run}"),
            None => format!("case {case}"),
        })
    }
}

/// Consecutive lines printed in one place, for a report: the place ([`PrintedLine::place`])
/// and the lines.
pub fn grouped(lines: &[PrintedLine]) -> Vec<(Option<String>, Vec<&str>)> {
    let mut groups: Vec<(Option<String>, Vec<&str>)> = Vec::new();
    for line in lines {
        let place = line.place();
        match groups.last_mut() {
            Some((last, texts)) if *last == place => texts.push(&line.text),
            _ => groups.push((place, vec![&line.text])),
        }
    }
    groups
}

/// A kept line and its position: `at` is the case running or next due when it was
/// printed, `seq` its rank among the lines of its record.
#[derive(Debug, Clone)]
struct Kept {
    at: usize,
    seq: u64,
    line: PrintedLine,
}

/// The bounded record of what one or more drivers printed.
#[derive(Debug, Clone)]
pub struct Printed {
    head_lines: usize,
    tail_lines: usize,
    head: Vec<Kept>,
    tail: VecDeque<Kept>,
    /// Every line pushed, kept or not.
    lines: u64,
    /// Their bytes (as shortened for the report).
    bytes: u64,
}

impl Default for Printed {
    fn default() -> Self {
        Self::keeping(HEAD_LINES, TAIL_LINES)
    }
}

impl Printed {
    fn keeping(head_lines: usize, tail_lines: usize) -> Self {
        Self {
            head_lines,
            tail_lines,
            head: Vec::new(),
            tail: VecDeque::new(),
            lines: 0,
            bytes: 0,
        }
    }

    /// The record of a replay of one case, which keeps more lines.
    pub fn for_replay() -> Self {
        Self::keeping(REPLAY_HEAD_LINES, REPLAY_TAIL_LINES)
    }

    /// One line printed while case `at` was running or next due, in `case` (`None`
    /// between cases) and `run`.
    pub fn push(&mut self, at: usize, case: Option<usize>, run: Option<&str>, text: String) {
        let text = shorten(text);
        self.bytes += text.len() as u64;
        let kept = Kept {
            at,
            seq: self.lines,
            line: PrintedLine {
                case,
                run: run.map(str::to_owned),
                text,
            },
        };
        self.lines += 1;
        if self.head.len() < self.head_lines {
            self.head.push(kept);
            return;
        }
        if self.tail.len() == self.tail_lines {
            self.tail.pop_front();
        }
        self.tail.push_back(kept);
    }

    /// The records of drivers that ran disjoint cases, merged into the record of one
    /// driver running them all in plan order. It is exact: a line among the first (or
    /// the last) of all is among the first (or the last) of its own record.
    pub fn merge(parts: impl IntoIterator<Item = Printed>) -> Printed {
        let mut kept: Vec<(usize, usize, Kept)> = Vec::new();
        let (mut lines, mut bytes) = (0, 0);
        let (mut head_lines, mut tail_lines) = (HEAD_LINES, TAIL_LINES);
        for (part, printed) in parts.into_iter().enumerate() {
            head_lines = head_lines.max(printed.head_lines);
            tail_lines = tail_lines.max(printed.tail_lines);
            lines += printed.lines;
            bytes += printed.bytes;
            kept.extend(
                printed
                    .head
                    .into_iter()
                    .chain(printed.tail)
                    .map(|k| (k.at, part, k)),
            );
        }
        kept.sort_by_key(|(at, part, k)| (*at, *part, k.seq));
        let total = kept.len();
        let mut merged = Printed {
            lines,
            bytes,
            ..Printed::keeping(head_lines, tail_lines)
        };
        for (rank, (_, _, mut k)) in kept.into_iter().enumerate() {
            // The lines left out of the merged record are those between its head and
            // tail: they appear in the count only, as they would have.
            k.seq = rank as u64;
            if rank < head_lines {
                merged.head.push(k);
            } else if rank + tail_lines >= total {
                merged.tail.push_back(k);
            }
        }
        merged
    }

    /// The lines a report shows: the head, a line saying what was left out, the tail;
    /// within each, the lines of one run together, where the run's first line was (the
    /// two streams are read apart, so one run's lines on standard error may arrive after
    /// the next run's on standard output).
    pub fn lines(&self) -> Vec<PrintedLine> {
        let (head, tail): (Vec<Kept>, Vec<Kept>) = if self.lines as usize == self.kept() {
            (
                self.head.iter().chain(&self.tail).cloned().collect(),
                Vec::new(),
            )
        } else {
            (self.head.clone(), self.tail.iter().cloned().collect())
        };
        let mut lines: Vec<PrintedLine> = by_run(head);
        let skipped = self.lines - self.kept() as u64;
        if skipped > 0 {
            let kept_bytes: u64 = self
                .head
                .iter()
                .chain(&self.tail)
                .map(|k| k.line.text.len() as u64)
                .sum();
            lines.push(PrintedLine {
                case: None,
                run: None,
                text: format!(
                    "[... {skipped} more lines ({} bytes) not shown ...]",
                    self.bytes - kept_bytes
                ),
            });
        }
        lines.extend(by_run(tail));
        lines
    }

    fn kept(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    /// Whether nothing was printed.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }
}

/// `kept`, each run's lines moved up to its first line, the order otherwise kept.
fn by_run(kept: Vec<Kept>) -> Vec<PrintedLine> {
    let lines: Vec<PrintedLine> = kept.into_iter().map(|k| k.line).collect();
    let first: Vec<usize> = (0..lines.len())
        .map(|i| {
            let same = |j: &usize| lines[*j].case == lines[i].case && lines[*j].run == lines[i].run;
            (0..i).find(same).unwrap_or(i)
        })
        .collect();
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|i| first[*i]);
    order.into_iter().map(|i| lines[i].clone()).collect()
}

fn shorten(line: String) -> String {
    if line.len() <= SHOWN_LINE {
        return line;
    }
    let cut = super::capture::floor_char_boundary(&line, SHOWN_LINE);
    format!("{} [... {} more bytes]", &line[..cut], line.len() - cut)
}

#[cfg(test)]
#[path = "printed_tests.rs"]
mod tests;
