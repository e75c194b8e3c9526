//! Grades the reference through the same checks a learner gets.
graders::bind_stage08!(solution08);
