//! Judges stage-01 observations against the laws of replay and composition, and the
//! contract of every call; each failure names the brief's requirement it found broken.

use super::contract::{self, Returned};
use super::{Case, ChainId, Observation};
use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::Seek { records, offset },
            Observation::Seek {
                seek,
                after_seek,
                polled,
                end_position,
            },
        ) => judge_seek(records, *offset, seek, *after_seek, polled, *end_position),
        (
            Case::SeekPastEnd { records, offset },
            Observation::SeekPastEnd {
                position_before,
                seek,
                position_after,
                next,
            },
        ) => {
            let refused = |what: &str| {
                format!(
                    "seek({offset}) on a source of {} records {what}",
                    records.len()
                )
            };
            match seek {
                Returned::Sought(Err(message)) if !contract::names_offset(message, *offset) => {
                    return Err(Failure::new(
                        format!("Err(..) naming the offset {offset}"),
                        format!("Err({message})"),
                    )
                    .step(refused(
                        "failed with an error that does not name the offset",
                    ))
                    .requirement("01-R5"));
                }
                Returned::Sought(Err(_)) => {}
                Returned::Panicked(message) => {
                    return Err(Failure::new(
                        "Err(..) naming the offset",
                        format!("panicked: {message}"),
                    )
                    .step(refused("panicked"))
                    .requirement("01-R15"));
                }
                Returned::Sought(Ok(())) | Returned::Polled(_) => {
                    return Err(Failure::new("Err(..) naming the offset", "Ok(())")
                        .step(refused("succeeded"))
                        .requirement("01-R4"));
                }
            }
            // The case polls `min(len, 1)` records first: a wrong reading there is not the
            // refused seek's fault. When the next record is still the right one, only the
            // reading is wrong (01-R2); otherwise the poll moved wrongly (01-R1).
            let polled = records.len().min(1);
            if *position_before != polled as u64 {
                let rule = if *next == records.get(polled).copied() {
                    "01-R2"
                } else {
                    "01-R1"
                };
                return Err(Failure::new(
                    format!("position() = {polled} after polling {polled} record(s)"),
                    format!("position() = {position_before}"),
                )
                .step("before the seek, position() is not the offset of the next record")
                .requirement(rule));
            }
            if position_after != position_before {
                return Err(Failure::new(
                    format!("position() = {position_before} after the failed seek"),
                    format!("position() = {position_after}"),
                )
                .step("a failed seek moved the source")
                .requirement("01-R14"));
            }
            let want = records.get(*position_before as usize).copied();
            if *next != want {
                return Err(Failure::new(
                    format!("poll() = {want:?}"),
                    format!("poll() = {next:?}"),
                )
                .step("after a failed seek the next record is not the one at position()")
                .requirement("01-R14"));
            }
            Ok(())
        }
        (
            Case::Chain { chain, records },
            Observation::Chain {
                by_hand,
                output,
                after_run,
            },
        ) => {
            let want = chain.oracle(records);
            // Other values from a function with state: it was called other than once per
            // record, in order. The right values in another order are the chain's.
            let sorted = |values: &[u32]| {
                let mut values = values.to_vec();
                values.sort_unstable();
                values
            };
            // Behind a flat map, once the chains above have shown each operator calling
            // its function once per record, other values are the chain's: it handed the
            // second operator its records in another order.
            let rule = if chain.is_stateful() && sorted(&want) != sorted(by_hand) {
                if *chain == ChainId::FlatMapThenNumbered {
                    "01-R8"
                } else {
                    "01-R6"
                }
            } else {
                "01-R12"
            };
            expect_sequence("output fed record by record", &want, by_hand)
                .map_err(|f| f.requirement(rule))?;
            drained(records, *after_run, "run")?;
            expect_sequence("output", &want, output).map_err(|f| {
                f.step("run does not return what the chain emits, record by record, in order")
                    .requirement("01-R10")
            })
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
                resumed_at,
                after,
                after_run,
                uninterrupted,
            },
        ) => {
            expect_sequence(
                "records polled before the crash",
                &records[..*crash_after],
                polled,
            )
            .map_err(|f| f.requirement("01-R1"))?;
            if *position != *crash_after as u64 {
                return Err(Failure::new(
                    format!("position() = {crash_after} after {crash_after} polls"),
                    format!("position() = {position}"),
                )
                .step(format!(
                    "after {crash_after} polls position() said {position}, so the resumed source starts at the wrong record"
                ))
                // Before any poll only the reading can be wrong (01-R2); after some, the
                // polls did not add one each (01-R11).
                .requirement(if *crash_after == 0 { "01-R2" } else { "01-R11" }));
            }
            if let Err(e) = resume {
                return Err(Failure::new("Ok(())", format!("Err({e})"))
                    .step(format!("seek({position}) on the fresh source failed"))
                    .requirement("01-R3"));
            }
            if resumed_at != position {
                return Err(Failure::new(
                    format!("position() = {position}"),
                    format!("position() = {resumed_at}"),
                )
                .step(format!(
                    "seek({position}) on the fresh source did not move it there"
                ))
                .requirement("01-R3"));
            }
            let want = chain.oracle(records);
            let whole: Vec<u32> = before.iter().chain(after).copied().collect();
            if whole != want {
                // An uninterrupted run that is itself wrong is the chain's fault, not the resume's.
                let rule = if *uninterrupted == want {
                    "01-R9"
                } else {
                    "01-R12"
                };
                return expect_sequence("output before and after the crash", &want, &whole)
                    .map_err(|f| f.requirement(rule));
            }
            drained(records, *after_run, "run on the resumed source")
        }
        (Case::Contract { records, calls }, Observation::Contract { steps, drain }) => {
            contract::judge(records, calls, steps, drain)
        }
        (Case::LongLog { len }, Observation::LongLog(seen)) => super::long::judge(*len, seen),
        (Case::SideBySide, Observation::SideBySide(turns)) => super::side_by_side::judge(turns),
        (Case::WideFlatMap { input }, Observation::WideFlatMap(out)) => {
            super::wide::judge_flat_map(*input, out)
        }
        (Case::LongRun { len }, Observation::LongRun(seen)) => super::wide::judge_run(*len, seen),
        (
            Case::Process {
                operator,
                input,
                out,
            },
            Observation::Process { out: got },
        ) => {
            let emitted = operator.oracle(*input);
            let want: Vec<u32> = out.iter().chain(&emitted).copied().collect();
            if !got.starts_with(out) {
                return Err(
                    Failure::new(format!("out = {want:?}"), format!("out = {got:?}"))
                        .step(format!(
                            "out held {out:?} before the call, and no longer starts with it"
                        ))
                        .requirement("01-R7"),
                );
            }
            let rule = if operator.is_chain() {
                "01-R8"
            } else {
                let mut sorted_want = emitted.clone();
                let mut sorted_got = got[out.len()..].to_vec();
                sorted_want.sort_unstable();
                sorted_got.sort_unstable();
                if sorted_want == sorted_got {
                    "01-R7"
                } else {
                    "01-R6"
                }
            };
            expect_sequence("out", &want, got).map_err(|f| f.requirement(rule))
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn judge_seek(
    records: &[u32],
    offset: u64,
    seek: &Result<(), String>,
    after_seek: u64,
    polled: &[(u64, u32)],
    end_position: u64,
) -> Result<(), Failure> {
    if let Err(e) = seek {
        return Err(Failure::new("Ok(())", format!("Err({e})"))
            .step(format!(
                "seek({offset}) failed on a source of {} records",
                records.len()
            ))
            .requirement("01-R3"));
    }
    let start = offset as usize;
    let expected: Vec<(u64, u32)> = records[start..]
        .iter()
        .enumerate()
        .map(|(i, r)| ((start + i) as u64, *r))
        .collect();
    let records_only = |p: &[(u64, u32)]| p.iter().map(|(_, r)| *r).collect::<Vec<_>>();
    let (want, got) = (records_only(&expected), records_only(polled));
    // A record polled where position() said the end: a poll at the end returned one.
    let len = records.len() as u64;
    let at_the_end = polled.get(want.len()).is_some_and(|(p, _)| *p == len);
    let rule = if got.starts_with(&want) && at_the_end {
        "01-R13"
    } else {
        "01-R11"
    };
    expect_sequence("records", &want, &got).map_err(|f| f.requirement(rule))?;
    if after_seek != offset {
        return Err(Failure::new(
            format!("position() = {offset} right after seek({offset})"),
            format!("position() = {after_seek}"),
        )
        .step(format!(
            "position() right after seek({offset}) was {after_seek}"
        ))
        .requirement("01-R2"));
    }
    if let Some(((want, _), (got, record))) =
        expected.iter().zip(polled).find(|((w, _), (g, _))| w != g)
    {
        return Err(Failure::new(
            format!("position() = {want} before polling {record}"),
            format!("position() = {got}"),
        )
        .step(format!(
            "position() was {got} before polling the record at offset {want}"
        ))
        .requirement("01-R11"));
    }
    if end_position != len {
        return Err(Failure::new(
            format!("position() = {len} at the end"),
            format!("position() = {end_position}"),
        )
        .step("position() after the last record is not the length of the source")
        .requirement("01-R13"));
    }
    Ok(())
}

/// After `what` drained the source: `poll` returns `None`, and `position()` is the length.
/// A source back at an earlier record was left there by `run` or moved by the poll that
/// returned `None`: the two look alike here, and the `seek` check tells them apart.
fn drained(
    records: &[u32],
    (position, next): (u64, Option<u32>),
    what: &str,
) -> Result<(), Failure> {
    let len = records.len() as u64;
    let failure = || {
        Failure::new(
            format!("position() = {len}, then poll() = None"),
            format!("position() = {position}, then poll() = {next:?}"),
        )
    };
    if next.is_some() {
        return Err(failure()
            .step(format!("{what} returned before the source was exhausted"))
            .requirement("01-R9"));
    }
    if position != len {
        return Err(failure()
            .step(format!(
                "after {what} drained the source, position() is not its length"
            ))
            .requirement("01-R13"));
    }
    Ok(())
}
