//! The simulated coordinator's checkpoint store: completed checkpoints, and which one
//! a restore gets (the latest, or the one before when the latest is lost).

use committer::CheckpointId;

/// A completed checkpoint: the source offset and every subtask's operator state.
#[derive(Debug, Clone)]
pub struct Completed {
    pub id: CheckpointId,
    pub offset: usize,
    pub parallelism: u32,
    pub states: Vec<Vec<u8>>,
}

/// The completed checkpoints a restore may choose from: the latest and the one before.
#[derive(Debug, Default)]
pub struct History {
    pub latest: Option<Completed>,
    previous: Option<Completed>,
}

impl History {
    pub fn completed(&mut self, c: Completed) {
        self.previous = self.latest.replace(c);
    }

    /// The latest checkpoint is lost: the restore takes the one before.
    pub fn fall_back(&mut self) {
        self.latest = self.previous.take();
    }
}
