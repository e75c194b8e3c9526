//! Aimed kills: most kills wait for the run to enter the place a kill must land in
//! (the phase markers say when), then wait a random part of how long that place lasted
//! in earlier runs, so kills spread over each phase instead of piling up at its start.
//!
//! Random delays alone rarely land in a short phase (the orphan sweep lasts a few
//! milliseconds) or in one that only a fresh job has (before its first checkpoint),
//! so a harness that only drew delays said NOT VERIFIED more often than not. Aiming
//! only chooses when to kill: where the kill landed is still read from the killed
//! run's log afterwards ([`Landing::of_run`]), and only that counts.

use std::collections::BTreeMap;
use std::time::Duration;

use super::landing::Landing;
use crate::rng::Rng;

/// How the harness kills the next run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kill {
    /// Not at all: the run goes to its end.
    Never,
    /// This long after its start.
    After(Duration),
    /// `extra` after it enters `landing`; not at all if it never does.
    Aimed {
        /// Where the kill should land.
        landing: Landing,
        /// How long after entering it.
        extra: Duration,
    },
}

/// How long each landing lasted in the runs seen so far.
#[derive(Debug, Clone, Default)]
pub struct Aims {
    lengths: BTreeMap<Landing, Vec<Duration>>,
}

/// Enough lengths to know a phase's usual length, few enough to follow a change.
const KEPT: usize = 16;

impl Aims {
    /// No run seen yet: aimed kills land right at the entry.
    pub fn new() -> Self {
        Self::default()
    }

    /// A run stayed `length` in `landing`.
    pub fn observe(&mut self, landing: Landing, length: Duration) {
        let lengths = self.lengths.entry(landing).or_default();
        if lengths.len() == KEPT {
            lengths.remove(0);
        }
        lengths.push(length);
    }

    /// The kill of a run that restores a checkpoint (`restores`) or none: aimed at the
    /// least-hit measured landing this run can reach, at a random moment of its usual
    /// length. Only a run that restores nothing can land before the first checkpoint,
    /// and once a checkpoint completed no later run of the job can, so such a run aims
    /// there while that landing has fewer than `quota` kills.
    pub fn aim(
        &self,
        counts: &BTreeMap<Landing, u64>,
        quota: u64,
        restores: bool,
        rng: &mut Rng,
    ) -> Kill {
        let count = |l: &Landing| counts.get(l).copied().unwrap_or(0);
        let first = Landing::BeforeFirstCheckpoint;
        let landing = if restores {
            Landing::MEASURED
                .into_iter()
                .filter(|l| *l != first)
                .min_by_key(count)
                .unwrap_or(Landing::MidEpoch)
        } else if count(&first) < quota {
            first
        } else {
            Landing::MEASURED
                .into_iter()
                .min_by_key(count)
                .unwrap_or(first)
        };
        let usual = self
            .lengths
            .get(&landing)
            .map_or(Duration::ZERO, |lengths| {
                let mut sorted = lengths.clone();
                sorted.sort();
                sorted[sorted.len() / 2]
            });
        // Within three quarters of the usual length, so the kill mostly lands inside.
        let micros = u64::try_from(usual.as_micros() * 3 / 4).unwrap_or(u64::MAX);
        Kill::Aimed {
            landing,
            extra: Duration::from_micros(rng.between(0, micros)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aimed_at(
        aims: &Aims,
        counts: &BTreeMap<Landing, u64>,
        quota: u64,
        restores: bool,
        rng: &mut Rng,
    ) -> (Landing, Duration) {
        match aims.aim(counts, quota, restores, rng) {
            Kill::Aimed { landing, extra } => (landing, extra),
            other => panic!("not aimed: {other:?}"),
        }
    }

    #[test]
    fn aims_at_the_least_hit_reachable_landing_within_its_usual_length() {
        let mut rng = Rng::new(1);
        let mut aims = Aims::new();
        let mut counts: BTreeMap<Landing, u64> =
            Landing::MEASURED.into_iter().map(|l| (l, 3)).collect();
        counts.insert(Landing::BeforeFirstCheckpoint, 0);
        counts.insert(Landing::OrphanSweep, 1);
        // Before the first checkpoint is out of reach of a run that restores one.
        assert_eq!(
            aimed_at(&aims, &counts, 1, true, &mut rng),
            (Landing::OrphanSweep, Duration::ZERO)
        );
        let fresh = aimed_at(&aims, &counts, 1, false, &mut rng);
        assert_eq!(fresh.0, Landing::BeforeFirstCheckpoint);
        // A fresh run aims there while it is short of its quota, even when another
        // landing has fewer kills; past the quota, at the least-hit one.
        counts.insert(Landing::BeforeFirstCheckpoint, 2);
        counts.insert(Landing::MidEpoch, 0);
        let short = aimed_at(&aims, &counts, 3, false, &mut rng);
        assert_eq!(short.0, Landing::BeforeFirstCheckpoint);
        let past = aimed_at(&aims, &counts, 2, false, &mut rng);
        assert_eq!(past.0, Landing::MidEpoch);
        // Within three quarters of the usual length.
        counts.insert(Landing::MidEpoch, 3);
        for _ in 0..3 {
            aims.observe(Landing::OrphanSweep, Duration::from_millis(8));
        }
        for _ in 0..50 {
            let (landing, extra) = aimed_at(&aims, &counts, 1, true, &mut rng);
            assert_eq!(landing, Landing::OrphanSweep);
            assert!(extra <= Duration::from_millis(6), "{extra:?}");
        }
    }
}
