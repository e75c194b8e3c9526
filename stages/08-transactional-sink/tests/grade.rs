//! Grades this crate: `byo test 08` builds it with the `grade` feature.
graders::bind_stage08!(stage08);
