//! Stage 01 mutants whose smallest cases were blamed on the wrong sentence: a reading of
//! `position()` that is off while the source moves right (01-R2), a ring that rewinds
//! after its end (01-R13 in the contract too), and a `Filter` that puts its record in
//! front of `out` (01-R7, not the predicate's card).

use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

source! {
    /// **Mistake:** `position()` counts from 1, as a line number does, while `poll` and
    /// `seek` move by the offset counted from 0: the source moves right and only says the
    /// wrong place.
    /// **Verdict:** every check that reads `position()` blames 01-R2: on `[]`, `seek(0)`
    /// then `position()` is 1.
    mod position_counts_from_one { next: usize = 0 }
    poll(self) {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }
    position(self) { self.next as Offset + 1 }
    seek(self, offset) {
        anyhow::ensure!(offset <= self.records.len() as Offset, "offset {offset} is past the end");
        self.next = offset as usize;
        Ok(())
    }
}

/// **Mistake:** `Filter` puts the record it keeps at the front of `out` ("newest
/// first"); its predicate is right.
/// **Verdict:** `process` fails with 01-R7; the filter's card (a predicate turned
/// around) must not show, since the chain keeps exactly the right records.
pub mod filter_prepends {
    pub use solution01::{FlatMap, Map, Operator, Source, VecSource, run};

    pub struct Filter<P>(pub P);
    impl<T, P: FnMut(&T) -> bool> Operator<T> for Filter<P> {
        type Out = T;
        fn process(&mut self, input: T, out: &mut Vec<T>) {
            if (self.0)(&input) {
                out.insert(0, input);
            }
        }
    }
}

graders::impl_stage01!(PositionCountsFromOne, position_counts_from_one);
graders::impl_stage01!(FilterPrepends, filter_prepends);
graders::impl_stage01!(PollWrapsAtTheEnd, super::redteam::poll_wraps_at_the_end);

/// Each mutant, a check that rejects it, and the requirement that check's smallest
/// failing case must name: the sentence broken, whichever check finds it.
#[rstest]
#[case::position_in_seek(drive::<PositionCountsFromOne>, "seek", "01-R2")]
#[case::position_in_seek_past_end(drive::<PositionCountsFromOne>, "seek-past-end", "01-R2")]
#[case::position_in_contract(drive::<PositionCountsFromOne>, "contract", "01-R2")]
#[case::position_in_crash(drive::<PositionCountsFromOne>, "crash", "01-R2")]
#[case::wrap_in_contract(drive::<PollWrapsAtTheEnd>, "contract", "01-R13")]
#[case::filter_prepends(drive::<FilterPrepends>, "process", "01-R7")]
fn blames_the_sentence_broken(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Dataflow>(drive, check, requirement);
}
