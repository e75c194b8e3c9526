//! Grades the reference through the same checks a learner gets.
graders::bind_stage06!(solution06);
