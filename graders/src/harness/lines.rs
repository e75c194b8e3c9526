//! A driver's two streams, line by line: protocol lines (those carrying the run's nonce)
//! kept apart from what the implementation printed, and each printed line placed in the
//! case and the run it was printed in.
//!
//! The driver marks where each case and each run begins on standard output, where the
//! protocol is, and so places what is printed there exactly. Two pipes read by two
//! threads keep no order between them, so a line on standard error is placed where
//! standard output stood when it was read, which can lag behind; except in the replay
//! of one case, where the driver marks standard error too (see
//! [`driver`](super::driver)), and its lines are placed by the marks of their own
//! stream. On standard error a mark only places lines; the protocol is on standard
//! output.

use super::capture::Output;
use super::judge::DriverRun;
use super::printed::Printed;
use super::protocol::{Message, Request};
use super::sequence::{Step, Watch};

/// What a line meant for the supervisor.
pub(super) enum Read {
    /// Nothing that concerns the clocks.
    Nothing,
    /// A case started: its clock starts.
    CaseStarted,
    /// The driver refused the request, before any case began (see [`Step::Refused`]).
    Refused(String),
    /// The protocol was broken.
    Violation(String),
}

/// Where a stream's lines are being printed.
#[derive(Default)]
struct Place {
    case: Option<usize>,
    run: Option<String>,
}

/// The lines of one driver run, as read so far.
pub(super) struct Lines {
    tag: String,
    pub(super) watch: Watch,
    pub(super) printed: Printed,
    /// Both ends of standard error, to tell how the driver died.
    pub(super) stderr: Output,
    on_stdout: Place,
    /// Where standard error stands, once the driver marks it.
    on_stderr: Option<Place>,
}

impl Lines {
    pub(super) fn new(request: &Request) -> Self {
        Self {
            tag: Message::tag(request.nonce),
            watch: Watch::new(request),
            printed: if request.cases.len() == 1 {
                Printed::for_replay()
            } else {
                Printed::default()
            },
            stderr: Output::default(),
            on_stdout: Place::default(),
            on_stderr: None,
        }
    }

    /// A line on standard output.
    pub(super) fn stdout(&mut self, line: String) -> Read {
        let Some((start, message)) = split(&line, &self.tag) else {
            self.print(false, line);
            return Read::Nothing;
        };
        // What the implementation printed without a newline before the mark.
        if start > 0 {
            self.print(false, line[..start].to_owned());
        }
        // The driver never writes a line it cannot read back: one that carries the nonce
        // and is no message was forged.
        let message = match message {
            Ok(message) => message,
            Err(garbled) => {
                return Read::Violation(format!("an unreadable protocol line: {garbled}"));
            }
        };
        match self.watch.accept(message) {
            Ok(Step::CaseStarted(index)) => {
                self.on_stdout = Place {
                    case: Some(index),
                    run: None,
                };
                Read::CaseStarted
            }
            Ok(Step::RunStarted(label)) => {
                self.on_stdout.run = Some(label);
                Read::Nothing
            }
            Ok(Step::CaseEnded) => {
                self.on_stdout = Place::default();
                Read::Nothing
            }
            Ok(Step::Refused(why)) => Read::Refused(why),
            Ok(Step::Other) => Read::Nothing,
            Err(violation) => Read::Violation(violation),
        }
    }

    /// A line on standard error: the protocol violation it is, if it carries the nonce
    /// but is none of the marks the driver writes there.
    pub(super) fn stderr(&mut self, line: String) -> Option<String> {
        self.stderr.record(&line);
        let Some((start, message)) = split(&line, &self.tag) else {
            self.print(true, line);
            return None;
        };
        if start > 0 {
            self.print(true, line[..start].to_owned());
        }
        match message {
            Ok(Message::Start(index)) => {
                self.on_stderr = Some(Place {
                    case: Some(index),
                    run: None,
                });
            }
            Ok(Message::Run(label)) => {
                self.on_stderr.get_or_insert_with(Place::default).run = Some(label);
            }
            Ok(other) => {
                return Some(format!(
                    "a protocol line on standard error, where the driver writes only marks: \
                     {other:?} (something printed the driver's own lines)"
                ));
            }
            Err(garbled) => return Some(format!("an unreadable protocol line: {garbled}")),
        }
        None
    }

    fn print(&mut self, stderr: bool, text: String) {
        let place = match &self.on_stderr {
            Some(place) if stderr => place,
            _ => &self.on_stdout,
        };
        let at = place.case.unwrap_or_else(|| self.watch.at());
        self.printed
            .push(at, place.case, place.run.as_deref(), text);
    }

    /// The run so far, ended by `fault` (see [`Watch::died`]).
    pub(super) fn died(self, fault: super::judge::Fault) -> DriverRun {
        self.watch.died(fault, self.printed)
    }
}

/// Where the mark `tag` starts in `line`, and the message after it.
fn split(line: &str, tag: &str) -> Option<(usize, Result<Message, String>)> {
    let start = line.find(tag)?;
    let json = &line[start + tag.len()..];
    Some((
        start,
        serde_json::from_str(json).map_err(|e| format!("{e}: {json}")),
    ))
}
