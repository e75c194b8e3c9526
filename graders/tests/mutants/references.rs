//! The references of stages 01 to 07 pass under every seed of the sweep (stage 08's is
//! in its own catalogue), so that no mutant is rejected for a draw a correct solution
//! would fail too.

use crate::accepted;

graders::impl_stage01!(Reference01, solution01);
accepted!(stage01_reference_passes: graders::stage01::Dataflow, graders::stage01::drive::<Reference01>);

graders::impl_stage02!(Reference02, Reference02Spy, solution02);
accepted!(stage02_reference_passes: graders::stage02::KeyedStateStage, graders::stage02::drive::<Reference02>);

graders::impl_stage03!(Reference03, solution03);
accepted!(stage03_reference_passes: graders::stage03::Parallelism, graders::stage03::drive::<Reference03>);

graders::impl_stage04!(Reference04, solution04);
accepted!(stage04_reference_passes: graders::stage04::EventTime, graders::stage04::drive::<Reference04>);

graders::impl_stage05!(Reference05, Reference05Operator, solution05);
accepted!(stage05_reference_passes: graders::stage05::Windows, graders::stage05::drive::<Reference05>);

graders::impl_stage06!(Reference06, solution06);
accepted!(stage06_reference_passes: graders::stage06::Barriers, graders::stage06::drive::<Reference06>);

graders::impl_stage07!(Reference07, Reference07Spy, solution07);
accepted!(stage07_reference_passes: graders::stage07::ExactlyOnceState, graders::stage07::drive::<Reference07>);
