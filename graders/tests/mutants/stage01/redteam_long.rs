//! Stage 01 mutants of the third red team, which show only past a size: a `run` that
//! stops after a bound, a source that compacts what it delivered, a position kept in a
//! `u16`. Each passes every case of six records or fewer; the long log of the `contract`
//! check (2^16 + 3 records) rejects it. And two of the fifth red team that pass the long
//! log too: a `FlatMap` and a `run` capped at 2^16 and 2^20 records, which the wide cases
//! (2^20 + 3 records) reject.

use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

/// **Mistake:** `run` polls at most 1024 times, a guard "against a source that never
/// ends": every source the author tried was shorter.
/// **Verdict:** `contract`: on the long log, `run` from 0 returns 1024 records and leaves
/// the source at 1024, not drained (01-R9).
pub mod run_polls_at_most_1024 {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        const MAX_RECORDS: usize = 1 << 10;
        let mut out = Vec::new();
        for _ in 0..MAX_RECORDS {
            let Some(record) = source.poll() else { break };
            op.process(record, &mut out);
        }
        out
    }
}

/// **Mistake:** (w01-04) `FlatMap` takes at most 2^16 records of what its function
/// returns, a guard "against `repeat()`": no function the author tried returned more.
/// **Verdict:** `process`: `FlatMap(|x| 0..x)` on 2^20 + 3 emits 65,536 records (01-R6).
pub mod flat_map_takes_at_most_65536 {
    pub use solution01::{Filter, Map, Operator, Source, VecSource, run};

    pub struct FlatMap<F>(pub F);
    impl<In, Out, I, F> Operator<In> for FlatMap<F>
    where
        F: FnMut(In) -> I,
        I: IntoIterator<Item = Out>,
    {
        type Out = Out;
        fn process(&mut self, input: In, out: &mut Vec<Out>) {
            const MAX_FANOUT: usize = 1 << 16;
            out.extend((self.0)(input).into_iter().take(MAX_FANOUT));
        }
    }
}

/// **Mistake:** (w01-01) `run` polls at most 2^20 times, a guard "against a source that
/// never ends" set past the long log's 65,539 records.
/// **Verdict:** `chain`: over 2^20 + 3 records, `run` returns 1,048,576 outputs and
/// leaves the source undrained (01-R9).
pub mod run_polls_at_most_a_million {
    pub use solution01::{Filter, FlatMap, Map, Operator, Source, VecSource};

    pub fn run<S: Source, O: Operator<S::Item>>(source: &mut S, op: &mut O) -> Vec<O::Out> {
        const MAX_POLLS: usize = 1 << 20;
        let mut out = Vec::new();
        for _ in 0..MAX_POLLS {
            let Some(record) = source.poll() else { break };
            op.process(record, &mut out);
        }
        out
    }
}

source! {
    /// **Mistake:** to keep memory bounded, every 16th poll drops the records already
    /// delivered, and `seek` refuses an offset below what is left ("already compacted").
    /// **Verdict:** `contract`: after the long log was read to the end, `seek(0)` is
    /// refused (01-R3).
    mod compacts_every_16_polls { next: usize = 0, polls: usize = 0, base: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next - self.base)?.clone();
        self.next += 1;
        self.polls += 1;
        if self.polls == 16 {
            self.records.drain(..self.next - self.base);
            self.base = self.next;
            self.polls = 0;
        }
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        let len = self.base + self.records.len();
        anyhow::ensure!(offset <= len as Offset, "seek: offset {offset} is past the end ({len} records)");
        anyhow::ensure!(offset >= self.base as Offset, "seek: offset {offset} was already compacted away");
        self.next = offset as usize;
        Ok(())
    }
}

source! {
    /// **Mistake:** the position is a `u16` that wraps ("no test log is that long"), and
    /// `seek` keeps the offset's low 16 bits once it passed the bound check.
    /// **Verdict:** `contract`: on the long log, poll number 65,537 returns `records[0]`
    /// again (01-R1), and the source never ends.
    mod position_in_u16 { next: u16 = 0 }
    poll(self) {
        let record = self.records.get(usize::from(self.next))?.clone();
        self.next = self.next.wrapping_add(1);
        Some(record)
    }
    position(self) { Offset::from(self.next) }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as u16;
        Ok(())
    }
}

source! {
    /// **Mistake:** polls count in a `usize`, but `seek` goes through a `u16` page index
    /// (`offset as u16`) after the bound check: every offset below 2^16 lands right.
    /// **Verdict:** `contract`: on the long log, `seek(65538)` lands at 2 (01-R3).
    mod seek_keeps_16_bits { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = usize::from(offset as u16);
        Ok(())
    }
}

graders::impl_stage01!(RunPollsAtMost1024, run_polls_at_most_1024);
graders::impl_stage01!(CompactsEvery16Polls, compacts_every_16_polls);
graders::impl_stage01!(PositionInU16, position_in_u16);
graders::impl_stage01!(SeekKeeps16Bits, seek_keeps_16_bits);
graders::impl_stage01!(FlatMapTakesAtMost65536, flat_map_takes_at_most_65536);
graders::impl_stage01!(RunPollsAtMostAMillion, run_polls_at_most_a_million);

/// Each mutant, the check that must reject it, the one requirement its smallest failing
/// case must name, and the card its report must show: the compacting source refuses to
/// go back, as one that only seeks forward does; the others are slips of size, with no
/// card.
#[rstest]
#[case::run_polls_at_most_1024(drive::<RunPollsAtMost1024>, "contract", "01-R9", None)]
#[case::compacts_every_16_polls(drive::<CompactsEvery16Polls>, "contract", "01-R3", Some("01-seek-only-forward"))]
#[case::position_in_u16(drive::<PositionInU16>, "contract", "01-R1", None)]
#[case::seek_keeps_16_bits(drive::<SeekKeeps16Bits>, "contract", "01-R3", None)]
#[case::flat_map_takes_at_most_65536(drive::<FlatMapTakesAtMost65536>, "process", "01-R6", None)]
#[case::run_polls_at_most_a_million(drive::<RunPollsAtMostAMillion>, "chain", "01-R9", None)]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    match card {
        Some(card) => {
            let report =
                graders::harness::expect_rejected_for::<Dataflow>(drive, check, requirement)
                    .unwrap_or_else(|why| crate::fail(&why));
            crate::cards::shows(&report, card);
        }
        None => crate::cards::rejected_without_card::<Dataflow>(drive, check, requirement),
    }
}
