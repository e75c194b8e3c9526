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

/// A moment in UTC, `2026-12-01T23:59:00Z`, as every report writes one.
pub(super) fn utc_time(text: &str) -> Result<std::time::SystemTime, String> {
    let wrong =
        || format!("a time is UTC as YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T23:59:00Z, not {text}");
    let bytes = text.as_bytes();
    let shape = "dddd-dd-ddTdd:dd:ddZ".as_bytes();
    let fits = bytes.len() == shape.len()
        && bytes.iter().zip(shape).all(|(b, s)| {
            if *s == b'd' {
                b.is_ascii_digit()
            } else {
                b == s
            }
        });
    if !fits {
        return Err(wrong());
    }
    let number = |from: usize, to: usize| text[from..to].parse::<i64>().map_err(|_| wrong());
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month)
        || !(1..=days_in[month as usize - 1]).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
        || year < 1970
    {
        return Err(wrong());
    }
    // Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    Ok(std::time::UNIX_EPOCH + Duration::from_secs(seconds as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_utc_time_reads_back_as_reports_write_it() {
        use crate::cli::grade::model::utc;
        for text in [
            "1970-01-01T00:00:00Z",
            "2000-02-29T12:34:56Z",
            "2026-12-01T23:59:00Z",
        ] {
            assert_eq!(utc(utc_time(text).unwrap()), text);
        }
        for bad in [
            "2026-12-01 23:59",
            "2026-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T23:59:00+01:00",
        ] {
            assert!(
                utc_time(bad).unwrap_err().contains("YYYY-MM-DDTHH:MM:SSZ"),
                "{bad}"
            );
        }
    }
}
