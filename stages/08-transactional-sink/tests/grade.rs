//! Grades this crate: `byo test 08` builds it with the `grade` feature.
fn main() {}
