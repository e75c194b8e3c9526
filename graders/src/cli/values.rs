//! The values a `byo` argument may take, each parsed for clap with an error that says
//! what a good value looks like: a stage number, a plan seed, a case index, a time limit.
//!
//! Every options declaration (the verbs in [`args`](super::args), and the options of
//! `trace`, `grade` and `autograder`) takes its parsers from here, so a stage number
//! means the same thing, and is refused in the same words, wherever it is typed.

use std::time::Duration;

use crate::stages;

/// `1`..`8` or `01`..`08`: a stage on the ladder.
pub(super) fn stage_number(text: &str) -> Result<u8, String> {
    let last = stages::LADDER.len();
    match text.parse::<u8>() {
        Ok(n) if stages::get(n).is_some() => Ok(n),
        _ if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) => Err(format!(
            "there is no stage {text}; stages are 01 to {last:02}"
        )),
        _ => Err(format!("a stage is a number from 01 to {last:02}")),
    }
}

/// A plan seed: any whole number that fits in 64 bits.
pub(super) fn seed(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// A case's index in a plan, as a report's `replay:` line gives it.
pub(super) fn case_index(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| {
        "a case is a whole number from 0, as a report's `replay:` line gives it".to_owned()
    })
}

/// A whole, positive number of seconds.
pub(super) fn positive_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(Duration::from_secs(seconds)),
        _ => Err("a time limit is a positive whole number of seconds".to_owned()),
    }
}
