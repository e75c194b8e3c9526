//! Binds this crate to the stage-04 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage04!(stage04);
