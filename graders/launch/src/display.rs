//! What the launcher prints while cargo builds `byo`, as text to write to standard
//! error: nothing on a warm run; on a first run, at once, what it is doing, then a count
//! of cargo's build steps (one line rewritten in place on a terminal, a line every few
//! steps in a pipe or a log), and at the end how much was built.
//!
//! Pure: the caller feeds it what cargo said and how long the build has taken, and
//! writes what it returns, so every rule here is tested without a build.

use std::time::Duration;

use crate::cargo_says::{self, Said, Work};

/// In a pipe, a line at least every this many finished build steps...
const PIPE_EVERY_STEPS: usize = 10;
/// ... and at least this often while one long step compiles.
const PIPE_EVERY: Duration = Duration::from_secs(20);
/// The widest a rewritten line may be: wider, a terminal wraps it, and `\r` no longer
/// takes the cursor back to its start.
const TERMINAL_WIDTH: usize = 79;

/// Why the launcher speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// No `byo` in the target folder yet: the first run, which compiles everything.
    FirstRun,
    /// `byo` exists, but cargo is compiling (the graders or the toolchain changed).
    Rebuild,
}

/// Where the build stands, as cargo last said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Starting,
    Waiting,
    Downloading(usize),
    Building { done: usize, total: usize },
}

/// The launcher's voice during one build.
#[derive(Debug)]
pub struct Display {
    terminal: bool,
    why: Option<Why>,
    phase: Phase,
    /// Crates compiled (cargo's `compiler-artifact` messages that are not `fresh`).
    compiled: usize,
    /// What cargo's bar last named as compiling: a long crate must not look like a hang.
    now: String,
    /// On a terminal: the progress line is on screen, without its newline.
    line_open: bool,
    /// In a pipe: the finished steps and the time of the last line written.
    last_line: (usize, Duration),
}

impl Display {
    /// A display for standard error, a `terminal` or not; on a `first_run` it speaks
    /// at once, and [`Display::start`] returns its first line.
    pub fn new(terminal: bool, first_run: bool) -> Self {
        Self {
            terminal,
            why: first_run.then_some(Why::FirstRun),
            phase: Phase::Starting,
            compiled: 0,
            now: String::new(),
            line_open: false,
            last_line: (0, Duration::ZERO),
        }
    }

    /// What to print before cargo has said anything: the first line of a first run.
    pub fn start(&mut self) -> String {
        match self.why {
            Some(why) if self.terminal => {
                format!("{}\n{}", headline(why), self.redraw(Duration::ZERO))
            }
            Some(why) => format!("{}\n", headline(why)),
            None => String::new(),
        }
    }

    /// What to print for `line`, which cargo wrote to standard error and said `said`,
    /// `elapsed` into the build.
    pub fn said(&mut self, said: Said, line: &str, elapsed: Duration) -> String {
        let before = (self.phase, self.now.clone());
        match said {
            Said::Progress { done, total } => {
                self.phase = Phase::Building { done, total };
                self.now = cargo_says::compiling(line).unwrap_or_default();
            }
            Said::Working(work) => {
                self.phase = match (work, before.0) {
                    (Work::Downloading, Phase::Downloading(n)) => {
                        Phase::Downloading(n + usize::from(line.contains("Downloaded")))
                    }
                    (Work::Downloading, _) => {
                        Phase::Downloading(usize::from(line.contains("Downloaded")))
                    }
                    (Work::Waiting, _) => Phase::Waiting,
                    (Work::Compiling, phase) => phase,
                };
                if self.why.is_none() {
                    self.why = Some(Why::Rebuild);
                    return self.announce(elapsed);
                }
            }
            Said::Status => {}
            Said::Text => return self.text(line, elapsed),
        }
        if self.why.is_none() || (self.phase, &self.now) == (before.0, &before.1) {
            return String::new();
        }
        if self.terminal {
            return self.redraw(elapsed);
        }
        // In a pipe: a line when the phase changes, then every few steps.
        let news = match (before.0, self.phase) {
            (Phase::Building { .. }, Phase::Building { done, .. }) => {
                done >= self.last_line.0 + PIPE_EVERY_STEPS
            }
            (Phase::Downloading(_), Phase::Downloading(_)) => false,
            _ => true,
        };
        if news {
            self.pipe_line(elapsed)
        } else {
            String::new()
        }
    }

    /// Notes a crate cargo finished: compiled, or `fresh` (already built).
    pub fn artifact(&mut self, fresh: bool) {
        self.compiled += usize::from(!fresh);
    }

