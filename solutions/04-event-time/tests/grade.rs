//! Grades the reference through the same checks a learner gets.
graders::bind_stage04!(solution04);
