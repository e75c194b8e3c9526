//! The mutant catalogues: realistic wrong implementations of every stage, each of which
//! its grader must reject with the check its doc comment names.
//!
//! A mutant is a module that re-exports the reference and shadows the one item it gets
//! wrong; `impl_stageNN!` binds it exactly as a learner's crate is bound, and
//! `rejected!` asserts which check must fail.

mod stage01;
mod stage02;
mod stage03;
mod stage04;
mod stage05;
mod stage06;
mod stage07;
mod stage08;

/// Declares a test asserting that the grader of stage `$stage`, driving through
/// `$drive`, rejects the mutant with the check named `$check`.
macro_rules! rejected {
    ($test:ident: $stage:ty, $drive:expr => $check:literal) => {
        #[test]
        fn $test() {
            if let Err(why) = graders::harness::expect_rejected::<$stage>($drive, $check) {
                panic!("{why}");
            }
        }
    };
}
pub(crate) use rejected;

/// Declares a test asserting that the grader of stage `$stage`, driving through
/// `$drive`, accepts a correct variant (a mutant catalogue's scaffolding without its
/// mistake, or a correct solution that differs from the reference).
macro_rules! accepted {
    ($test:ident: $stage:ty, $drive:expr) => {
        #[test]
        fn $test() {
            if let Err(why) = graders::harness::expect_accepted::<$stage>($drive) {
                panic!("{why}");
            }
        }
    };
}
pub(crate) use accepted;
