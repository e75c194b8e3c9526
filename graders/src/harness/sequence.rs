//! The order a driver's protocol lines must keep: `Start` of the case the judge expects
//! next, its `Ended`, and so on to `Finished`. Anything else is a protocol violation, so
//! a line printed by the implementation (even one that stole the nonce) can neither
//! restart a case's clock, nor report a case twice, nor refuse once a case has begun.

use super::judge::{DriverRun, Fault};
use super::printed::Printed;
use super::protocol::{Message, Request};

/// What a protocol message meant for the clocks and for the printing that follows it.
pub(super) enum Step {
    /// This case started: its clock starts, and what is printed next is printed in it.
    CaseStarted(usize),
    /// A new run of the running case began, so named.
    RunStarted(String),
    /// The running case ended.
    CaseEnded,
    /// The driver refused the request before running any case (its own checks, made
    /// before any implementation code runs).
    Refused(String),
    /// Nothing for the clocks (`Finished`).
    Other,
}

/// The judge's expectation of the protocol: which case may start next, which is running.
pub(super) struct Watch {
    /// The cases requested, in the order they must run.
    due: Vec<usize>,
    /// How many of `due` have ended.
    ended: usize,
    running: Option<usize>,
    pub(super) run: DriverRun,
}

impl Watch {
    pub(super) fn new(request: &Request) -> Self {
        Self {
            due: request.cases.clone(),
            ended: 0,
            running: None,
            run: DriverRun::default(),
        }
    }

    /// The run so far, ended by `fault` charged to the case running (or else the next
    /// one due).
    pub(super) fn died(mut self, fault: Fault, printed: Printed) -> DriverRun {
        let at = self.at();
        self.run.finished = false;
        self.run.deaths.insert(at, fault);
        self.run.printed = printed;
        self.run
    }

    /// The case a death is charged to: the one running, or else the next one due (none,
    /// `usize::MAX`, when every case ended: a death after the last fails no case).
    pub(super) fn at(&self) -> usize {
        self.running.unwrap_or_else(|| self.next_due())
    }

    /// The case expected to start next (while one runs, the one running).
    pub(super) fn next_due(&self) -> usize {
        match self.due.get(self.ended) {
            Some(index) => *index,
            None => usize::MAX,
        }
    }

