//! A learner's progress, kept in `.byo/progress.json` beside the code (ignored by git).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::pipeline::StageOutcome;
use super::workspace::Root;
use crate::harness::StageStatus;
use crate::misconception::{self, Card};

/// The last verdict on a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastResult {
    /// Every check passed.
    Passed,
    /// A `todo!()` was reached.
    NotStarted,
    /// Some check failed.
    Failed,
    /// The stage did not build.
    DoesNotBuild,
}

impl LastResult {
    /// What `byo status` remembers of `outcome`: nothing for a stage with no grader yet;
    /// a stage blocked by an earlier one does not build either, and one whose grade binary
    /// could not be driven failed.
    pub fn of(outcome: &StageOutcome) -> Option<Self> {
        match outcome {
            StageOutcome::Judged(report) => Some(match report.status() {
                StageStatus::Passed => Self::Passed,
                StageStatus::NotStarted => Self::NotStarted,
                StageStatus::Failed => Self::Failed,
            }),
            StageOutcome::DoesNotBuild(_) | StageOutcome::Blocked(_) => Some(Self::DoesNotBuild),
            StageOutcome::Undriven(_) => Some(Self::Failed),
            // The machine failed, not the stage: nothing to remember.
            StageOutcome::EnvironmentFailed(_) => None,
            StageOutcome::Ungraded => None,
        }
    }
}

/// Everything `byo` remembers for a learner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The stage `byo start` last selected.
    pub current: Option<u8>,
    /// Hints revealed, by stage (`"01"`).
    #[serde(default)]
    pub hints: BTreeMap<String, usize>,
    /// The last full run's verdict, by stage (`"01"`).
    #[serde(default)]
    pub results: BTreeMap<String, LastResult>,
    /// The misconception card the last full run's report showed, by stage (`"01"`); none
    /// when it showed none.
    #[serde(default)]
    pub cards: BTreeMap<String, LastCard>,
}

/// The misconception card a stage's last full run showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastCard {
    /// The card's id ([`Card::id`]).
    pub id: String,
    /// Whether `byo hint` has offered it since.
    pub offered: bool,
}

impl Progress {
    fn file(root: &Root) -> PathBuf {
        root.progress_dir().join("progress.json")
    }

    /// The saved progress, or a fresh one when there is none yet.
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not a progress file: it is the
    /// learner's, so it is reported rather than silently replaced.
    pub fn load(root: &Root) -> Result<Self> {
        let file = Self::file(root);
        match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
                format!(
                    "{} is not a byo progress file; move it away to start afresh",
                    file.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", file.display())),
        }
    }

