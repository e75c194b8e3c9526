//! Who a submission belongs to and when it came in: the student the roster names for its
//! folder, and its hand-in time against the due date.

use serde::{Deserialize, Serialize};

/// A student, as the instructor's roster names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Student {
    /// The id to join with a learning platform's gradebook.
    pub id: String,
    /// The name.
    pub name: String,
}

/// What the roster and the due date say of one submission (each `None` without them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// The student the roster names for the submission's folder.
    pub student: Option<Student>,
    /// When it was handed in (UTC): the newest modification time of the files graded.
    pub submitted_at: Option<String>,
    /// The due date it was graded against (UTC).
    pub due: Option<String>,
    /// Whole minutes past the due date; 0 when on time.
    pub late_minutes: Option<u64>,
}
