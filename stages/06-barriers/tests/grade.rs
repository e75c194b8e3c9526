//! Binds this crate to the stage-06 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage06!(stage06);
