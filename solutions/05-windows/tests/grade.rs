//! Grades the reference through the same checks a learner gets.
graders::bind_stage05!(solution05);
