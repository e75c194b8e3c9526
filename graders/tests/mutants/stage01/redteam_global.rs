//! Stage 01 mutants of the fourth red team: state kept outside the source, which every
//! case reading one source at a time passes; two sources read side by side (the
//! `contract` check) reject it.

use graders::stage01::{Case, Dataflow, Observation, drive};
use rstest::rstest;

/// **Mistake:** the read position lives in a `thread_local!` that `new` resets ("a job
/// reads one source at a time"), against the brief's "no global state": two live sources
/// share one position.
/// **Verdict:** `contract`: after `a.poll()`, `VecSource::new` of `b` puts the shared
/// position back to 0, and `a.poll()` returns `10` again, not `11` (01-R11).
pub mod position_in_a_thread_local {
    pub use solution01::{Filter, FlatMap, Map, Offset, Operator, Source, run};

    use std::cell::Cell;

    thread_local! {
        // The read position of the source being read.
        static NEXT: Cell<usize> = const { Cell::new(0) };
    }

    pub struct VecSource<T> {
        records: Vec<T>,
    }

    impl<T> VecSource<T> {
        pub fn new(records: Vec<T>) -> Self {
            NEXT.with(|next| next.set(0));
            Self { records }
        }
    }

    impl<T: Clone> Source for VecSource<T> {
        type Item = T;

        fn poll(&mut self) -> Option<T> {
            let next = NEXT.with(Cell::get);
            let record = self.records.get(next)?.clone();
            NEXT.with(|n| n.set(next + 1));
            Some(record)
        }

        fn position(&self) -> Offset {
            NEXT.with(Cell::get) as Offset
        }

        fn seek(&mut self, offset: Offset) -> anyhow::Result<()> {
            let len = self.records.len();
            anyhow::ensure!(
                offset <= len as Offset,
                "seek: offset {offset} is past the end of the source ({len} records)"
            );
            NEXT.with(|n| n.set(offset as usize));
            Ok(())
        }
    }
}
graders::impl_stage01!(PositionInAThreadLocal, position_in_a_thread_local);

/// The mutant, the check that must reject it and the one requirement its smallest failing
/// case must name; no card: a slip of where state lives, which no belief about sources
/// explains.
#[rstest]
#[case::position_in_a_thread_local(drive::<PositionInAThreadLocal>, "contract", "01-R11")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Dataflow>(drive, check, requirement);
}
