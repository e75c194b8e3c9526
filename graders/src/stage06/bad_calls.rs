//! The calls the stage-06 brief calls errors beyond the arguments: an input that does
//! not exist, a barrier out of turn, and schedules `aligned_snapshots` cannot follow.
//! The exhaustive shapes never make them (every input carries its barriers in turn), so
//! these cases are picked by hand.

use serde::{Deserialize, Serialize};

use super::binding::Implementation;
use super::case::Elem;
use crate::harness::counter::Counter;
use crate::harness::damaged::{renumbered, restore_retyped};
use crate::harness::padding::paddings;
use crate::harness::past_u64::{PAST_U64, renumbered_past_u64};

/// One call that must return an error, never a panic or an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BadCall {
    /// `on_element(2, a0)` on an aligner of 2 inputs.
    UnknownInput,
    /// `on_element(usize::MAX, a0)` on an aligner of 2 inputs: the largest index, where
    /// `input + 1` overflows.
    UnknownInputMax,
    /// `on_element(0, Barrier(2))` on a fresh aligner, which expects barrier 1.
    BarrierAhead,
    /// `Barrier(1)` on input 0, then `Barrier(2)` on input 1 while 1 is being aligned.
    BarrierOutOfTurn,
    /// `Barrier(1)` on input 0 twice, then on input 1: the second `Barrier(1)` of input
    /// 0 is out of turn (refused when it arrives, or when it is re-fed).
    BarrierTwice,
    /// Checkpoint 1 completed on both inputs, then `Barrier(1)` again on input 0.
    BarrierBehind,
    /// An aligner restored from the snapshot after checkpoint 1, then `Barrier(1)`.
    BarrierBehindRestore,
    /// `restore(0, bytes)` of a fresh aligner's snapshot.
    RestoreNoInputs,
    /// `restore(2, bytes)` of bytes that are no snapshot.
    RestoreGarbage,
    /// `restore(2, b"")`: no snapshot is empty (unless the implementation's own are).
    RestoreEmpty,
    /// `restore(2, b"{}")`: what a serde struct with defaulted fields reads as a fresh
    /// aligner, though no snapshot is `{}` (unless the implementation's own are).
    RestoreEmptyObject,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with ` trailing` after it: a
    /// snapshot is the bytes `snapshot` wrote, not a prefix of them.
    RestoreTrailing,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 padded ([`paddings`]):
    /// written twice on two lines (what a reader of a stream of values takes for its
    /// last), after a byte-order mark or a form feed, or followed by an ideographic space
    /// or a form feed (what a reader that strips what text readers strip takes for the
    /// snapshot).
    RestorePadded,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with every JSON number in
    /// it written as the string `"x"`, then as a string of its digits, then with a half
    /// added: the right shape, the wrong types (moot for a snapshot that is not JSON or
    /// holds no number).
    RestoreRetyped,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with every JSON number in it
    /// set to `u64::MAX`, then `on_element(0, Barrier(0))`: whatever the restore makes of
    /// it, no panic, and 0 is never a barrier in turn.
    RestoreClaimsMax,
    /// `aligned_snapshots` over no inputs at all.
    SnapshotsWithoutInputs,
    /// `aligned_snapshots` with a schedule naming input 1 of a single input.
    SnapshotsUnknownInput,
    /// `aligned_snapshots` taking two elements from an input that has one.
    SnapshotsPastTheEnd,
    /// The same over two inputs of one element each: the schedule is no longer than all
    /// the elements together, but input 0 has run dry.
    SnapshotsPastOneEnd,
    /// `aligned_snapshots` over an input whose first barrier is `Barrier(2)`.
    SnapshotsBarrierAhead,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with every JSON number `n`
    /// in it written `-n - 1` (`-2` for 1, `-1` for 0): what a reader of signed numbers
    /// cast to `u64` takes for a checkpoint near `2^64`.
    RestoreNegative,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with every JSON number in it
    /// set to `u64::MAX - 1`, then `Barrier(u64::MAX)` on inputs 0 and 1, then
    /// `Barrier(0)` on input 0: whatever the restore makes of it (checkpoint `u64::MAX`
    /// may complete, or be refused), no checkpoint follows `u64::MAX`, so the calls end
    /// in an error, never a panic and never a checkpoint id that wrapped to 0.
    BarrierMaxAfterRestore,
    /// The same restore, then `Barrier(u64::MAX)` on inputs 0 and 1 and on input 0 again:
    /// where checkpoint `u64::MAX` completes, its barrier is then one of a completed
    /// checkpoint, out of turn like any other; an aligner that saturates its next id at
    /// `u64::MAX` takes it for the next checkpoint.
    BarrierMaxRepeatedAfterRestore,
    /// `restore(2, b"null")`: what an `Option` reads as nothing, though no snapshot is
    /// `null` (unless the implementation's own are).
    RestoreNull,
    /// `restore(2, bytes)` of the implementation's own fresh snapshot with its counter
    /// one below a fresh aligner's (found by comparing its snapshots 0, 1 and 2
    /// checkpoints in): a checkpoint before the first, when the counter is the next
    /// checkpoint (1 on a fresh aligner); moot for a count of completed ones, whose -1
    /// `RestoreNegative` offers.
    RestoreBeforeTheFirst,
    /// The same with its counter at `u64::MAX` when the counter is the number of
    /// completed checkpoints (0 on a fresh aligner): bytes that say checkpoint
    /// `u64::MAX` completed, which no checkpoint follows; moot for a counter of the next
    /// checkpoint, where `u64::MAX` is a checkpoint still to come.
    RestoreCompletedMax,
    /// `restore(2, bytes)` of the snapshot after checkpoint 1 with every JSON number in it
    /// written `2^64`, then `2^64 + 1` ([`PAST_U64`]): no checkpoint id is past
    /// `u64::MAX`, where a reader of `u128` cast back with `as u64` finds checkpoint 0 or 1.
    RestorePastU64,
    /// `restore(2, bytes)` of the state after checkpoint 1 in each layout of
    /// `layouts::LAYOUTS` that is not the implementation's own: refused, or read as a
    /// derived `Deserialize` of its own type reads it (`layouts.rs`).
    RestoreOtherLayout,
}

