//! Binds this crate to the stage-03 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage03!(stage03);
