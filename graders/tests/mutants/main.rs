//! The mutant catalogues: realistic wrong implementations of every stage, each of which
//! its grader must reject with the check its doc comment names.
//!
//! A mutant is a module that re-exports the reference and shadows the one item it gets
//! wrong; `impl_stageNN!` binds it exactly as a learner's crate is bound. Each catalogue
//! ends with its table: one `#[case]` per mutant and check that must reject it, run by
//! [`rejects`], with the misconception card its report must show ([`cards::shows`]);
//! [`accepted!`] declares the controls that must pass, with no card.

mod stage01;
mod stage02;
mod stage03;
mod stage04;
mod stage05;
mod stage06;
mod stage07;
mod stage08;

mod cards;
mod notation;
mod references;
mod registry;
mod unseen;
mod wordings;

use graders::harness::{Stage, StageReport, expect_rejected};

/// Fails the test, printing `why` first: the harness's panic hook keeps panic messages
/// for its reports, so a plain `panic!` message would not be shown.
pub(crate) fn fail(why: &str) -> ! {
    eprintln!("{why}");
    panic!("{why}");
}

/// The report of the grader of stage `S`, driving through `drive`, which must reject the
/// mutant with the check named `check`; fails the test otherwise.
pub(crate) fn rejects<S: Stage>(drive: fn(&S::Case) -> S::Observation, check: &str) -> StageReport {
    expect_rejected::<S>(drive, check).unwrap_or_else(|why| fail(&why))
}

/// Declares a test asserting that the grader of stage `$stage`, driving through
/// `$drive`, accepts a correct variant (a mutant catalogue's scaffolding without its
/// mistake, or a correct solution that differs from the reference) and finds no
/// misconception in it.
macro_rules! accepted {
    ($test:ident: $stage:ty, $drive:expr) => {
        #[test]
        fn $test() {
            if let Err(why) = graders::harness::expect_accepted::<$stage>($drive) {
                $crate::fail(&why);
            }
            $crate::cards::none_for::<$stage>($drive);
        }
    };
}
pub(crate) use accepted;