impl BadCall {
    /// Every bad call, simplest first.
    pub const ALL: [BadCall; 26] = [
        BadCall::UnknownInput,
        BadCall::UnknownInputMax,
        BadCall::BarrierAhead,
        BadCall::BarrierOutOfTurn,
        BadCall::BarrierTwice,
        BadCall::BarrierBehind,
        BadCall::BarrierBehindRestore,
        BadCall::RestoreNoInputs,
        BadCall::RestoreGarbage,
        BadCall::RestoreEmpty,
        BadCall::RestoreEmptyObject,
        BadCall::RestoreTrailing,
        BadCall::RestorePadded,
        BadCall::RestoreRetyped,
        BadCall::RestoreClaimsMax,
        BadCall::SnapshotsWithoutInputs,
        BadCall::SnapshotsUnknownInput,
        BadCall::SnapshotsPastTheEnd,
        BadCall::SnapshotsPastOneEnd,
        BadCall::SnapshotsBarrierAhead,
        BadCall::RestoreNegative,
        BadCall::BarrierMaxAfterRestore,
        BadCall::BarrierMaxRepeatedAfterRestore,
        BadCall::RestoreNull,
        BadCall::RestoreBeforeTheFirst,
        BadCall::RestoreCompletedMax,
    ];

    /// The bad calls added after the others, planned after every other case so that
    /// those keep their numbers.
    pub const LATER: [BadCall; 1] = [BadCall::RestorePastU64];

    /// The bad call added after every other case, planned last of all so that every
    /// other keeps its number.
    pub const LAST: BadCall = BadCall::RestoreOtherLayout;

