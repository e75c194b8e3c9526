//! Grades the reference through the same checks a learner gets.
graders::bind_stage03!(solution03);
