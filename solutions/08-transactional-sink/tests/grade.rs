//! Grades the reference through the same checks a learner gets.
fn main() {}