    /// The requirement of the brief that calls it an error.
    pub fn requirement(self) -> &'static str {
        match self {
            BadCall::UnknownInput | BadCall::UnknownInputMax => "06-R11",
            BadCall::BarrierAhead
            | BadCall::BarrierOutOfTurn
            | BadCall::BarrierTwice
            | BadCall::BarrierBehind => "06-R12",
            BadCall::BarrierBehindRestore => "06-R13",
            BadCall::RestoreNoInputs
            | BadCall::RestoreGarbage
            | BadCall::RestoreEmpty
            | BadCall::RestoreEmptyObject
            | BadCall::RestoreTrailing
            | BadCall::RestorePadded
            | BadCall::RestoreRetyped
            | BadCall::RestoreClaimsMax
            | BadCall::RestoreNegative
            | BadCall::RestoreNull
            | BadCall::RestoreBeforeTheFirst
            | BadCall::RestoreCompletedMax
            | BadCall::RestorePastU64
            | BadCall::RestoreOtherLayout => "06-R14",
            BadCall::BarrierMaxAfterRestore | BadCall::BarrierMaxRepeatedAfterRestore => "06-R12",
            BadCall::SnapshotsWithoutInputs
            | BadCall::SnapshotsUnknownInput
            | BadCall::SnapshotsPastTheEnd
            | BadCall::SnapshotsPastOneEnd
            | BadCall::SnapshotsBarrierAhead => "06-R17",
        }
    }

    /// The word the error's message must contain: the argument it names (`input` for an
    /// input that does not exist); `None` where the brief fixes no word.
    pub fn names(self) -> Option<&'static str> {
        match self {
            BadCall::UnknownInput | BadCall::UnknownInputMax => Some("input"),
            _ => None,
        }
    }

    /// The call, as a report shows it.
    pub fn describe(self) -> &'static str {
        match self {
            BadCall::UnknownInput => {
                "BarrierAligner::new(2), then on_element(2, a0): input 2 does not exist"
            }
            BadCall::UnknownInputMax => {
                "BarrierAligner::new(2), then on_element(usize::MAX, a0): input usize::MAX does not exist"
            }
            BadCall::BarrierAhead => {
                "BarrierAligner::new(2), then on_element(0, B2): barrier 1 comes first"
            }
            BadCall::BarrierOutOfTurn => {
                "BarrierAligner::new(2), then on_element(0, B1), on_element(1, B2): checkpoint 1 is being aligned"
            }
            BadCall::BarrierTwice => {
                "BarrierAligner::new(2), then on_element(0, B1), on_element(0, B1), on_element(1, B1): input 0 carries B1 twice"
            }
            BadCall::BarrierBehind => {
                "BarrierAligner::new(2), then on_element(0, B1), on_element(1, B1), on_element(0, B1): checkpoint 1 is already complete"
            }
            BadCall::BarrierBehindRestore => {
                "restore(2, the snapshot after checkpoint 1), then on_element(0, B1): the restored aligner expects checkpoint 2"
            }
            BadCall::RestoreNoInputs => "restore(0, a fresh aligner's snapshot): 0 inputs",
            BadCall::RestoreGarbage => {
                "restore(2, b\"not a snapshot\"): bytes that are no snapshot"
            }
            BadCall::RestoreEmpty => "restore(2, b\"\"): empty bytes are no snapshot",
            BadCall::RestoreEmptyObject => {
                "restore(2, b\"{}\"): an empty JSON object is no snapshot (a fresh aligner's snapshot is not {})"
            }
            BadCall::RestoreTrailing => {
                "restore(2, the snapshot after checkpoint 1 + b\" trailing\"): nothing may follow the bytes snapshot() wrote"
            }
            BadCall::RestorePadded => {
                "restore(2, the snapshot after checkpoint 1 written twice on two lines, after a byte-order mark or a form feed, or followed by an ideographic space (U+3000) or a form feed): none of them is a snapshot"
            }
            BadCall::RestoreRetyped => {
                "restore(2, the snapshot after checkpoint 1 with its numbers written as \"x\", as strings of their digits or with a half added, all at once, then each alone): the wrong types are no snapshot"
            }
            BadCall::RestoreClaimsMax => {
                "restore(2, the snapshot after checkpoint 1 with its numbers set to u64::MAX), then on_element(0, B0): no barrier 0 is ever in turn"
            }
            BadCall::RestoreNegative => {
                "restore(2, the snapshot after checkpoint 1 with each number n written -n - 1, so -2 for 1): a checkpoint id is never negative"
            }
            BadCall::BarrierMaxAfterRestore => {
                "restore(2, the snapshot after checkpoint 1 with its numbers set to u64::MAX - 1), then on_element(0, B18446744073709551615), on_element(1, B18446744073709551615), on_element(0, B0): no checkpoint follows u64::MAX, and no barrier 0 is ever in turn"
            }
            BadCall::BarrierMaxRepeatedAfterRestore => {
                "restore(2, the snapshot after checkpoint 1 with its numbers set to u64::MAX - 1), then on_element(0, B18446744073709551615), on_element(1, B18446744073709551615), on_element(0, B18446744073709551615): a barrier of a completed checkpoint is out of turn, and no checkpoint follows u64::MAX"
            }
            BadCall::RestoreNull => {
                "restore(2, b\"null\"): null is no snapshot (a fresh aligner's snapshot is not null)"
            }
            BadCall::RestoreBeforeTheFirst => {
                "restore(2, your fresh aligner's snapshot with its checkpoint counter, which it writes as 1, set to 0): no snapshot expects a checkpoint before the first"
            }
            BadCall::RestoreCompletedMax => {
                "restore(2, your fresh aligner's snapshot with its count of completed checkpoints, which it writes as 0, set to u64::MAX): no checkpoint follows u64::MAX"
            }
            BadCall::RestorePastU64 => {
                "restore(2, the snapshot after checkpoint 1 with its numbers written 18446744073709551616, then 18446744073709551617): no checkpoint id is past u64::MAX"
            }
            BadCall::RestoreOtherLayout => {
                "restore(2, the state of an aligner of 2 inputs after checkpoint 1 in each layout a snapshot of it commonly takes but yours does not: {\"completed\":1}, {\"next\":2}, {\"last_completed\":1}, 1, 2): bytes your snapshot() never writes, which restore must refuse or read only as a derived Deserialize of your snapshot's type reads them"
            }
            BadCall::SnapshotsWithoutInputs => "aligned_snapshots over no inputs",
            BadCall::SnapshotsUnknownInput => {
                "aligned_snapshots over input 0 = [a0]; arrivals 1: input 1 does not exist"
            }
            BadCall::SnapshotsPastTheEnd => {
                "aligned_snapshots over input 0 = [a0]; arrivals 0 0: input 0 has one element"
            }
            BadCall::SnapshotsPastOneEnd => {
                "aligned_snapshots over input 0 = [a0], input 1 = [b0]; arrivals 0 0: input 0 has one element"
            }
            BadCall::SnapshotsBarrierAhead => {
                "aligned_snapshots over input 0 = [B2]; arrivals 0: barrier 1 comes first"
            }
        }
    }

    /// Makes the call: `Ok` with what it answered, or the error's message.
    pub fn run<I: Implementation>(self) -> Result<String, String> {
        let a0 = || Elem::Record("a0".to_owned());
        let answered =
            |r: anyhow::Result<Vec<super::case::Out>>| r.map(|out| format!("Ok({out:?})"));
        let result = match self {
            BadCall::UnknownInput => {
                I::aligner(2).and_then(|mut a| answered(I::on_element(&mut a, 2, a0())))
            }
            BadCall::UnknownInputMax => {
                I::aligner(2).and_then(|mut a| answered(I::on_element(&mut a, usize::MAX, a0())))
            }
            BadCall::BarrierAhead => {
                I::aligner(2).and_then(|mut a| answered(I::on_element(&mut a, 0, Elem::Barrier(2))))
            }
            BadCall::BarrierOutOfTurn => I::aligner(2).and_then(|mut a| {
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                answered(I::on_element(&mut a, 1, Elem::Barrier(2)))
            }),
            BadCall::BarrierTwice => I::aligner(2).and_then(|mut a| {
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                answered(I::on_element(&mut a, 1, Elem::Barrier(1)))
            }),
            BadCall::BarrierBehind => I::aligner(2).and_then(|mut a| {
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                I::on_element(&mut a, 1, Elem::Barrier(1))?;
                answered(I::on_element(&mut a, 0, Elem::Barrier(1)))
            }),
            BadCall::BarrierBehindRestore => I::aligner(2).and_then(|mut a| {
                I::on_element(&mut a, 0, Elem::Barrier(1))?;
                I::on_element(&mut a, 1, Elem::Barrier(1))?;
                let mut restored = I::restore(2, &I::snapshot(&a)?)?;
                answered(I::on_element(&mut restored, 0, Elem::Barrier(1)))
            }),
            BadCall::RestoreNoInputs => I::aligner(1)
                .and_then(|a| I::restore(0, &I::snapshot(&a)?))
                .map(|_| "Ok(an aligner)".to_owned()),
            BadCall::RestoreGarbage => {
                I::restore(2, b"not a snapshot").map(|_| "Ok(an aligner)".to_owned())
            }
            // An implementation whose own snapshot of a fresh aligner is empty may read
            // empty bytes back: the check is then moot, counted as passed.
            BadCall::RestoreEmpty => match I::aligner(2).and_then(|a| I::snapshot(&a)) {
                Ok(own) if own.is_empty() => Err(anyhow::anyhow!("its own snapshot is empty")),
                _ => I::restore(2, b"").map(|_| "Ok(an aligner)".to_owned()),
            },
            // Likewise for an implementation whose own fresh snapshot is `{}`.
            BadCall::RestoreEmptyObject => match I::aligner(2).and_then(|a| I::snapshot(&a)) {
                Ok(own) if own == b"{}" => Err(anyhow::anyhow!("its own snapshot is {{}}")),
                _ => I::restore(2, b"{}").map(|_| "Ok(an aligner)".to_owned()),
            },
            BadCall::RestoreTrailing => after_checkpoint_1::<I>().and_then(|own| {
                let trailed = [own, b" trailing".to_vec()].concat();
                I::restore(2, &trailed).map(|_| "Ok(an aligner)".to_owned())
            }),
            BadCall::RestorePadded => after_checkpoint_1::<I>().and_then(|own| {
                for (padding, bytes) in paddings(&own) {
                    if I::restore(2, &bytes).is_ok() {
                        return Ok(format!("Ok(an aligner) of {}", padding.describe()));
                    }
                }
                Err(anyhow::anyhow!("every padded snapshot is refused"))
            }),
            BadCall::RestoreRetyped => after_checkpoint_1::<I>().and_then(|own| {
                restore_retyped(&own, |bytes| {
                    I::restore(2, bytes).map(|_| "Ok(an aligner)".to_owned())
                })
            }),
            BadCall::RestoreClaimsMax => {
                after_checkpoint_1::<I>().and_then(|own| {
                    match renumbered(&own, |_| serde_json::Value::from(u64::MAX)) {
                        None => Err(anyhow::anyhow!("its snapshot holds no JSON number")),
                        Some(bytes) => {
                            let mut restored = I::restore(2, &bytes)?;
                            answered(I::on_element(&mut restored, 0, Elem::Barrier(0)))
                        }
                    }
                })
            }
            BadCall::SnapshotsWithoutInputs => {
                I::aligned_snapshots(Vec::new(), &[]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::RestoreNegative => after_checkpoint_1::<I>().and_then(|own| {
                // Less one, so that a cast back to `u64` lands below `u64::MAX`,
                // which a restore refuses for its own reason.
                let negative =
                    |n: &serde_json::Number| serde_json::Value::from(-n.as_i64().unwrap_or(0) - 1);
                match renumbered(&own, negative) {
                    None => Err(anyhow::anyhow!("its snapshot holds no JSON number")),
                    Some(bytes) => I::restore(2, &bytes).map(|_| "Ok(an aligner)".to_owned()),
                }
            }),
            BadCall::BarrierMaxAfterRestore => after_checkpoint_1::<I>().and_then(|own| {
                match renumbered(&own, |_| serde_json::Value::from(u64::MAX - 1)) {
                    None => Err(anyhow::anyhow!("its snapshot holds no JSON number")),
                    Some(bytes) => {
                        let mut restored = I::restore(2, &bytes)?;
                        I::on_element(&mut restored, 0, Elem::Barrier(u64::MAX))?;
                        I::on_element(&mut restored, 1, Elem::Barrier(u64::MAX))?;
                        answered(I::on_element(&mut restored, 0, Elem::Barrier(0)))
                    }
                }
            }),
            BadCall::BarrierMaxRepeatedAfterRestore => after_checkpoint_1::<I>().and_then(|own| {
                match renumbered(&own, |_| serde_json::Value::from(u64::MAX - 1)) {
                    None => Err(anyhow::anyhow!("its snapshot holds no JSON number")),
                    Some(bytes) => {
                        let mut restored = I::restore(2, &bytes)?;
                        I::on_element(&mut restored, 0, Elem::Barrier(u64::MAX))?;
                        I::on_element(&mut restored, 1, Elem::Barrier(u64::MAX))?;
                        answered(I::on_element(&mut restored, 0, Elem::Barrier(u64::MAX)))
                    }
                }
            }),
            BadCall::RestoreNull => match I::aligner(2).and_then(|a| I::snapshot(&a)) {
                Ok(own) if own == b"null" => Err(anyhow::anyhow!("its own snapshot is null")),
                _ => I::restore(2, b"null").map(|_| "Ok(an aligner)".to_owned()),
            },
            BadCall::RestoreBeforeTheFirst => own_counter::<I>().and_then(|counter| {
                anyhow::ensure!(counter.base > 0, "its counter counts from 0");
                I::restore(2, &counter.set_to(counter.base - 1))
                    .map(|_| "Ok(an aligner)".to_owned())
            }),
            BadCall::RestoreCompletedMax => own_counter::<I>().and_then(|counter| {
                anyhow::ensure!(counter.base == 0, "its counter is the next checkpoint");
                I::restore(2, &counter.set_to(u64::MAX)).map(|_| "Ok(an aligner)".to_owned())
            }),
            BadCall::RestorePastU64 => after_checkpoint_1::<I>().and_then(|own| {
                let mut refusal = anyhow::anyhow!("its snapshot holds no JSON number");
                for digits in PAST_U64 {
                    let Some(bytes) = renumbered_past_u64(&own, digits) else {
                        continue;
                    };
                    match I::restore(2, &bytes) {
                        Ok(_) => return Ok(format!("Ok(an aligner), with its numbers {digits}")),
                        Err(error) => refusal = error,
                    }
                }
                Err(refusal)
            }),
            BadCall::RestoreOtherLayout => super::layouts::restored_otherwise::<I>(),
            BadCall::SnapshotsUnknownInput => {
                I::aligned_snapshots(vec![vec![a0()]], &[1]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsPastTheEnd => {
                I::aligned_snapshots(vec![vec![a0()]], &[0, 0]).map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsPastOneEnd => {
                let b0 = Elem::Record("b0".to_owned());
                I::aligned_snapshots(vec![vec![a0()], vec![b0]], &[0, 0])
                    .map(|s| format!("Ok({s:?})"))
            }
            BadCall::SnapshotsBarrierAhead => {
                I::aligned_snapshots(vec![vec![Elem::Barrier(2)]], &[0])
                    .map(|s| format!("Ok({s:?})"))
            }
        };
        result.map_err(|e| format!("{e:#}"))
    }
}

/// The counter of the implementation's own snapshots of an aligner of 2 inputs; an error
/// (a moot case) when they hold none that can be told.
pub(super) fn own_counter<I: Implementation>() -> anyhow::Result<Counter> {
    let mut aligner = I::aligner(2)?;
    let mut snapshots = vec![I::snapshot(&aligner)?];
    for c in 1..=2 {
        I::on_element(&mut aligner, 0, Elem::Barrier(c))?;
        I::on_element(&mut aligner, 1, Elem::Barrier(c))?;
        snapshots.push(I::snapshot(&aligner)?);
    }
    Counter::find([&snapshots[0], &snapshots[1], &snapshots[2]])
        .ok_or_else(|| anyhow::anyhow!("its snapshots hold no counter that can be told"))
}

/// The implementation's own snapshot of an aligner of 2 inputs after checkpoint 1.
fn after_checkpoint_1<I: Implementation>() -> anyhow::Result<Vec<u8>> {
    let mut aligner = I::aligner(2)?;
    I::on_element(&mut aligner, 0, Elem::Barrier(1))?;
    I::on_element(&mut aligner, 1, Elem::Barrier(1))?;
    I::snapshot(&aligner)
}
