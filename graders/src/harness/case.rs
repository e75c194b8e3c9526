//! Cases, the checks they belong to, and the failures a judge explains.

use std::fmt;

/// A named law a stage is graded on, e.g. "seek then drain yields the suffix".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Check {
    /// Short identifier, stable across versions (used in reports and gradebooks).
    pub name: &'static str,
    /// The law, in one sentence.
    pub law: &'static str,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// One case of a plan.
pub trait Case {
    /// The check this case exercises.
    fn check(&self) -> Check;
    /// The case in the stage's own terms, for a report ("input [3, 1], seek to 1").
    fn describe(&self) -> String;
    /// The ids of the brief's requirements (`03-R7`, see [`super::requirements`]) that
    /// this case can find broken. `tests/traceability.rs` asserts that under every seed
    /// the plan reaches every requirement of the brief.
    fn requirements(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// What a judge found wrong with one observation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Failure {
    /// What the laws demanded.
    pub expected: String,
    /// What came out.
    pub actual: String,
    /// The first step at which the run went wrong, when the judge can tell.
    pub first_wrong_step: Option<String>,
    /// For multisets: records that should have come out and did not.
    pub missing: Vec<String>,
    /// For multisets: records that came out more often than they should.
    pub extra: Vec<String>,
    /// The id of the brief's requirement that was broken (`03-R7`), when one is.
    pub requirement: Option<&'static str>,
}

impl Failure {
    /// A failure that shows `expected` beside `actual`.
    pub fn new(expected: impl Into<String>, actual: impl Into<String>) -> Self {
        Self {
            expected: expected.into(),
            actual: actual.into(),
            ..Self::default()
        }
    }

    /// Names the requirement of the brief that the observation broke (`03-R7`).
    #[must_use]
    pub fn requirement(mut self, id: &'static str) -> Self {
        self.requirement = Some(id);
        self
    }

    /// A contract record with `recorded` entries where its driver makes `due`: one the
    /// driver cannot have made (it stops early only at an answer the judge rejects), so
    /// none of its answers can be trusted. Judges check the length before they walk a
    /// record, so that a short one is never taken for a complete one.
    pub fn incomplete_record(due: usize, recorded: usize) -> Self {
        Self::new(
            format!("{due} entries, one per read"),
            format!("{recorded} entries"),
        )
        .step("the run's record is incomplete: its driver stops early only at an answer that fails")
    }

    /// Names the first wrong step.
    #[must_use]
    pub fn step(mut self, step: impl Into<String>) -> Self {
        self.first_wrong_step = Some(step.into());
        self
    }

    /// Adds the multiset difference between expected and actual records.
    #[must_use]
    pub fn multiset<T: fmt::Debug + Ord + Clone>(mut self, expected: &[T], actual: &[T]) -> Self {
        let diff = super::diff::multiset_diff(expected, actual);
        self.missing = diff.missing.iter().map(|r| format!("{r:?}")).collect();
        self.extra = diff.extra.iter().map(|r| format!("{r:?}")).collect();
        if self.missing.is_empty() && self.extra.is_empty() && expected != actual {
            // Nothing missing and nothing extra: name it as what it is.
            const WRONG_ORDER: &str = "the right elements in the wrong order";
            self.first_wrong_step = Some(match self.first_wrong_step.take() {
                Some(step) if step.contains("wrong order") => step,
                Some(step) => format!("{step}: {WRONG_ORDER}"),
                None => WRONG_ORDER.to_owned(),
            });
        }
        self
    }
}

/// Compares two sequences; on a difference, a failure naming the first index that differs.
///
/// # Errors
/// When the sequences differ.
pub fn expect_sequence<T: fmt::Debug + PartialEq + Ord + Clone>(
    what: &str,
    expected: &[T],
    actual: &[T],
) -> Result<(), Failure> {
    if expected == actual {
        return Ok(());
    }
    let first = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()));
    let step = match (expected.get(first), actual.get(first)) {
        (Some(e), Some(a)) => format!("{what}[{first}] is {a:?}, expected {e:?}"),
        (Some(e), None) => {
            let items = if first == 1 { "item" } else { "items" };
            format!("{what} stops after {first} {items}; item {first} should be {e:?}")
        }
        (None, Some(a)) => format!("{what} has an extra item at {first}: {a:?}"),
        (None, None) => unreachable!("sequences of equal length that differ differ somewhere"),
    };
    Err(Failure::new(
        format!("{what} = {expected:?}"),
        format!("{what} = {actual:?}"),
    )
    .step(step)
    .multiset(expected, actual))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordering_mistake_reads_as_the_right_elements_in_the_wrong_order() {
        let failure = expect_sequence("output", &[1, 2, 3], &[1, 3, 2]).unwrap_err();
        assert_eq!(
            failure.first_wrong_step.as_deref(),
            Some("output[1] is 3, expected 2: the right elements in the wrong order")
        );
        assert!(failure.missing.is_empty() && failure.extra.is_empty());
        let lost = expect_sequence("output", &[1, 2], &[1]).unwrap_err();
        assert_eq!(
            lost.first_wrong_step.as_deref(),
            Some("output stops after 1 item; item 1 should be 2")
        );
    }
}
