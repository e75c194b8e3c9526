//! The cohort pass of similarity: each graded stage of each submission compared with the
//! same stage of every other, from the fingerprints each `report.json` keeps, so it runs
//! whenever the gradebook is assembled and always over the whole `--out`. The same
//! comparison and threshold as against the reference ([`likeness`]); a pair is shown
//! when either side is flagged in the other, both ways, with its regions.
//!
//! Each stage's fingerprints are indexed once (hash to the submissions holding it), so
//! a stage costs one look-up per fingerprint and per submission sharing it, not one
//! comparison per pair; only flagged pairs are compared again for their regions.

use std::collections::{BTreeSet, HashMap};

use crate::cli::grade::intake::likeness::{self, compare};
use crate::cli::grade::model::{Likeness, Prints, SubmissionReport};

/// Two submissions whose work on one stage is alike.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerPair {
    /// The stage's number.
    pub stage: u8,
    /// The first submission, in name order.
    pub first: String,
    /// The second.
    pub second: String,
    /// The first's fingerprints found in the second's.
    pub first_in_second: Likeness,
    /// The second's found in the first's.
    pub second_in_first: Likeness,
}

impl PeerPair {
    /// The larger of the two shares.
    pub fn share(&self) -> f64 {
        self.first_in_second.share.max(self.second_in_first.share)
    }
}

/// Every pair of `reports` alike on some stage: by stage, the most alike first.
pub fn alike(reports: &[SubmissionReport]) -> Vec<PeerPair> {
    let stages: BTreeSet<u8> = reports
        .iter()
        .flat_map(|r| r.similarity.iter().map(|s| s.stage))
        .collect();
    let mut pairs = Vec::new();
    for stage in stages {
        let work: Vec<(&str, &Prints)> = reports
            .iter()
            .filter_map(|r| {
                let s = r.similarity.iter().find(|s| s.stage == stage)?;
                (!s.prints.prints.is_empty()).then_some((r.submission.as_str(), &s.prints))
            })
            .collect();
        let mut of_stage = pairs_of_stage(stage, &work);
        of_stage.sort_by(|a, b| {
            b.share()
                .total_cmp(&a.share())
                .then_with(|| (&a.first, &a.second).cmp(&(&b.first, &b.second)))
        });
        pairs.extend(of_stage);
    }
    pairs
}

/// The flagged pairs among `work` (name and fingerprints, in name order) on `stage`.
fn pairs_of_stage(stage: u8, work: &[(&str, &Prints)]) -> Vec<PeerPair> {
    let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, (_, prints)) in work.iter().enumerate() {
        for print in &prints.prints {
            let list = holders.entry(print.hash).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    // shared[i][j]: how many of i's fingerprints j holds.
    let n = work.len();
    let mut shared = vec![vec![0usize; n]; n];
    for (i, (_, prints)) in work.iter().enumerate() {
        for print in &prints.prints {
            for &j in &holders[&print.hash] {
                shared[i][j] += 1;
            }
        }
    }
    let total = |i: usize| work[i].1.prints.len();
    let mut pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if likeness::flags(shared[i][j], total(i)) || likeness::flags(shared[j][i], total(j)) {
                let ((a, a_prints), (b, b_prints)) = (work[i], work[j]);
                pairs.push(PeerPair {
                    stage,
                    first: a.to_owned(),
                    second: b.to_owned(),
                    first_in_second: compare(a_prints, b_prints, b),
                    second_in_first: compare(b_prints, a_prints, a),
                });
            }
        }
    }
    pairs
}
