//! Binds this crate to the stage-07 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage07!(stage07);
