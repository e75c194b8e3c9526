//! One side's fingerprints looked for in another's: the share found, whether that is
//! flagged, and the regions where they match. The same comparison serves the reference,
//! the graders' oracles (at intake) and the other submissions (when the cohort is
//! assembled), so one threshold means the same everywhere.

use std::collections::HashMap;

use crate::cli::grade::model::{Likeness, Print, Prints, Region};

/// The share of a stage's learner-written fingerprints found elsewhere from which it is
/// flagged: above every independent correct implementation in the repository (at most
/// 29.0%), below every disguised copy the tests make (at least 67.4%); the figures are in
/// [`super::similarity`]'s documentation and in the instructor's guide.
pub const THRESHOLD: f64 = 0.4;

/// The fewest shared fingerprints a flag needs: a stage where the learner wrote a line
/// or two matches anything by chance.
pub const MIN_SHARED: usize = 8;

/// Whether `shared` of a side's `total` fingerprints found elsewhere are flagged.
pub fn flags(shared: usize, total: usize) -> bool {
    total > 0 && shared as f64 / total as f64 >= THRESHOLD && shared >= MIN_SHARED
}

/// How many lines a region may skip (an inserted line, an unmatched fingerprint) and go
/// on.
const GAP: u32 = 4;

/// How much of `learner` is found in `other`, which is called `name`.
pub fn compare(learner: &Prints, other: &Prints, name: &str) -> Likeness {
    let mut at: HashMap<u64, Vec<Print>> = HashMap::new();
    for print in &other.prints {
        at.entry(print.hash).or_default().push(*print);
    }
    let mut shared = 0;
    let mut open: Vec<Open> = Vec::new();
    for print in &learner.prints {
        let Some(found) = at.get(&print.hash) else {
            continue;
        };
        shared += 1;
        let go_on = open
            .last()
            .filter(|r| r.file == print.file && print.first <= r.lines[1] + GAP)
            .and_then(|r| found.iter().find(|o| r.follows(o)).copied());
        match (go_on, open.last_mut()) {
            (Some(o), Some(region)) => region.extend(print, &o),
            _ => {
                // A new region, in the other side's file the last one was in when it can.
                let last = open.last().map(|r| r.other_file);
                let o = found
                    .iter()
                    .find(|o| Some(o.file) == last)
                    .unwrap_or(&found[0]);
                open.push(Open::new(print, o));
            }
        }
    }
    let share = if learner.prints.is_empty() {
        0.0
    } else {
        shared as f64 / learner.prints.len() as f64
    };
    let mut regions: Vec<Region> = open.into_iter().map(|r| r.shown(learner, other)).collect();
    regions.sort_by(|a, b| {
        b.prints
            .cmp(&a.prints)
            .then_with(|| (&a.file, a.lines).cmp(&(&b.file, b.lines)))
    });
    Likeness {
        other: name.to_owned(),
        share,
        shared,
        flagged: flags(shared, learner.prints.len()),
        regions,
    }
}

/// A region being built: files by index.
struct Open {
    file: u32,
    lines: [u32; 2],
    other_file: u32,
    other_lines: [u32; 2],
    prints: usize,
}

impl Open {
    fn new(print: &Print, other: &Print) -> Self {
        Self {
            file: print.file,
            lines: [print.first, print.last],
            other_file: other.file,
            other_lines: [other.first, other.last],
            prints: 1,
        }
    }

    /// Whether `other` carries the match on: in the same file, near where it was.
    fn follows(&self, other: &Print) -> bool {
        other.file == self.other_file
            && other.first + GAP >= self.other_lines[0]
            && other.first <= self.other_lines[1] + GAP
    }

    fn extend(&mut self, print: &Print, other: &Print) {
        self.lines[1] = self.lines[1].max(print.last);
        self.other_lines[0] = self.other_lines[0].min(other.first);
        self.other_lines[1] = self.other_lines[1].max(other.last);
        self.prints += 1;
    }

    fn shown(self, learner: &Prints, other: &Prints) -> Region {
        let name = |side: &Prints, i: u32| side.files.get(i as usize).cloned().unwrap_or_default();
        Region {
            file: name(learner, self.file),
            lines: self.lines,
            other_file: name(other, self.other_file),
            other_lines: self.other_lines,
            prints: self.prints,
        }
    }
}

#[cfg(test)]
#[path = "likeness_tests.rs"]
mod tests;
