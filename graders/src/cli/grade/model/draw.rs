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

    /// The run seed of the submission named `name` under `--seed-per-student`: the run's
    /// seed mixed with the name, so that even a replay under one `--salt` gives every
    /// student other plans, and the same student the same ones.
    pub fn student_seed(run_seed: u64, name: &str) -> u64 {
        // FNV-1a: a hash that does not change with the standard library's version.
        let name = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        mix(run_seed ^ mix(name))
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
    fn a_student_seed_is_the_student_s_own_and_stays_so() {
        let ada = SeedDraw::student_seed(7, "ada");
        assert_eq!(ada, SeedDraw::student_seed(7, "ada"));
        assert_ne!(ada, SeedDraw::student_seed(7, "bob"));
        assert_ne!(ada, SeedDraw::student_seed(8, "ada"));
        let replay = |name| SeedDraw::new(SeedDraw::student_seed(7, name), Some(3)).plan_seed();
        assert_ne!(
            replay("ada"),
            replay("bob"),
            "one salt, two students, two plans"
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
