//! Binds this crate to the stage-05 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage05!(stage05);
