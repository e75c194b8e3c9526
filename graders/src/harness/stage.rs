//! What every stage's grader is: a plan of cases and a judge of observations, declared
//! by [`grader!`](crate::grader) from the stage's own `plan`, `driver` and `judge`.

use serde::{Serialize, de::DeserializeOwned};
use serde_json::value::RawValue;

use super::protocol::plan_fingerprint;

use super::case::{Case, Failure};

/// The seed of the plan a learner sees: fixed, so a report and its replay agree.
pub const DEFAULT_SEED: u64 = 0x5EED_0001;

/// One stage's grader: a plan of cases and a judge of observations.
///
/// The driver is not part of this trait because it is generic over the stage's binding
/// trait; see each stage's `drive` function.
pub trait Stage {
    /// The stage number, 1..=8.
    const NUMBER: u8;
    /// One case of the plan (serialisable, so the plan has a fingerprint).
    type Case: Case + Serialize;
    /// What the driver observed when it ran one case.
    type Observation: Serialize + DeserializeOwned;

    /// Every case, smallest first within each check. The same seed gives the same plan,
    /// in the driver's process and in the judge's.
    fn plan(seed: u64) -> Vec<Self::Case>;

    /// `Ok` when `observation` is what `case` demands; otherwise the first thing wrong.
    ///
    /// # Errors
    /// The [`Failure`] that explains what was expected and what came out.
    fn judge(case: &Self::Case, observation: &Self::Observation) -> Result<(), Failure>;

    /// The fingerprint of `plan` ([`plan_fingerprint`]).
    ///
    /// [`grader!`](crate::grader) implements it (and [`encode`](Self::encode)) with the
    /// stage's concrete types, so that the code is compiled once, in the graders (at their
    /// opt-level), and a grade binary only calls it: instantiated in the grade binary, as
    /// this default is, it runs unoptimised, and the driver spent most of its time here.
    fn fingerprint(plan: &[Self::Case]) -> u64 {
        plan_fingerprint(plan)
    }

    /// `observation` as the raw JSON that crosses the process boundary.
    ///
    /// # Errors
    /// When the observation does not serialise.
    fn encode(observation: &Self::Observation) -> serde_json::Result<Box<RawValue>> {
        serde_json::value::to_raw_value(observation)
    }
}

/// Declares a stage's grader from the modules of the stage that invokes it, so that a
/// stage is its `plan`, `driver`, `judge` and oracle and nothing more:
///
/// ```text
/// graders::grader! {
///     /// The stage-01 grader.
///     stage01::Dataflow = 1, bound by bind_stage01 => impl_stage01!(Binding)
/// }
/// ```
///
/// expands to the unit struct `Dataflow`, its [`Stage`] impl (the `Case` and
/// `Observation` in scope, `plan::plan` and `judge::judge` of the invoking module) and the
/// exported macro `bind_stage01!`: the whole `tests/grade.rs` of a stage crate, which
/// binds the crate with `impl_stage01!(Binding, ..)` (after `Binding`, the local type
/// names that stage's binding macro takes) and gives the grade binary its `main`.
#[doc(hidden)]
#[macro_export]
macro_rules! grader {
    (
        $(#[$doc:meta])*
        $module:ident :: $grader:ident = $number:literal,
        bound by $bind:ident => $implement:ident!(Binding $(, $local:ident)*)
    ) => {
        $crate::grader! {
            @dollar ($)
            $(#[$doc])* $module::$grader = $number, $bind, $implement, [$($local),*]
        }
    };
    // `$d` is a `$` handed down, so that the generated `bind_stageNN!` can have
    // metavariables of its own.
    (
        @dollar ($d:tt)
        $(#[$doc:meta])*
        $module:ident :: $grader:ident = $number:literal,
        $bind:ident, $implement:ident, [$($local:ident),*]
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $grader;

        impl $crate::harness::stage::Stage for $grader {
            const NUMBER: u8 = $number;
            type Case = Case;
            type Observation = Observation;

            fn plan(seed: u64) -> Vec<Case> {
                plan::plan(seed)
            }

            fn judge(
                case: &Case,
                observation: &Observation,
            ) -> Result<(), $crate::harness::case::Failure> {
                judge::judge(case, observation)
            }

            fn fingerprint(plan: &[Case]) -> u64 {
                $crate::harness::protocol::plan_fingerprint(plan)
            }

            fn encode(
                observation: &Observation,
            ) -> serde_json::Result<Box<serde_json::value::RawValue>> {
                serde_json::value::to_raw_value(observation)
            }
        }

        #[doc = concat!(
            "The whole `tests/grade.rs` of a ", stringify!($module), " crate: `graders::",
            stringify!($bind), "!(", stringify!($module), ");` binds the crate and gives the \
            grade binary its `main`."
        )]
        #[macro_export]
        macro_rules! $bind {
            ($d($d imp:ident)::+) => {
                $crate::$implement!(Binding, $($local,)* $d($d imp)::+);

                fn main() {
                    $crate::harness::driver::main::<$crate::$module::$grader>(
                        $crate::$module::drive::<Binding>,
                    );
                }
            };
        }
    };
}