    /// What to print as time passes with nothing new from cargo: the seconds on a
    /// terminal, a line now and then in a pipe.
    pub fn tick(&mut self, elapsed: Duration) -> String {
        match self.why {
            None => String::new(),
            Some(_) if self.terminal => self.redraw(elapsed),
            Some(_) if elapsed >= self.last_line.1 + PIPE_EVERY => self.pipe_line(elapsed),
            Some(_) => String::new(),
        }
    }

    /// What to print when cargo is done, `built` or not, after `elapsed`.
    pub fn finish(&mut self, built: bool, elapsed: Duration) -> String {
        let mut out = self.close_line();
        let Some(why) = self.why else {
            return out;
        };
        if built {
            let steps = match self.phase {
                Phase::Building { total, .. } => format!(", {total} build steps"),
                _ => String::new(),
            };
            let (done, later) = match why {
                Why::FirstRun => ("built", "; later runs skip this"),
                Why::Rebuild => ("rebuilt", ""),
            };
            out.push_str(&format!(
                "byo: the kata's tools are {done} ({} compiled{steps}, {} s){later}\n",
                crates(self.compiled),
                elapsed.as_secs()
            ));
        } else {
            out.push_str("byo: cargo could not build the kata's tools (its messages are above)\n");
        }
        out
    }

    /// The first line of a rebuild, which speaks only once cargo is seen working.
    fn announce(&mut self, elapsed: Duration) -> String {
        let why = self.why.unwrap_or(Why::Rebuild);
        if self.terminal {
            return format!("{}\n{}", headline(why), self.redraw(elapsed));
        }
        self.last_line = (0, elapsed);
        format!("{}\n", headline(why))
    }

    /// A diagnostic, printed as cargo wrote it, above the progress line.
    fn text(&mut self, line: &str, elapsed: Duration) -> String {
        let reopen = self.line_open;
        let mut out = self.close_line();
        out.push_str(line);
        out.push('\n');
        if reopen {
            out.push_str(&self.redraw(elapsed));
        }
        out
    }

    /// The progress line on a terminal, under the headline, cut to fit one row.
    fn redraw(&mut self, elapsed: Duration) -> String {
        if self.why.is_none() {
            return String::new();
        }
        self.line_open = true;
        let line = self.status(elapsed);
        let line = if line.chars().count() > TERMINAL_WIDTH {
            let cut: String = line.chars().take(TERMINAL_WIDTH - 1).collect();
            format!("{cut}…")
        } else {
            line
        };
        format!("\r\x1b[K{line}")
    }

    fn pipe_line(&mut self, elapsed: Duration) -> String {
        if let Phase::Building { done, .. } = self.phase {
            self.last_line.0 = done;
        }
        self.last_line.1 = elapsed;
        format!("{}\n", self.status(elapsed))
    }

    /// `byo: 12 of 89 build steps, 40 s (compiling serde, syn)`: what to cut comes last.
    fn status(&self, elapsed: Duration) -> String {
        let compiling = match self.phase {
            Phase::Building { .. } if !self.now.is_empty() => format!(" (compiling {})", self.now),
            _ => String::new(),
        };
        format!("byo: {}, {} s{compiling}", self.detail(), elapsed.as_secs())
    }

    fn close_line(&mut self) -> String {
        if std::mem::take(&mut self.line_open) {
            "\r\x1b[K".to_owned()
        } else {
            String::new()
        }
    }

    fn detail(&self) -> String {
        match self.phase {
            Phase::Building { done, total } => format!("{done} of {total} build steps"),
            Phase::Downloading(n) => format!("downloading crates ({n} so far)"),
            Phase::Waiting => "waiting for another cargo to finish with the build folder".into(),
            Phase::Starting if self.compiled > 0 => format!("{} compiled", crates(self.compiled)),
            Phase::Starting => "starting cargo".to_owned(),
        }
    }
}

/// `1 crate`, `75 crates`.
fn crates(n: usize) -> String {
    format!("{n} crate{}", if n == 1 { "" } else { "s" })
}

fn headline(why: Why) -> &'static str {
    match why {
        Why::FirstRun => {
            "byo: building the kata's tools with cargo (first run only, a few minutes)"
        }
        Why::Rebuild => "byo: rebuilding the kata's tools with cargo",
    }
}

#[cfg(test)]
#[path = "display_tests.rs"]
mod tests;