    pub(super) fn accept(&mut self, message: Message) -> Result<Step, String> {
        if self.run.finished {
            return Err("a protocol line came after `Finished`".to_owned());
        }
        match message {
            Message::Start(index) => {
                let due = self.due.get(self.ended).copied();
                if self.running.is_some() || due != Some(index) {
                    let expected = match (self.running, due) {
                        (Some(running), _) => format!("case {running} was running"),
                        (None, Some(due)) => format!("case {due} was due"),
                        (None, None) => "every case requested had ended".to_owned(),
                    };
                    return Err(format!(
                        "case {index} was announced while {expected} \
                         (something printed the driver's own lines)"
                    ));
                }
                self.running = Some(index);
                Ok(Step::CaseStarted(index))
            }
            Message::Run(label) => {
                if self.running.is_none() {
                    return Err(format!("a run ({label}) began outside any case"));
                }
                Ok(Step::RunStarted(label))
            }
            Message::Ended(index, outcome) => {
                if self.running != Some(index) {
                    return Err(format!("case {index} ended without having started"));
                }
                self.run.outcomes.insert(index, outcome);
                self.running = None;
                self.ended += 1;
                Ok(Step::CaseEnded)
            }
            Message::Finished => {
                if self.running.is_some() {
                    return Err("the driver said `Finished` in the middle of a case".to_owned());
                }
                if self.ended < self.due.len() {
                    return Err(format!(
                        "the driver said `Finished` before case {} ran",
                        self.next_due()
                    ));
                }
                self.run.finished = true;
                Ok(Step::Other)
            }
            // The implementation runs only inside a case: a refusal once the first case
            // was announced is its doing, never the driver's.
            Message::Refused(why) if self.running.is_none() && self.ended == 0 => {
                Ok(Step::Refused(why))
            }
            Message::Refused(_) => Err(
                "a `Refused` came after the cases had begun, where only the implementation \
                 runs (something printed the driver's own lines)"
                    .to_owned(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::protocol::Outcome;
    use serde_json::value::RawValue;

    fn ended(index: usize) -> Message {
        Message::Ended(index, Outcome::Returned(RawValue::NULL.to_owned()))
    }

    #[test]
    fn cases_must_start_and_end_in_the_order_the_judge_asked_for() {
        let mut watch = Watch::new(&Request::new(1, 0, vec![0, 1], 0));
        assert!(matches!(
            watch.accept(Message::Start(0)),
            Ok(Step::CaseStarted(0))
        ));
        // A second start of the running case would reset its clock.
        assert!(watch.accept(Message::Start(0)).is_err());
        assert!(watch.accept(Message::Start(1)).is_err());
        assert!(watch.accept(ended(0)).is_ok());
        assert!(watch.accept(ended(0)).is_err(), "ended twice");
        assert!(watch.accept(Message::Start(2)).is_err(), "case 1 skipped");
        assert!(watch.accept(Message::Start(1)).is_ok());
        assert!(watch.accept(Message::Finished).is_err(), "mid-case");
        assert!(
            watch
                .accept(Message::Run("crash after 1".to_owned()))
                .is_ok(),
            "a run begins within the running case"
        );
        assert!(watch.accept(ended(1)).is_ok());
        assert!(
            watch
                .accept(Message::Run("crash after 2".to_owned()))
                .is_err(),
            "a run begins only within a case"
        );
        assert!(watch.accept(Message::Finished).is_ok());
        assert!(watch.accept(Message::Start(2)).is_err(), "after Finished");
    }

    #[test]
    fn only_a_driver_that_ran_no_case_may_refuse() {
        let refused = || Message::Refused("the grading environment failed".to_owned());
        let mut watch = Watch::new(&Request::new(1, 0, vec![0, 1], 0));
        assert!(matches!(watch.accept(refused()), Ok(Step::Refused(_))));
        let mut watch = Watch::new(&Request::new(1, 0, vec![0, 1], 0));
        assert!(watch.accept(Message::Start(0)).is_ok());
        assert!(watch.accept(refused()).is_err(), "inside a case");
        assert!(watch.accept(ended(0)).is_ok());
        assert!(watch.accept(refused()).is_err(), "between cases");
    }

    #[test]
    fn a_share_runs_its_cases_in_order_and_finishes_only_after_the_last() {
        let mut watch = Watch::new(&Request::new(1, 0, vec![1, 3, 5], 0));
        assert!(watch.accept(Message::Start(0)).is_err(), "not in the share");
        assert!(watch.accept(Message::Start(1)).is_ok());
        assert!(watch.accept(ended(1)).is_ok());
        assert!(watch.accept(Message::Start(2)).is_err(), "not in the share");
        assert!(watch.accept(Message::Start(3)).is_ok());
        assert!(watch.accept(ended(3)).is_ok());
        assert_eq!(watch.next_due(), 5);
        assert!(watch.accept(Message::Start(5)).is_ok());
        assert!(watch.accept(ended(5)).is_ok());
        assert_eq!(watch.at(), usize::MAX, "a death now fails no case");
        let mut watch = Watch::new(&Request::new(1, 0, vec![1, 3, 5], 0));
        assert!(watch.accept(Message::Start(1)).is_ok());
        assert!(watch.accept(ended(1)).is_ok());
        assert!(watch.accept(Message::Finished).is_err(), "case 5 never ran");
    }

    #[test]
    fn a_replay_runs_exactly_the_case_asked_for_once() {
        let mut watch = Watch::new(&Request::new(1, 0, vec![7], 0));
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
