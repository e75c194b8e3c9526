//! Judges stage-01 observations against the laws of replay and composition.

use super::{Case, Observation};
use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::Seek { records, offset },
            Observation::Seek {
                seek,
                polled,
                end_position,
            },
        ) => {
            if let Err(e) = seek {
                return Err(Failure::new("Ok(())", format!("Err({e})")).step(format!(
                    "seek({offset}) failed on a source of {} records",
                    records.len()
                )));
            }
            let start = *offset as usize;
            let expected: Vec<(u64, u32)> = records[start..]
                .iter()
                .enumerate()
                .map(|(i, r)| ((start + i) as u64, *r))
                .collect();
            let records_only = |p: &[(u64, u32)]| p.iter().map(|(_, r)| *r).collect::<Vec<_>>();
            expect_sequence("records", &records_only(&expected), &records_only(polled))?;
            if let Some(((want, _), (got, record))) =
                expected.iter().zip(polled).find(|((w, _), (g, _))| w != g)
            {
                return Err(Failure::new(
                    format!("position() = {want} before polling {record}"),
                    format!("position() = {got}"),
                )
                .step(format!(
                    "position() was {got} before polling the record at offset {want}"
                )));
            }
            let len = records.len() as u64;
            if *end_position != len {
                return Err(Failure::new(
                    format!("position() = {len} at the end"),
                    format!("position() = {end_position}"),
                )
                .step("position() after the last record is not the length of the source"));
            }
            Ok(())
        }
        (
            Case::SeekPastEnd { records, offset },
            Observation::SeekPastEnd {
                position_before,
                seek,
                position_after,
                next,
            },
        ) => {
            if seek.is_ok() {
                return Err(
                    Failure::new("Err(..) naming the offset", "Ok(())").step(format!(
                        "seek({offset}) on a source of {} records succeeded",
                        records.len()
                    )),
                );
            }
            if position_after != position_before {
                return Err(Failure::new(
                    format!("position() = {position_before} after the failed seek"),
                    format!("position() = {position_after}"),
                )
                .step("a failed seek moved the source"));
            }
            let want = records.get(*position_before as usize).copied();
            if *next != want {
                return Err(Failure::new(
                    format!("poll() = {want:?}"),
                    format!("poll() = {next:?}"),
                )
                .step("after a failed seek the next record is not the one at position()"));
            }
            Ok(())
        }
        (Case::Chain { chain, records }, Observation::Chain { output }) => {
            expect_sequence("output", &chain.oracle(records), output)
        }
        (
            Case::Crash {
                chain,
                records,
                crash_after,
            },
            Observation::Crash {
                polled,
                before,
                position,
                resume,
                after,
            },
        ) => {
            expect_sequence(
                "records polled before the crash",
                &records[..*crash_after],
                polled,
            )?;
            if *position != *crash_after as u64 {
                return Err(Failure::new(
                    format!("position() = {crash_after} after {crash_after} polls"),
                    format!("position() = {position}"),
                )
                .step(format!(
                    "after {crash_after} polls position() said {position}, so the resumed source starts at the wrong record"
                )));
            }
            if let Err(e) = resume {
                return Err(Failure::new("Ok(())", format!("Err({e})"))
                    .step(format!("seek({position}) on the fresh source failed")));
            }
            let whole: Vec<u32> = before.iter().chain(after).copied().collect();
            expect_sequence(
                "output before and after the crash",
                &chain.oracle(records),
                &whole,
            )
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}
