//! The stage-08 crash point × commit lag matrix summed over a cohort: how many
//! submissions fail in each cell, and how.
//!
//! Each failing stage-08 grid check's report (`checks[].failure.detail`) carries the
//! matrix of its smallest failing input as [`crate::stage08::matrix`] draws it: a header
//! of `lag N` columns, then a row per crash point (`no crash`, `after K`), each cell `ok`
//! or the failing run's anomaly code. Reading it back from `report.json` keeps the report
//! model unchanged and works on reports already written; a round-trip test pins the
//! format to the drawing function.

use std::collections::BTreeMap;

use crate::cli::grade::model::SubmissionReport;

/// The line that opens a matrix in a failure's detail.
const OPENING: &str = "crash point x commit_lag";

/// One crash point: before any (`None`), or after record `K`.
pub type CrashPoint = Option<usize>;

/// The summed matrix: per (crash point, commit lag), the submissions failing there and
/// how many times each anomaly code was seen.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CohortMatrix {
    /// The commit lags of the columns, in order.
    pub lags: Vec<usize>,
    /// Per cell: the submissions failing in it (each counted once), and the codes.
    pub cells: BTreeMap<(CrashPoint, usize), Cell>,
    /// The submissions whose stage-08 reports carry a matrix at all.
    pub submissions: usize,
}

/// One cell of the summed matrix.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The submissions failing in this cell.
    pub failing: Vec<String>,
    /// Each anomaly code seen here, with how often.
    pub codes: BTreeMap<String, usize>,
}

impl CohortMatrix {
    /// Every crash point any matrix has a row for, `no crash` first.
    pub fn crash_points(&self) -> Vec<CrashPoint> {
        let mut points: Vec<CrashPoint> = self.cells.keys().map(|(c, _)| *c).collect();
        points.sort();
        points.dedup();
        points
    }
}

/// The parsed matrix of one failure: every cell's code, by (crash point, lag).
pub fn parse(detail: &str) -> Option<BTreeMap<(CrashPoint, usize), String>> {
    let mut lines = detail.lines().skip_while(|l| !l.contains(OPENING)).skip(1);
    let lags: Vec<usize> = lines
        .next()?
        .split_whitespace()
        .filter(|w| *w != "lag")
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    let mut cells = BTreeMap::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (crash, codes) = match words.as_slice() {
            ["no", "crash", codes @ ..] => (None, codes),
            ["after", k, codes @ ..] => (Some(k.parse().ok()?), codes),
            _ => break,
        };
        if codes.len() != lags.len() {
            return None;
        }
        for (lag, code) in lags.iter().zip(codes) {
            cells.insert((crash, *lag), (*code).to_owned());
        }
    }
    (!cells.is_empty()).then_some(cells)
}

/// The cohort's stage-08 matrix: a cell counts a submission when any of its stage-08
/// failures fails there.
pub fn summed(reports: &[SubmissionReport]) -> CohortMatrix {
    let mut sum = CohortMatrix::default();
    for report in reports {
        let mut mine: BTreeMap<(CrashPoint, usize), Vec<String>> = BTreeMap::new();
        let matrices = report
            .stages
            .iter()
            .filter(|s| s.stage == 8)
            .flat_map(|s| &s.checks)
            .filter_map(|c| c.failure.as_ref())
            .filter_map(|f| parse(&f.detail));
        let mut any = false;
        for matrix in matrices {
            any = true;
            for (cell, code) in matrix {
                if !sum.lags.contains(&cell.1) {
                    sum.lags.push(cell.1);
                }
                let codes = mine.entry(cell).or_default();
                if code != "ok" {
                    codes.push(code);
                }
            }
        }
        sum.submissions += usize::from(any);
        for (at, codes) in mine {
            let cell = sum.cells.entry(at).or_default();
            if !codes.is_empty() {
                cell.failing.push(report.submission.clone());
            }
            for code in codes {
                *cell.codes.entry(code).or_default() += 1;
            }
        }
    }
    sum.lags.sort_unstable();
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage08::{Anomaly, CellFailure, MAX_LAG, matrix};

    fn failing(anomaly: Anomaly) -> Result<(), CellFailure> {
        Err(CellFailure {
            anomaly,
            step: String::new(),
        })
    }

    #[test]
    fn the_drawn_matrix_reads_back_cell_by_cell() {
        // Three records: no crash and after 0..=3, each at every lag.
        let rows = 5;
        let mut verdicts: Vec<Result<(), CellFailure>> = vec![Ok(()); rows * (MAX_LAG + 1)];
        verdicts[2 * (MAX_LAG + 1)] = failing(Anomaly::Duplicate); // after 1, lag 0
        verdicts[rows * (MAX_LAG + 1) - 1] = failing(Anomaly::LostRecord); // after 3, last lag
        let detail = format!(
            "first wrong step\n{}\n      see it: ...",
            matrix(3, &verdicts)
        );
        let cells = parse(&detail).expect("a matrix");
        assert_eq!(cells.len(), rows * (MAX_LAG + 1));
        assert_eq!(cells[&(None, 0)], "ok");
        assert_eq!(cells[&(Some(1), 0)], "DUP");
        assert_eq!(cells[&(Some(3), MAX_LAG)], "LOST");
        assert_eq!(parse("no matrix here"), None);
    }
}
