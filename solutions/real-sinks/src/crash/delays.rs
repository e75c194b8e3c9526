//! Kill delays that adapt to where kills land: a category that is rarely hit (the orphan
//! sweep is a few milliseconds long) is aimed at with the delays that hit it before,
//! and while a category was never hit the range widens, so a slow start (a debug build,
//! a high parallelism) cannot eat every kill.

use std::collections::BTreeMap;

use super::landing::Landing;
use crate::rng::Rng;

/// The delay chooser.
#[derive(Debug, Clone)]
pub struct AdaptiveDelays {
    min: u64,
    max: u64,
    ceiling: u64,
    hits: BTreeMap<Landing, Vec<u64>>,
}

impl AdaptiveDelays {
    /// Delays between `min` and `max` ms at first; the range may widen to 20 × `max`.
    pub fn new(min: u64, max: u64) -> Self {
        Self {
            min,
            max: max.max(min),
            ceiling: max.max(min).max(1) * 20,
            hits: BTreeMap::new(),
        }
    }

    /// How many kills landed in each category so far.
    pub fn counts(&self) -> BTreeMap<Landing, u64> {
        self.hits
            .iter()
            .map(|(landing, delays)| (*landing, delays.len() as u64))
            .collect()
    }

    /// Records that a kill after `delay` ms landed in `landing`.
    pub fn record(&mut self, delay: u64, landing: Landing) {
        self.hits.entry(landing).or_default().push(delay);
        let missing = Landing::MEASURED.iter().any(|l| !self.hits.contains_key(l));
        if landing == Landing::Starting && missing {
            self.max = (self.max + self.max / 2 + 1).min(self.ceiling);
        }
    }

    /// The next delay. One kill in three aims at the least-hit measured category with a
    /// delay that hit it before (±25 %); one in three, while a category was never hit,
    /// aims just past the latest kill that landed before the run opened (recovery, the
    /// sweep and the first epoch all follow the start closely); the rest are uniform over
    /// the current range.
    pub fn next(&self, rng: &mut Rng, kill: u64) -> u64 {
        let count = |l: &Landing| self.hits.get(l).map_or(0, Vec::len);
        let rarest = Landing::MEASURED.iter().min_by_key(|l| count(l));
        let aimed = rarest
            .and_then(|l| self.hits.get(l))
            .filter(|d| !d.is_empty());
        let unseen = Landing::MEASURED.iter().any(|l| count(l) == 0);
        let start = self
            .hits
            .get(&Landing::Starting)
            .and_then(|d| d.iter().max().copied());
        match (kill % 3, aimed, start) {
            (1, Some(delays), _) => {
                let base = delays[rng.between(0, delays.len() as u64 - 1) as usize];
                rng.between(base - base / 4, base + base / 4).max(self.min)
            }
            (2, _, Some(base)) if unseen => rng.between(base, base + base / 2 + 2),
            _ => rng.between(self.min, self.max),
        }
    }
}
