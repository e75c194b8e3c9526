//! Runs one stage-01 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::{Case, Implementation};

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// A seek, then polls until `None`.
    Seek {
        /// `Err(message)` if the seek failed.
        seek: Result<(), String>,
        /// `(position() before the poll, record)` for every record polled.
        polled: Vec<(u64, u32)>,
        /// `position()` once `poll` returned `None`.
        end_position: u64,
    },
    /// A seek past the end.
    SeekPastEnd {
        /// `position()` before the seek.
        position_before: u64,
        /// `Err(message)` if the seek failed (as it must).
        seek: Result<(), String>,
        /// `position()` after the seek.
        position_after: u64,
        /// The next record `poll` returned.
        next: Option<u32>,
    },
    /// The output of a chain.
    Chain {
        /// Everything `run` returned.
        output: Vec<u32>,
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
        /// The chain's output from the fresh source.
        after: Vec<u32>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::Seek { records, offset } => {
            let mut source = I::source(records.clone());
            let seek = I::seek(&mut source, *offset).map_err(|e| format!("{e:#}"));
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
            let seek = I::seek(&mut source, *offset).map_err(|e| format!("{e:#}"));
            Observation::SeekPastEnd {
                position_before,
                seek,
                position_after: I::position(&source),
                next: I::poll(&mut source),
            }
        }
        Case::Chain { chain, records } => {
            let mut source = I::source(records.clone());
            Observation::Chain {
                output: I::run(&mut source, *chain),
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
                after,
            }
        }
    }
}
