//! The order a driver's protocol lines must keep: `Start` of the case the judge expects
//! next, its `Ended`, and so on to `Finished`. Anything else is a protocol violation, so
//! a line printed by the implementation (even one that guessed the nonce) can neither
//! restart a case's clock nor report a case twice.

use super::capture::Printed;
use super::judge::{DriverRun, Fault};
use super::protocol::{Message, Request};

/// What a protocol message meant for the clocks.
pub(super) enum Step {
    CaseStarted,
    Other,
}

/// The judge's expectation of the protocol: which case may start next, which is running.
pub(super) struct Watch {
    only: Option<usize>,
    running: Option<usize>,
    last_ended: Option<usize>,
    pub(super) run: DriverRun,
}

impl Watch {
    pub(super) fn new(request: Request) -> Self {
        Self {
            only: request.only,
            running: None,
            last_ended: None,
            run: DriverRun::default(),
        }
    }

    /// The run so far, ended by `fault` charged to the case running (or else the next
    /// one due).
    pub(super) fn died(mut self, fault: Fault, printed: Printed) -> DriverRun {
        let at = self.at();
        self.run.finished = false;
        self.run.death = Some((at, fault));
        self.run.printed = printed.lines();
        self.run
    }

    /// The case a death is charged to: the one running, or else the next one due.
    pub(super) fn at(&self) -> usize {
        self.running.unwrap_or_else(|| self.next_due())
    }

    fn next_due(&self) -> usize {
        match self.only {
            Some(only) => only,
            None => self.last_ended.map_or(0, |i| i + 1),
        }
    }

    pub(super) fn accept(&mut self, message: Message) -> Result<Step, String> {
        if self.run.finished {
            return Err("a protocol line came after `Finished`".to_owned());
        }
        match message {
            Message::Start(index) => {
                let due = self.next_due();
                let done = self.only.is_some() && self.last_ended.is_some();
                if self.running.is_some() || index != due || done {
                    return Err(format!(
                        "case {index} was announced while case {} was due \
                         (something printed the driver's own lines)",
                        self.running.unwrap_or(due)
                    ));
                }
                self.running = Some(index);
                Ok(Step::CaseStarted)
            }
            Message::Ended(index, outcome) => {
                if self.running != Some(index) {
                    return Err(format!("case {index} ended without having started"));
                }
                self.run.outcomes.insert(index, outcome);
                self.running = None;
                self.last_ended = Some(index);
                Ok(Step::Other)
            }
            Message::Finished => {
                if self.running.is_some() {
                    return Err("the driver said `Finished` in the middle of a case".to_owned());
                }
                self.run.finished = true;
                Ok(Step::Other)
            }
            Message::Refused(_) => Ok(Step::Other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::protocol::Outcome;

    fn ended(index: usize) -> Message {
        Message::Ended(index, Outcome::Returned(serde_json::Value::Null))
    }

    #[test]
    fn cases_must_start_and_end_in_the_order_the_judge_asked_for() {
        let mut watch = Watch::new(Request::new(1, 0, None, 0));
        assert!(matches!(
            watch.accept(Message::Start(0)),
            Ok(Step::CaseStarted)
        ));
        // A second start of the running case would reset its clock.
        assert!(watch.accept(Message::Start(0)).is_err());
        assert!(watch.accept(Message::Start(1)).is_err());
        assert!(watch.accept(ended(0)).is_ok());
        assert!(watch.accept(ended(0)).is_err(), "ended twice");
        assert!(watch.accept(Message::Start(2)).is_err(), "case 1 skipped");
        assert!(watch.accept(Message::Start(1)).is_ok());
        assert!(watch.accept(Message::Finished).is_err(), "mid-case");
        assert!(watch.accept(ended(1)).is_ok());
        assert!(watch.accept(Message::Finished).is_ok());
        assert!(watch.accept(Message::Start(2)).is_err(), "after Finished");
    }

    #[test]
    fn a_replay_runs_exactly_the_case_asked_for_once() {
        let mut watch = Watch::new(Request::new(1, 0, Some(7), 0));
        assert!(watch.accept(Message::Start(0)).is_err());
        assert!(watch.accept(Message::Start(7)).is_ok());
        assert!(watch.accept(ended(7)).is_ok());
        assert!(
            watch.accept(Message::Start(7)).is_err(),
            "the replay runs once"
        );
        assert!(watch.accept(Message::Finished).is_ok());
    }
}
