//! Grades the reference through the same checks a learner gets.
graders::bind_stage02!(solution02);
