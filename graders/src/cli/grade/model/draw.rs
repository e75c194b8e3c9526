//! The plan seed a submission is graded under: the run's seed mixed with a secret salt
//! drawn fresh for each submission, so that a seed known in advance forges nothing.
//!
//! A driver's code can read everything its own process holds: the request, the nonce and
//! the plan seed in it included. What it cannot know is the plan seed *before* the run,
//! since the salt is drawn in the judge's process when the submission's turn comes. So no
//! transcript recorded earlier, under `--seed` or under the seed a report shows, matches
//! the plans it meets. The plan seed is recorded, and `byo test NN --seed <plan seed>
//! --case N` replays any case exactly.

use serde::{Deserialize, Serialize};

/// How one submission's plan seed was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SeedDraw {
    /// The run's seed: `--seed`, or fresh.
    pub run_seed: u64,
    /// The salt mixed into it: fresh for every submission, or `--salt` when a recorded
    /// run is replayed.
    pub salt: u64,
}

impl SeedDraw {
    /// A draw for `run_seed` with the replay salt given, or a fresh secret one.
    pub fn new(run_seed: u64, replay_salt: Option<u64>) -> Self {
        Self {
            run_seed,
            salt: replay_salt.unwrap_or_else(fresh_salt),
        }
    }

    /// The seed every plan of the submission comes from.
    pub fn plan_seed(self) -> u64 {
        mix(self.run_seed ^ mix(self.salt))
    }
}

/// 64 bits no submission can predict: the operating system's randomness, which the
/// standard library draws for every `RandomState` (each one keyed apart).
fn fresh_salt() -> u64 {
    crate::harness::protocol::fresh_nonce()
}

/// SplitMix64's finaliser: every bit of the input moves about half the output's bits, so
/// plan seeds of one run seed under two salts share nothing a driver could use.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_seed_gives_every_submission_its_own_plans() {
        let draws: Vec<u64> = (0..64)
            .map(|_| SeedDraw::new(42, None).plan_seed())
            .collect();
        let mut distinct = draws.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), draws.len(), "a salt repeated: {draws:?}");
        assert!(
            !draws.contains(&42),
            "the run's seed itself is never the plan seed"
        );
    }

    #[test]
    fn a_recorded_salt_replays_the_same_plans() {
        let graded = SeedDraw::new(7, None);
        let replayed = SeedDraw::new(7, Some(graded.salt));
        assert_eq!(graded.plan_seed(), replayed.plan_seed());
        assert_ne!(
            SeedDraw::new(7, Some(graded.salt)).plan_seed(),
            SeedDraw::new(8, Some(graded.salt)).plan_seed(),
            "the run's seed still counts"
        );
    }
}