    /// Saves atomically (write a temporary file, then rename), so an interrupted save
    /// never leaves a half-written file behind.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, root: &Root) -> Result<()> {
        let dir = root.progress_dir();
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let file = Self::file(root);
        let temporary = dir.join("progress.json.tmp");
        let json = serde_json::to_vec_pretty(self).context("encoding progress")?;
        std::fs::write(&temporary, json)
            .with_context(|| format!("writing {}", temporary.display()))?;
        std::fs::rename(&temporary, &file).with_context(|| format!("replacing {}", file.display()))
    }

    /// The key of `stage` in the maps.
    pub fn key(stage: u8) -> String {
        format!("{stage:02}")
    }

    /// Remembers a full default run of `stage` (what `byo status` and `byo hint` read):
    /// its verdict, and the misconception card its report showed.
    pub fn record_run(&mut self, stage: u8, outcome: &StageOutcome) {
        if let Some(result) = LastResult::of(outcome) {
            let card = match outcome {
                StageOutcome::Judged(report) => misconception::likely(report),
                _ => None,
            };
            self.record(stage, result, card);
        }
    }

    /// Remembers a full run of `stage`: its verdict and the card its report showed. A card
    /// already offered stays offered while the runs keep showing it.
    pub fn record(&mut self, stage: u8, result: LastResult, card: Option<&Card>) {
        let key = Self::key(stage);
        self.results.insert(key.clone(), result);
        match card {
            Some(card) if self.cards.get(&key).is_some_and(|last| last.id == card.id) => {}
            Some(card) => {
                self.cards.insert(
                    key,
                    LastCard {
                        id: card.id.to_owned(),
                        offered: false,
                    },
                );
            }
            None => {
                self.cards.remove(&key);
            }
        }
    }

    /// The card `byo hint` should offer for `stage` before its next hint: the last run's,
    /// unless it was offered already (or is no longer in the catalogue).
    pub fn card_to_offer(&self, stage: u8) -> Option<&'static Card> {
        self.cards
            .get(&Self::key(stage))
            .filter(|last| !last.offered)
            .and_then(|last| misconception::card(&last.id))
    }

    /// Notes that `byo hint` offered the card of `stage`.
    pub fn offered(&mut self, stage: u8) {
        if let Some(last) = self.cards.get_mut(&Self::key(stage)) {
            last.offered = true;
        }
    }

    /// The current stage, 1 when none was started.
    pub fn current_or_first(&self) -> u8 {
        self.current.unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_offered_once_until_another_shows() {
        let first = misconception::card("01-clamp-past-the-end").unwrap();
        let second = misconception::card("01-filter-drops-matches").unwrap();
        let mut progress = Progress::default();
        progress.record(1, LastResult::Failed, Some(first));
        assert_eq!(progress.card_to_offer(1).map(|c| c.id), Some(first.id));
        assert!(progress.card_to_offer(2).is_none());
        progress.offered(1);
        assert!(progress.card_to_offer(1).is_none());
        progress.record(1, LastResult::Failed, Some(first));
        assert!(progress.card_to_offer(1).is_none(), "offered already");
        progress.record(1, LastResult::Failed, Some(second));
        assert_eq!(progress.card_to_offer(1).map(|c| c.id), Some(second.id));
        progress.record(1, LastResult::Passed, None);
        assert!(progress.card_to_offer(1).is_none());
        assert_eq!(progress.results["01"], LastResult::Passed);
    }

    #[test]
    fn a_run_whose_report_shows_a_card_remembers_it() {
        use crate::harness::{CaseFailure, CheckReport, Fault, StageReport};
        let report = StageReport {
            stage: 1,
            seed: 0,
            judged: 1,
            planned: 1,
            checks: vec![CheckReport {
                name: "seek-past-end".to_owned(),
                law: String::new(),
                judged: 1,
                planned: 1,
                first_failure: Some(CaseFailure {
                    index: 0,
                    case: "VecSource::new(vec![]), poll 0 time(s), then seek(1)".to_owned(),
                    fault: Fault::Wrong {
                        expected: "Err(..) naming the offset".to_owned(),
                        actual: "Ok(())".to_owned(),
                        first_wrong_step: None,
                        missing: Vec::new(),
                        extra: Vec::new(),
                        requirement: None,
                    },
                }),
            }],
            printed: Vec::new(),
            gave_up: None,
        };
        let mut progress = Progress::default();
        progress.record_run(1, &StageOutcome::Judged(report));
        assert_eq!(progress.results["01"], LastResult::Failed);
        assert_eq!(
            progress.card_to_offer(1).map(|c| c.id),
            Some("01-clamp-past-the-end")
        );
        progress.record_run(1, &StageOutcome::DoesNotBuild(String::new()));
        assert_eq!(progress.results["01"], LastResult::DoesNotBuild);
        assert!(progress.card_to_offer(1).is_none());
        progress.record_run(1, &StageOutcome::Ungraded);
        assert_eq!(progress.results["01"], LastResult::DoesNotBuild);
    }

    #[test]
    fn a_progress_file_from_before_the_cards_still_reads() {
        let old = r#"{"current": 2, "hints": {"01": 1}, "results": {"01": "passed"}}"#;
        let progress: Progress = serde_json::from_str(old).unwrap();
        assert!(progress.cards.is_empty());
        assert_eq!(progress.current, Some(2));
    }
}
