//! Binds this crate to the stage-02 grader (run it with `just test` or `cargo byo test`).
graders::bind_stage02!(stage02);
