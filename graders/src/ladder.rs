//! The ladder: every stage's number, slug and title, as data only.
//!
//! The harness and the report read the ladder (a report's title, a folder's name); they
//! never reach the stage graders, which live behind the registry in [`crate::stages`].

/// One rung of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageInfo {
    /// 1..=8.
    pub number: u8,
    /// The folder suffix, e.g. `dataflow` in `stages/01-dataflow`.
    pub slug: &'static str,
    /// What the stage is about.
    pub title: &'static str,
}

/// Every stage of the kata, in order.
pub const LADDER: [StageInfo; 8] = [
    info(1, "dataflow", "sources, operators, sinks"),
    info(2, "keyed-state", "keyed streams and per-key state"),
    info(3, "parallelism", "key groups, partitioning, rescaling"),
    info(4, "event-time", "timestamps and watermarks"),
    info(5, "windows", "event-time windows fired by watermarks"),
    info(6, "barriers", "checkpoint barriers and alignment"),
    info(
        7,
        "exactly-once-state",
        "checkpoint, crash, restore, replay",
    ),
    info(
        8,
        "transactional-sink",
        "two-phase commit, end-to-end exactly-once",
    ),
];

const fn info(number: u8, slug: &'static str, title: &'static str) -> StageInfo {
    StageInfo {
        number,
        slug,
        title,
    }
}

impl StageInfo {
    /// `NN-slug`, the folder name under `stages/`, `solutions/`.
    pub fn folder(&self) -> String {
        format!("{:02}-{}", self.number, self.slug)
    }

    /// The learner crate's package name.
    pub fn learner_crate(&self) -> String {
        format!("stage{:02}", self.number)
    }

    /// The reference crate's package name.
    pub fn reference_crate(&self) -> String {
        format!("solution{:02}", self.number)
    }
}

/// The stage with this number.
pub fn get(number: u8) -> Option<&'static StageInfo> {
    LADDER.iter().find(|s| s.number == number)
}

/// `stage 01 · dataflow` (or `stage NN` for a number off the ladder).
pub fn title(number: u8) -> String {
    match get(number) {
        Some(stage) => format!("stage {:02} · {}", stage.number, stage.slug),
        None => format!("stage {number:02}"),
    }
}
