//! Runs one stage-01 case against an implementation and records what happened.

use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

use super::contract::{Returned, Step};
use super::{Case, Implementation};

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// A seek, then polls until `None`.
    Seek {
        /// `Err(message)` if the seek failed.
        seek: Result<(), String>,
        /// `position()` right after the seek, before any poll.
        after_seek: u64,
        /// `(position() before the poll, record)` for every record polled.
        polled: Vec<(u64, u32)>,
        /// `position()` once `poll` returned `None`.
        end_position: u64,
    },
    /// A seek past the end.
    SeekPastEnd {
        /// `position()` before the seek.
        position_before: u64,
        /// What the seek returned (an error, as it must, or a panic).
        seek: Returned,
        /// `position()` after the seek.
        position_after: u64,
        /// The next record `poll` returned.
        next: Option<u32>,
    },
    /// The output of a chain.
    Chain {
        /// The chain's operators fed every record by hand, into one `out`.
        by_hand: Vec<u32>,
        /// Everything `run` returned.
        output: Vec<u32>,
        /// `position()` after `run`, and what the next `poll` returned.
        after_run: (u64, Option<u32>),
    },
    /// A run cut by a crash.
    Crash {
        /// Records polled from the first source before the crash.
        polled: Vec<u32>,
        /// The chain's output for those records.
        before: Vec<u32>,
        /// `position()` of the first source at the crash.
        position: u64,
        /// `Err(message)` if seeking the fresh source failed.
        resume: Result<(), String>,
        /// `position()` of the fresh source after that seek.
        resumed_at: u64,
        /// The chain's output from the fresh source.
        after: Vec<u32>,
        /// `position()` of the fresh source after `run`, and what the next `poll` returned.
        after_run: (u64, Option<u32>),
        /// `run` over a third source, never interrupted.
        uninterrupted: Vec<u32>,
    },
    /// A call sequence: every step, then the records of polling until `None`.
    Contract {
        /// One step per call (fewer if a call panicked).
        steps: Vec<Step>,
        /// The records polled after the calls (empty if a call panicked).
        drain: Vec<u32>,
    },
    /// The long log (`long.rs`).
    LongLog(super::long::LongObservation),
    /// The calls on two sources read side by side (`side_by_side.rs`).
    SideBySide(Vec<super::side_by_side::Turn>),
    /// The wide `FlatMap` call: `out` after it (`wide.rs`).
    WideFlatMap(super::long::Stretches),
    /// The long `run` (`wide.rs`).
    LongRun(super::wide::LongRun),
    /// One `process` call.
    Process {
        /// `out` after the call.
        out: Vec<u32>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::Seek { records, offset } => {
            let mut source = I::source(records.clone());
            let seek = I::seek(&mut source, *offset).map_err(|e| format!("{e:#}"));
            let after_seek = I::position(&source);
            let mut polled = Vec::new();
            // Bounded: a source that never returns None must not hang the driver.
            for _ in 0..=records.len() {
                let position = I::position(&source);
                match I::poll(&mut source) {
                    Some(record) => polled.push((position, record)),
                    None => break,
                }
            }
            Observation::Seek {
                seek,
                after_seek,
                polled,
                end_position: I::position(&source),
            }
        }
        Case::SeekPastEnd { records, offset } => {
            let mut source = I::source(records.clone());
            if !records.is_empty() {
                I::poll(&mut source);
            }
            let position_before = I::position(&source);
            let seek = seek_caught::<I>(&mut source, *offset);
            Observation::SeekPastEnd {
                position_before,
                seek,
                position_after: I::position(&source),
                next: I::poll(&mut source),
            }
        }
        Case::Chain { chain, records } => {
            let mut source = I::source(records.clone());
            let output = I::run(&mut source, *chain);
            Observation::Chain {
                by_hand: I::feed(*chain, records),
                output,
                after_run: (I::position(&source), I::poll(&mut source)),
            }
        }
        Case::Crash {
            chain,
            records,
            crash_after,
        } => {
            let mut source = I::source(records.clone());
            let polled: Vec<u32> = (0..*crash_after)
                .filter_map(|_| I::poll(&mut source))
                .collect();
            let position = I::position(&source);
            // The records polled before the crash went through the chain as usual.
            let before = I::run(&mut I::source(polled.clone()), *chain);
            drop(source);
            let mut fresh = I::source(records.clone());
            let resume = I::seek(&mut fresh, position).map_err(|e| format!("{e:#}"));
            let resumed_at = I::position(&fresh);
            let after = if resume.is_ok() {
                I::run(&mut fresh, *chain)
            } else {
                Vec::new()
            };
            Observation::Crash {
                polled,
                before,
                position,
                resume,
                resumed_at,
                after,
                after_run: (I::position(&fresh), I::poll(&mut fresh)),
                uninterrupted: I::run(&mut I::source(records.clone()), *chain),
            }
        }
        Case::Contract { records, calls } => {
            let mut source = I::source(records.clone());
            let mut steps = Vec::new();
            for call in calls {
                let returned = match call {
                    super::Call::Poll => caught(|| Returned::Polled(I::poll(&mut source))),
                    super::Call::Seek(offset) => seek_caught::<I>(&mut source, *offset),
                };
                if let Returned::Panicked(_) = returned {
                    steps.push(Step {
                        returned,
                        position: None,
                    });
                    return Observation::Contract {
                        steps,
                        drain: Vec::new(),
                    };
                }
                steps.push(Step {
                    returned,
                    position: Some(I::position(&source)),
                });
            }
            // Bounded: a source that never returns None must not hang the driver.
            let drain = (0..=records.len())
                .map_while(|_| I::poll(&mut source))
                .collect();
            Observation::Contract { steps, drain }
        }
        Case::LongLog { len } => Observation::LongLog(super::long::drive::<I>(*len)),
        Case::SideBySide => Observation::SideBySide(super::side_by_side::drive::<I>()),
        Case::WideFlatMap { input } => {
            Observation::WideFlatMap(super::wide::drive_flat_map::<I>(*input))
        }
        Case::LongRun { len } => Observation::LongRun(super::wide::drive_run::<I>(*len)),
        Case::Process {
            operator,
            input,
            out,
        } => Observation::Process {
            out: I::process(*operator, *input, out.clone()),
        },
    }
}

/// `seek(offset)`'s result, or its panic's message.
pub(super) fn seek_caught<I: Implementation>(source: &mut I::Source, offset: u64) -> Returned {
    caught(|| Returned::Sought(I::seek(source, offset).map_err(|e| format!("{e:#}"))))
}

/// `call`'s value, or its panic's message as [`Returned::Panicked`]; a `todo!()` goes on
/// unwinding, to reach the harness as one ("not started").
pub(super) fn caught(call: impl FnOnce() -> Returned) -> Returned {
    panic::catch_unwind(AssertUnwindSafe(call)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
        if message.starts_with("not yet implemented") {
            panic::resume_unwind(payload);
        }
        Returned::Panicked(message)
    })
}
