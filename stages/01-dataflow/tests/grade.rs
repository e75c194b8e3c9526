//! Binds this crate to the stage-01 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage01!(stage01);
